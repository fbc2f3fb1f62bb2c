"""A real Celery worker on the real Redis: a deal entered through the API reaches the published
ranking; a worker killed (SIGKILL) in the middle of a recomputation loses nothing.

CI runs it with LEVEE_REQUIRE_SERVICES=1, DATABASE_URL on PostgreSQL and LEVEE_TEST_REDIS_URL; there
a missing Redis fails the test. Locally, without the variable, it is skipped when Redis is down.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from levee.celery import app as celery_app
from tests.integration.builders import make_round, make_tournament, named_lines
from tournaments.standings import rankings

REQUIRE = os.environ.get("LEVEE_REQUIRE_SERVICES") == "1"
REDIS_URL = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _unavailable(why: str) -> None:
    if REQUIRE:
        pytest.fail(f"LEVEE_REQUIRE_SERVICES=1 and {why}")
    pytest.skip(why)


def _database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql"):
        auth = quote(db.get("USER") or "")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"])
        return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    name = str(db["NAME"])
    if "memory" in name:
        _unavailable("the SQLite test database is in memory: a worker process cannot see it "
                     "(run tests/integration on its own, or use PostgreSQL)")
    return f"sqlite:///{name}"


class Worker:
    """``celery worker --pool=solo`` on the test queue, its log kept for the assertions' messages."""

    def __init__(self, queue: str, db_url: str, gate: Path | None = None, *, consume: str | None = None,
                 env_extra: dict[str, str] | None = None) -> None:
        """``consume``: the queues given to ``-Q`` (the test queue by default); ``env_extra``: more of the worker's
        environment (``LEVEE_TEST_PRINTS_QUEUE``, ``CACHE_URL`` …)."""
        env = {**os.environ, "DATABASE_URL": db_url, "CELERY_BROKER_URL": REDIS_URL, "LEVEE_TEST_QUEUE": queue,
               "DJANGO_SETTINGS_MODULE": "levee.settings", "PYTHONUNBUFFERED": "1", **(env_extra or {})}
        env.pop("LEVEE_TEST_GATE", None)
        if gate is not None:
            env["LEVEE_TEST_GATE"] = str(gate)
        self.log: list[str] = []
        self.name = f"{queue}-{uuid.uuid4().hex[:4]}@{socket.gethostname()}"
        self.proc = subprocess.Popen(
            [CELERY, "-A", "tests.integration.worker_app", "worker", "--pool=solo", "-Q", consume or queue,
             "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", self.name],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line.rstrip())

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(" ready." in line for line in self.log):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError("worker did not start:\n" + "\n".join(self.log[-40:]))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def broker():
    """Point this process's Celery app at the real Redis, on a queue of its own; restore afterwards."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        _unavailable(f"Redis is unreachable at {REDIS_URL}: {exc}")
    queue = f"levee-test-{uuid.uuid4().hex[:8]}"
    conf = celery_app.conf
    saved = {k: conf.get(k) for k in ("task_always_eager", "broker_url", "task_default_queue")}

    def reset_pool():
        from kombu import pools

        if celery_app._pool is not None:
            celery_app._pool.force_close_all()
        pools.reset()  # kombu caches pools per broker URL, process-wide: forget the closed ones
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    reset_pool()
    conf.update(task_always_eager=False, broker_url=REDIS_URL, task_default_queue=queue)
    workers: list[Worker] = []
    yield queue, workers
    for w in workers:
        w.stop()
    reset_pool()
    conf.update(saved)
    redis.Redis.from_url(REDIS_URL).delete(queue)


def wait_until(predicate, timeout: float, what: str, worker: Worker | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    log = "\n".join(worker.log[-40:]) if worker else ""
    raise AssertionError(f"timed out waiting for {what}\n{log}")


def published_marks(t) -> dict[str, int] | None:
    status = rankings.ranking_status(t)
    if not status.up_to_date or status.snapshot is None:
        return None
    return {name: rankings.metrics_dict(line)["marks"] for name, line in named_lines(status.snapshot)}


def petite_made(taker: int) -> dict:
    """A petite made by exactly 0 with 2 bouts (41 points needed, 41 made): S = 25, taker +75, each
    defender −25 (RULES.md §1.11)."""
    return {"dealer": (taker - 1) % 4, "bid": {"taker": taker, "contract": "petite", "called": None},
            "partner": None, "chelem_announced": False, "handfuls": [],
            "summary": {"oudlers": 2, "points": 41, "petit_au_bout": None, "chelem": None}}


def test_real_worker_publishes_and_survives_sigkill(broker, django_user_model, tmp_path):
    queue, workers = broker
    db_url = _database_url()
    t, e = make_tournament("ABCD", slug="live")
    (table,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    api = APIClient()
    api.force_authenticate(boss)

    worker = Worker(queue, db_url)
    workers.append(worker)
    worker.wait_ready()
    wait_until(lambda: published_marks(t) is not None, 30, "the setup's ranking", worker)

    # 1. a deal entered through the API appears in the published ranking
    started = time.monotonic()
    response = api.post(f"/api/tables/{table.pk}/deals/", petite_made(0), format="json")
    assert response.status_code == 201, response.content
    marks = wait_until(lambda: (m := published_marks(t)) and m["A"] == 75 and m, 30, "deal 1 published", worker)
    assert marks == {"A": 75, "B": -25, "C": -25, "D": -25}
    print(f"commit to published with a real worker: {time.monotonic() - started:.3f} s")

    # 2. the worker dies (SIGKILL) in the middle of the next recomputation
    worker.stop()
    gate = tmp_path / "computing"
    doomed = Worker(queue, db_url, gate=gate)
    workers.append(doomed)
    doomed.wait_ready()
    before = rankings.ranking_status(t).snapshot.input_version
    response = api.post(f"/api/tables/{table.pk}/deals/", petite_made(1), format="json")
    assert response.status_code == 201, response.content
    wait_until(gate.exists, 30, "the recomputation to start", doomed)
    doomed.kill()
    status = rankings.ranking_status(t)
    assert status.snapshot.input_version == before and not status.up_to_date, "nothing published by the dead worker"

    # 3. a new worker starts: the ranking ends up correct (A 75-25, B -25+75, C and D -50)
    again = Worker(queue, db_url)
    workers.append(again)
    again.wait_ready()
    marks = wait_until(lambda: (m := published_marks(t)) and m["B"] == 50 and m, 30, "deal 2 published", again)
    assert marks == {"A": 50, "B": 50, "C": -50, "D": -50}
    snap = rankings.ranking_status(t).snapshot
    assert sorted(line.rank for line in rankings.snapshot_lines(snap)) == [1, 1, 3, 3]
    assert rankings.snapshot_ranking(snap).digest == snap.digest
