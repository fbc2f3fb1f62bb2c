"""Public pages (no login) and exports. Only released rounds are shown; the ranking is the latest
published snapshot, with a notice when entries were saved after it (see ``tournaments.standings.rankings``).
The pages every phone polls (home, ranking, player, hall screen, printable ranking) are in ``pages.py``,
rendered once per published state.

Organizer-only pages live here too because they print or act on the same data: the score sheets
per table and the round draw (seating) with manual swaps.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.common.csv_safe import SafeWriter
from tournaments.event import permissions
from tournaments.event.models import Round, Tournament
from tournaments.public import hall, queries
from tournaments.standings import rankings

REFRESH_DEFAULT = 10


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("no such public tournament")
    return tournament


def _released_round(tournament: Tournament, number: int) -> Round:
    rnd = rankings.released_rounds(tournament).filter(number=number).first()
    if rnd is None:
        raise Http404("this round is not released")
    return rnd


def _csv_response(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV that French Excel opens as columns: UTF-8 with a byte-order mark, ``;`` between cells (the
    decimal comma makes ``,`` the list separator of a French spreadsheet)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # so that spreadsheet programs read UTF-8
    return response, SafeWriter(response, delimiter=";")  # names and clubs cannot become spreadsheet formulas


def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    ranking = queries.ranking(tournament, "fr")
    response, writer = _csv_response(f"{tournament.slug}-classement.csv")
    snap = ranking.snapshot
    writer.writerow(["Rang", "Ex aequo", "Joueur", "Club", *[str(label) for _c, label in ranking.columns],
                     "Abandon", "Explication"])
    for row in ranking.rows:
        writer.writerow([row.rank or "", "oui" if row.shared else "non", row.name, row.club, *row.values,
                         "oui" if row.withdrawn else "non", row.explain])
    if ranking.team_rows:
        writer.writerow([])
        writer.writerow(["Rang", "Ex aequo", "Équipe", "", *[str(label) for _c, label in ranking.team_columns],
                         "", "Explication"])
        for row in ranking.team_rows:
            writer.writerow([row.rank, "oui" if row.shared else "non", row.name, "", *row.values, "", row.explain])
    if snap is not None:
        writer.writerow([])
        writer.writerow(["Version du classement", snap.input_version, "À jour", "oui" if ranking.up_to_date else "non"])
    return response


def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    rnd = _released_round(tournament, number)
    return render(request, "public/round.html", {"tournament": tournament, "round": rnd,
                                                 "tables": queries.round_results(rnd),
                                                 "rounds": rankings.released_rounds(tournament)})


def results_print(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    rounds = [(rnd, queries.round_results(rnd)) for rnd in rankings.released_rounds(tournament)]
    return render(request, "public/results_print.html", {"tournament": tournament, "rounds": rounds})


#: a deal's status as a spreadsheet shows it
DEAL_STATUS_FR = {"valid": "valide", "pending": "en attente du visa", "annulled": "annulée"}


def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    response, writer = _csv_response(f"{tournament.slug}-resultats.csv")
    writer.writerow(["Manche", "Table", "Donne", "État", "Place", "Joueur", "Points"])
    for rnd in rankings.released_rounds(tournament):
        for result in queries.round_results(rnd):
            for number, status, points in result.deals:
                for seat, (name, value) in enumerate(zip(result.names, points, strict=True)):
                    writer.writerow([rnd.number, result.table.number, number, DEAL_STATUS_FR.get(status, status),
                                     seat + 1, name, "" if value is None else value])
            for seat, (name, value) in enumerate(zip(result.names, result.adjustments, strict=True)):
                if value:
                    writer.writerow([rnd.number, result.table.number, "décision d'arbitrage", "valide", seat + 1,
                                     name, value])
    return response


def _every(request: HttpRequest) -> int:
    try:
        return min(max(int(request.GET.get("every", REFRESH_DEFAULT)), 1), 120)
    except ValueError:
        return REFRESH_DEFAULT


def screen_seating(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: where each player sits this round, by name."""
    return hall.seating(request, _tournament(request, slug), _every(request) * 2)


def screen_clock(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: the round clock (``?stay=1``: the clock alone, no rotation)."""
    return hall.clock(request, _tournament(request, slug), _every(request) * 2)


# -- organizer -------------------------------------------------------------------------------------


def _managed(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.is_staff_of(request.user, tournament):
        raise Http404("not a tournament you run")
    return tournament


@login_required
def score_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Print-ready score sheets, one per table: the players in order of play and a line per deal."""
    tournament = _managed(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    tables = list(rnd.tables.prefetch_related("seats__entry__player").order_by("number"))
    lines = range(1, (tournament.deals_per_round or 5) + 1) if not tournament.is_match_game else range(1, 13)
    return render(request, "public/score_sheets.html", {"tournament": tournament, "round": rnd, "tables": tables,
                                                        "lines": lines})


@login_required
@require_http_methods(["GET", "POST"])
def round_draw(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Draw the seating of a round (rotation, random, ranking, Swiss), swap two players, see repeats."""
    from tournaments.common.errors import ServiceError
    from tournaments.standings import draw as seating_service

    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_manage(request.user, tournament):
        raise Http404("not a tournament you run")
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "swap":
                seating_service.round_swap(round=rnd, a=int(request.POST["a"]), b=int(request.POST["b"]))
                messages.success(request, _("Players swapped."))
            else:
                seating_service.round_draw(round=rnd, method=request.POST.get("method", "rotation"),
                                           seed=int(request.POST.get("seed") or 0))
                messages.success(request, _("Draw done."))
        except (ServiceError, ValueError, KeyError) as exc:
            messages.error(request, str(getattr(exc, "message", exc)))
        return redirect("round_changes", slug=slug, number=number)
    # the seats of a round are changed by name on the organizer's page (tournaments/views/middle.py)
    return redirect("round_changes", slug=slug, number=number)
