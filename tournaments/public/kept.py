"""Django's cache as the public pages use it: a cache that cannot be reached is a cache that is empty.

Every read and write of the public pages' cache goes through here (:mod:`published` for the pages' bytes,
:mod:`queries` for a snapshot's rows). When the cache's server (Redis) is down,
a read answers ``None`` and a write is skipped: the page is rendered from the database, as the request rates
already fail open. The failure is logged once, and for :data:`PAUSE` seconds this process does not try the
cache again (so a dead Redis costs one refused connection per process every few seconds, not one per call).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache

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


def set(key: str, value: Any, timeout: float | None = None) -> None:
    if not available():
        return
    try:
        cache.set(key, value, timeout)
    except Exception as exc:
        _failed(exc, "write")


def reset() -> None:
    """Try the cache again at the next call (the tests)."""
    global _down_until
    _down_until = 0.0
