"""L'Écarté, property tests: random deals at 2, 3 and 4 players with random exchanges drawn from the
talon in order; random legal play-outs are accepted; the generator agrees with the checker; an
injected illegal card is reported at its trick and seat; cards are conserved (the hands at the first
lead are the hands dealt, less the discards, plus the draws)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import BIT, PIQUET_32, format_card, parse_card
from rules.replay import replay

from .test_triomphe_properties import PLAYERS, check_injected, check_played_out, codes, play_out


def random_ecarte(rng: random.Random, players: int | None = None) -> dict[str, Any]:
    """A random Écarté deal with hands, talon and a random (lawful) exchange."""
    n = players or rng.choice([2, 2, 3, 4])
    seats = list(range(n))
    if n == 3 and rng.random() < 0.2:  # a player has withdrawn: two seats play on
        seats = sorted(rng.sample(range(3), 2))
    dealer = rng.choice(seats)
    pack = list(PIQUET_32)
    rng.shuffle(pack)
    hands: list[list[int]] = [[] for _ in range(n)]
    for i, seat in enumerate(seats):
        hands[seat] = pack[5 * i:5 * i + 5]
    turn_up = pack[5 * len(seats)]
    talon = pack[5 * len(seats) + 1:]
    data: dict[str, Any] = {"format": "levee.deal/1", "game": "ecarte", "players": PLAYERS[:n],
                            "options": {}, "dealer": dealer, "hands": [codes(h) for h in hands],
                            "turn_up": format_card(turn_up), "talon": codes(talon)}
    if len(seats) != n:
        data["seats"] = seats
    i = seats.index(dealer)
    order = seats[i + 1:] + seats[:i + 1]
    first = order[0]
    if n == 4:
        return data
    steps: list[dict[str, Any]] = []
    held = {seat: list(hands[seat]) for seat in seats}
    used = 0
    while True:
        if rng.random() < 0.3 or used >= len(talon):
            steps.append({"seat": first, "action": "play"})
            break
        steps.append({"seat": first, "action": "propose"})
        refused = False
        for seat in order[1:]:
            if rng.random() < 0.3:
                steps.append({"seat": seat, "action": "refuse"})
                refused = True
                break
            steps.append({"seat": seat, "action": "accept"})
        if refused:
            break
        for seat in order:
            low = 1 if seat == first else 0
            k = rng.randint(low, min(5, len(talon) - used)) if len(talon) - used >= low else 0
            if k == 0 and seat != first and rng.random() < 0.5:
                continue  # a 0-card exchange may be left out
            laid = rng.sample(held[seat], k)
            drawn = talon[used:used + k]
            used += k
            held[seat] = [c for c in held[seat] if c not in laid] + drawn
            step = {"seat": seat, "action": "exchange", "discards": codes(laid)}
            if rng.random() < 0.5:
                step["draws"] = codes(drawn)
            steps.append(step)
        if rng.random() < 0.3:
            break  # the first hand plays without saying so
    data["exchanges"] = steps
    return data


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_playouts_are_accepted(seed: int) -> None:
    rng = random.Random(seed)
    data, _ = play_out(random_ecarte(rng), rng)
    check_played_out(data)
    deal = replay(data).deals[0]
    dealt = sum(BIT[parse_card(c)] for hand in data["hands"] for c in hand)
    discarded = drawn = 0
    for step in data.get("exchanges", []):
        if step["action"] == "exchange":
            k = len(step["discards"])
            discarded += k
            drawn += k
    start = sum(deal.start[s].bit_count() for s in deal.rules.seats)
    assert start == 5 * len(deal.rules.seats) == dealt.bit_count() - discarded + drawn


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_injected_illegal_card_is_reported_at_its_trick_and_seat(seed: int) -> None:
    rng = random.Random(seed)
    data, injected = play_out(random_ecarte(rng), rng, inject=True)
    if injected is not None:
        check_injected(data, injected)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_without_hands_a_legal_playout_shows_no_violation(seed: int) -> None:
    rng = random.Random(seed)
    data, _ = play_out(random_ecarte(rng), rng)
    bare = {k: v for k, v in data.items() if k not in ("hands", "talon")}
    assert replay(bare).violations == []
