"""Where a 4-player Tarot deal's judgement goes: µs per deal for each stage, beside the floor of the same run.

Run: ``.venv/bin/python bench/rules_stages.py [--deals 1200] [--repeat 7] [--cpu 0] [STAGE ...]``.

Each stage is timed alone (CPU time of this process, best of ``--repeat``, pinned to one core) on the same random
deals as ``bench/rules.py``'s Tarot 4 players section, each from what the stage before produced (the records
read, the deals' rules, the replays, the verdicts). On a shared machine the times swing with the load; the
instructions do not. ``--marks`` brackets each timed stage with ``os.getppid()`` / ``os.getpgrp()`` so that
callgrind counts the instructions of each stage apart (``docs/performance.md``, third pass)::

    valgrind --tool=callgrind --zero-before=getppid --dump-before=getpgrp \\
        .venv/bin/python bench/rules_stages.py --marks --deals 100 --repeat 1

(one dump per stage, in the order printed; its ``totals`` ÷ ``--deals``: instructions per deal).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.cards import CARD_BY_CODE
from rules.limits import scan
from rules.record import read_record
from rules.replay import dealt_hands, replay_record
from rules.tarot import random_record
from scoring.verdict import Verdict, judge, score


def stages(deals: int) -> list[tuple[str, Callable[[], Any]]]:
    """(name, function over every deal) for each stage, on ``deals`` random 4-player Tarot deals."""
    rng = random.Random(20240601 + 4)  # bench/rules.py's Tarot 4 players
    texts = [json.dumps(random_record(rng, players=4, five="mort"), ensure_ascii=False) for _ in range(deals)]
    parsed = [json.loads(t) for t in texts]
    records = [read_record(d) for d in parsed]

    def rules_of(record: Any) -> Any:
        deal = record.deals[0]
        return record.game.deal_rules(record.options, deal.raw, players=len(record.players), field=deal.field)

    prepared = []
    for record in records:
        rules = rules_of(record)
        prepared.append((rules, rules.setup(dealt_hands(rules, record.deals[0].hands, 0, "hands")[0]).hands,
                         record.deals[0].tricks))
    replays = [replay_record(r) for r in records]
    verdicts = [Verdict(r, score(r)) for r in replays]
    table = CARD_BY_CODE

    def floor() -> None:
        for text in texts:
            data = json.loads(text)
            for hand in data["hands"]:
                for code in hand:
                    table[code]
            for trick in data["tricks"]:
                for code in trick:
                    table[code]

    def setup() -> None:
        for record in records:
            rules = rules_of(record)
            rules.setup(dealt_hands(rules, record.deals[0].hands, 0, "hands")[0])

    return [
        ("floor", floor),
        ("json.loads", lambda: [json.loads(t) for t in texts]),
        ("bounds", lambda: [scan(d, table) for d in parsed]),
        ("read_record", lambda: [read_record(d) for d in parsed]),
        ("deal_rules", lambda: [rules_of(r) for r in records]),
        ("deal_rules+masks", lambda: [dealt_hands(rules_of(r), r.deals[0].hands, 0, "hands") for r in records]),
        ("deal_rules+masks+setup", setup),
        ("play loop", lambda: [rules.fast_replay(start, tricks) for rules, start, tricks in prepared]),
        ("replay_record", lambda: [replay_record(r) for r in records]),
        ("score", lambda: [score(r) for r in replays]),
        ("to_json", lambda: [v.to_json() for v in verdicts]),
        ("judge", lambda: [judge(json.loads(t)) for t in texts]),
        ("judge+to_json", lambda: [judge(json.loads(t)).to_json() for t in texts]),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="the stages to time (default: all)")
    parser.add_argument("--deals", type=int, default=1200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cpu", type=int, help="the core to run on (default: the first allowed)")
    parser.add_argument("--marks", action="store_true", help="os.getppid() before, os.getpgrp() after each stage")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0] if args.cpu is None else args.cpu})
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    out = []
    for name, fn in stages(args.deals):
        if args.only and name not in args.only:
            continue
        fn()  # warm
        best = float("inf")
        for _ in range(args.repeat):
            if args.marks:
                os.getppid()
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
            if args.marks:
                os.getpgrp()
        out.append(f"{name} {best / args.deals * 1e6:.1f}")
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(" · ".join(out) + f"   (µs per deal; load {load:.1f} → {after:.1f})")


if __name__ == "__main__":
    main()
