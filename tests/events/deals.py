"""Legal deals by construction: shuffled with a seeded ``random.Random``, declared and played out with the rules
engine (``rules/``): every card played is one the game allows at that moment (``DealState.legal_cards``).

:func:`deal_fields` gives a deal's own fields (dealer, hands, declarations, tricks …) for a table's record head
(the fields the table fixes: game, options, players), as the expert entry and the API take them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.cards import FRENCH_52, PIQUET_32, PIQUET_36, format_card
from rules.play import DealState
from rules.replay import replay
from rules.tarot import random_record as tarot_random_record

TAROT_FIELDS = ("dealer", "bid", "partner", "chelem_announced", "handfuls", "hands", "dog", "discard", "tricks")


def _codes(cards: list[int]) -> list[str]:
    return [format_card(c) for c in cards]


def tarot_fields(rng: random.Random, head: Mapping[str, Any], dealer: int, *, contract: str | None = None
                 ) -> dict[str, Any]:
    """A Tarot deal played card by card (``rules.tarot.random_record``)."""
    options = head["options"]
    players = len(head["players"])
    record = tarot_random_record(rng, players=players, five=options.get("five", "mort"), dealer=dealer,
                                 contract=contract)
    return {k: record[k] for k in TAROT_FIELDS if k in record}


def tarot_summary(rng: random.Random, head: Mapping[str, Any], dealer: int) -> dict[str, Any]:
    """The tap page's quick summary (preneur, contrat, appel, bouts, points): the declarations of a legal deal
    without its cards, and the taker's side's bouts and card points as an arbiter taps them."""
    fields = tarot_fields(rng, head, dealer)
    out = {k: fields[k] for k in ("dealer", "bid", "partner") if k in fields}
    out["bid"] = {**out["bid"], "contract": rng.choice(["petite", "garde"])}
    out["summary"] = {"oudlers": rng.randint(0, 3), "points": rng.randint(20, 70), "petit_au_bout": None,
                      "chelem": None}
    return out


def _deck(game: str, players: int) -> tuple[list[int], int]:
    """The pack shuffled from and the cards in a hand."""
    if game in ("triomphe", "ecarte"):
        return list(PIQUET_32), 5
    if game == "imperiale":
        return (list(PIQUET_32) if players == 2 else list(PIQUET_36)), 12
    if game == "vingt-quatre":
        return list(FRENCH_52), 10 if players == 5 else 12
    raise ValueError(game)


def match_fields(rng: random.Random, head: Mapping[str, Any], dealer: int, seats: list[int] | None = None
                 ) -> dict[str, Any]:
    """A deal of a match game (Triomphe, Écarté, L'Impériale, Le Vingt-quatre): dealt, then played at random
    with legal cards only (the replay of the record without tricks gives the hands at the first lead)."""
    game, players = head["game"], len(head["players"])
    pack, size = _deck(game, players)
    rng.shuffle(pack)
    playing = list(seats) if seats else list(range(players))
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, seat in enumerate(playing):
        hands[seat] = pack[i * size:(i + 1) * size]
    rest = pack[len(playing) * size:]
    fields: dict[str, Any] = {"dealer": dealer, "hands": [_codes(h) for h in hands]}
    if seats:
        fields["seats"] = list(seats)
    if game == "imperiale" and players == 3:
        fields["turn_up"] = format_card(hands[dealer][-1])  # the dealer's last card is turned up
    else:
        fields["turn_up"] = format_card(rest[0])
        rest = rest[1:]
    if game in ("triomphe", "ecarte"):
        fields["talon"] = _codes(rest)
    if game == "ecarte" and players in (2, 3):
        first = playing[(playing.index(dealer) + 1) % len(playing)] if dealer in playing else (dealer + 1) % players
        fields["exchanges"] = [{"seat": first, "action": "play"}]  # played d'autorité
    start = replay({**head, **fields, "tricks": []}).deals[0]
    assert not start.violations, start.violations
    state = DealState(start.rules, start.start)
    tricks: list[list[int]] = []
    current: list[int] = []
    while not state.over:
        card = rng.choice(sorted(state.legal_cards()))
        state.play(card)
        current.append(card)
        if len(current) == len(start.rules.seats):
            tricks.append(current)
            current = []
    fields["tricks"] = [_codes(t) for t in tricks]
    return fields


def deal_fields(rng: random.Random, head: Mapping[str, Any], dealer: int, **kw: Any) -> dict[str, Any]:
    """A legal deal of the table's game."""
    if head["game"] == "tarot":
        return tarot_fields(rng, head, dealer, **kw)
    return match_fields(rng, head, dealer, **kw)


def check_legal(head: Mapping[str, Any], fields: Mapping[str, Any]) -> None:
    """The generator's own check: the rules engine replays the deal without a violation."""
    result = replay({**head, **fields})
    assert not result.violations, result.violations


class _Stacked:
    """A ``random.Random`` whose ``shuffle`` lays the pack as an étui was dealt (the hands in dealing order, then
    the chien); every other draw is the seeded generator's."""

    def __init__(self, rng: random.Random, order: list[int]) -> None:
        self.rng, self.order = rng, order
        self.used = False

    def shuffle(self, items: list[Any]) -> None:
        if not self.used:
            self.used = True
            items[:] = self.order
        else:
            self.rng.shuffle(items)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rng, name)


def tarot_from_etui(rng: random.Random, head: Mapping[str, Any], hands: list[list[str]], dog: list[str],
                    dealer: int, *, foul: bool = False) -> dict[str, Any]:
    """A deal of a duplicate étui played card by card: its hands, chien and dealer, a random bid and play.
    ``foul``: two cards change hands before the play (the étui « faussé »: its cards no longer those dealt)."""
    from rules.cards import parse_card

    players = len(head["players"])
    cards = [[parse_card(c) for c in h] for h in hands]
    if foul:
        cards[0][0], cards[1][0] = cards[1][0], cards[0][0]
    order = [c for k in range(1, players + 1) for c in cards[(dealer + k) % players]] + [parse_card(c) for c in dog]
    record = tarot_random_record(_Stacked(rng, order), players=players, dealer=dealer,  # type: ignore[arg-type]
                                 contract=rng.choice(["petite", "garde"]))
    return {k: record[k] for k in TAROT_FIELDS if k in record}
