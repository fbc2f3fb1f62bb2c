"""Print-outs as PDF, made on the server with WeasyPrint (HTML + CSS paged media → PDF): the ranking, a
round's results, the score sheets of a round (one table a page, the columns an arbiter fills on paper,
``scoring.sheets``) and the seating list of a round (by name, then by table). Same data as the pages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.text import slugify

from scoring.sheets import deal_columns
from tournaments.common.access import lang_of
from tournaments.common.collation import french_key
from tournaments.event import permissions
from tournaments.event.models import Round, Seat, Tournament
from tournaments.public import queries
from tournaments.public.hall import places
from tournaments.standings import rankings


def render_pdf(request: HttpRequest, template: str, context: dict, filename: str) -> HttpResponse:
    """Render ``template`` to PDF; served inline (the browser's viewer prints it), named ``filename``."""
    from weasyprint import HTML  # imported on use: pango is loaded only when a PDF is asked for

    html = render_to_string(template, context, request=request)
    pdf = HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _viewable(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("no such public tournament")
    return tournament


def _staff(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.is_staff_of(request.user, tournament):
        raise Http404("not a tournament you run")
    return tournament


def ranking_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _viewable(request, slug)
    ranking = queries.ranking(tournament, lang_of(request))
    return render_pdf(request, "print/ranking.html", {"tournament": tournament, "ranking": ranking},
                      f"{slugify(tournament.slug)}-classement.pdf")


def results_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _viewable(request, slug)
    rnd = rankings.released_rounds(tournament).filter(number=number).first()
    if rnd is None:
        raise Http404("this round is not released")
    return render_pdf(request, "print/round_results.html",
                      {"tournament": tournament, "round": rnd, "tables": queries.round_results(rnd)},
                      f"{slugify(tournament.slug)}-manche-{number}-resultats.pdf")


def sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _staff(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    lines = range(1, (tournament.deals_per_round or 8) + 1)
    tables = []
    for table in rnd.tables.prefetch_related("seats__entry__player").order_by("number"):
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        if len(seats) < 2:
            continue  # a bye: no sheet
        tables.append({"table": table, "seats": seats,
                       "columns": deal_columns(tournament.game, len(seats), tournament.options)})
    return render_pdf(request, "print/score_sheets.html",
                      {"tournament": tournament, "round": rnd, "tables": tables, "lines": lines},
                      f"{slugify(tournament.slug)}-manche-{number}-feuilles.pdf")


def seating_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _viewable(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    by_table: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__round=rnd).select_related("entry__player", "table").order_by(
            "table__number", "position"):
        by_table.setdefault(seat.table.number, []).append(seat)
    return render_pdf(request, "print/seating.html", {
        "tournament": tournament, "round": rnd, "places": places(rnd), "tables": sorted(by_table.items()),
        "clubs": sorted({s.entry.player.club for ss in by_table.values() for s in ss if s.entry.player.club},
                        key=french_key)}, f"{slugify(tournament.slug)}-manche-{number}-placement.pdf")
