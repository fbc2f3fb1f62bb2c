"""Every staff page (the organizer's, the desk's and the chief's) and the API's GETs, signed in, at ``--event``
players beside a small event of ``--small`` players (issue 22; ``bench/every_page.py`` names them).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/levee_bench_public BENCH_REUSE=1 \\
        .venv/bin/python bench/staff_pages.py [--event 1000] [--small 40] [--repeat 5] [--only NAME …]

Both events are bench/public.py's Tarot event (bench/ranking.py's generator, published, its publication's
renders done) with what ``every_page.build_more`` adds (a club, a duplicate event, a season and its
championship, links, a call, a ruling, an organizer of both events). In this process (Django's test client, the
organizer signed in, the same settings and URLs as bench/public.py's server), each page is requested ``--repeat``
times on each event: its median latency (the first request apart: a cold render), the statements of its last
request on each event, and the trivial view's median beside it. A page whose statements grow with the players
(more at ``--event`` than at ``--small``) reads them one by one (N+1): listed at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/levee_bench_public")

import every_page  # noqa: E402 - bench/every_page.py: the staff's URL names and their paths
import public  # noqa: E402 - bench/public.py: its settings (the trivial view's URLconf), its event's build


def event(players: int) -> every_page.Extra:
    """bench/public.py's event at ``players`` players (kept with BENCH_REUSE=1) and every_page's data beside it."""
    import ranking as generator  # bench/ranking.py

    generator.PLAYERS = players
    _, _, tournament_id = public.build()
    return every_page.build_more(tournament_id, players)


def measure(client: object, path: str, repeat: int) -> tuple[int, float, float, int]:
    """(status, first request ms, median of the others ms, statements of the last request)."""
    from django.db import connection

    times, status = [], 0
    count = [0]

    def counted(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        count[0] += 1
        return execute(sql, params, many, context)

    for _ in range(repeat):
        count[0] = 0
        with connection.execute_wrapper(counted):
            started = time.perf_counter()
            response = client.get(path)  # type: ignore[attr-defined]
            if hasattr(response, "streaming_content"):
                b"".join(response.streaming_content)
            times.append((time.perf_counter() - started) * 1000)
        status = response.status_code
    return status, times[0], statistics.median(times[1:] or times), count[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--event", type=int, default=1000)
    parser.add_argument("--small", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="these URL names only")
    parser.add_argument("--skip", nargs="*", default=[], help="not these (a page that takes minutes at --event)")
    args = parser.parse_args()
    os.environ.setdefault("LEVEE_PDF_ROOT", "/tmp/levee-bench-staff-pdf")
    extras = {n: event(n) for n in (args.small, args.event)}
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    names = [n for n in every_page.STAFF if (not args.only or n in args.only) and n not in args.skip]
    clients = {}
    for players, extra in extras.items():
        clients[players] = Client(HTTP_ACCEPT_LANGUAGE="fr")
        clients[players].force_login(get_user_model().objects.get(pk=extra.staff_user_id))
    load = os.getloadavg()[0]
    print(f"bench/staff_pages.py — signed in as an organizer of both events, Django's test client, PostgreSQL; "
          f"{args.repeat} requests a page, the trivial view's median measured just before each; load average "
          f"{load:.1f}\n")
    print(f"| page (URL name) | status | first ms | median ms at {args.event:,} | trivial ms | × trivial | "
          f"statements at {args.small} / {args.event:,} |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    grows, failed = [], []
    for name in names:
        row = {}
        for players, extra in extras.items():
            trivial = measure(clients[players], "/bench/trivial/", args.repeat)[2]
            row[players] = measure(clients[players], every_page.STAFF[name](extra), args.repeat)
        small, big = row[args.small], row[args.event]
        print(f"| {name} | {big[0]} | {big[1]:.1f} | {big[2]:.1f} | {trivial:.2f} | {big[2] / trivial:.0f} | "
              f"{small[3]} / {big[3]} |", flush=True)
        if big[3] > small[3]:
            grows.append(f"{name} ({small[3]} → {big[3]})")
        if big[0] >= 400 or small[0] >= 400:
            failed.append(f"{name} ({small[0]}, {big[0]})")
    print(f"\nload average {load:.1f} → {os.getloadavg()[0]:.1f}")
    print(f"statements growing with the players (N+1): {', '.join(grows) or 'none'}")
    print(f"errors (4xx, 5xx): {', '.join(failed) or 'none'}")
    return 1 if grows or failed else 0


if __name__ == "__main__":
    sys.exit(main())
