"""Ranking benchmark on PostgreSQL: a 1,000-player, 10-round Tarot tournament.

250 tables a round, 5 deals each: 12,500 deals and 50,000 score rows, written with bulk_create
(marks drawn at random but zero-sum, as FFT marks are; no deal is judged). Measures, in one run:

* the bare SQL ``SELECT entry_id, SUM(points) … GROUP BY entry_id`` over the same rows;
* the ranking recomputation (``tournaments.standings.rankings.ranking_compute``: the SQL aggregates and
  ``scoring.ranking.rank_tarot``) and the full publication (``ranking_publish``: + snapshot saved);
* with a real Celery worker on Redis: the delay from a deal's commit to its published ranking.

Targets: recompute within 2× the bare aggregate and under 1 s; commit to published under 2 s.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/levee_bench_ranking \
    BENCH_REDIS_URL=redis://127.0.0.1:6379/14 .venv/bin/python bench/ranking.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/levee_bench_ranking")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PLAYERS, ROUNDS, DEALS = 1000, 10, 5
os.environ["DATABASE_URL"] = DB_URL
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")
os.environ.setdefault("LEVEE_ENV", "development")  # a benchmark on a development checkout


def ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def median_ms(fn, repeat: int = 7) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), min(times)


def generate():
    from django.db import connection, transaction

    from tournaments.deals.models import Deal, ScoreRow
    from tournaments.event.models import Entry, Player, Round, Seat, Table, Tournament

    Tournament.objects.filter(slug="bench-ranking").delete()
    Player.objects.filter(licence__startswith="bench-").delete()
    rng = random.Random(2024)
    t0 = time.perf_counter()
    with transaction.atomic():
        t = Tournament.objects.create(name="Bench", slug="bench-ranking", game="tarot", status="running",
                                      is_public=True, rounds_planned=ROUNDS, deals_per_round=DEALS)
        players = Player.objects.bulk_create([Player(name=f"Joueur {i:04d}", licence=f"bench-{i}")
                                              for i in range(PLAYERS)])
        entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])
        ids = [e.pk for e in entries]
        for r in range(1, ROUNDS + 1):
            rnd = Round.objects.create(tournament=t, number=r, released=True, status="finished")
            order = ids[:]
            rng.shuffle(order)
            tables = Table.objects.bulk_create([Table(round=rnd, number=i + 1) for i in range(PLAYERS // 4)])
            seats, deals = [], []
            for i, table in enumerate(tables):
                group = order[4 * i:4 * i + 4]
                seats += [Seat(table=table, position=p, entry_id=e) for p, e in enumerate(group)]
                deals += [Deal(table=table, number=d + 1, record={"format": "levee.deal/1", "game": "tarot",
                                                                  "bid": {"taker": d % 4}}) for d in range(DEALS)]
            Seat.objects.bulk_create(seats)
            deals = Deal.objects.bulk_create(deals)
            rows = []
            for deal in deals:
                i = deal.table.number - 1
                group = order[4 * i:4 * i + 4]
                s = rng.choice((-1, 1)) * rng.randrange(25, 120)
                taker = (deal.number - 1) % 4
                for p, e in enumerate(group):
                    rows.append(ScoreRow(tournament=t, round=rnd, table_id=deal.table_id, deal=deal, entry_id=e,
                                         points=3 * s if p == taker else -s))
            ScoreRow.objects.bulk_create(rows, batch_size=5000)
    with connection.cursor() as c:
        c.execute("ANALYZE")
    print(f"generated {PLAYERS} players, {ROUNDS} rounds, {ScoreRow.objects.filter(tournament=t).count()} "
          f"score rows, {Deal.objects.filter(table__round__tournament=t).count()} deals "
          f"in {time.perf_counter() - t0:.1f} s")
    return t


def bench_recompute(t) -> dict[str, float]:
    from django.db import connection, transaction

    from tournaments.standings import rankings

    def bare():
        with connection.cursor() as c:
            c.execute("SELECT entry_id, SUM(points) FROM tournaments_scorerow WHERE tournament_id = %s "
                      "GROUP BY entry_id", [t.pk])
            return c.fetchall()

    def compute():
        return rankings.ranking_compute(tournament=t)

    def publish():
        with transaction.atomic():
            rankings.ranking_inputs_changed(tournament_id=t.pk)
        assert rankings.ranking_publish(tournament_id=t.pk) is not None

    bare(), compute()  # warm the caches
    out = {}
    out["bare_sql_ms"], out["bare_sql_min_ms"] = median_ms(bare)
    out["recompute_ms"], out["recompute_min_ms"] = median_ms(compute)
    out["publish_ms"], out["publish_min_ms"] = median_ms(publish)
    computed = compute()
    assert len(computed.individual.lines) == PLAYERS
    top = computed.individual.lines[0]
    print(f"  leader: entry {top.entry} with {top.metric('marks')} marks")
    return out


def bench_worker(t, samples: int = 5) -> list[float] | None:
    import redis
    from django.db import transaction

    from levee.celery import app
    from tournaments.deals.models import Deal, ScoreRow
    from tournaments.standings import rankings, tasks

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        print(f"  (no Redis at {REDIS_URL}: {exc}; commit-to-published not measured)")
        return None
    queue = f"levee-bench-{uuid.uuid4().hex[:6]}"
    if app._pool is not None:  # a pool made for the default (eager) configuration
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.update(task_always_eager=False, broker_url=REDIS_URL, task_default_queue=queue)
    env = {**os.environ, "DATABASE_URL": DB_URL, "CELERY_BROKER_URL": REDIS_URL, "LEVEE_TEST_QUEUE": queue}
    env.pop("LEVEE_TEST_GATE", None)
    log_level = os.environ.get("BENCH_WORKER_LOG", "warning")
    worker = subprocess.Popen([str(Path(sys.executable).with_name("celery")), "-A", "tests.integration.worker_app",
                               "worker", "--pool=solo", "-Q", queue, "-l", log_level, "--without-gossip",
                               "--without-mingle", "--without-heartbeat", "-n", f"{queue}@%h"],
                              cwd=ROOT, env=env)
    try:
        time.sleep(3)
        rnd = t.rounds.get(number=ROUNDS)
        table = rnd.tables.get(number=1)
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        delays = []
        for _ in range(samples):
            with transaction.atomic():
                deal = Deal.objects.create(table=table, number=table.deals.count() + 1, record={"bid": {"taker": 0}})
                ScoreRow.objects.bulk_create([ScoreRow(tournament=t, round=rnd, table=table, deal=deal, entry_id=e,
                                                       points=75 if p == 0 else -25) for p, e in enumerate(seats)])
                tasks.ranking_refresh_on_commit(t.pk)
            committed = time.perf_counter()
            version = rankings.ranking_status(t).version
            deadline = committed + 30
            while time.perf_counter() < deadline:
                snap = rankings.latest_snapshot(t.pk)
                if snap is not None and snap.input_version >= version:
                    break
                time.sleep(0.005)
            else:
                raise SystemExit("the worker did not publish within 30 s")
            delays.append((time.perf_counter() - committed) * 1000)
            time.sleep(0.3)
        return delays
    finally:
        worker.terminate()
        worker.wait(timeout=20)
        redis.Redis.from_url(REDIS_URL).delete(queue)


def main() -> None:
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    t = generate()
    r = bench_recompute(t)
    ratio = r["recompute_ms"] / r["bare_sql_ms"]
    print(f"bare SQL SUM … GROUP BY (50,000 rows): median {r['bare_sql_ms']:.1f} ms (min {r['bare_sql_min_ms']:.1f})")
    print(f"ranking recompute (SQL aggregates + rank_tarot): median {r['recompute_ms']:.1f} ms "
          f"(min {r['recompute_min_ms']:.1f}) = {ratio:.2f}× the bare aggregate "
          f"[target ≤ 2× and < 1000 ms: {'OK' if ratio <= 2 and r['recompute_ms'] < 1000 else 'MISSED'}]")
    print(f"recompute + publish (snapshot and 1,000 lines saved): median {r['publish_ms']:.1f} ms "
          f"(min {r['publish_min_ms']:.1f})")
    delays = bench_worker(t)
    if delays:
        print(f"commit → published with a real worker: median {statistics.median(delays):.0f} ms, "
              f"max {max(delays):.0f} ms over {len(delays)} deals "
              f"[target < 2000 ms: {'OK' if max(delays) < 2000 else 'MISSED'}]")


if __name__ == "__main__":
    main()
