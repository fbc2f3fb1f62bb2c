"""The health endpoint against the real Redis as broker (CI: LEVEE_REQUIRE_SERVICES=1 fails when Redis is down)."""

from __future__ import annotations

import os

import pytest

REQUIRE = os.environ.get("LEVEE_REQUIRE_SERVICES") == "1"
REDIS_URL = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_broker_reachable_and_a_silent_worker_reported(client, settings, monkeypatch):
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError as exc:
        if REQUIRE:
            pytest.fail(f"LEVEE_REQUIRE_SERVICES=1 and Redis is unreachable: {exc}")
        pytest.skip(f"Redis is unreachable: {exc}")
    from tournaments.operations import health, heartbeat

    settings.LEVEE_HEALTH_SECONDS = 0
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = REDIS_URL
    monkeypatch.setattr(health, "cache_is_shared", lambda: True)
    body = client.get("/health/").json()
    assert body["checks"]["broker"] == {"status": "ok", "mode": "broker", "ms": body["checks"]["broker"]["ms"]}
    assert body["checks"]["worker"]["status"] == "error" and body["status"] == "degraded"  # no worker has beaten
    heartbeat.heartbeat_beat()
    assert client.get("/health/").json()["checks"]["worker"]["status"] == "ok"
