"""The public pages' work done outside the web requests: the PDFs, and the pages rendered at publication.

* :func:`render_pdf` renders one PDF document of the state published now and keeps its file (:mod:`pdf`).
* :func:`render_published` runs when a ranking is published (the standings call the ``ranking_published`` port,
  :mod:`tournaments.common.hooks`): the pages every reader opens first (home, ranking, its polling fragment, the
  printable ranking, the latest round's results) are rendered into the cache then, in French and English, and the
  ranking CSV written as a file (:mod:`downloads`), so that no reader, and no web worker, waits for them. Then,
  once the state stays quiet :data:`PDF_QUIET` seconds, the ranking PDF, the latest round's results PDF and the
  big downloads (the results CSV, the public results file and the staff's, the API's exports of the deals,
  :mod:`tournaments.common.downloads`) are written as files, and a duplicate's étuis and travellers rendered.
* :func:`render_download` renders one download of the state published now (a request found it missing).
* :func:`render_export` renders the API's export of a tournament or a season in its state now
  (:mod:`tournaments.operations.exports`): after the quiet pass of a publication, a championship's publication, or
  the first request that found it missing.
* :func:`championship_render_published` runs when a championship's ranking is published (the ``championship_published``
  port): its PDF and CSVs written as files, its page rendered into the cache (:mod:`seasons`).

Where the work runs is ``settings.LEVEE_RENDER_IN`` (:mod:`runner`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from celery import shared_task
from django.utils import translation

from tournaments.common import downloads
from tournaments.common.runner import forget, later, pending, run_pending
from tournaments.event.models import Tournament
from tournaments.operations import exports as api_exports
from tournaments.public import duplicate, exports, pages, pdf, published, queries, seasons, views
from tournaments.seasons.models import Championship
from tournaments.seasons.results_file import tournaments_showing
from tournaments.standings import rankings

log = logging.getLogger(__name__)

#: seconds a published state must stay the latest before its PDFs are rendered (during play a new ranking
#: comes every few seconds: its PDFs would be stale before they were read)
PDF_QUIET = 30.0
LANGUAGES = ("fr", "en")


@shared_task(name="tournaments.public_render_pdf", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_pdf(kind: str, slug: str, lang: str, number: int, part: int, claimed_key: str = "") -> str | None:
    """Render one PDF of the state published now (see :func:`pdf.produce_now`); the file written, or None."""
    return pdf.produce_now(kind, slug, lang, number, part, claimed_key)


#: each download's document and render for a state (``staff``: the staff's variant)
DOWNLOADS: dict[str, Callable[[published.Published, bool], tuple[downloads.Download, Callable[[], str]]]] = {
    "ranking.csv": lambda state, staff: views.ranking_csv_download(state),
    "results.csv": lambda state, staff: views.results_csv_download(state),
    "results.json": exports.results_file_download,
}


@shared_task(name=downloads.TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_download(kind: str, slug: str, staff: bool = False, claimed: bool = False) -> str | None:
    """Render one download of the state published now, which may be newer than the one the request that queued it
    saw (``claimed``: that request holds the download's claim, released here). The file written, or None."""
    state = published._read(slug)  # the state now, not one this process kept a tenth of a second
    if state is None:
        return None
    doc, render = DOWNLOADS[kind](state, staff)
    return str(doc.path) if downloads.produce(doc, render, claimed=claimed) else None


@shared_task(name=api_exports.TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_export(what: str, pk: int, staff: bool = False, claimed: bool = False) -> str | None:
    """Render the API's export of tournament or season ``pk`` (``what``) in its state now; the file written, or
    None (kept already, or another render of it runs)."""
    return api_exports.render(what, pk, staff, claimed)


@shared_task(name=seasons.RENDER_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def championship_render_published(championship_id: int, version: int) -> int:
    """Render the documents of a championship's ranking ``version`` (its PDF, its CSVs, its page): see
    :func:`seasons.render_published`. How many files were written."""
    return seasons.render_published(championship_id, version)


def championship_published(championship_id: int, version: int) -> None:
    """The ``championship_published`` port's subscriber: the new ranking's PDF, CSVs and page rendered now, by the
    prints worker (a championship publishes when a counted tournament's ranking does: already quiet)."""
    try:
        later(championship_render_published.name, championship_id, version)
        season_id = Championship.objects.filter(pk=championship_id).values_list("season_id", flat=True).first()
        if season_id is not None:  # the season's export shows every championship's ranking
            later(render_export.name, "season", season_id)
        # the results files of the tournaments its season counts carry its ranking (levee.season/1): made anew
        for slug in tournaments_showing(championship_id):
            later(render_download.name, "results.json", slug)
    except Exception:  # the ranking is published whatever happens here; its first reader queues the render
        log.exception("the documents of championship %s could not be queued for rendering", championship_id)


@shared_task(name="tournaments.public_render_published", ignore_result=True)
def render_published(tournament_id: int, input_version: int, pdfs: bool = False) -> int:
    """Render the first pages of the ranking ``input_version`` of a tournament into the cache (and, with ``pdfs``,
    its PDFs); skipped when a newer ranking was published meanwhile. The number of pages rendered."""
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    state = published._read(slug) if slug else None
    if state is None or state.snapshot is None or state.snapshot.input_version != input_version:
        return 0  # superseded: the newer publication renders its own
    latest = rankings.released_rounds(state.tournament).order_by("-number").values_list("number", flat=True).first()
    done = 0
    if pdfs:
        for kind, number in (("ranking", 0), ("results", latest)):
            if number is not None and pdf.produce(state, pdf.document(state, kind, "fr", number)):
                done += 1
        for kind in DOWNLOADS:
            done += downloads.produce(*DOWNLOADS[kind](state, False))
        # the staff's results file (licence numbers: personal data) is kept per published state too, apart from
        # the public one; only the tournament's staff is ever served it (exports.results_json)
        done += downloads.produce(*exports.results_file_download(state, True))
        for staff in (False, True):  # the API's export of the deals, the others' and the staff's
            done += downloads.produce(*api_exports.tournament_export(state.tournament, staff))
        for lang in LANGUAGES:  # a duplicate's étuis and their travellers (one per étui released)
            with translation.override(lang), queries.alone():
                done += duplicate.store_published(state, lang)
        return done
    builders: list[Callable[[str], tuple[str, Callable[[], str]]]] = [  # what the readers poll first, first
        lambda lang: pages.ranking_page(state, lang, fragment=True)[1:],
        lambda lang: pages.ranking_page(state, lang)[1:],
        lambda lang: pages.home_page(state, lang),
        lambda lang: pages.ranking_print_page(state, lang),
    ]
    if latest is not None:
        builders.append(lambda lang: views.round_page(state, lang, latest))
    for lang in LANGUAGES:
        with translation.override(lang), queries.alone():  # never a lock a web request waits on (idle-scheduled)
            for build in builders:
                done += published.store(state, *build(lang))
    with translation.override("fr"):  # the ranking CSV, a file (10,000 lines: never rendered in a request)
        done += downloads.produce(*DOWNLOADS["ranking.csv"](state, False))
    return done


def ranking_published(tournament_id: int, input_version: int) -> None:
    """The ``ranking_published`` port's subscriber: render the new state's pages now, its PDFs once it is quiet."""
    try:
        later(render_published.name, tournament_id, input_version)
        later(render_published.name, tournament_id, input_version, True, delay=PDF_QUIET)
    except Exception:  # the ranking is published whatever happens here; the pages render on their first request
        log.exception("the pages of tournament %s could not be queued for rendering", tournament_id)


__all__ = ["championship_published", "championship_render_published",
           "forget", "later", "pending", "ranking_published", "render_download", "render_export", "render_pdf",
           "render_published", "run_pending"]
