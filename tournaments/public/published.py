"""The published ranking as the public pages read it: one cheap statement per request, the rest computed
once per snapshot and kept.

A public page is a function of few things: the latest published snapshot (immutable), whether it is up to
date (the ranking clock), the tournament's own fields, the language, and the page's parameters. So:

* :func:`read` gets the tournament, the clock and the latest snapshot's header (not its inputs) in **one**
  SQL statement (written from the models' metadata with :mod:`tournaments.common.sql`), kept a tenth of a second
  in the process (``LEVEE_PUBLIC_STATE_SECONDS``);
* :func:`validator` turns those into the page's ``ETag`` (beginning with the snapshot's digest) and
  ``Last-Modified``: a conditional request that matches is answered 304 before anything else is read;
* :func:`respond` serves the page's bytes from Django's cache (``CACHES["default"]``: local memory by
  default, Redis when ``CACHE_URL`` is set), rendering them on the first request only, and gzip-compressed
  once when the browser accepts it.

The pages cached here hold no secret: no CSRF token (the language switcher of the public pages posts to a
view that needs none), no session data, nothing of the user (they are rendered without the request, the same at
publication as at a request); so compressing them does not expose a secret to BREACH, and the same bytes serve
every reader of the same variant. A staff page cached here (the score sheets, the staff's ledger and results
file) is a variant of its own, sent ``private``. The cache is reached through :mod:`kept`: when it is down, the
pages are rendered without it. :func:`store` renders a page into the cache ahead of its first reader (at
publication, :mod:`tasks`).
"""

from __future__ import annotations

import gzip
import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache, lru_cache
from threading import Lock
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date, parse_etags, parse_http_date_safe

from tournaments.common import files, kept, sql
from tournaments.event.models import Tournament
from tournaments.public import fragment
from tournaments.standings.models import RankingClock, RankingSnapshot
from tournaments.standings.rankings import RankingStatus

#: bump when a public template or the rows' HTML changes: the ETags and cache keys of every page change
RENDER_VERSION = "12"
#: how long rendered bytes stay in the cache (a snapshot never changes; this only bounds the memory)
PAGE_TIMEOUT = 3600
#: columns a page request does not need (read again, whole, when a page is rendered)
_T_SKIP = ("options", "tie_breaks", "created_by_id", "created_at")
_S_SKIP = ("criteria", "released_rounds", "inputs", "options", "team_inputs", "team_options", "compute_ms", "lines",
           "team_lines")


@dataclass(frozen=True)
class Published:
    """A tournament, its ranking clock and its latest snapshot's header, read in one statement.

    ``tournament`` and ``snapshot`` have their large columns deferred: :meth:`whole` reads them whole, which
    rendering a page needs (a cache miss), and answering from the cache does not."""

    tournament: Tournament
    snapshot: RankingSnapshot | None
    version: int
    changed_at: datetime | None

    @property
    def status(self) -> RankingStatus:
        return RankingStatus(self.snapshot, self.version)

    @property
    def up_to_date(self) -> bool:
        return self.status.up_to_date

    @property
    def digest(self) -> str:
        return self.snapshot.digest if self.snapshot is not None else "none"

    @property
    def last_modified(self) -> datetime | None:
        """When what the pages show last changed: the snapshot published, or inputs changed after it."""
        stamps = [s for s in (self.snapshot.created_at if self.snapshot else None,
                              None if self.up_to_date else self.changed_at) if s is not None]
        return max(stamps) if stamps else None

    def whole(self) -> Published:
        """The same state with the tournament and the snapshot read whole (two statements by primary key)."""
        tournament = Tournament.objects.get(pk=self.tournament.pk)
        snapshot = (RankingSnapshot.objects.defer(*_S_SKIP[2:]).get(pk=self.snapshot.pk)  # inputs: when ranked
                    if self.snapshot else None)
        return Published(tournament, snapshot, self.version, self.changed_at)


@cache
def _read_sql(vendor: str) -> str:
    t, c, s = sql.table(Tournament), sql.table(RankingClock), sql.table(RankingSnapshot)
    t_id = sql.column(Tournament, "id")
    # the latest snapshot by the (tournament, input_version) unique index, read backwards, first row only
    return (f"SELECT {sql.select_list(Tournament, 't', _T_SKIP)}, c.{sql.column(RankingClock, 'version')}, "
            f"c.{sql.column(RankingClock, 'changed_at')}, {sql.select_list(RankingSnapshot, 's', _S_SKIP)} "
            f"FROM {t} t LEFT JOIN {c} c ON c.{sql.column(RankingClock, 'tournament')} = t.{t_id} "
            f"LEFT JOIN {s} s ON s.{sql.column(RankingSnapshot, 'tournament')} = t.{t_id} "
            f"WHERE t.{sql.column(Tournament, 'slug')} = %s "
            f"ORDER BY s.{sql.column(RankingSnapshot, 'input_version')} DESC LIMIT 1")


_recent: dict[str, tuple[float, Published | None]] = {}


def read(slug: str) -> Published | None:
    """The tournament of ``slug`` with its clock and latest snapshot header; None when there is no such slug.

    What was read is kept ``settings.LEVEE_PUBLIC_STATE_SECONDS`` (0.1 s by default; 0 in the tests) in this
    process: phones polling a hundred times a second cost the database ten statements a second per process,
    and a new ranking reaches the pages at most that much later."""
    keep = settings.LEVEE_PUBLIC_STATE_SECONDS
    if keep > 0:
        now = time.monotonic()
        recent = _recent.get(slug)
        if recent is not None and now - recent[0] < keep:
            return recent[1]
        state = _read(slug)
        if len(_recent) > 1000:  # slugs that do not exist, say: never more than a thousand kept
            _recent.clear()
        _recent[slug] = (now, state)
        return state
    return _read(slug)


def _read(slug: str) -> Published | None:
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(connection.vendor), [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    width = sql.width(Tournament, _T_SKIP)
    tournament = sql.load(Tournament, row, 0, _T_SKIP)
    version, changed_at = row[width], row[width + 1]
    snapshot = sql.load(RankingSnapshot, row, width + 2, _S_SKIP)
    return Published(tournament, snapshot, version or 0,
                     sql.convert(RankingClock, "changed_at", changed_at) if changed_at is not None else None)


def _tournament_fingerprint(t: Tournament) -> str:
    """The tournament's fields a public page shows (its name, game, status …): renaming it changes the pages."""
    return repr((t.name, t.slug, t.game, t.format, t.status, t.rounds_planned, t.released_round, t.is_public,
                 t.updated_at.timestamp() if t.updated_at else 0))


def validator(published: Published, lang: str, page: str, variant: Iterable[Any] = ()) -> str:
    """The ETag of one page for one published state: the snapshot's digest, then a hash of everything else
    the page depends on (version, up to date or not, the tournament's fields, language, page and variant)."""
    parts = (RENDER_VERSION, published.snapshot.pk if published.snapshot else 0,
             published.snapshot.input_version if published.snapshot else 0,
             published.snapshot.created_at.timestamp() if published.snapshot else 0, published.up_to_date,
             _tournament_fingerprint(published.tournament), lang, page, *variant)
    rest = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    return f"{published.digest[:16]}-{rest}"


def _not_modified(request: HttpRequest, etag: str, last_modified: datetime | None) -> bool:
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
    if if_none_match:  # RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since
        tags = parse_etags(if_none_match)
        return "*" in tags or f'"{etag}"' in tags or f'W/"{etag}"' in tags
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    return since is not None and last_modified is not None and int(last_modified.timestamp()) <= since


@lru_cache(maxsize=256)
def _http_date(timestamp: float) -> str:
    return http_date(timestamp)


def _headers(response: HttpResponse, etag: str, last_modified: datetime | None, private: bool) -> HttpResponse:
    response["ETag"] = f'"{etag}"'
    if last_modified is not None:
        response["Last-Modified"] = _http_date(last_modified.timestamp())
    # every use revalidates (a 304 costs one small statement); the language comes from a cookie
    response["Cache-Control"] = "private, no-cache" if private else "public, no-cache"
    response["Vary"] = "Cookie, Accept-Encoding, HX-Request"
    return response


#: pages kept in this process in front of Django's cache (a key names its bytes for ever: an ETag); with Redis as
#: the cache, a page served again costs no round trip to it
_PAGES_KEPT = 256
_pages: OrderedDict[str, tuple[bytes, bytes]] = OrderedDict()
_pages_lock = Lock()


def _kept(key: str) -> tuple[bytes, bytes] | None:
    with _pages_lock:
        stored = _pages.get(key)
        if stored is not None:
            _pages.move_to_end(key)
        return stored


def _keep(key: str, stored: tuple[bytes, bytes]) -> None:
    with _pages_lock:
        _pages[key] = stored
        while len(_pages) > _PAGES_KEPT:
            _pages.popitem(last=False)


def forget_every_kept() -> None:
    """Drop this process's copies of every page (the tests: a database rolled back gives its ids again)."""
    with _pages_lock:
        _pages.clear()


def forget_kept(prefixes: Iterable[str]) -> int:
    """Drop this process's copies of the pages whose keys begin with one of ``prefixes``; how many."""
    starts = tuple(prefixes)
    with _pages_lock:
        gone = [key for key in _pages if key.startswith(starts)] if starts else []
        for key in gone:
            del _pages[key]
    return len(gone) + fragment.forget(starts)  # the live fragment's skeletons (« ma place »)


def cache_key(published: Published, etag: str) -> str:
    """Where the bytes of the page ``etag`` are kept (every key of a tournament begins alike: a player made
    anonymous drops them all)."""
    return f"levee:public:{published.tournament.pk}:{etag}"



def _pack(text: str) -> tuple[bytes, bytes]:
    body = text.encode()
    return body, gzip.compress(body, compresslevel=6, mtime=0)


def respond(request: HttpRequest, published: Published, etag: str, render: Callable[[], str], *,
            last_modified: datetime | None = None, private: bool = False,
            content_type: str = "text/html; charset=utf-8", filename: str | None = None) -> HttpResponse:
    """The page for ``etag``: 304 when the request already has it, else its bytes from the cache, rendered by
    ``render()`` on the first request only (and kept compressed too, for the browsers that accept gzip).

    ``content_type`` and ``filename`` (sent as an attachment) serve the CSV and JSON files the same way. A cache
    that cannot be reached is skipped (:mod:`kept`): the page is rendered for this request and still answered."""
    return respond_keyed(request, cache_key(published, etag), etag, render,
                         last_modified=last_modified or published.last_modified, private=private,
                         content_type=content_type, filename=filename)


def respond_keyed(request: HttpRequest, key: str, etag: str, render: Callable[[], str], *,
                  last_modified: datetime | None = None, private: bool = False,
                  content_type: str = "text/html; charset=utf-8", filename: str | None = None) -> HttpResponse:
    """:func:`respond` for any immutable published state (a tournament's ranking, a championship's): ``key``
    names the bytes in the cache for ever (it holds the ETag)."""
    if _not_modified(request, etag, last_modified):
        return _headers(HttpResponse(status=304), etag, last_modified, private)
    stored = _kept(key)
    if stored is None:
        stored = kept.get(key)
        if stored is None:
            stored = _pack(render())
            kept.set(key, stored, PAGE_TIMEOUT)
        _keep(key, stored)
    body, compressed = stored
    return answer(request, etag, body, compressed, last_modified=last_modified, private=private,
                  content_type=content_type, filename=filename)


def not_modified(request: HttpRequest, etag: str, last_modified: datetime | None,
                 private: bool = False) -> HttpResponse | None:
    """The 304 when the request already has ``etag`` (or is as recent as ``last_modified``), else None."""
    if _not_modified(request, etag, last_modified):
        return _headers(HttpResponse(status=304), etag, last_modified, private)
    return None


def answer(request: HttpRequest, etag: str, body: bytes, compressed: bytes, *, last_modified: datetime | None = None,
           private: bool = False, content_type: str = "text/html; charset=utf-8",
           filename: str | None = None) -> HttpResponse:
    """A page's bytes (``compressed``, its gzip copy, when the browser accepts it) with the public pages' headers."""
    response = HttpResponse(content_type=content_type)
    if files.accepted_encoding(request.META.get("HTTP_ACCEPT_ENCODING", ""), ("gzip",)):
        response.content = compressed
        response["Content-Encoding"] = "gzip"
    else:
        response.content = body
    if filename:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return _headers(response, etag, last_modified, private)


def store(published: Published, etag: str, render: Callable[[], str]) -> bool:
    """Render the page of ``etag`` now and put it in the cache (at publication, so that no reader waits for
    it); False when it was there already."""
    key = cache_key(published, etag)
    if kept.get(key) is not None:
        return False
    kept.set(key, _pack(render()), PAGE_TIMEOUT)
    return True


def store_keyed(key: str, render: Callable[[], str]) -> bool:
    """:func:`store` for any immutable published state (a championship's): ``key`` as :func:`respond_keyed`'s."""
    if kept.get(key) is not None:
        return False
    kept.set(key, _pack(render()), PAGE_TIMEOUT)
    return True


def nothing_new(published: Published, etag: str, private: bool = False) -> HttpResponse:
    """The polling fragment's answer when the reader already shows ``etag``: 204, which htmx does not swap."""
    return _headers(HttpResponse(status=204), etag, published.last_modified, private)
