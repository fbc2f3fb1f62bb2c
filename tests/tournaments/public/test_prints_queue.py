"""The renders (PDFs, pages at publication) go to a Celery queue of their own, ``prints``: a ranking refresh never
waits behind a print-out (a 10,000-player publication's renders took 6.5 s in the same queue as the refreshes).
Without a broker the same tasks still run in the process."""

from __future__ import annotations

import os

import pytest
from django.conf import settings as django_settings

from levee.celery import app
from tournaments.common import runner
from tournaments.public import tasks
from tournaments.standings import tasks as standings_tasks

RENDERS = (tasks.render_pdf.name, tasks.render_published.name, tasks.render_download.name,
           tasks.championship_render_published.name)
OTHERS = (standings_tasks.ranking_refresh.name, standings_tasks.ranking_requeue_stale.name,
          "tournaments.operations_backup_if_due", "tournaments.operations_heartbeat")


def queue_of(name: str) -> str:
    return app.amqp.router.route({}, name, (), {})["queue"].name


def test_the_renders_are_routed_to_the_prints_queue_and_nothing_else_is():
    assert django_settings.LEVEE_PRINTS_QUEUE == "prints"
    assert [queue_of(n) for n in RENDERS] == ["prints", "prints", "prints", "prints"]
    assert {queue_of(n) for n in OTHERS} == {app.conf.task_default_queue}
    assert app.conf.task_default_queue != "prints"
    # each bound by its own key: on an AMQP broker two queues bound by one key both get every message
    assert [app.amqp.queues[name].routing_key for name in ("celery", "prints")] == ["celery", "prints"]


def test_a_worker_started_without_a_queue_consumes_both():
    """``celery -A levee worker`` (one machine, an upgrade with the old unit) takes the renders too: a PDF never
    waits for a worker that nobody started."""
    assert {"celery", "prints"} <= set(app.amqp.queues)


@pytest.fixture
def redis_broker():
    """This process's Celery app on the test Redis (its own database: LEVEE_TEST_REDIS_URL), with the production
    queues and their bindings (``celery``, ``prints``), emptied before and after."""
    redis = pytest.importorskip("redis")
    url = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except Exception as exc:
        if os.environ.get("LEVEE_REQUIRE_SERVICES"):
            raise
        pytest.skip(f"Redis is unreachable at {url}: {exc}")
    from kombu import pools

    default = app.conf.task_default_queue
    ours = (default, "prints", f"_kombu.binding.{app.conf.task_default_exchange or default}")
    conf = app.conf
    saved = {k: conf.get(k) for k in ("task_always_eager", "broker_url")}

    def reset_pool():
        if app._pool is not None:
            app._pool.force_close_all()
        pools.reset()
        app._pool = None
        app.amqp._producer_pool = None

    reset_pool()
    conf.update(task_always_eager=False, broker_url=url)
    client.delete(*ours)
    yield client, default
    reset_pool()
    conf.update(saved)
    client.delete(*ours)


def test_a_render_queued_with_a_broker_waits_in_prints_and_a_refresh_in_the_default_queue(redis_broker, settings):
    """A worker that consumes only the default queue takes the refresh and never a render, and the print worker
    never a refresh (both queues are bound to Celery's one exchange: by their own routing keys, or every message
    goes to both)."""
    client, default = redis_broker
    settings.LEVEE_RENDER_IN = "worker"
    runner.later(tasks.render_pdf.name, "ranking", "no-such-slug", "fr", 0, 1)
    runner.later(tasks.render_published.name, 0, 1)
    tasks.championship_published(0, 1)  # a championship's ranking published: its PDF and CSVs to the prints worker
    assert client.llen("prints") == 3 and client.llen(default) == 0
    standings_tasks.ranking_refresh.delay(0)
    assert client.llen(default) == 1 and client.llen("prints") == 3


@pytest.mark.django_db
def test_without_a_broker_a_routed_task_still_runs_in_the_process():
    """No broker (the laptop's default): Celery runs tasks eagerly, whatever their route."""
    assert app.conf.task_always_eager
    assert tasks.render_published.apply_async(args=(0, 1)).get() == 0  # no such tournament: nothing rendered
    assert tasks.championship_render_published.apply_async(args=(0, 1)).get() == 0  # nor championship
