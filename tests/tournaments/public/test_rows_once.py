"""« Ma place » right after a publication: the new ranking's rows (each player's line) are computed once, by the
first process that asks (a web request, or the print worker's renders), behind a lock in the shared cache that the
others wait on; not by every web process and thread at once."""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest
from django.core.cache import cache

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common import kept
from tournaments.public import queries, tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db

REDIS_URL = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture(params=["locmem", "redis"])
def shared_cache(request, settings):
    """The pages' cache: each process's memory, or Redis (shared by the web workers and the worker, as on a
    server; a key prefix of its own: the database is shared with the tests running beside it, never flushed —
    a flush there once emptied a real worker test's queues)."""
    if request.param == "redis":
        redis = pytest.importorskip("redis")
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        try:
            client.ping()
        except Exception as exc:
            if os.environ.get("LEVEE_REQUIRE_SERVICES") == "1":
                raise
            pytest.skip(f"Redis is unreachable at {REDIS_URL}: {exc}")
        prefix = f"levee-test-rows-once-{uuid.uuid4().hex}"
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                       "LOCATION": REDIS_URL, "KEY_PREFIX": prefix}}
    kept.reset()
    queries._rows_memo.clear()
    queries._shown_memo.clear()
    yield request.param
    queries._rows_memo.clear()
    queries._shown_memo.clear()
    if request.param == "redis":
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)


@pytest.fixture
def day():
    """A, B, C, D at one table; A takes +90 (B C D −30): A 90, B C D −30 (tied 2nd)."""
    t, e = make_tournament(["A", "B", "C", "D"], slug="myplace")
    (table,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(table, [90, -30, -30, -30], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    return t, e, table


@pytest.fixture
def computed(monkeypatch):
    """Each computation of a snapshot's rows, (language, thread name), each taking 0.3 s (a big event's)."""
    calls: list[tuple[str, str]] = []
    real = queries._compute_rows

    def slow(snapshot, unit, columns, lang):
        calls.append((lang, threading.current_thread().name))
        time.sleep(0.3)
        return real(snapshot, unit, columns, lang)

    monkeypatch.setattr(queries, "_compute_rows", slow)
    return calls


def _forget_in_process() -> None:
    """What another web process would have: nothing of this snapshot in its memory (the cache is shared)."""
    queries._rows_memo.clear()
    queries._shown_memo.clear()


@pytest.mark.django_db(transaction=True)  # the readers' threads see what the test wrote
def test_the_rows_of_a_new_snapshot_are_computed_once_while_readers_wait(shared_cache, day, computed):
    """Three readers (three web processes' threads) ask for the new ranking at once: one computes its rows, the two
    others wait for them in the cache. Before: each computed them (3 computations at once on 2 CPUs)."""
    t, _, table = day
    add_deal(table, [-20, 60, -20, -20], taker=1)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    snap = t.ranking_snapshots.order_by("-input_version").first()
    cache.delete(queries.rows_key(snap, "entry", "fr"))  # nobody asked for this ranking yet
    _forget_in_process()
    computed.clear()
    got: list[list[queries.Row]] = []
    start = threading.Barrier(3)

    def reader() -> None:
        start.wait()
        from django.db import connection
        try:
            got.append(queries._rows(snap, "entry", queries.COLUMNS[snap.kind], "fr"))
        finally:
            connection.close()

    threads = [threading.Thread(target=reader, name=f"reader-{k}") for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    assert len(computed) == 1
    assert len(got) == 3 and got[0] == got[1] == got[2]
    # by hand: A 90 − 20 = 70, B −30 + 60 = 30, C and D −50 (tied 3rd)
    assert [(r.name, r.values[0], r.rank) for r in got[0]] == [("A", "70", 1), ("B", "30", 2), ("C", "-50", 3),
                                                                ("D", "-50", 3)]


def test_a_reader_does_not_wait_for_a_lock_whose_holder_died(shared_cache, day, computed, monkeypatch):
    """A lock left by a process that died (never released) is waited for at most ``ROWS_WAIT_SECONDS``: then the
    reader computes the rows itself."""
    t, _, _ = day
    snap = t.ranking_snapshots.order_by("-input_version").first()
    key = queries.rows_key(snap, "entry", "fr")
    cache.delete(key)
    _forget_in_process()
    assert cache.add(f"{key}:computing", 1, 60)  # the dead holder's
    monkeypatch.setattr(queries, "ROWS_WAIT_SECONDS", 0.2)
    started = time.monotonic()
    rows = queries._rows(snap, "entry", queries.COLUMNS[snap.kind], "fr")
    assert [r.name for r in rows] == ["A", "B", "C", "D"] and len(computed) == 1
    assert time.monotonic() - started < 5


def test_the_print_workers_renders_neither_take_nor_wait_for_the_lock(shared_cache, day, computed, monkeypatch):
    """``render_published`` runs below the web (idle-scheduled): a web request waiting on its lock waited for the
    slowest process of the machine. Its renders compute what they miss themselves (``queries.alone``), even with the
    lock held."""
    t, _, table = day
    add_deal(table, [-20, 60, -20, -20], taker=1)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    snap = t.ranking_snapshots.order_by("-input_version").first()
    assert cache.add(f"{queries.rows_key(snap, 'entry', 'fr')}:computing", 1, 60)  # a web request computing them
    monkeypatch.setattr(queries, "ROWS_WAIT_SECONDS", 30.0)
    started = time.monotonic()
    assert tasks.render_published(t.pk, snap.input_version) > 0
    assert time.monotonic() - started < 20 and sorted(lang for lang, _ in computed) == ["en", "fr"]
    assert cache.get(f"{queries.rows_key(snap, 'entry', 'fr')}:computing") == 1  # not taken, not let go
