"""The organizer's extra pages: the automatic draw of a round, teams and
withdrawals. Writes are calls to services; the views only
gather fields and say what the service answered.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.common.access import guarded, require
from tournaments.common.collation import french_sorted
from tournaments.common.errors import ServiceError, sentence
from tournaments.event import middle, permissions
from tournaments.event.models import Entry, Round, Team, Tournament
from tournaments.event.setup import team_create
from tournaments.event.teams import entry_set_withdrawn, team_delete, team_set_members
from tournaments.organizer.forms import DrawForm, TeamForm
from tournaments.standings import draw as seating_service


def _error(request: HttpRequest, exc: ServiceError) -> None:
    messages.error(request, sentence(exc))


# -- the draw --------------------------------------------------------------------------------------

@guarded
@require_POST
def round_draw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Seat every table of the round at once with ``seating_service.round_draw``; the round page then
    shows the tables and the meetings report (pairs seated together more than once)."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    form = DrawForm(request.POST, methods=seating_service.methods_for(rnd.tournament))
    if not form.is_valid():
        messages.error(request, _("Choose a draw method."))
        return redirect("round_detail", slug=slug, number=number)
    if rnd.number == 1 and rnd.tournament.separate_clubs != bool(request.POST.get("separate_clubs")):
        rnd.tournament.separate_clubs = bool(request.POST.get("separate_clubs"))
        rnd.tournament.save(update_fields=["separate_clubs", "updated_at"])
    try:
        tables = seating_service.round_draw(round=rnd, method=form.cleaned_data["method"],
                                            seed=form.cleaned_data.get("seed") or 0)
    except ServiceError as exc:
        _error(request, exc)
    else:
        repeats = seating_service.round_repeats(round=rnd)
        # a bye is a table of one seat, not a table: « 2 tables, Paul exempt », never « 3 tables »
        byes = [t for t in tables if t.seats.count() == 1]
        played = len(tables) - len(byes)
        messages.success(request, ngettext("Tirage fait : %(n)s table.", "Tirage fait : %(n)s tables.", played)
                         % {"n": played})
        if byes:
            names = ", ".join(s.entry.player.name for t in byes for s in t.seats.select_related("entry__player"))
            messages.info(request, ngettext("Exempt à cette manche : %(names)s.", "Exempts à cette manche : %(names)s.",
                                            len(byes)) % {"names": names})
        if repeats:
            messages.warning(request, _("%(n)s repeated meetings: see the report below.") % {"n": len(repeats)})
        unchecked = middle.unchecked_for(rnd)
        if unchecked:  # the arrivals page is in use: those it has not seen are seated all the same
            messages.warning(request, ngettext(
                "Placé sans être pointé à l'accueil : %(names)s. S'il n'est pas là, déclarez son abandon à "
                "l'accueil des joueurs : sa table jouera un joueur de moins.",
                "Placés sans être pointés à l'accueil : %(names)s. S'ils ne sont pas là, déclarez leur abandon à "
                "l'accueil des joueurs : leurs tables joueront un joueur de moins.", len(unchecked))
                % {"names": ", ".join(unchecked)})
    return redirect("round_detail", slug=slug, number=number)


# -- teams and withdrawals -------------------------------------------------------------------------

def _entry_choices(tournament: Tournament) -> list[tuple[int, str]]:
    return [(e.pk, e.player.name + (f" — {e.team.name}" if e.team_id else ""))
            for e in french_sorted(tournament.entries.select_related("player", "team"), key=lambda e: e.player.name)]


@guarded
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    """Create teams, set their members, remove them; withdraw a player or bring them back."""
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_manage(request.user, tournament))
    action = request.POST.get("action") if request.method == "POST" else None
    form = TeamForm(request.POST if action == "create" else None, entries=_entry_choices(tournament))
    if request.method == "POST":
        try:
            if action == "create":
                if form.is_valid():
                    members = Entry.objects.filter(tournament=tournament, pk__in=form.cleaned_data["members"])
                    team = team_create(tournament=tournament, name=form.cleaned_data["name"], entries=members)
                    messages.success(request, _("Team %(name)s created.") % {"name": team.name})
                    return redirect("teams", slug=slug)
            elif action in ("members", "delete"):
                team = get_object_or_404(Team, pk=request.POST.get("team"), tournament=tournament)
                if action == "members":
                    team_set_members(team=team, entries=request.POST.getlist("members"))
                    messages.success(request, _("Members of %(name)s saved.") % {"name": team.name})
                else:
                    team_delete(team=team)
                    messages.success(request, _("Team %(name)s removed.") % {"name": team.name})
                return redirect("teams", slug=slug)
            elif action in ("withdraw", "reinstate"):
                entry = get_object_or_404(Entry.objects.select_related("player"), pk=request.POST.get("entry"),
                                          tournament=tournament)
                entry_set_withdrawn(entry=entry, withdrawn=action == "withdraw")
                messages.success(request, (_("%(name)s has withdrawn.") if action == "withdraw"
                                           else _("%(name)s is back.")) % {"name": entry.player.name})
                return redirect("teams", slug=slug)
        except (ServiceError, ValueError) as exc:
            if isinstance(exc, ServiceError) and action == "create":
                form.add_error("name" if exc.field == "name" else None, exc.message)
            else:
                messages.error(request, getattr(exc, "message", str(exc)))
    entries = french_sorted(tournament.entries.select_related("player", "team"), key=lambda e: e.player.name)
    team_list = [{"team": t, "members": [e for e in entries if e.team_id == t.pk]}
                 for t in tournament.teams.order_by("name")]
    return render(request, "tournaments/teams.html", {
        "tournament": tournament, "form": form, "teams": team_list, "entries": entries,
        "teams_format": tournament.format == Tournament.Format.TEAMS,
    })
