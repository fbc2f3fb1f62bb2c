"""The big downloads (the results CSV, the results file, the ranking CSV; the API's exports of a tournament and of a
season): rendered by a worker once per published state, kept as files, served as files; never rendered in a web
request.

Their size grows with the event (every deal of every released round: 100 s of rendering for the CSV of a
10,000-player event), so they are made like the PDFs (``tournaments.public.pdf``): a worker renders each once per
published state (``tournaments.public.tasks``, the quiet pass after a publication, or the first request's), writes
it whole with its brotli and gzip copies (:mod:`files`, the same folder and claims as the PDFs), and the request
serves the file with its ETag (304 when the reader has it; the brotli copy to a browser that takes it, every current
one does; else the gzip copy; else the file). While the first render runs, the request answers 202 with the « en
préparation » page that reloads itself (or, to a program, a JSON answer saying so), and ``Retry-After``: exactly
what the PDFs do. The audiences say what that answer is (:func:`serve`'s ``preparing``); this module knows only
files and keys, so that the public pages and the API serve the same files.

A download's key is its state's ETag (``tournaments.public.published.validator``, or the hash of what an API export
shows, ``tournaments.operations.exports``); a new published state (a deal entered, a ranking published) makes a new
key, hence a new file, and the older file of the same download is removed once the new one is written. For the first
:data:`FRESH_WAIT` seconds of the new state's render the reader is answered « en préparation » (a file fetched just
after a correction or a publication is the new one, never the state before without a word: two phone walks took the
header-only CSV of before the publication); after that the older file is served (with its own ETag): during play a
deal comes every few seconds and a 10,000-player results CSV takes minutes, so a reader gets the latest file written
rather than « en préparation » for ever. One render of a
download runs at a time (one claim per download, not per state): a worker never queues a render per deal; the next
request after it ends queues the newest state's.
"""

from __future__ import annotations

import gzip
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import brotli
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from tournaments.common import files, runner

log = logging.getLogger(__name__)

#: the task that renders a download of a tournament's published state (:func:`tournaments.public.tasks.render_download`)
TASK = "tournaments.public_render_download"
#: seconds after which the « en préparation » answer asks again (the same rhythm as the PDFs)
RETRY_AFTER = 3
#: seconds a reader is answered « en préparation » for a new state's file before the older one is served instead
FRESH_WAIT = 20
#: seconds before a download whose render failed is tried again
FAILED_RETRY = 60
#: the compressed copies kept beside a download, the best first: (``Content-Encoding``, the copy's suffix)
COPIES = (("br", ".br"), ("gzip", ".gz"))
#: brotli's quality for the copies: at 10,000 players the results CSV (17 MB) and file (64 MB) come 1.6 and 1.8 times
#: smaller than gzip's 2.8 and 2.7 MB, in 15 – 17 s of the print worker each; 11 saves 4 % more in 2 – 5 times as
#: long (docs/performance.md)
BROTLI_QUALITY = 10


@dataclass(frozen=True)
class Download:
    """One download in one published state: what it is, its key (its ETag) and the file it is kept in."""

    kind: str  # results.csv, results.json, ranking.csv, export.json, season.json
    tournament_id: int  # the tournament it belongs to (0: a season's)
    slug: str
    key: str
    filename: str
    content_type: str
    title: str  # what the « en préparation » page names it
    staff: bool = False  # the staff's variant (the results file with the licence numbers)
    private: bool = False
    folder: str = ""  # its sub-folder of the kept files: the tournament's id unless set (« seasons/3 »)
    task: str = TASK  # the task that renders it, and its arguments (the kind, the slug and ``staff`` unless set)
    task_args: tuple = ()
    disposition: str = "attachment"

    @property
    def path(self) -> Path:
        name, suffix = self.kind.split(".")
        document = f"{name}-{suffix}{'-staff' if self.staff else ''}"
        return files.root() / (self.folder or str(self.tournament_id)) / f"{document}--{self.key}.{suffix}"

    def copy(self, suffix: str, path: Path | None = None) -> Path:
        """The compressed copy (``suffix``: .br, .gz) of this download's file, or of ``path`` (an older state's)."""
        path = path or self.path
        return path.with_name(path.name + suffix)

    @property
    def claim_path(self) -> Path:
        """The claim of this download in any state (one render at a time)."""
        return self.path.with_name(self.path.name.split("--", 1)[0] + "--any.claim")

    def latest(self) -> tuple[Path, str] | None:
        """The file of the latest state written, and its key (an older state's, while this one renders)."""
        name, suffix = self.path.name.split("--", 1)[0], self.kind.split(".")[1]
        written = [p for p in self.path.parent.glob(f"{name}--*.{suffix}") if files.ready(p)]
        if not written:
            return None
        newest = max(written, key=lambda p: p.stat().st_mtime)
        return newest, newest.name.split("--", 1)[1].rsplit(".", 1)[0]


def produce(doc: Download, render: Callable[[], str], *, claimed: bool = False) -> bool:
    """Render ``doc`` with ``render()`` and keep its file and its gzip copy, unless it is there already or another
    render of it runs (then False). ``claimed``: the caller holds the claim; it is released in any case."""
    path = doc.path
    if not claimed and not files.claim(doc.claim_path):
        return False
    try:
        if files.ready(path):
            files.release(doc.claim_path)
            return False
        body = render().encode()
        files.write(doc.copy(".gz"), gzip.compress(body, compresslevel=6, mtime=0))
        files.write(doc.copy(".br"), brotli.compress(body, quality=BROTLI_QUALITY))
        files.write(path, body)  # last: a download is ready once its copies are written
    except BaseException:
        files.hold(doc.claim_path, FAILED_RETRY)  # not tried again at every reload of the « en préparation » page
        raise
    files.release(doc.claim_path)
    return True


def serve(request: HttpRequest, doc: Download, preparing: Callable[[], HttpResponse]) -> HttpResponseBase:
    """The download's file (304 when the reader has it); not rendered yet, its render queued (once) and the latest
    file written meanwhile, or when there is none ``preparing()`` — the audience's « en préparation » answer — sent
    202 with ``Retry-After``."""
    path, key = doc.path, doc.key
    if not files.ready(path):
        if files.claim(doc.claim_path):
            try:
                runner.later(doc.task, *(doc.task_args or (doc.kind, doc.slug, doc.staff)), True)
            except Exception:  # the broker is down: the claim is let go, the next reload tries again
                log.exception("the download %s could not be queued", path.name)
                files.release(doc.claim_path)
        # the older file only once the new one has been awaited a while: just after a change (a correction, a
        # publication) the reader waits for it (« en préparation ») rather than take the state before without
        # a word; a long render under steady play (minutes at 10,000 players) still serves the latest one written
        latest = doc.latest()
        waited = files.claimed_for(doc.claim_path)
        if latest is not None and (waited is None or waited >= FRESH_WAIT):
            path, key = latest
    response: HttpResponseBase | None = None
    if files.ready(path) and request.META.get("HTTP_IF_NONE_MATCH") in (f'"{key}"', f'W/"{key}"'):
        response = HttpResponse(status=304)
    elif files.ready(path):
        kept = {coding: doc.copy(suffix, path) for coding, suffix in COPIES}
        coding = files.accepted_encoding(request.META.get("HTTP_ACCEPT_ENCODING", ""),
                                         [c for c, copy in kept.items() if files.ready(copy)])
        try:
            response = files.response(kept[coding] if coding else path, doc.content_type, encoding=coding)
        except FileNotFoundError:  # an older state's file, removed this instant by the newer one's write
            response = None
        else:
            response["Content-Disposition"] = f'{doc.disposition}; filename="{doc.filename}"'
    if response is not None:
        response["ETag"] = f'"{key}"'
        response["Cache-Control"] = "private, no-cache" if doc.private else "public, no-cache"
        response["Vary"] = "Cookie, Authorization, Accept-Encoding"  # the staff's variant: a session or a token
        return response
    response = preparing()
    response.status_code = 202
    response["Retry-After"] = str(RETRY_AFTER)
    return files.preparing(response, doc.private)
