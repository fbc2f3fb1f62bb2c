"""Celery tasks of the operations (beat runs them: ``CELERY_BEAT_SCHEDULE``), and one log line per task.

* :func:`backup_if_due` — a backup at every round's end and every hour of an event;
* :func:`heartbeat` — the worker says it is alive (:mod:`tournaments.operations.heartbeat`).

Every task run, of any module, logs one line on ``levee.task`` (its name, id, state and duration): JSON in
production (``LOG_FORMAT``).
"""

from __future__ import annotations

import logging
import time

from celery import shared_task
from celery.signals import task_postrun, task_prerun, worker_ready

from tournaments.operations import heartbeat as beats
from tournaments.operations import schedule

log = logging.getLogger("levee.task")
_started: dict[str, float] = {}


@shared_task(name="tournaments.operations_backup_if_due", ignore_result=True)
def backup_if_due() -> str | None:
    """Take a backup if one is due; its file name, or None."""
    taken = schedule.backup_if_due()
    return taken.name if taken else None


@shared_task(name="tournaments.operations_heartbeat", ignore_result=True)
def heartbeat() -> str:
    return beats.heartbeat_beat().isoformat()


@worker_ready.connect
def _beat_at_start(**_kwargs) -> None:
    beats.heartbeat_beat()


@task_prerun.connect
def _task_started(task_id: str | None = None, **_kwargs) -> None:
    if task_id:
        _started[task_id] = time.perf_counter()


@task_postrun.connect
def _task_done(task_id: str | None = None, task=None, state: str | None = None, **_kwargs) -> None:
    started = _started.pop(task_id, None) if task_id else None
    duration = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    log.info("task", extra={"event": "task", "task": getattr(task, "name", None), "task_id": task_id,
                            "state": state, "duration_ms": duration})
