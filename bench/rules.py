"""Benchmark of the rules checker: deals checked (and scored) per second on one core.

Run: ``.venv/bin/python bench/rules.py`` (options: ``--deals N``, ``--repeat R``, ``--only GAME``).

Each section generates random complete deals with hands **before** timing, then times them in CPU
time of this process (``time.process_time``: other jobs on a shared machine do not count), best of
``--repeat`` runs:

* **checked**: from records already read (cards as ids): the game's ``deal_rules`` + ``replay_deal``
  (every play's legality against the hands, every trick winner) + the tricks won per seat;
* **checked + scored**: the same followed by the game's ``score_match``;
* **from JSON**: ``rules.replay.replay`` on the parsed-JSON dict (reading every card code) + scoring.

Sections are functions in :data:`SECTIONS`; a game whose module does not import yet (or has no
generator) is reported as skipped. Écarté and L'Impériale (2 players) are written by other helpers:
their hooks below expect ``rules.<game>.random_record(rng, players=2)`` and ``scoring.<game>.score_match``.
"""

from __future__ import annotations

import argparse
import importlib
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
from rules.record import read_record
from rules.replay import Replay, replay, replay_deal


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


def measure(label: str, records: list[dict[str, Any]], score_match: Callable[[Replay], Any],
            repeat: int) -> dict[str, float]:
    """Time checking, checking + scoring, and the whole path from the JSON dict, for ``records``."""
    read = [read_record(r) for r in records]
    players = [len(r.players) for r in read]

    def checked() -> None:
        for rec, n in zip(read, players, strict=True):
            deal = rec.deals[0]
            rules = rec.game.deal_rules(rec.options, deal.raw, players=n, field=deal.field)
            replay_deal(rules, deal, players=n).tricks_won(n)

    def checked_scored() -> None:
        for rec, n in zip(read, players, strict=True):
            deal = rec.deals[0]
            rules = rec.game.deal_rules(rec.options, deal.raw, players=n, field=deal.field)
            done = replay_deal(rules, deal, players=n)
            done.tricks_won(n)
            score_match(Replay(rec, (done,)))

    def from_json() -> None:
        for r in records:
            score_match(replay(r))

    # sanity: the generated deals are legal
    sample = replay(records[0])
    assert sample.legal and sample.deals[0].complete, sample.violations
    count = len(records)
    plays = sum(len(d.tricks) * len(d.rules.seats) for d in replay(records[0]).deals)
    out = {
        "checked": count / _best(checked, repeat),
        "checked+scored": count / _best(checked_scored, repeat),
        "from JSON": count / _best(from_json, repeat),
    }
    print(f"{label:<32} " + "  ".join(f"{k}: {v:>8,.0f}/s" for k, v in out.items())
          + f"   ({plays} plays per deal; {1e6 / out['checked'] / plays:.2f} µs per play checked)")
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


def _two_player_hook(game: str, title: str) -> Callable[[int, int], None]:
    """A section for a 2-player game written elsewhere: skipped until its modules provide what it needs."""

    def section(deals: int, repeat: int) -> None:
        try:
            rules_module = importlib.import_module(f"rules.{game}")
            scoring_module = importlib.import_module(f"scoring.{game}")
            generator = rules_module.random_record
            score_match = scoring_module.score_match
        except (ImportError, AttributeError) as exc:
            print(f"{title:<32} skipped ({exc})")
            return
        rng = random.Random(20240601)
        records = [generator(rng, players=2) for _ in range(deals)]
        measure(title, records, score_match, repeat)

    section.__name__ = f"bench_{game}"
    return section


bench_ecarte = _two_player_hook("ecarte", "Écarté 2 players")
bench_imperiale = _two_player_hook("imperiale", "Impériale 2 players")

SECTIONS: list[tuple[str, Callable[[int, int], None]]] = [
    ("tarot", bench_tarot),
    ("ecarte", bench_ecarte),
    ("imperiale", bench_imperiale),
]
"""(game, section) pairs; a section prints its own lines."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per section (default 2000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs, best kept (default 5)")
    parser.add_argument("--only", help="run one section (tarot, ecarte, imperiale)")
    args = parser.parse_args(argv)
    _usable_games()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores "
          f"({platform.processor() or platform.platform()}); one core used; best of {args.repeat}")
    print(f"calibration: sum(range(1000)) takes {calibration():.1f} µs here (about 8-10 µs on a recent desktop core)")
    for name, section in SECTIONS:
        if args.only and name != args.only:
            continue
        section(args.deals, args.repeat)


if __name__ == "__main__":
    main()
