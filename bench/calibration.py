"""The reference loop the benchmarks print, to compare machines and to see when this one is slowed.

This VM's speed varies by about 2x from minute to minute (docs/performance.md): read every figure
next to the calibration measured with it.
"""

from __future__ import annotations

import time


def calibration() -> float:
    """µs per ``sum(range(1000))``, best of 20 runs of 1000 (8-10 µs on a recent desktop core)."""
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(1000):
            sum(range(1000))
        best = min(best, time.perf_counter() - start)
    return best * 1000
