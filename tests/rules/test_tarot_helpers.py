"""Helpers shared by the Tarot tests (rules and scoring): build deals and records by hand. No tests here."""

from __future__ import annotations

from typing import Any

from rules.cards import TAROT_78, format_card, mask_of, parse_card
from rules.tarot import TABLE, TAROT, TarotDeal


def codes(text: str) -> list[str]:
    return text.split()


def mask(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def cards(m: int) -> set[str]:
    return {format_card(c) for c in TAROT_78 if m >> c & 1}


def make_deal(players: int = 4, *, five: str = "mort", dealer: int = 3, **fields: Any) -> TarotDeal:
    """The rules of one deal from raw fields (defaults: seat 0 takes a garde)."""
    raw: dict[str, Any] = {"dealer": dealer, "bid": {"taker": 0, "contract": "garde", "called": None}}
    raw.update(fields)
    options = TAROT.parse_options({"players": players, "five": five})
    return TarotDeal(options, raw, players=players, field="")


def full_hands(players: int, given: dict[int, str], *, five: str = "mort", dealer: int = 3,
               dog: str | None = None) -> tuple[list[list[str]], list[str]]:
    """Hands (codes) where ``given`` fixes some cards of some seats; the rest of the pack is dealt in order."""
    playing = 4 if players == 5 and five == "mort" else players
    size, dog_size, _ = TABLE[playing]
    seats = [(dealer + k) % players for k in range(1, playing + 1)]
    taken = {c for text in given.values() for c in text.split()}
    fixed_dog = dog.split() if dog else []
    taken |= set(fixed_dog)
    rest = [format_card(c) for c in TAROT_78 if format_card(c) not in taken]
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in seats:
        hand = given.get(seat, "").split()
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands[seat] = hand
    dog_cards = fixed_dog + [rest.pop(0) for _ in range(dog_size - len(fixed_dog))]
    assert not rest
    return hands, dog_cards


def record(players: int = 4, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"format": "levee.deal/1", "game": "tarot", "options": {"players": players},
                            "players": [f"P{i + 1}" for i in range(players)], "dealer": players - 1,
                            "bid": {"taker": 0, "contract": "garde", "called": None}}
    base.update(fields)
    return base
