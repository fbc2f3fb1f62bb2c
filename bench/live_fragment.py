"""In-process cost of « ma place »'s live fragment (issue 22; docs/performance.md « wrk as the clients, « ma place »
spliced »): Django's test client in this process, local-memory cache, on the event that ``bench/public.py --event
10000`` wrote (``BENCH_DATABASE_URL``, ``BENCH_PLAYERS``): each of 200 readers' first fragment after a publication
(nothing kept for him), then again, beside the trivial view and the fragment without a reader.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/levee_bench_public .venv/bin/python bench/live_fragment.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL",
                                            "postgres://postgres@127.0.0.1:5432/levee_bench_public")
os.environ["DJANGO_SETTINGS_MODULE"] = "public_site"
os.environ.setdefault("DEBUG", "False")
os.environ.setdefault("LEVEE_ENV", "development")
os.environ.setdefault("LEVEE_PDF_ROOT", "/tmp/levee-bench-live-fragment")
os.environ.pop("CACHE_URL", None)


def timed(fn: Callable[[int], object], n: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of ``fn(0) … fn(n - 1)``."""
    wall, cpu = [], []
    for i in range(n):
        w, p = time.perf_counter(), time.process_time()
        fn(i)
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - p) * 1000)
    return wall, cpu


def main() -> None:
    import django

    django.setup()
    from django.test import Client

    from tournaments.event.models import Tournament

    t = Tournament.objects.get(slug=f"bench-ranking-{os.environ.get('BENCH_PLAYERS', '10000')}")
    ids = list(t.entries.order_by("id").values_list("id", flat=True))
    readers = ids[::50][:200]
    live = Client(HTTP_ACCEPT_ENCODING="gzip", HTTP_HX_REQUEST="true")
    trivial = Client()
    url = f"/p/{t.slug}/ranking/"
    live.get(url)  # the snapshot's rows and the fragment without a reader: what a process has after a minute
    timed(lambda i: trivial.get("/bench/trivial/"), 50)
    for name, (wall, cpu) in (("trivial view", timed(lambda i: trivial.get("/bench/trivial/"), 300)),
                              ("fragment without a reader, kept", timed(lambda i: live.get(url), 300)),
                              (f"« ma place », each reader's first ({len(readers)} readers)",
                               timed(lambda i: live.get(f"{url}?me={readers[i]}"), len(readers))),
                              ("« ma place », the same readers again",
                               timed(lambda i: live.get(f"{url}?me={readers[i]}"), len(readers)))):
        print(f"{name}: CPU median {statistics.median(cpu):.2f} ms, p95 {sorted(cpu)[int(0.95 * len(cpu))]:.2f} ms; "
              f"wall median {statistics.median(wall):.2f} ms")
    answer = live.get(f"{url}?me={readers[3]}")
    print(f"a reader's fragment: {len(answer.content):,} bytes, Content-Encoding {answer.get('Content-Encoding')}")


if __name__ == "__main__":
    main()
