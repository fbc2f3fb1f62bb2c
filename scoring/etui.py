"""Étuis of a duplicate Tarot: a deal's four hands, chien and dealer, fixed before play (A-T13).

Pure Python. An étui is dealt from a seed (the same seed and number always give the same cards),
read from a ``levee.deal/1`` record, or taken from the first table that enters it card by card.
Its **fingerprint** (sha256 of the hands, chien and dealer, in a canonical form) names its cards:
two tables compared on an étui held the same cards.

:func:`contradictions` checks a table's record against the étui: hands, chien or dealer that
differ, or cards played that the étui's hands do not allow (the record is re-judged with the
étui's hands put in). A record that contradicts its étui is a **fouled étui** (« étui faussé »):
the arbiter is called, and its results are compared only with the same cards.

:func:`handful_violations` checks the poignées of a summary (a record without hands or tricks) against the
étui's hands, before the deal is saved: a poignée its declarer cannot show is refused, not fouled.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cards import TAROT_78, format_card, parse_card, sort_hand
from rules.errors import Violation
from rules.messages import register
from rules.tarot import HANDFUL_SIZES, TABLE, handful_cards, handful_needed, handful_with_chien

register({
    "etui_handful_not_held": {
        "fr": "{who} n'a que {count} atouts (Excuse comprise) dans cet étui : pas de poignée {size} ({needed}).",
        "en": "{who} holds only {count} trumps (Excuse included) in this étui: no {size} poignée ({needed}).",
    },
    "etui_handful_card_not_held": {
        "fr": "{who} montre {card} dans sa poignée, mais cette carte n'est pas dans sa main dans cet étui.",
        "en": "{who} shows {card} in a poignée, but that card is not in his hand in this étui.",
    },
})

#: hand and chien sizes by table size (RULES.md §1.2)
SIZES = {3: (24, 6), 4: (18, 6), 5: (15, 3)}


@dataclass(frozen=True)
class EtuiCards:
    """The cards of an étui: each seat's hand as dealt (seat 0 = North), the chien, the dealer."""

    hands: tuple[tuple[str, ...], ...]
    dog: tuple[str, ...]
    dealer: int

    def as_json(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "dog": list(self.dog), "dealer": self.dealer}


def _canonical(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(format_card(c) for c in sort_hand(parse_card(x) for x in cards))


def etui_cards(hands: Sequence[Sequence[str]], dog: Sequence[str], dealer: int) -> EtuiCards:
    """Cards in canonical order and codes; ValueError naming the seat when they are not a whole pack."""
    players = len(hands)
    if players not in SIZES:
        raise ValueError(f"an étui has 3, 4 or 5 hands, not {players}")
    hand_size, dog_size = SIZES[players]
    for seat, hand in enumerate(hands):
        if len(hand) != hand_size:
            raise ValueError(f"seat {seat}: {len(hand)} cards, {hand_size} expected")
    if len(dog) != dog_size:
        raise ValueError(f"chien: {len(dog)} cards, {dog_size} expected")
    every = [parse_card(c) for h in hands for c in h] + [parse_card(c) for c in dog]
    if sorted(every) != sorted(TAROT_78):
        raise ValueError("the hands and the chien are not one Tarot pack: a card missing or twice")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer: a seat from 0 to {players - 1}")
    return EtuiCards(tuple(_canonical(h) for h in hands), _canonical(dog), dealer)


def deal_etui(seed: str | int, number: int, players: int = 4) -> EtuiCards:
    """Deal étui ``number`` from ``seed``: reproducible, independent of the other étuis.

    The dealer turns with the number (étui 1: North deals, as in bridge boards).
    """
    rnd = random.Random(f"levee-etui:{seed}:{players}:{number}")
    pack = list(TAROT_78)
    rnd.shuffle(pack)
    hand_size, _dog_size = SIZES[players]
    hands = [pack[i * hand_size:(i + 1) * hand_size] for i in range(players)]
    dog = pack[players * hand_size:]
    return etui_cards([[format_card(c) for c in h] for h in hands], [format_card(c) for c in dog],
                      (number - 1) % players)


def fingerprint(cards: EtuiCards) -> str:
    """sha256 of the canonical hands, chien and dealer (hex, 64 characters)."""
    text = "|".join([" ".join(h) for h in cards.hands] + [" ".join(cards.dog), str(cards.dealer)])
    return hashlib.sha256(text.encode()).hexdigest()


def from_record(record: Mapping[str, Any]) -> EtuiCards | None:
    """The étui a record's cards describe (its ``hands``, ``dog`` and ``dealer``); None without hands."""
    hands, dog = record.get("hands"), record.get("dog")
    if not hands or dog is None:
        return None
    return etui_cards(hands, dog, int(record.get("dealer", 0)))


@dataclass(frozen=True)
class Contradiction:
    """Where a record contradicts its étui: ``what`` is dealer, hand, dog or play; seat and cards when known. For a
    hand or the chien, ``cards`` are the cards that differ either way and ``missing`` those of them the étui has
    there (the others were entered instead)."""

    what: str
    seat: int | None = None
    cards: tuple[str, ...] = ()
    detail: str = ""
    missing: tuple[str, ...] = ()


def contradictions(etui: EtuiCards, record: Mapping[str, Any]) -> list[Contradiction]:
    """Every way ``record`` contradicts ``etui`` (empty: the table played the étui's cards)."""
    out: list[Contradiction] = []
    if "dealer" in record and record["dealer"] != etui.dealer:
        out.append(Contradiction("dealer", record["dealer"]))
    hands = record.get("hands")
    if hands:
        for seat, hand in enumerate(hands):
            mine = set(_canonical(hand)) if seat < len(etui.hands) else set()
            theirs = set(etui.hands[seat]) if seat < len(etui.hands) else set()
            if mine != theirs:
                out.append(Contradiction("hand", seat, tuple(sorted(mine ^ theirs)),
                                         missing=tuple(sorted(theirs - mine))))
    if record.get("dog") is not None and set(_canonical(record["dog"])) != set(etui.dog):
        entered = set(_canonical(record["dog"]))
        out.append(Contradiction("dog", None, tuple(sorted(entered ^ set(etui.dog))),
                                 missing=tuple(sorted(set(etui.dog) - entered))))
    if not hands and record.get("tricks"):
        out += _play_contradictions(etui, record)
    return out


def _play_contradictions(etui: EtuiCards, record: Mapping[str, Any]) -> list[Contradiction]:
    """Replay the record's tricks with the étui's hands put in: a card the étui did not give that
    seat shows as a violation the record alone did not have."""
    from scoring.verdict import judge  # the rules engine, only for records played card by card

    alone = {(v.rule, v.seat, v.card) for v in judge(dict(record)).violations}
    with_cards = dict(record)
    with_cards["hands"] = [list(h) for h in etui.hands]
    with_cards["dog"] = list(etui.dog)
    new = [v for v in judge(with_cards).violations if (v.rule, v.seat, v.card) not in alone]
    return [Contradiction("play", v.seat, (format_card(v.card),) if v.card is not None else (), v.rule)
            for v in new]


def handful_violations(etui: EtuiCards, record: Mapping[str, Any]) -> list[Violation]:
    """The poignées of ``record`` that the étui's hands cannot show (RULES.md rule 19, A-T9): the declarer holds
    fewer trumps, the Excuse included, than the size asks — the taker of a petite or a garde counting the chien he
    takes — or a card shown is not his. Only for a record without hands and tricks (a summary): with them, the
    rules engine checks the poignées against the cards entered, and :func:`contradictions` the cards against the
    étui."""
    if record.get("hands") or record.get("tricks"):
        return []
    players = len(etui.hands)
    if players not in TABLE:
        return []
    bid = record.get("bid") or {}
    taker, contract = bid.get("taker"), str(bid.get("contract") or "")
    thresholds = TABLE[players][2]
    out: list[Violation] = []
    for handful in record.get("handfuls") or []:
        seat = handful.get("seat") if isinstance(handful, Mapping) else None
        if not isinstance(seat, int) or not 0 <= seat < players:
            continue  # the rules engine has refused it already
        held = [parse_card(c) for c in etui.hands[seat]]
        if seat == taker and handful_with_chien(contract):
            held += [parse_card(c) for c in etui.dog]
        shown = handful.get("cards")
        size = handful.get("size")
        if size is None and shown is not None and len(shown) in thresholds:
            size = HANDFUL_SIZES[thresholds.index(len(shown))]
        if shown is not None:
            mine = set(held)
            out += [Violation("etui_handful_card_not_held", seat=seat, card=parse_card(c))
                    for c in shown if parse_card(c) not in mine]
        if size in HANDFUL_SIZES:
            count, needed = handful_cards(held), handful_needed(players, size)
            if count < needed:
                out.append(Violation("etui_handful_not_held", seat=seat,
                                     params={"count": count, "size": size, "needed": needed}))
    return out
