"""The least a pure-Python checker of a 4-player Tarot deal can cost, beside the floor of ``bench/rules.py``.

Run: ``.venv/bin/python bench/rules_bound.py [--deals 1200] [--repeat 7] [--cpu 0]``.

Issue 22 asks for a full 4-player Tarot deal checked and scored from its JSON text within 2.2× the pure-Python
floor (``json.loads`` of the text, then each card code of the hands and tricks looked up once in a dict). This
bench asks whether **any** pure-Python checker can be that cheap on this interpreter, whatever its data model:
it times, on the same random deals as ``bench/rules.py`` (CPU time, best of ``--repeat``, one core):

* **floor**: ``bench/rules.py``'s floor;
* **json.loads**: the parse alone (a part of the floor);
* **two calls a trick**: the same with only the seats and the winner (no cards in seat order);
* **three calls a trick**: the parse, each code's seat from the hands (one dict built at C speed), then for each
  of the 18 tricks only the three builtin calls that any check needs — the seats of its cards
  (``tuple(map(...))``), its winner (``max`` with a key), its cards in seat order (``sorted`` with a key) — and
  nothing else: no check of the result, no suit, no score;
* **vectorised check**: a whole checker written for the interpreter, on card codes without ids: every card in
  its player's hand (the seats of each trick against the rotation from its leader), every winner, the suit
  followed and the trump played (a seat that did not follow the led suit, or played no trump, must never play
  that suit, or a trump, later), and the taker's card points. It leaves out what a real judgement must also do:
  the bounds of the record, every field's type, the overtrump rule, the Excuse's exchange, the poignées, the
  chelem, the petit au bout, the contract's score, the messages and the verdict's objects — so it is a lower
  bound, not an engine (it would accept a deal the engine refuses);
* **engine**: ``scoring.verdict.judge(json.loads(text))``, the whole path ``bench/rules.py`` times.

What the figures say is in ``docs/performance.md`` (« The least a checker can cost »).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from itertools import compress, repeat
from operator import ne
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration import calibration

from rules.cards import CARD_BY_CODE, EXCUSE, SUIT, TRUMP_BASE, format_card
from rules.tarot import HALF_POINTS, random_record
from scoring.verdict import judge

SUIT_LETTERS = "SHDCTE"
"""One letter a suit: the four suits, the trumps, the Excuse (``rules.cards.SUIT`` order)."""
TAROT_CODES: dict[str, int] = {
    format_card(c): c for c in range(EXCUSE + 1)
    if c == EXCUSE or c > TRUMP_BASE or (c < TRUMP_BASE and 1 <= (c & 15) <= 14)
}
"""The 78 canonical codes of the Tarot pack."""
SUIT_OF_CODE = {code: SUIT_LETTERS[SUIT[c]] for code, c in TAROT_CODES.items()}
STRENGTH = {
    led: {code: (100 + c if SUIT_OF_CODE[code] == "T" else c if SUIT_OF_CODE[code] == led else -1)
          for code, c in TAROT_CODES.items()}.__getitem__
    for led in "SHDCT"
}
"""For each led suit, a card's strength in the trick: a trump above any card of the led suit, any other card -1."""
POINTS_OF_CODE = {code: HALF_POINTS[c] for code, c in TAROT_CODES.items()}.__getitem__
ROTATION = tuple(tuple((leader + k) % 4 for k in range(4)) for leader in range(4))


def owners(deal: dict[str, Any]) -> dict[str, int]:
    """Each code's seat at the first lead: the hands, the dog's cards to the taker, the discard to nobody (-1)."""
    owner: dict[str, int] = {}
    for seat, hand in enumerate(deal["hands"]):
        owner.update(zip(hand, repeat(seat)))
    discard = deal.get("discard")
    if discard:
        owner.update(zip(deal["dog"], repeat(deal["bid"]["taker"])))
        owner.update(zip(discard, repeat(-1)))
    return owner


def three_calls(deal: dict[str, Any]) -> None:
    """Only the three builtin calls a trick that any check needs (their results unused)."""
    seat_of = owners(deal).__getitem__
    for trick in deal["tricks"]:
        tuple(map(seat_of, trick))
        led = SUIT_OF_CODE[trick[0]] if trick[0] != "EX" else SUIT_OF_CODE[trick[1]]
        seat_of(max(trick, key=STRENGTH[led]))
        sorted(trick, key=seat_of)


def two_calls(deal: dict[str, Any]) -> None:
    """Only the seats of each trick's cards and its winner: what no check can do without."""
    seat_of = owners(deal).__getitem__
    for trick in deal["tricks"]:
        tuple(map(seat_of, trick))
        led = SUIT_OF_CODE[trick[0]] if trick[0] != "EX" else SUIT_OF_CODE[trick[1]]
        seat_of(max(trick, key=STRENGTH[led]))


def vectorised(deal: dict[str, Any]) -> tuple[list[tuple[str, int, int]], int]:
    """The faults found ((kind, seat, trick)) and the taker's half points: see the module doc for what it omits."""
    seat_of = owners(deal).__getitem__
    taker = deal["bid"]["taker"]
    leader = (deal["dealer"] + 1) % 4
    led_suits = []
    by_seat = []
    taken: list[str] = []
    faults: list[tuple[str, int, int]] = []
    for number, trick in enumerate(deal["tricks"]):
        led = SUIT_OF_CODE[trick[0]] if trick[0] != "EX" else SUIT_OF_CODE[trick[1]]
        led_suits.append(led)
        if tuple(map(seat_of, trick)) != ROTATION[leader]:
            faults.append(("not_in_hand", leader, number))
        leader = seat_of(max(trick, key=STRENGTH[led]))
        if leader == taker:
            taken += trick
        by_seat.append(sorted(trick, key=seat_of))
    led_text = "".join(led_suits)
    suit_of = SUIT_OF_CODE.__getitem__
    for seat, played in enumerate(zip(*by_seat, strict=True)):
        suits = "".join(map(suit_of, played))
        for number in compress(range(len(suits)), map(ne, suits, led_text)):
            own = suits[number]
            if own == "E":
                continue
            later = suits[number + 1:]
            if led_text[number] in later:
                faults.append(("revoke", seat, number))
            elif own != "T" and "T" in later:
                faults.append(("no_trump", seat, number))
    return faults, sum(map(POINTS_OF_CODE, taken))


def floor(texts: list[str]) -> None:
    """``bench/rules.py``'s floor."""
    table = CARD_BY_CODE
    for text in texts:
        data = json.loads(text)
        for hand in data["hands"]:
            for code in hand:
                table[code]
        for trick in data["tricks"]:
            for code in trick:
                table[code]


def _best(fn: Callable[[], None], repeat_: int, count: int) -> float:
    best = float("inf")
    for _ in range(repeat_):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best / count * 1e6


def _revoke(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with a revoke made in it: a seat that followed suit in a trick plays there instead a card of
    another suit it plays later (so it still held the led suit); None when this deal offers none."""
    tricks = [list(t) for t in record["tricks"]]
    played = judge(record).replay.deals[0].tricks
    for first, trick in enumerate(played):
        led = SUIT_OF_CODE[tricks[first][0]]
        for k, seat in enumerate(trick.seats[1:], start=1):
            if led in "TE" or SUIT_OF_CODE[tricks[first][k]] != led:
                continue
            for later in played[first + 1:]:
                j = later.seats.index(seat)
                if SUIT_OF_CODE[tricks[later.index][j]] not in (led, "T", "E"):
                    tricks[first][k], tricks[later.index][j] = tricks[later.index][j], tricks[first][k]
                    return {**record, "tricks": tricks}
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cpu", type=int, help="the core to run on (default: the first allowed)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu if args.cpu is not None else sorted(os.sched_getaffinity(0))[0]})
    rng = random.Random(20240601 + 4)  # bench/rules.py's Tarot 4 players
    records = [random_record(rng, players=4, five="mort") for _ in range(args.deals)]
    texts = [json.dumps(r, ensure_ascii=False) for r in records]
    # the vectorised check finds nothing in legal deals, and a revoke where the engine finds one
    for record in records[:200]:
        assert vectorised(record) == ([], vectorised(record)[1]), vectorised(record)[0]
        assert not judge(record).replay.violations
    bad = next(filter(None, map(_revoke, records)))
    assert vectorised(bad)[0] and judge(bad).replay.violations
    load = os.getloadavg()
    print(f"load average {load[0]:.2f}; calibration {calibration():.1f} µs; {args.deals} deals, best of {args.repeat}")
    count = len(texts)

    def timed(fn: Callable[[dict[str, Any]], object]) -> Callable[[], None]:
        def run() -> None:
            for text in texts:
                fn(json.loads(text))
        return run

    figures = {
        "floor": _best(lambda: floor(texts), args.repeat, count),
        "json.loads": _best(timed(lambda d: None), args.repeat, count),
        "two calls a trick": _best(timed(two_calls), args.repeat, count),
        "three calls a trick": _best(timed(three_calls), args.repeat, count),
        "vectorised check": _best(timed(vectorised), args.repeat, count),
        "engine (judge)": _best(timed(judge), args.repeat, count),
    }
    base = figures["floor"]
    for name, micro in figures.items():
        print(f"{name:<22} {micro:7.1f} µs a deal   {micro / base:5.2f}× the floor")
    after = os.getloadavg()
    print(f"load average after {after[0]:.2f}")


if __name__ == "__main__":
    main()
