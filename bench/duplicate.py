"""Duplicate Tarot benchmark: matchpoints and ranking of a 256-player (``BENCH_PLAYERS``), 8-round duplicate.

64 tables of 4 a round, each playing the round's 32 étuis (duplicated copies): 2,048 table results
a round, 16,384 in all, 65,536 seat results (marks drawn at random, zero-sum per table, a few
fouled étuis, artificial and absent results). Measures, in one run:

* the reference: what any ranking must do at least with the same rows — group them by comparison
  unit and sort each group by mark (``sorted`` on tuples), then sum each player's marks;
* ``scoring.duplicate.rank_duplicate``: matchpoints, Neuberg, percentages, means and the ranking
  snapshot (with its sha256 digest), exact arithmetic;
* the same with the datum method.

Target: the recomputation under one second (issue 22: at 1,024 players, 262,144 seat results).

With ``--django``, a second section: the same duplicate written to PostgreSQL (``BENCH_DATABASE_URL``, by default
the database ``levee_bench_2_dup``) as the app keeps it — rounds, tables and their movement (``DuplicateTable``),
seats, one deal per étui and table, its four score rows, a few fouled étuis (``EtuiPlay``) and artificial results
— and what publishing its ranking costs: reading the results as the ranking does
(``tournaments.duplicate.results.board_rows``) and as objects (``board_results``),
the ranking computed from the database (``ranking_compute``) and the whole publication (``ranking_publish``:
the snapshot, its canonical inputs and lines written). ``BENCH_REUSE=1`` keeps the tournament of an earlier run.

    .venv/bin/python bench/duplicate.py
    BENCH_PLAYERS=1024 .venv/bin/python bench/duplicate.py
    BENCH_PLAYERS=1024 BENCH_REUSE=1 .venv/bin/python bench/duplicate.py --django
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.duplicate import BoardResult, rank_duplicate

PLAYERS = int(os.environ.get("BENCH_PLAYERS", "256"))
ROUNDS, BOARDS = 8, 32
TABLES = PLAYERS // 4


def generate(seed: int = 2026) -> list[BoardResult]:
    rnd = random.Random(seed)
    results = []
    for r in range(ROUNDS):
        order = list(range(PLAYERS))
        rnd.shuffle(order)
        for t in range(TABLES):
            seats = order[4 * t: 4 * t + 4]
            for b in range(BOARDS):
                board = r * BOARDS + b + 1
                taker = rnd.randrange(4)
                s = rnd.choice((-1, 1)) * rnd.randrange(25, 200, 5)
                marks = [-s] * 4
                marks[taker] = 3 * s
                fouled = "f" if rnd.random() < 0.002 else ""
                roll = rnd.random()
                for o, p in enumerate(seats):
                    if roll < 0.001:
                        results.append(BoardResult(board, o, p, None, artificial=("plus", "minus", "even", "absent")[o],
                                                   round=r + 1, table=t + 1))
                    else:
                        results.append(BoardResult(board, o, p, marks[o], fingerprint=fouled, round=r + 1,
                                                   table=t + 1))
    return results


def reference(results: list[BoardResult]) -> dict:
    groups = defaultdict(list)
    for x in results:
        groups[(x.board, x.fingerprint, x.orientation)].append((x.mark if x.mark is not None else 0, x.entry))
    for rows in groups.values():
        rows.sort()
    totals: dict = defaultdict(int)
    for x in results:
        totals[x.entry] += x.mark or 0
    return totals


def timed(fn, repeat: int = 5) -> tuple[float, float]:
    """Median wall-clock and median CPU time (ms): on a shared machine the CPU time says what the code costs."""
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def peak_mib(fn) -> float:
    """Peak of the Python memory allocated while ``fn`` runs (tracemalloc), in MiB."""
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/levee_bench_2_dup")


def ensure_database() -> None:
    import psycopg

    name = DB_URL.rsplit("/", 1)[1]
    with psycopg.connect(DB_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def store(results: list[BoardResult]):
    """The duplicate of :func:`generate` as the app keeps it (BENCH_REUSE=1: the one an earlier run wrote)."""
    from django.db import connection, transaction

    from tournaments.deals.models import Deal, ScoreRow
    from tournaments.duplicate.models import ArtificialResult, DuplicateSetup, DuplicateTable, Etui, EtuiPlay
    from tournaments.event.models import Entry, Player, Round, Seat, Table, Tournament

    slug = f"bench-duplicate-{PLAYERS}"
    if os.environ.get("BENCH_REUSE") == "1":
        kept = Tournament.objects.filter(slug=slug).first()
        if kept is not None and ScoreRow.objects.filter(tournament=kept).exists():
            print(f"kept the {PLAYERS}-player duplicate of an earlier run")
            return kept
    Tournament.objects.filter(slug=slug).delete()
    Player.objects.filter(licence__startswith=f"bench-dup-{PLAYERS}-").delete()
    t0 = time.perf_counter()
    with transaction.atomic():
        t = Tournament.objects.create(name="Bench duplicate", slug=slug, game="tarot", status="running",
                                      is_public=True, rounds_planned=ROUNDS, deals_per_round=BOARDS)
        DuplicateSetup.objects.create(tournament=t, boards_per_round=BOARDS)
        players = Player.objects.bulk_create([Player(name=f"Joueur {i:04d}", licence=f"bench-dup-{PLAYERS}-{i}")
                                              for i in range(PLAYERS)])
        entry = [e.pk for e in Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])]
        etuis = {e.number: e for e in Etui.objects.bulk_create(
            [Etui(tournament=t, number=r * BOARDS + b + 1, round_number=r + 1)
             for r in range(ROUNDS) for b in range(BOARDS)])}
        by_table: dict[tuple[int, int], dict[int, list[BoardResult]]] = defaultdict(lambda: defaultdict(list))
        for x in results:
            by_table[(x.round, x.table)][x.board].append(x)
        for r in range(1, ROUNDS + 1):
            rnd = Round.objects.create(tournament=t, number=r, released=True, status="finished")
            tables = {tb.number: tb for tb in Table.objects.bulk_create(
                [Table(round=rnd, number=i + 1) for i in range(TABLES)])}
            DuplicateTable.objects.bulk_create(
                [DuplicateTable(table=tb, boards=[(r - 1) * BOARDS + b + 1 for b in range(BOARDS)])
                 for tb in tables.values()])
            seats, deals = [], []
            for number, tb in tables.items():
                boards = by_table[(r, number)]
                first = boards[min(boards)]
                seats += [Seat(table=tb, position=x.orientation, entry_id=entry[x.entry]) for x in first]
                deals += [Deal(table=tb, number=board - (r - 1) * BOARDS, record={"format": "levee.deal/1"})
                          for board in sorted(boards)]
            Seat.objects.bulk_create(seats)
            rows, plays, artificial = [], [], []
            for deal in Deal.objects.bulk_create(deals):
                tb = deal.table
                board = (r - 1) * BOARDS + deal.number
                for x in by_table[(r, tb.number)][board]:
                    if x.artificial is not None:
                        artificial.append(ArtificialResult(etui=etuis[board], entry_id=entry[x.entry], table=tb,
                                                           kind=x.artificial))
                        continue
                    rows.append(ScoreRow(tournament=t, round=rnd, table=tb, deal=deal, entry_id=entry[x.entry],
                                         points=x.mark))
                    if x.fingerprint and x.orientation == 0:
                        plays.append(EtuiPlay(deal=deal, etui=etuis[board], table=tb, fouled=True,
                                              fingerprint=x.fingerprint))
            ScoreRow.objects.bulk_create(rows, batch_size=5000)
            EtuiPlay.objects.bulk_create(plays)
            ArtificialResult.objects.bulk_create(artificial)
    with connection.cursor() as c:
        c.execute("ANALYZE")
    print(f"stored {PLAYERS} players, {ScoreRow.objects.filter(tournament=t).count():,} score rows in "
          f"{time.perf_counter() - t0:.0f} s")
    return t


def django_section(results: list[BoardResult]) -> None:
    """What the app does to publish the duplicate's ranking, on PostgreSQL."""
    os.environ["DATABASE_URL"] = DB_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")
    os.environ.setdefault("LEVEE_ENV", "development")
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from tournaments.duplicate import results as duplicate
    from tournaments.standings import rankings

    call_command("migrate", verbosity=0)
    t = store(results)

    def publish():
        with transaction.atomic():
            rankings.ranking_inputs_changed(tournament_id=t.pk)
        assert rankings.ranking_publish(tournament_id=t.pk) is not None

    computed = rankings.ranking_compute(tournament=t)  # warm the caches; the same ranking as the pure one
    pure = rank_duplicate(results)
    names = dict(t.entries.values_list("id", "player__licence"))
    assert len(computed.individual.lines) == PLAYERS
    assert all(line.metric("score") == pure.line_for(int(names[line.entry].rsplit("-", 1)[1])).metric("score")
               for line in computed.individual.lines)
    ref = timed(lambda: reference(results), 3)
    from scoring.ranking import gc_paused

    def paused(fn):  # as ranking_publish runs them: the cyclic GC held off (else its passes over 262,144 objects)
        def run():
            with gc_paused():
                return fn()
        return run

    read = timed(paused(lambda: duplicate.board_rows(t)), 3)  # what the ranking reads (rows, no object per result)
    objects = timed(paused(lambda: duplicate.board_results(t)), 3)  # the results as objects (travellers, tests)
    compute = timed(paused(lambda: rankings.ranking_compute(tournament=t)), 3)
    pub = timed(publish, 3)
    ref_again = timed(lambda: reference(results), 3)
    print(f"reference (group, sort, sum): cpu {ref[1]:.1f} ms, again after {ref_again[1]:.1f} ms")
    for label, (wall, cpu) in (("read the results (board_rows)", read), ("as objects (board_results)", objects),
                               ("ranking_compute (GC held)", compute),
                               ("ranking_publish (end to end)", pub)):
        print(f"{label + ':':34s} wall {wall:7.1f} ms, this process's cpu {cpu:7.1f} ms")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    results = generate()
    if "--django" in sys.argv:
        print(f"{PLAYERS} players, {len(results)} seat results, on PostgreSQL")
        django_section(results)
        return
    print(f"{PLAYERS} players, {ROUNDS} rounds, {TABLES * BOARDS} table results a round, "
          f"{len(results)} seat results")
    ref = timed(lambda: reference(results))
    mp = timed(lambda: rank_duplicate(results))
    datum = timed(lambda: rank_duplicate(results, method="datum"))
    ref_again = timed(lambda: reference(results))  # the reference again: the load may have moved meanwhile
    ref_cpu = (ref[1] + ref_again[1]) / 2
    print(f"reference (group, sort, sum): wall {ref[0]:7.1f} ms, cpu {ref[1]:7.1f} ms "
          f"(again after: wall {ref_again[0]:.1f} ms, cpu {ref_again[1]:.1f} ms)")
    print(f"matchpoints + ranking:        wall {mp[0]:7.1f} ms, cpu {mp[1]:7.1f} ms  ×{mp[1] / ref_cpu:.1f} (cpu)")
    print(f"datum + ranking:              wall {datum[0]:7.1f} ms, cpu {datum[1]:7.1f} ms"
          f"  ×{datum[1] / ref_cpu:.1f} (cpu)")
    snap = rank_duplicate(results)
    print(f"leader {snap.lines[0].entry}: {float(snap.lines[0].metric('score')):.2f} %")
    import resource

    print(f"memory: peak of Python allocations during one ranking {peak_mib(lambda: rank_duplicate(results)):.1f} MiB "
          f"(tracemalloc; the {len(results):,} inputs themselves excluded); process maximum RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    load = os.getloadavg()[0]
    verdict = "met" if mp[0] < 1000 else ("met in CPU time" if mp[1] < 1000 else "NOT met")
    print(f"target (matchpoints + ranking under 1 s): {verdict}; load average {load:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
