"""Benchmark: full 2-player Impériale deals (hands, retourne, impériales en main shown, twelve tricks)
checked per second.

``bench_imperiale(seconds)`` builds a pool of random legal deals first (not timed, with
:func:`rules.imperiale.random_record`, which ``bench/rules.py`` also uses), then replays them with
:func:`rules.replay.replay` — reading, setup and announcement checks, every play checked — for
``seconds``; it also reports the rate with scoring (:func:`scoring.imperiale.score_match`).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.imperiale import random_record
from rules.replay import replay
from scoring.imperiale import score_match

POOL = 200


def _rate(pool: list[dict[str, Any]], seconds: float, *, score: bool) -> tuple[int, float]:
    checked = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for data in pool:
            result = replay(data)
            if result.violations:  # pragma: no cover - the pool is legal by construction
                raise AssertionError(result.violations)
            if score:
                score_match(result)
            checked += 1
        if time.perf_counter() >= deadline:
            break
    return checked, time.perf_counter() - start


def bench_imperiale(seconds: float) -> dict[str, Any]:
    """Deals checked per second for random full 2-player Impériale deals with hands."""
    rng = random.Random(1725)
    pool = [random_record(rng, players=2) for _ in range(POOL)]
    checked, elapsed = _rate(pool, seconds * 2 / 3, score=False)
    scored, scored_elapsed = _rate(pool, seconds / 3, score=True)
    return {"game": "imperiale", "players": 2, "deals": checked, "seconds": round(elapsed, 3),
            "deals_per_second": round(checked / elapsed),
            "scored_deals_per_second": round(scored / scored_elapsed)}


if __name__ == "__main__":  # pragma: no cover
    print(bench_imperiale(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0))
