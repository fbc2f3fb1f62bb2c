"""Pages anyone may read: the list of tournaments, a tournament, a round (released rounds for the public)."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.common import games
from tournaments.common.access import guarded, require_visible
from tournaments.duplicate.results import sat_out, setup_of
from tournaments.event import permissions
from tournaments.event.clock import clock_of
from tournaments.event.models import Round, Tournament
from tournaments.event.setup import TRANSITIONS
from tournaments.operations.backup import backup_latest
from tournaments.organizer.backups import ago, can_backup
from tournaments.organizer.forms import DrawForm
from tournaments.organizer.views import BY_HAND_MAX, seated_by_hand, seating_form_for
from tournaments.seasons import service as season_service
from tournaments.standings import draw as seating_service


def home(request: HttpRequest) -> HttpResponse:
    """The tournaments this visitor may read: the public ones, and every one where they have a role."""
    tournaments = (permissions.visible_tournaments(request.user)
                   .annotate(entry_count=Count("entries", distinct=True))
                   .order_by("-created_at", "id"))
    return render(request, "tournaments/home.html", {
        "tournaments": tournaments,
        "can_create": permissions.can_create_tournament(request.user),
        "can_backup": can_backup(request.user),
        "can_seasons": season_service.clubs_managed(request.user).exists()
        or season_service.groupings_managed(request.user).exists(),
    })


@guarded
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    require_visible(request, permissions.can_view_tournament(request.user, tournament))
    rounds = (permissions.visible_rounds(request.user, tournament)
              .annotate(table_count=Count("tables", distinct=True)).order_by("number"))
    can_manage = permissions.can_manage(request.user, tournament)
    last_backup = backup_latest() if can_manage else None
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament,
        "rounds": rounds,
        "roles": permissions.roles_of(request.user, tournament),
        "can_manage": can_manage,
        "is_staff": permissions.is_staff_of(request.user, tournament),
        # the organizer sees when the last backup was taken; the site's staff may open the backups page
        "last_backup": last_backup,
        "last_backup_ago": ago(last_backup.taken_at) if last_backup else "",
        "can_backup": can_backup(request.user),
        "released_rounds": [r for r in rounds if r.released or r.number <= tournament.released_round],
        "status_moves": [(value, label, Tournament.Status.values.index(value)
                          < Tournament.Status.values.index(tournament.status))
                         for value, label in Tournament.Status.choices if value in TRANSITIONS[tournament.status]],
    })


def _side_starts(tournament: Tournament, size: int) -> frozenset[int]:
    """The seats where a side begins, but the first, when the sides at a table of ``size`` are blocks of
    seats in the order of play (Triomphe par équipes: partners side by side); empty otherwise."""
    sides = games.partnerships(tournament, size)
    if not sides or any(list(side) != list(range(side[0], side[0] + len(side))) for side in sides):
        return frozenset()
    return frozenset(side[0] for side in sides[1:])


@guarded
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)
    require_visible(request, permissions.can_view_round(request.user, rnd))
    tables = (rnd.tables.select_related("forfeit").prefetch_related("seats__entry__player")
              .annotate(deal_count=Count("deals")))
    can_manage = permissions.can_manage(request.user, rnd.tournament)
    is_staff = permissions.is_staff_of(request.user, rnd.tournament)
    for table in tables:  # « contre » before each side but the first, where partners sit side by side
        table.versus = _side_starts(rnd.tournament, len(table.seats.all()))
    duplicate = setup_of(rnd.tournament) is not None  # seated by the movement: no ordinary draw
    # deals entered: the seating is fixed (the services refuse a draw or a new seating), so neither is offered
    fixed = can_manage and any(t.deal_count for t in tables)
    by_hand = can_manage and not fixed and seated_by_hand(rnd)
    return render(request, "tournaments/round_detail.html", {
        "seating_fixed": fixed,
        "duplicate": duplicate,
        "byes": [e.player.name for e in sat_out(rnd.tournament, [rnd.number]).get(rnd.number, [])] if duplicate
        else [],
        "tournament": rnd.tournament,
        "round": rnd,
        "tables": tables,
        "can_manage": can_manage,
        "released": permissions.round_is_released(rnd),
        "seating_form": seating_form_for(rnd) if by_hand else None,
        "by_hand_max": BY_HAND_MAX if can_manage and not fixed and not by_hand else None,
        "clock": clock_of(rnd) if can_manage else None,
        "draw_form": DrawForm(methods=seating_service.methods_for(rnd.tournament),
                              table_size=seating_service.table_size(rnd.tournament))
        if can_manage and not duplicate and not fixed else None,
        # the tables the draw will make, or why it cannot, told before the organizer draws
        "draw_forecast": seating_service.draw_forecast(round=rnd) if can_manage and not duplicate and not fixed
        else None,
        "repeats": seating_service.round_repeats(round=rnd) if is_staff else None,
    })
