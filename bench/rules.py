"""Benchmark of the rules checker: deals checked (and scored) per second on one core, from JSON text.

Run: ``.venv/bin/python bench/rules.py`` (options: ``--deals N``, ``--repeat R``, ``--only GAME``,
``--cpu C``).

Each section generates random complete deals with hands **before** timing, writes each as JSON text, then
times, in CPU time of this process (``time.process_time``: other jobs on a shared machine count less), best
of ``--repeat`` runs, on one core (the process pins itself to ``--cpu``, default the first it may use):

* **floor**: the pure-Python floor, in the same run: ``json.loads`` of the text, then each card code of the
  hands and tricks looked up once in :data:`rules.cards.CARD_BY_CODE` — what any reader must do at least;
* **read**: ``json.loads`` + :func:`rules.record.read_record` (every bound, every field, every card code);
* **checked**: from records already read (cards as ids): the game's ``deal_rules`` + ``replay_deal``
  (every play's legality against the hands, every trick winner) + the tricks won per seat — the replay;
* **checked + scored**: the same followed by the game's ``score_match``;
* **from JSON text**: ``scoring.verdict.judge(json.loads(text))``: read, replay and score, the whole path.

The ratios printed: from JSON text ÷ floor, read ÷ checked (reading costs no more than replaying) and
from JSON text ÷ checked + scored. Sections are functions in :data:`SECTIONS`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration import calibration

from rules import game as game_registry
from rules.cards import CARD_BY_CODE
from rules.record import read_record
from rules.replay import Replay, replay, replay_deal
from scoring.verdict import judge


def _usable_games() -> None:
    """Let the registry load only the game modules that import (others may still be in progress)."""
    usable = []
    for name in game_registry.GAME_MODULES:
        try:
            importlib.import_module(f"rules.{name}")
        except ImportError:
            continue
        usable.append(name)
    game_registry.GAME_MODULES = tuple(usable)


def _best(fn: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def floor(texts: list[str]) -> None:
    """The pure-Python floor: parse each text, look each card code of its hands and tricks up once."""
    table = CARD_BY_CODE
    for text in texts:
        data = json.loads(text)
        for deal in data.get("deals", (data,)):
            for hand in deal["hands"]:
                for code in hand:
                    table[code]
            for trick in deal["tricks"]:
                for code in trick:
                    table[code]


RESULTS: list[dict[str, Any]] = []
"""Every section's figures, in the order run (for ``--json``)."""


def measure(label: str, records: list[dict[str, Any]], score_match: Callable[[Replay], Any],
            repeat: int) -> dict[str, float]:
    """Time the floor, reading, checking, checking + scoring and the whole path from JSON text for ``records``
    (a list of deal or match records); rates per record."""
    texts = [json.dumps(r, ensure_ascii=False) for r in records]
    read = [read_record(r) for r in records]

    def read_only() -> None:
        for text in texts:
            read_record(json.loads(text))

    def checked() -> None:
        for rec in read:
            n = len(rec.players)
            for deal in rec.deals:
                rules = rec.game.deal_rules(rec.options, deal.raw, players=n, field=deal.field)
                replay_deal(rules, deal, players=n).tricks_won(n)

    def checked_scored() -> None:
        for rec in read:
            n = len(rec.players)
            done = []
            for deal in rec.deals:
                rules = rec.game.deal_rules(rec.options, deal.raw, players=n, field=deal.field)
                done.append(replay_deal(rules, deal, players=n))
                done[-1].tricks_won(n)
            score_match(Replay(rec, tuple(done)))

    def from_text() -> None:
        for text in texts:
            judge(json.loads(text))

    # sanity: the generated records are legal, and the verdict from the text is the one from the dict
    sample = replay(records[0])
    assert sample.legal and all(d.complete for d in sample.deals), sample.violations
    assert judge(json.loads(texts[0])).to_json() == judge(records[0]).to_json()
    count = len(records)
    plays = sum(len(d.tricks) * len(d.rules.seats) for d in sample.deals)
    out = {name: count / _best(fn, repeat) for name, fn in (
        ("floor", lambda: floor(texts)), ("read", read_only), ("checked", checked),
        ("checked+scored", checked_scored), ("from JSON text", from_text))}
    ratios = {"text/floor": out["floor"] / out["from JSON text"], "read/checked": out["checked"] / out["read"],
              "text/checked+scored": out["checked+scored"] / out["from JSON text"]}
    print(f"{label:<34} " + "  ".join(f"{k}: {v:>7,.0f}/s" for k, v in out.items())
          + "   " + "  ".join(f"{k} {v:.2f}×" for k, v in ratios.items())
          + f"   ({plays} plays, {len(texts[0]):,} bytes of JSON)")
    RESULTS.append({"section": label, "plays": plays, "bytes": len(texts[0]), **out, **ratios})
    return out


# -- sections ----------------------------------------------------------------------------------------

def bench_tarot(deals: int, repeat: int) -> None:
    from rules.tarot import random_record
    from scoring.tarot import score_match

    for players, five, label in ((4, "mort", "Tarot 4 players"), (3, "mort", "Tarot 3 players"),
                                 (5, "called_king", "Tarot 5 players (called king)")):
        rng = random.Random(20240601 + players)
        records = [random_record(rng, players=players, five=five) for _ in range(deals)]
        measure(label, records, score_match, repeat)


def _generated(game: str, title: str, players: int) -> Callable[[int, int], None]:
    """A section for a game whose rules module generates random legal deals (``random_record``)."""

    def section(deals: int, repeat: int) -> None:
        rules_module = importlib.import_module(f"rules.{game}")
        score_match = importlib.import_module(f"scoring.{game}").score_match
        rng = random.Random(20240601)
        records = [rules_module.random_record(rng, players=players) for _ in range(deals)]
        measure(title, records, score_match, repeat)

    section.__name__ = f"bench_{game}"
    return section


bench_ecarte = _generated("ecarte", "Écarté 2 players", 2)
bench_imperiale = _generated("imperiale", "Impériale 2 players", 2)
bench_vingt_quatre = _generated("vingt_quatre", "Vingt-quatre 5 players", 5)


def bench_triomphe(deals: int, repeat: int) -> None:
    from rules.triomphe import random_match
    from scoring.triomphe import score_match

    rng = random.Random(20240601)
    matches = [random_match(rng) for _ in range(max(1, deals // 6))]
    measure("Triomphe 2 players, 6-deal match", matches, score_match, repeat)


SECTIONS: list[tuple[str, Callable[[int, int], None]]] = [
    ("tarot", bench_tarot),
    ("ecarte", bench_ecarte),
    ("imperiale", bench_imperiale),
    ("vingt-quatre", bench_vingt_quatre),
    ("triomphe", bench_triomphe),
]
"""(game, section) pairs; a section prints its own lines."""


def _pin(cpu: int | None) -> str:
    """Run on one core (the given one, else the first this process may use); say which."""
    if not hasattr(os, "sched_setaffinity"):
        return "one core not enforced (no sched_setaffinity)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per section (default 2000; Triomphe: "
                                                                "one six-deal match per 6 deals)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, best kept (default 5)")
    parser.add_argument("--only", help="run one section (" + ", ".join(name for name, _ in SECTIONS) + ")")
    parser.add_argument("--cpu", type=int, help="the core to run on (default: the first allowed)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    _usable_games()
    pinned = _pin(args.cpu)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores "
          f"({platform.processor() or platform.platform()}); {pinned}; best of {args.repeat}")
    if load is not None:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (1, 5, 15 min)")
    print(f"calibration: sum(range(1000)) takes {calibration():.1f} µs here (about 8-10 µs on a recent desktop core)")
    for name, section in SECTIONS:
        if args.only and name != args.only:
            continue
        section(args.deals, args.repeat)
    if load is not None:
        after = os.getloadavg()
        print(f"load average after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"load": load, "results": RESULTS}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
