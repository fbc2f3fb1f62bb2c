"""Health checks for the load balancer and the director: the database, the cache, the broker, the worker's last
heartbeat, the ranking lag of each running tournament, the last backup.

Cheap: a handful of small statements, computed at most once per ``LEVEE_HEALTH_SECONDS`` in a process, whoever
asks. Anonymous-safe: :func:`health_report` with ``detail=False`` keeps only the states and ages (no tournament,
host, file name or error text); the site's staff see the detail.

A check's ``status`` is ``ok``, ``warning`` (the service runs, something needs a look) or ``error``; the whole is
``ok``, ``degraded`` (a warning or an error that does not stop the pages) or ``down`` (the database is unreachable:
the load balancer should send nobody here, :attr:`Report.http_status` is 503).
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from tournaments.event.models import Tournament
from tournaments.operations.backup import backup_latest
from tournaments.operations.heartbeat import heartbeat_last

OK, WARNING, ERROR = "ok", "warning", "error"

_lock = threading.Lock()
_last: tuple[float, dict[str, Any]] | None = None


@dataclass(frozen=True)
class Report:
    body: dict[str, Any]

    @property
    def http_status(self) -> int:
        return 503 if self.body["status"] == "down" else 200


def _age(when: datetime | None, now: datetime) -> int | None:
    return None if when is None else max(0, int((now - when).total_seconds()))


def _timed(check: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        out = check()
    except Exception as exc:
        out = {"status": ERROR, "error": f"{type(exc).__name__}: {exc}"[:300]}
    out["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return out


def check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"status": OK, "engine": connection.vendor}


def cache_is_shared() -> bool:
    """Whether the cache is shared by every process (Redis), not each process's memory."""
    return not settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")


def check_cache() -> dict[str, Any]:
    key, value = "levee:operations:health", secrets.token_hex(4)
    cache.set(key, value, timeout=60)
    if cache.get(key) != value:
        return {"status": ERROR, "error": "la valeur écrite n'a pas été relue"}
    return {"status": OK, "shared": cache_is_shared()}


def check_broker() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"status": OK, "mode": "embedded"}  # no broker: the tasks run in the web process
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        try:
            client.ping()
        finally:
            client.close()
    else:
        from celery import current_app

        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=1)
    return {"status": OK, "mode": "broker"}


def check_worker(now: datetime) -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"status": OK, "mode": "embedded"}
    if not cache_is_shared():
        return {"status": WARNING, "age_seconds": None, "error": "cache non partagé (CACHE_URL) : battement invisible"}
    at, host = heartbeat_last()
    age = _age(at, now)
    late = age is None or age > 3 * settings.LEVEE_HEARTBEAT_SECONDS
    return {"status": ERROR if late else OK, "age_seconds": age, "host": host}


def check_rankings(now: datetime) -> dict[str, Any]:
    """Per running tournament: how many input versions the published ranking is behind, and for how long (the
    seconds since the newest change not yet published)."""
    running = (Tournament.objects.filter(status=Tournament.Status.RUNNING)
               .annotate(published=Max("ranking_snapshots__input_version"))
               .values_list("slug", "ranking_clock__version", "published", "ranking_clock__changed_at")
               .order_by("slug"))
    limit = settings.LEVEE_HEALTH_RANKING_LAG_SECONDS
    tournaments = []
    for slug, version, published, changed_at in running:
        behind = max(0, (version or 0) - (published or 0))
        lag = _age(changed_at, now) if behind else 0
        tournaments.append({"slug": slug, "behind": behind, "lag_seconds": lag or 0})
    worst = max((t["lag_seconds"] for t in tournaments), default=0)
    return {"status": WARNING if worst > limit else OK, "running": len(tournaments),
            "behind": sum(1 for t in tournaments if t["behind"]), "max_lag_seconds": worst,
            "tournaments": tournaments}


def check_backup(now: datetime) -> dict[str, Any]:
    last = backup_latest()
    if last is None:
        return {"status": WARNING, "age_seconds": None}
    age = _age(last.taken_at, now)
    event = Tournament.objects.filter(status=Tournament.Status.RUNNING).exists()
    late = event and age is not None and age > 2 * settings.LEVEE_BACKUP_EVERY_MINUTES * 60
    return {"status": WARNING if late else OK, "age_seconds": age, "taken_at": last.taken_at.isoformat(),
            "file": last.name, "size": last.size}


def _compute() -> dict[str, Any]:
    now = timezone.now()
    checks = {"database": _timed(check_database)}
    checks["cache"] = _timed(check_cache)
    checks["broker"] = _timed(check_broker)
    checks["worker"] = _timed(lambda: check_worker(now))
    if checks["database"]["status"] == OK:
        checks["rankings"] = _timed(lambda: check_rankings(now))
        checks["backup"] = _timed(lambda: check_backup(now))
    if checks["database"]["status"] != OK:
        status = "down"
    elif all(c["status"] == OK for c in checks.values()):
        status = "ok"
    else:
        status = "degraded"
    return {"status": status, "checked_at": now.isoformat(), "checks": checks}


#: what an anonymous visitor sees of each check
PUBLIC_KEYS = {"status", "ms", "mode", "age_seconds", "running", "behind", "max_lag_seconds", "taken_at"}


def health_report(*, detail: bool = False, fresh: bool = False) -> Report:
    """The health of the service (computed at most once per ``LEVEE_HEALTH_SECONDS`` unless ``fresh``)."""
    global _last
    with _lock:
        if fresh or _last is None or time.monotonic() - _last[0] > settings.LEVEE_HEALTH_SECONDS:
            _last = (time.monotonic(), _compute())
        body = _last[1]
    if not detail:
        body = {**body, "checks": {name: {k: v for k, v in check.items() if k in PUBLIC_KEYS}
                                   for name, check in body["checks"].items()}}
    return Report(body)
