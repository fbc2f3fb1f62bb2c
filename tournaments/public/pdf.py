"""Print-outs as PDF, made with WeasyPrint (HTML + CSS paged media → PDF): the ranking, a round's results, the
score sheets of a round (one table a page, the columns an arbiter fills on paper, ``scoring.sheets``) and the
seating list of a round (by name, then by table). Same data as the pages.

A PDF is never rendered in a web request. Each document is rendered once per published state, by a worker
(:mod:`tournaments.public.tasks`), and kept as a file (:mod:`files`) that the request serves. A request for a
document not rendered yet queues its render (once: a claim) and answers 202 with a page « document en
préparation » that reloads itself. A document is bounded in size: past :data:`RANKING_LINES_PER_PART` lines
(or so many tables, or seats) it comes in parts, ``?partie=2`` …, each a file of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify

from tournaments.common import files, runner
from tournaments.common.access import lang_of
from tournaments.common.collation import french_key
from tournaments.duplicate.results import ORIENTATIONS, sat_out
from tournaments.event import permissions
from tournaments.event.models import Round, Seat
from tournaments.public import published, queries
from tournaments.public.hall import places, seating_digest, seating_public
from tournaments.public.pages import state_of
from tournaments.standings import rankings

log = logging.getLogger(__name__)

#: the size of one part of a document (about 30 A4 pages each, a few seconds of one worker's time)
RANKING_LINES_PER_PART = 1000
RESULTS_TABLES_PER_PART = 100
SHEETS_TABLES_PER_PART = 100
SEATS_PER_PART = 1000
#: seconds after which the « en préparation » page reloads itself (and the Retry-After header)
RETRY_AFTER = 3
#: seconds before a document whose render failed is tried again
FAILED_RETRY = 60


def parts(count: int, per: int) -> int:
    """How many parts a document of ``count`` lines (tables, seats) comes in."""
    return max((count + per - 1) // per, 1)


def parts_links(name: str, args: list[Any], count: int) -> list[tuple[int, str]]:
    """``(part, url)`` for each part of a document, when there are several (else empty)."""
    if count <= 1:
        return []
    url = reverse(name, args=args)
    return [(k, url if k == 1 else f"{url}?partie={k}") for k in range(1, count + 1)]


@dataclass(frozen=True)
class Document:
    """One PDF in one published state: what it is, its key, and the file it is kept in."""

    kind: str  # ranking, results, sheets, seating
    tournament_id: int
    slug: str
    lang: str
    number: int  # the round (0 for the ranking)
    part: int
    key: str
    filename: str
    private: bool = False

    @property
    def title(self) -> str:
        """What the document is, as the « en préparation » page names it (« Les résultats de la manche 3 »)."""
        what = {"ranking": "Le classement", "results": f"Les résultats de la manche {self.number}",
                "sheets": f"Les feuilles de marque de la manche {self.number}",
                "seating": f"Le placement de la manche {self.number}"}[self.kind]
        return f"{what} (partie {self.part})" if self.part > 1 else what

    @property
    def path(self) -> Path:
        return files.path_of(self.tournament_id, f"{self.kind}-{self.lang}-{self.number}-{self.part}", self.key)


def document(state: published.Published, kind: str, lang: str, number: int = 0, part: int = 1) -> Document:
    """The document ``kind`` of ``state``; its key is the state's ETag for it (the seating's digest too for the
    documents made from the seating, which a draw changes without publishing a ranking)."""
    t = state.tournament
    variant: tuple[Any, ...] = (number, part)
    if kind in ("results",):
        variant += (state.version,)
    elif kind in ("sheets", "seating"):
        variant += (seating_digest(t.pk, number),)
    elif kind != "ranking":
        raise ValueError(kind)
    key = published.validator(state, lang, f"{kind}.pdf", variant)
    base = slugify(t.slug)
    names = {"ranking": f"{base}-classement", "results": f"{base}-manche-{number}-resultats",
             "sheets": f"{base}-manche-{number}-feuilles", "seating": f"{base}-manche-{number}-placement"}
    suffix = f"-partie-{part}" if part > 1 else ""
    return Document(kind, t.pk, t.slug, lang, number, part, key, f"{names[kind]}{suffix}.pdf")


# -- rendering (in a worker) -----------------------------------------------------------------------------


def to_pdf(template: str, context: dict) -> bytes:
    """``template`` rendered to PDF bytes (no request: the print templates use no outside resource)."""
    from weasyprint import HTML  # imported on use: pango is loaded only where PDFs are made

    html = render_to_string(template, {**context, "messages": ()})
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


def _slice(part: int, per: int) -> slice:
    return slice((part - 1) * per, part * per)


def _ranking(state: published.Published, doc: Document) -> bytes:
    whole = state.whole()
    rk = queries.ranking(whole.tournament, doc.lang, whole.status)
    count = parts(len(rk.rows), RANKING_LINES_PER_PART)
    _check_part(doc.part, count)
    shown = replace(rk, rows=rk.rows[_slice(doc.part, RANKING_LINES_PER_PART)],
                    team_rows=rk.team_rows if doc.part == count else [])
    return to_pdf("print/ranking.html", {"tournament": whole.tournament, "ranking": shown, "part": doc.part,
                                         "parts": count})


def _released(state: published.Published, number: int) -> Round:
    rnd = rankings.released_rounds(state.tournament).filter(number=number).first()
    if rnd is None:
        raise Http404("this round is not released")
    return rnd


def _results(state: published.Published, doc: Document) -> bytes:
    whole = state.whole()
    rnd = _released(whole, doc.number)
    count = parts(rnd.tables.count(), RESULTS_TABLES_PER_PART)
    _check_part(doc.part, count)
    tables = queries.round_results(rnd, (doc.part - 1) * RESULTS_TABLES_PER_PART, RESULTS_TABLES_PER_PART)
    # duplicate: the players at no table this round (« exempt »), after the last part's tables, as the web page
    byes = [e.player.name for e in sat_out(whole.tournament, [rnd.number]).get(rnd.number, [])] \
        if doc.part == count else []
    return to_pdf("print/round_results.html", {"tournament": whole.tournament, "round": rnd, "tables": tables,
                                               "part": doc.part, "parts": count, "byes": byes})


def _sheets(state: published.Published, doc: Document) -> bytes:
    tournament = state.whole().tournament
    rnd = get_object_or_404(Round, tournament=tournament, number=doc.number)
    lines = queries.sheet_lines(tournament)
    every = list(rnd.tables.order_by("number").values_list("pk", flat=True))
    count = parts(len(every), SHEETS_TABLES_PER_PART)
    _check_part(doc.part, count)
    tables = queries.sheet_tables(tournament, rnd.tables.filter(pk__in=every[_slice(doc.part, SHEETS_TABLES_PER_PART)])
                                  .prefetch_related("seats__entry__player").order_by("number"))
    return to_pdf("print/score_sheets.html", {"tournament": tournament, "round": rnd, "tables": tables,
                                              "lines": lines, "part": doc.part, "parts": count})


def _seating(state: published.Published, doc: Document) -> bytes:
    tournament = state.whole().tournament
    rnd = get_object_or_404(Round, tournament=tournament, number=doc.number)
    everyone = places(rnd)
    count = parts(len(everyone), SEATS_PER_PART)
    _check_part(doc.part, count)
    by_table: dict[int, list[tuple[Seat, Any]]] = {}
    oriented = {p.table for p in everyone if p.orientation}  # duplicate: each seat's orientation beside it
    for seat in Seat.objects.filter(table__round=rnd).select_related("entry__player", "table").order_by(
            "table__number", "position"):
        by_table.setdefault(seat.table.number, []).append(
            (seat, ORIENTATIONS[seat.position] if seat.table.number in oriented else ""))
    tables: list[tuple[int | None, list[tuple[Any, Any]]]] = list(sorted(by_table.items()))
    # duplicate: the players at no table this round (« exempt »), listed after the tables
    away = [(SimpleNamespace(entry=e, substitute=""), "")
            for e in sat_out(tournament, [rnd.number]).get(rnd.number, [])] if by_table else []
    if away:
        tables.append((None, away))
    per_tables = max((len(tables) + count - 1) // count, 1)  # the tables cut in as many parts as the names
    return to_pdf("print/seating.html", {
        "tournament": tournament, "round": rnd, "places": everyone[_slice(doc.part, SEATS_PER_PART)],
        "tables": tables[_slice(doc.part, per_tables)], "part": doc.part, "parts": count, "oriented": bool(oriented),
        "clubs": sorted({s.entry.player.club for ss in by_table.values() for s, _o in ss if s.entry.player.club},
                        key=french_key)})


RENDERERS: dict[str, Callable[[published.Published, Document], bytes]] = {
    "ranking": _ranking, "results": _results, "sheets": _sheets, "seating": _seating}


def _check_part(part: int, count: int) -> None:
    if part > count:
        raise Http404("no such part")


def produce(state: published.Published, doc: Document, *, claimed: bool = False) -> bool:
    """Render ``doc`` and keep its file, unless it is there already or another render of it runs (then False).
    ``claimed``: the caller holds the claim (a request queued this render); it is released in any case."""
    path = doc.path
    if not claimed and not files.claim(path):
        return False
    try:
        if files.ready(path):
            files.release(path)
            return False
        files.write(path, RENDERERS[doc.kind](state, doc))
    except Http404:
        files.release(path)
        return False  # the round was withdrawn meanwhile: nothing to render
    except BaseException:
        files.hold(path, FAILED_RETRY)  # not tried again at every reload of the « en préparation » page
        raise
    files.release(path)
    return True


def produce_now(kind: str, slug: str, lang: str, number: int, part: int, claimed_key: str = "") -> str | None:
    """The worker's side: the document in the state published now, which may be newer than the one a request
    claimed (``claimed_key``: that claim is released; the reader's page, reloading, asks for the newer one).
    The file written, or None."""
    state = published.read(slug)
    if state is None:
        return None
    doc = document(state, kind, lang, number, part)
    if claimed_key and claimed_key != doc.key:
        files.release(replace(doc, key=claimed_key).path)
    return str(doc.path) if produce(state, doc, claimed=claimed_key == doc.key) else None


# -- serving (in a request) ------------------------------------------------------------------------------


def serve(request: HttpRequest, state: published.Published, doc: Document) -> HttpResponse:
    """The document's file, or (not rendered yet) its render queued once and the « en préparation » page."""
    path = doc.path
    if files.ready(path):
        if request.META.get("HTTP_IF_NONE_MATCH") in (f'"{doc.key}"', f'W/"{doc.key}"'):
            response: HttpResponse = HttpResponse(status=304)
        else:
            response = files.response(path, "application/pdf")
            response["Content-Disposition"] = f'inline; filename="{doc.filename}"'
        response["ETag"] = f'"{doc.key}"'
        response["Cache-Control"] = "private, no-cache" if doc.private else "public, no-cache"
        response["Vary"] = "Cookie"
        return response
    if files.claim(path):
        try:
            runner.later("tournaments.public_render_pdf", doc.kind, doc.slug, doc.lang, doc.number, doc.part, doc.key)
        except Exception:  # the broker is down: the claim is let go, the next reload tries again
            log.exception("the PDF %s could not be queued", path.name)
            files.release(path)
    response = HttpResponse(render_to_string("public/preparing.html", {
        "tournament": state.tournament, "every": RETRY_AFTER, "title": doc.title, "format": "PDF",
        "next_url": request.get_full_path(), "messages": ()}), status=202)
    response["Retry-After"] = str(RETRY_AFTER)
    return files.preparing(response, doc.private)


def _part(request: HttpRequest) -> int:
    try:
        return min(max(int(request.GET.get("partie", 1)), 1), 10**4)
    except ValueError:
        return 1


def _part_exists(state: published.Published, kind: str, number: int, part: int) -> None:
    """A 404 for a part past the last (counted only for a part past the first: the first always exists)."""
    if part == 1:
        return
    if kind == "ranking":
        shown = queries.ranking_size(state.snapshot) if state.snapshot is not None else 0
        count = parts(shown, RANKING_LINES_PER_PART)
    elif kind == "seating":
        count = parts(Seat.objects.filter(table__round__tournament=state.tournament, table__round__number=number)
                      .count(), SEATS_PER_PART)
    else:
        per = RESULTS_TABLES_PER_PART if kind == "results" else SHEETS_TABLES_PER_PART
        count = parts(Round.objects.get(tournament=state.tournament, number=number).tables.count(), per)
    _check_part(part, count)


def _viewable(request: HttpRequest, slug: str) -> tuple[published.Published, bool]:
    return state_of(request, slug)


def _staff(request: HttpRequest, slug: str) -> published.Published:
    state = published.read(slug)
    if state is None or not permissions.is_staff_of(request.user, state.tournament):
        raise Http404("not a tournament you run")
    return state


def ranking_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = _viewable(request, slug)
    doc = document(state, "ranking", lang_of(request), 0, _part(request))
    _part_exists(state, doc.kind, doc.number, doc.part)
    return serve(request, state, replace(doc, private=private))


def results_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state, private = _viewable(request, slug)
    _released(state, number)
    doc = document(state, "results", lang_of(request), number, _part(request))
    _part_exists(state, doc.kind, doc.number, doc.part)
    return serve(request, state, replace(doc, private=private))


def sheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state = _staff(request, slug)
    get_object_or_404(Round, tournament=state.tournament, number=number)
    doc = document(state, "sheets", lang_of(request), number, _part(request))
    _part_exists(state, doc.kind, doc.number, doc.part)
    return serve(request, state, replace(doc, private=True))


def seating_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating; a round « prévue » only for its staff (:func:`hall.seating_public`)."""
    state, private = _viewable(request, slug)
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=state.tournament, number=number)
    if not seating_public(rnd) and not permissions.is_staff_of(request.user, state.tournament):
        raise Http404("this round has not started")
    doc = document(state, "seating", lang_of(request), number, _part(request))
    _part_exists(state, doc.kind, doc.number, doc.part)
    return serve(request, state, replace(doc, private=private))
