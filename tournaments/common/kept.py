"""Django's cache as the public pages and the API's public reads use it: a cache that cannot be reached is a cache
that is empty.

Every read and write of the public pages' cache goes through here (``tournaments.public.published`` for the pages'
bytes, ``tournaments.public.queries`` for a snapshot's rows, the API's championship rankings). When the cache's
server (Redis) is down,
a read answers ``None`` and a write is skipped: the page is rendered from the database, as the request rates
already fail open. The failure is logged once, and for :data:`PAUSE` seconds this process does not try the
cache again (so a dead Redis costs one refused connection per process every few seconds, not one per call).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

#: seconds during which a process leaves alone a cache that just failed
PAUSE = 5.0
_down_until = 0.0


def _failed(exc: Exception, action: str) -> None:
    global _down_until
    if time.monotonic() >= _down_until:
        log.warning("the cache cannot be reached (%s: %s); the public pages are rendered without it for %g s",
                    action, exc, PAUSE)
    _down_until = time.monotonic() + PAUSE


def available() -> bool:
    """False while a recent failure keeps this process away from the cache."""
    return time.monotonic() >= _down_until


def get(key: str, default: Any = None) -> Any:
    if not available():
        return default
    try:
        return cache.get(key, default)
    except Exception as exc:  # any client error: connection refused, timeout, a server restarting …
        _failed(exc, "read")
        return default


def get_many(keys: Iterable[str]) -> dict[str, Any]:
    """The entries found of ``keys`` (one round trip); none when the cache cannot be reached."""
    if not available():
        return {}
    try:
        return cache.get_many(list(keys))
    except Exception as exc:
        _failed(exc, "read")
        return {}


def set_many(values: dict[str, Any], timeout: float | None = None) -> None:
    if not available() or not values:
        return
    try:
        cache.set_many(values, timeout)
    except Exception as exc:
        _failed(exc, "write")


def set(key: str, value: Any, timeout: float | None = None) -> None:
    if not available():
        return
    try:
        cache.set(key, value, timeout)
    except Exception as exc:
        _failed(exc, "write")


def add(key: str, value: Any, timeout: float | None = None) -> bool:
    """Set ``key`` only if it is not set (a lock: Redis's ``SET NX``); True when this call set it, and True when the
    cache cannot be reached (nobody else can hold the lock then: the caller goes ahead alone)."""
    if not available():
        return True
    try:
        return bool(cache.add(key, value, timeout))
    except Exception as exc:
        _failed(exc, "write")
        return True


def delete(key: str) -> None:
    if not available():
        return
    try:
        cache.delete(key)
    except Exception as exc:
        _failed(exc, "write")


def _glob_escaped(text: str) -> str:
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


def drop(prefixes: Iterable[str]) -> int:
    """Remove every entry whose key begins with one of ``prefixes`` (a player made anonymous: his old name goes from
    every page kept); how many. Redis by ``SCAN`` (never ``KEYS``), the local memory by its keys; another backend
    keeps them until they expire (logged). A cache that cannot be reached is skipped, as every write here."""
    prefixes = list(prefixes)
    if not prefixes or not available():
        return 0
    backend = caches["default"]
    made = [backend.make_key(p) for p in prefixes]
    removed = 0
    try:
        if isinstance(backend, LocMemCache):
            with backend._lock:  # type: ignore[attr-defined]
                for key in [k for k in backend._cache if k.startswith(tuple(made))]:  # type: ignore[attr-defined]
                    removed += backend._delete(key)  # type: ignore[attr-defined]
        elif isinstance(backend, RedisCache):
            client = backend._cache.get_client(None, write=True)  # type: ignore[attr-defined]
            for prefix in made:
                batch = list(client.scan_iter(match=_glob_escaped(prefix) + "*", count=1000))
                for start in range(0, len(batch), 500):
                    removed += client.delete(*batch[start:start + 500])
        else:
            log.warning("the cache %s cannot drop entries by prefix: they expire in their own time",
                        type(backend).__name__)
    except Exception as exc:
        _failed(exc, "drop")
    return removed


def reset() -> None:
    """Try the cache again at the next call (the tests)."""
    global _down_until
    _down_until = 0.0
