"""Public pages (no login) and exports: the round results, the printable results, the CSV files. Only released
rounds are shown; the ranking is the latest published snapshot, with a notice when entries were saved after it
(see ``tournaments.standings.rankings``). Like the pages every phone polls (``pages.py``), each is rendered once
per published state and served from the cache with an ETag (:func:`published.respond`); those that read the
deals themselves (round results, results CSV) are keyed by the ranking clock's version too, which every change
of a score bumps. The results CSV, as big as the event, is a kept download instead (:mod:`downloads`): rendered
by a worker once per published state and served as a file, never rendered in the request; so is the ranking CSV
(written at publication).

Organizer-only pages live here too because they print or act on the same data: the score sheets
per table (kept per seating of the round) and the round draw (seating) with manual swaps.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.common import downloads
from tournaments.common.access import lang_of
from tournaments.common.csv_safe import SafeWriter
from tournaments.duplicate.results import sat_out
from tournaments.event import permissions
from tournaments.event.models import Round, Table, Tournament
from tournaments.public import hall, pdf, preparing, published, queries
from tournaments.public.pages import html, state_of
from tournaments.standings import rankings

REFRESH_DEFAULT = 10
#: tables on one page of a round's results (200 players at Tarot): a 10,000-player round is 50 pages
TABLES_PER_PAGE = 50
#: beyond this many tables in all, the printable results send the reader to each round's pages instead
PRINT_TABLES_MAX = 400

Page = tuple[str, Callable[[], str]]


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


def _page(request: HttpRequest) -> int:
    try:
        return min(max(int(request.GET.get("page", 1)), 1), 10**6)
    except ValueError:
        return 1


def _csv(write: Callable[[SafeWriter], None]) -> str:
    """A CSV that French Excel opens as columns: UTF-8 with a byte-order mark, ``;`` between cells (the
    decimal comma makes ``,`` the list separator of a French spreadsheet)."""
    out = io.StringIO()
    out.write("\ufeff")  # so that spreadsheet programs read UTF-8
    write(SafeWriter(out, delimiter=";"))  # names and clubs cannot become spreadsheet formulas
    return out.getvalue()


CSV = "text/csv; charset=utf-8"


# -- ranking CSV -------------------------------------------------------------------------------------


def ranking_csv_page(state: published.Published) -> Page:
    """The ranking as a French spreadsheet (the same in every language)."""
    etag = published.validator(state, "fr", "ranking.csv")

    def render() -> str:
        whole = state.whole()
        ranking = queries.ranking(whole.tournament, "fr", whole.status)

        def write(writer: SafeWriter) -> None:
            snap = ranking.snapshot
            # the numbers bare for the spreadsheet, a percentage's unit in its header (« Résultat (%) »)
            writer.writerow(["Rang", "Ex aequo", "Joueur", "Club",
                             *[f"{label} (%)" if c in ranking.percent else str(label) for c, label in ranking.columns],
                             "Abandon", "Explication"])
            for row in ranking.rows:
                writer.writerow([row.rank or "", "oui" if row.shared else "non", row.name, row.club, *row.figures,
                                 "oui" if row.withdrawn else "non", row.explain])
            if ranking.team_rows:
                writer.writerow([])
                writer.writerow(["Rang", "Ex aequo", "Équipe", "",
                                 *[str(label) for _c, label in ranking.team_columns], "", "Explication"])
                for row in ranking.team_rows:
                    writer.writerow([row.rank, "oui" if row.shared else "non", row.name, "", *row.figures, "",
                                     row.explain])
            if snap is not None:
                writer.writerow([])
                writer.writerow(["Version du classement", snap.input_version, "À jour",
                                 "oui" if ranking.up_to_date else "non"])

        return _csv(write)

    return etag, render


def ranking_csv_download(state: published.Published, private: bool = False) -> tuple[downloads.Download,
                                                                                    Callable[[], str]]:
    """The ranking CSV of ``state`` as a kept download (:mod:`downloads`): written at publication
    (:func:`tasks.render_published`) or by a worker on the first request, never rendered in the request (10,000
    lines with their explanations), and its render."""
    etag, render = ranking_csv_page(state)
    t = state.tournament
    return downloads.Download("ranking.csv", t.pk, t.slug, etag, f"{t.slug}-classement.csv", CSV,
                              "Le classement", private=private), render


def ranking_csv(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    return preparing.serve(request, state, ranking_csv_download(state, private)[0])


# -- a round's results, in pages ---------------------------------------------------------------------


def round_page(state: published.Published, lang: str, number: int, page: int = 1) -> Page:
    """Page ``page`` of round ``number``'s results (a 404 when the round is not released)."""
    etag = published.validator(state, lang, "round", (number, page, state.version))

    def render() -> str:
        whole = state.whole()
        tournament = whole.tournament
        rnd = _released_round(tournament, number)
        count = rnd.tables.count()
        pages = max((count + TABLES_PER_PAGE - 1) // TABLES_PER_PAGE, 1)
        current = min(page, pages)
        first = (current - 1) * TABLES_PER_PAGE
        base = reverse("public-round", args=[tournament.slug, number])
        return html("public/round.html", {
            "tournament": tournament, "round": rnd, "rounds": rankings.released_rounds(tournament),
            "tables": queries.round_results(rnd, first, TABLES_PER_PAGE),
            "byes": [e.player.name for e in sat_out(tournament, [number]).get(number, [])],
            "page": current, "pages": pages, "first": first + 1, "last": min(first + TABLES_PER_PAGE, count),
            "count": count, "next_url": base + (f"?page={current}" if current > 1 else ""),
            "prev_url": base + (f"?page={current - 1}" if current > 2 else "") if current > 1 else "",
            "next_page_url": f"{base}?page={current + 1}" if current < pages else "",
            "pdf_parts": pdf.parts_links("print-round-results", [tournament.slug, number],
                                         pdf.parts(count, pdf.RESULTS_TABLES_PER_PART))})

    return etag, render


def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state, private = state_of(request, slug)
    etag, render = round_page(state, lang_of(request), number, _page(request))
    return published.respond(request, state, etag, render, private=private)


# -- every round, to print -----------------------------------------------------------------------------


def results_print_page(state: published.Published, lang: str) -> Page:
    etag = published.validator(state, lang, "results-print", (state.version,))

    def render() -> str:
        whole = state.whole()
        tournament = whole.tournament
        released = list(rankings.released_rounds(tournament))
        tables = Table.objects.filter(round__in=released).count()
        too_many = tables > PRINT_TABLES_MAX
        rounds = [] if too_many else [(rnd, queries.round_results(rnd)) for rnd in released]
        return html("public/results_print.html", {
            "tournament": tournament, "rounds": rounds, "too_many": too_many, "released": released,
            "tables_count": tables, "next_url": reverse("public-results-print", args=[tournament.slug])})

    return etag, render


def results_print(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    etag, render = results_print_page(state, lang_of(request))
    return published.respond(request, state, etag, render, private=private)


#: a deal's status as a spreadsheet shows it (an irregular deal's own marks never count: its ruling's row holds
#: them; one the chief counted shows them on its own lines, « comptée par l'arbitre », and its ruling's row only
#: what it adds; an annulled deal shows no marks)
DEAL_STATUS_FR = {"valid": "valide", "pending": "en attente du visa", "annulled": "annulée",
                  "irregular": "irrégulière, non comptée", "counted": "irrégulière, comptée par l'arbitre"}


def results_csv_page(state: published.Published) -> Page:
    etag = published.validator(state, "fr", "results.csv", (state.version,))

    def render() -> str:
        tournament = state.whole().tournament

        def write(writer: SafeWriter) -> None:
            # « Points » holds only what counts (its column sums to the totals): a deal that does not count
            # (awaiting the visa, irregular) has its marks as played under « Points non comptés » — the brackets
            # of the round's page (queries.mark_cell) —, an annulled deal none (docs/results-format.md)
            writer.writerow(["Manche", "Table", "Donne", "État", "Place", "Joueur", "Points", "Points non comptés"])
            for rnd in rankings.released_rounds(tournament):
                for result in queries.round_results(rnd):
                    for number, status, points in result.deals:
                        counts = queries.mark_counts(status)
                        for seat, (name, value) in enumerate(zip(result.names, points, strict=True)):
                            shown = "" if value is None or status == "annulled" else value
                            writer.writerow([rnd.number, result.table.number, number,
                                             DEAL_STATUS_FR.get(status, status), seat + 1, name,
                                             shown if counts else "", "" if counts else shown])
                    for seat, (name, value) in enumerate(zip(result.names, result.adjustments, strict=True)):
                        if value:
                            writer.writerow([rnd.number, result.table.number, "décision d'arbitrage", "valide",
                                             seat + 1, name, value, ""])

        return _csv(write)

    return etag, render


def results_csv_download(state: published.Published, private: bool = False) -> tuple[downloads.Download,
                                                                                    Callable[[], str]]:
    """The results CSV of ``state`` as a kept download (:mod:`downloads`: rendered by a worker, never in the
    request) and its render."""
    etag, render = results_csv_page(state)
    t = state.tournament
    return downloads.Download("results.csv", t.pk, t.slug, etag, f"{t.slug}-resultats.csv", CSV,
                              "Les résultats de toutes les manches", private=private), render


def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    return preparing.serve(request, state, results_csv_download(state, private)[0])


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


def score_sheets_page(state: published.Published, lang: str, number: int, seating: str) -> Page:
    """The score sheets of round ``number``, kept per seating of the round (``seating``: its digest)."""
    etag = published.validator(state, lang, "sheets", (number, seating))

    def render() -> str:
        tournament = state.whole().tournament
        rnd = get_object_or_404(Round, tournament=tournament, number=number)
        tables = queries.sheet_tables(tournament, rnd.tables.prefetch_related("seats__entry__player")
                                      .order_by("number"))
        return html("public/score_sheets.html", {"tournament": tournament, "round": rnd, "tables": tables,
                                                 "lines": queries.sheet_lines(tournament)})

    return etag, render


@login_required
def score_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Print-ready score sheets, one per table: the players in order of play and a line per deal."""
    state = published.read(slug)
    if state is None or not permissions.is_staff_of(request.user, state.tournament):
        raise Http404("not a tournament you run")
    etag, render = score_sheets_page(state, lang_of(request), number, hall.seating_digest(state.tournament.pk,
                                                                                           number))
    return published.respond(request, state, etag, render, private=True)


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
