"""Where the public pages' work runs, outside the web requests: ``settings.LEVEE_RENDER_IN`` is ``worker`` (a Celery
worker, the default with a broker), ``thread`` (no broker: one background thread of the web process, never the
request's own) or ``manual`` (the tests: :func:`run_pending` runs what was queued in this process). A task is
named, as Celery registers it (``tournaments/public/tasks.py``)."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

_queue: list[tuple[float, int, Any, tuple]] = []
_order = itertools.count()
_wake = threading.Condition()
_thread: threading.Thread | None = None


def later(task: Any, *args: Any, delay: float = 0.0) -> None:
    """Run the task ``task`` (its name, or any callable) with ``args`` outside this request, ``delay`` seconds from
    now at the earliest."""
    if isinstance(task, str):
        task = current_app.tasks[task]
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
            # the thread runs what is due while renders run « in a thread »; a process switched to another mode
            # (the tests' « manual ») keeps its queue for whoever runs it (``run_pending``)
            while not _queue or _queue[0][0] > time.monotonic() or settings.LEVEE_RENDER_IN != "thread":
                due_in = _queue[0][0] - time.monotonic() if _queue and settings.LEVEE_RENDER_IN == "thread" else None
                _wake.wait(timeout=due_in)
            _due, _n, task, args = heapq.heappop(_queue)
        try:
            task(*args)
        except Exception:
            log.exception("rendering %s%r failed", getattr(task, "name", task), args)
        finally:
            connections.close_all()  # this thread's own connections


def pending() -> list[tuple[str, tuple]]:
    """What is queued in this process (the tests): (task name, arguments)."""
    with _wake:
        return [(getattr(task, "name", repr(task)), args) for _d, _n, task, args in sorted(_queue)]


def run_pending(*, include_delayed: bool = True, only: str | None = None) -> int:
    """Run now, in this thread, what is queued in this process (``manual``: the tests); how many were run.
    ``only``: the tasks of that name, the others left queued."""
    ran = 0
    while True:
        with _wake:
            due = [entry for entry in sorted(_queue)
                   if (include_delayed or entry[0] <= time.monotonic())
                   and (only is None or getattr(entry[2], "name", None) == only)]
            if not due:
                return ran
            _queue.remove(due[0])
            heapq.heapify(_queue)
            _due, _n, task, args = due[0]
        task(*args)
        ran += 1


def forget() -> None:
    """Drop what is queued in this process (the tests, between two)."""
    with _wake:
        _queue.clear()
