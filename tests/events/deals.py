"""Legal deals by construction: shuffled with a seeded ``random.Random``, declared and played out with the rules
engine (``rules/``): every card played is one the game allows at that moment (``DealState.legal_cards``).

:func:`deal_fields` gives a deal's own fields (dealer, hands, declarations, tricks …) for a table's record head
(the fields the table fixes: game, options, players), as the expert entry and the API take them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
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


def renonce_fields(rng: random.Random, head: Mapping[str, Any], dealer: int,
                   dealt: Callable[[], dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """A deal of the table's game with one renonce: dealt (``dealt()``, e.g. an étui's cards; else at random) and
    played with legal cards until, from the second trick on, the player to play holds a card the rules forbid him
    now, which he plays; legal cards again after it. The rules engine replays it with violations of play only (what
    « La saisir quand même » saves as irregular)."""
    from scoring.verdict import judge_as_played

    for _ in range(100):
        fields = dealt() if dealt else deal_fields(rng, head, dealer, **kw)
        start = replay({**head, **fields, "tricks": []}).deals[0]
        state = DealState(start.rules, start.start)
        assert state.hands is not None
        played: list[int] = []
        fouled = False
        while not state.over:
            legal = set(state.legal_cards())
            forbidden = sorted(c for c in _held(state) if c not in legal)
            if not fouled and state.trick_no >= 1 and forbidden:
                card = rng.choice(forbidden)
                fouled = True
                state.apply(card)
            else:
                card = rng.choice(sorted(legal))
                state.play(card)
            played.append(card)
        if not fouled:
            continue
        size = len(start.rules.seats)
        fields["tricks"] = [_codes(played[i:i + size]) for i in range(0, len(played), size)]
        verdict = judge_as_played({**head, **fields}, 0)
        if verdict.violations and all(v.trick is not None for v in verdict.violations) and verdict.deals \
                and verdict.deals[0].scores is not None:
            return fields
    raise AssertionError(f"no deal with a renonce found for {head['game']}")


def _held(state: DealState) -> list[int]:
    """The cards of the player to play (the state's hands are bit masks)."""
    from rules.cards import cards_of

    return list(cards_of(state.hands[state.seat_to_play]))  # type: ignore[index]


def rotated(fields: Mapping[str, Any], by: int, players: int) -> dict[str, Any]:
    """The same deal with every seat moved on ``by`` places (seat s sits at s + by): the dealer, the hands, the taker,
    the exchanges and the seats that play; the tricks (cards in the order played) are unchanged."""
    out = dict(fields)

    def seat(s: int) -> int:
        return (s + by) % players

    out["dealer"] = seat(fields["dealer"])
    if "hands" in fields:
        out["hands"] = [fields["hands"][(s - by) % players] for s in range(players)]
    if isinstance(fields.get("bid"), Mapping) and isinstance(fields["bid"].get("taker"), int):
        out["bid"] = {**fields["bid"], "taker": seat(fields["bid"]["taker"])}
    if "exchanges" in fields:
        out["exchanges"] = [{**x, "seat": seat(x["seat"])} for x in fields["exchanges"]]
    if "seats" in fields:
        out["seats"] = sorted(seat(s) for s in fields["seats"])
    return out


def golden(name: str) -> dict[str, Any]:
    """A deal of ``tests/golden`` (its own fields: what the table does not fix)."""
    import json
    from pathlib import Path

    record = json.loads((Path(__file__).resolve().parents[1] / "golden" / f"{name}.json").read_text())
    return {k: v for k, v in record.items() if k not in ("format", "game", "options", "players")}
