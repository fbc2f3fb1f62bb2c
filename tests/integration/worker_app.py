"""The Celery app as the real-worker tests start it: ``celery -A tests.integration.worker_app worker``.

It is ``levee.celery.app`` with two test-only settings read from the environment:

* ``LEVEE_TEST_QUEUE`` — the queue of this test run (the worker consumes it with ``-Q`` and queues
  its own start-up re-queues there, so no other worker on the machine takes them); the renders, routed to the
  ``prints`` queue in production, go to ``LEVEE_TEST_PRINTS_QUEUE`` when set (a bench's second worker), else to
  the test queue too;
* ``LEVEE_TEST_GATE`` — a file path: when set, the ranking recomputation writes that file and then
  hangs, so that the test can kill the worker *during* a recomputation (SIGKILL).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from levee.celery import app

if os.environ.get("LEVEE_TEST_QUEUE"):
    app.conf.task_default_queue = os.environ["LEVEE_TEST_QUEUE"]
    _prints = os.environ.get("LEVEE_TEST_PRINTS_QUEUE") or os.environ["LEVEE_TEST_QUEUE"]
    app.conf.task_routes = {name: {"queue": _prints} for name in app.conf.task_routes or {}}

if os.environ.get("LEVEE_TEST_GATE"):
    import django

    django.setup()
    from tournaments.standings import rankings

    _compute = rankings.ranking_compute

    def _hanging_compute(**kwargs):
        result = _compute(**kwargs)  # the work is done, inside the publishing transaction …
        Path(os.environ["LEVEE_TEST_GATE"]).write_text(str(os.getpid()))
        time.sleep(600)  # … and the worker dies here, before the snapshot is saved
        return result

    rankings.ranking_compute = _hanging_compute

__all__ = ["app"]
