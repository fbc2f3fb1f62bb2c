"""Benchmark: full 2-player Écarté deals (hands, talon, an exchange, five tricks) checked per second.

``bench_ecarte(seconds)`` builds a pool of random legal deals first (not timed, with
:func:`rules.ecarte.random_record`, which ``bench/rules.py`` also uses), then replays them
with :func:`rules.replay.replay` — reading, setup checks, every play checked — for ``seconds``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from rules.ecarte import random_record
from rules.replay import replay

POOL = 200


def bench_ecarte(seconds: float) -> dict[str, Any]:
    """Deals checked per second for random full 2-player Écarté deals with hands."""
    rng = random.Random(1799)
    pool = [random_record(rng, players=2) for _ in range(POOL)]
    checked = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for data in pool:
            result = replay(data)
            if result.violations:  # pragma: no cover - the pool is legal by construction
                raise AssertionError(result.violations)
            checked += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"game": "ecarte", "players": 2, "deals": checked, "seconds": round(elapsed, 3),
            "deals_per_second": round(checked / elapsed)}


if __name__ == "__main__":  # pragma: no cover
    print(bench_ecarte(2.0))
