"""The worker's heartbeat: a Celery worker (through beat, every ``LEVEE_HEARTBEAT_SECONDS``, and when it starts)
writes the time in the shared cache; the health checks read how long ago that was.

The cache must be shared by the web and the worker (``CACHE_URL`` on Redis) for the web to see it; with each
process's memory as the cache, the health endpoint says it cannot know.
"""

from __future__ import annotations

import contextlib
import socket
from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

KEY = "levee:operations:heartbeat"


def heartbeat_beat() -> datetime:
    """Record that a worker is alive now; the time recorded."""
    now = timezone.now()
    with contextlib.suppress(Exception):  # a cache that cannot be written is the health check's to report
        cache.set(KEY, {"at": now.isoformat(), "host": socket.gethostname()}, timeout=24 * 3600)
    return now


def heartbeat_last() -> tuple[datetime | None, str]:
    """When a worker last beat, and its host (None, "" if never, or the cache cannot be read)."""
    try:
        value = cache.get(KEY)
    except Exception:
        return None, ""
    if not value:
        return None, ""
    return datetime.fromisoformat(value["at"]), value.get("host", "")
