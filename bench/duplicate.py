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

    .venv/bin/python bench/duplicate.py
    BENCH_PLAYERS=1024 .venv/bin/python bench/duplicate.py
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


def main() -> None:
    results = generate()
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
