"""Championship benchmark: a season of 12 tournaments of 600 players drawn among 1,000 (7,200 results), a points
table by place, best 8, a minimum of 3, two tie-breaks. Measures, in one run:

* ranking the season (``scoring.championship.rank_championship``: the standings, the snapshot and its digest);
* « pourquoi ce rang » line by line with :func:`explain` (each call computes the season's standings again),
  timed on 50 lines and scaled to every line;
* :func:`explain_all` (the standings computed once), what the public page, its CSV and the API use.

    .venv/bin/python bench/championship.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import championship as ch


def main() -> None:
    rng = random.Random(1)
    results = []
    for t in range(12):
        field = rng.sample(range(1000), 600)
        results += [ch.Result(p, t, t, rank=r, field=len(field)) for r, p in enumerate(field, 1)]
    rules = ch.Rules(ch.PointsTable("rank", points=tuple(range(100, 0, -1))), best=8, minimum=3,
                     tie_breaks=("wins", "best_result"))
    t0 = time.perf_counter()
    snap = ch.rank_championship(results, rules)
    t1 = time.perf_counter()
    for line in snap.lines[:50]:
        ch.explain(snap, line.entry)
    t2 = time.perf_counter()
    ch.explain_all(snap)
    t3 = time.perf_counter()
    per_line = (t2 - t1) / 50
    print(f"{len(results)} results, {len(snap.lines)} players ranked")
    print(f"rank the season: {t1 - t0:.3f} s")
    print(f"explain line by line: {per_line * 1000:.1f} ms a line, {per_line * len(snap.lines):.1f} s for all")
    print(f"explain_all: {t3 - t2:.3f} s (×{per_line * len(snap.lines) / (t3 - t2):.0f} faster)")


if __name__ == "__main__":
    main()
