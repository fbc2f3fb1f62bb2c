"""The public pages' work done outside the web requests: the PDFs, and the pages rendered at publication.

* :func:`render_pdf` renders one PDF document of the state published now and keeps its file (:mod:`pdf`).
* :func:`render_published` runs when a ranking is published (the standings call the ``ranking_published`` port,
  :mod:`tournaments.common.hooks`): the pages every reader opens first (home, ranking, its polling fragment, the
  printable ranking, the ranking CSV, the results CSV and printable results, the latest round's results) are
  rendered into the cache then, in French and English, so that no reader, and no web worker, waits for them.
  Then, once the state stays quiet :data:`PDF_QUIET` seconds, the ranking PDF and the latest round's results PDF.

Where the work runs is ``settings.LEVEE_RENDER_IN``: ``worker`` (a Celery worker, with a broker), ``thread`` (no
broker: one background thread of the web process, never the request's own) or ``manual`` (the tests:
:func:`run_pending` runs what was queued).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import connections
from django.utils import translation

log = logging.getLogger(__name__)

#: seconds a published state must stay the latest before its PDFs are rendered (during play a new ranking
#: comes every few seconds: its PDFs would be stale before they were read)
PDF_QUIET = 30.0
LANGUAGES = ("fr", "en")


@shared_task(name="tournaments.public_render_pdf", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def render_pdf(kind: str, slug: str, lang: str, number: int, part: int, claimed_key: str = "") -> str | None:
    """Render one PDF of the state published now (see :func:`pdf.produce_now`); the file written, or None."""
    from tournaments.public import pdf

    return pdf.produce_now(kind, slug, lang, number, part, claimed_key)


@shared_task(name="tournaments.public_render_published", ignore_result=True)
def render_published(tournament_id: int, input_version: int, pdfs: bool = False) -> int:
    """Render the first pages of the ranking ``input_version`` of a tournament into the cache (and, with ``pdfs``,
    its PDFs); skipped when a newer ranking was published meanwhile. The number of pages rendered."""
    from tournaments.event.models import Tournament
    from tournaments.public import pages, pdf, published, views
    from tournaments.standings import rankings

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
        return done
    builders: list[Callable[[str], tuple[str, Callable[[], str]]]] = [
        lambda lang: pages.home_page(state, lang),
        lambda lang: pages.ranking_page(state, lang)[1:],
        lambda lang: pages.ranking_page(state, lang, fragment=True)[1:],
        lambda lang: pages.ranking_print_page(state, lang),
    ]
    if latest is not None:
        builders.append(lambda lang: views.round_page(state, lang, latest))
    for lang in LANGUAGES:
        with translation.override(lang):
            for build in builders:
                done += published.store(state, *build(lang))
    with translation.override("fr"):
        done += published.store(state, *views.ranking_csv_page(state))
    return done


def ranking_published(tournament_id: int, input_version: int) -> None:
    """The ``ranking_published`` port's subscriber: render the new state's pages now, its PDFs once it is quiet."""
    try:
        later(render_published, tournament_id, input_version)
        later(render_published, tournament_id, input_version, True, delay=PDF_QUIET)
    except Exception:  # the ranking is published whatever happens here; the pages render on their first request
        log.exception("the pages of tournament %s could not be queued for rendering", tournament_id)


# -- where the work runs ------------------------------------------------------------------------------------

_queue: list[tuple[float, int, Any, tuple]] = []
_order = itertools.count()
_wake = threading.Condition()
_thread: threading.Thread | None = None


def later(task: Any, *args: Any, delay: float = 0.0) -> None:
    """Run ``task(*args)`` outside this request, ``delay`` seconds from now at the earliest."""
    mode = settings.LEVEE_RENDER_IN
    if mode == "worker":
        task.apply_async(args=args, countdown=delay or None)
        return
    with _wake:
        heapq.heappush(_queue, (time.monotonic() + delay, next(_order), task, args))
        if mode == "thread":
            _start()
        _wake.notify()


def _start() -> None:
    global _thread
    if _thread is None or not _thread.is_alive():
        _thread = threading.Thread(target=_loop, name="levee-render", daemon=True)
        _thread.start()


def _loop() -> None:
    while True:
        with _wake:
            while not _queue or _queue[0][0] > time.monotonic():
                _wake.wait(timeout=(_queue[0][0] - time.monotonic()) if _queue else None)
            _due, _n, task, args = heapq.heappop(_queue)
        _run(task, args)


def _run(task: Any, args: tuple) -> None:
    try:
        task(*args)
    except Exception:
        log.exception("rendering %s%r failed", getattr(task, "name", task), args)
    finally:
        connections.close_all()  # this thread's own connections


def pending() -> list[tuple[str, tuple]]:
    """What is queued in this process (the tests): (task name, arguments)."""
    with _wake:
        return [(task.name, args) for _d, _n, task, args in sorted(_queue)]


def run_pending(*, include_delayed: bool = True) -> int:
    """Run now, in this thread, what is queued in this process (``manual``: the tests); how many were run."""
    ran = 0
    while True:
        with _wake:
            if not _queue or (not include_delayed and _queue[0][0] > time.monotonic()):
                return ran
            _due, _n, task, args = heapq.heappop(_queue)
        task(*args)
        ran += 1


def forget() -> None:
    """Drop what is queued in this process (the tests, between two)."""
    with _wake:
        _queue.clear()
