"""A refresh is never queued behind the renders, with a real worker on the real Redis (PostgreSQL in CI): a worker
that consumes both queues (one machine, ``celery worker`` without ``-Q``) takes the waiting refreshes before the
waiting renders.

The helpers (the worker, the broker, the waits) are those of ``test_real_worker.py``.
"""

from __future__ import annotations

import re
import time

import pytest
import redis

from tests.integration import test_real_worker
from tests.integration.test_real_worker import (
    REDIS_URL,
    Worker,
    _database_url,
    wait_until,
)
from tournaments.public import tasks as public_tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

broker = test_real_worker.broker  # the fixture: this process's Celery app on the test Redis, a queue of its own


@pytest.fixture
def prints(broker):
    """The renders' queue of this test (``LEVEE_TEST_PRINTS_QUEUE``), emptied afterwards."""
    name = f"{broker[0]}-prints"
    yield name
    redis.Redis.from_url(REDIS_URL).delete(name)


def test_a_worker_on_both_queues_takes_the_waiting_refreshes_before_the_waiting_renders(broker, prints):
    """Three renders wait in ``prints``, then two refresh-side tasks in the refreshes' queue; a worker starting on
    both (one machine, ``celery worker`` without ``-Q``) runs the two refresh-side tasks first. Before (kombu's
    round robin between the queues): refresh, render, refresh — a refresh waited behind a render."""
    queue, workers = broker
    for _ in range(3):  # renders of nothing (no such tournament): each done at once
        public_tasks.render_published.apply_async(args=(0, 0), queue=prints)
    for _ in range(2):
        standings_tasks.ranking_requeue_stale.apply_async(queue=queue)
    worker = Worker(queue, _database_url(), consume=f"{queue},{prints}",
                    env_extra={"LEVEE_TEST_PRINTS_QUEUE": prints})
    workers.append(worker)
    worker.wait_ready()

    def ran() -> list[str]:
        return [m.group(1) for line in worker.log if (m := re.search(r"Task (\S+)\[[^]]+\] received", line))]

    wait_until(lambda: len(ran()) >= 5, 60, "the five tasks", worker)
    time.sleep(0.2)
    assert ran() == [standings_tasks.ranking_requeue_stale.name] * 2 + [public_tasks.render_published.name] * 3
