"""La Triomphe, property tests: random legal play-outs of random deals (every mode, 2 to 6 players,
teams, As qui pille with pillage) are accepted by the replay; the legal-card generator agrees with
the checker on every card of the hand; an injected illegal card is reported at its trick and seat;
cards are conserved. The helpers here are shared with the Écarté property tests.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import ACE, BIT, PIQUET_32, RANK, SUIT, card, cards_of, format_card
from rules.play import DealState
from rules.replay import replay

PLAYERS = ["Ana", "Bruno", "Chloé", "David", "Élise", "Fanny"]


def codes(cards) -> list[str]:
    return [format_card(c) for c in cards]


def play_out(data: dict[str, Any], rng: random.Random, *, inject: bool = False) -> tuple[dict[str, Any], Any]:
    """Play the deal of ``data`` (which gives the hands) at random, checking at every step that the
    legal cards are exactly those ``can_play`` accepts. With ``inject``, play one illegal card at a
    random step (when a seat has one) and stop there: the second value is then
    ``(trick, seat, rule)`` of that card, else None."""
    first = replay({**data, "tricks": []})
    deal = first.deals[0]
    assert deal.violations == ()
    state = DealState(deal.rules, deal.start)
    tricks: list[list[int]] = []
    current: list[int] = []
    injected = None
    inject_at = rng.randrange(deal.rules.tricks_per_deal * len(deal.rules.seats)) if inject else -1
    step = 0
    while not state.over:
        seat = state.seat_to_play
        hand = state.hands[seat]
        legal = state.legal_cards()
        assert legal, "a seat with cards always has a legal card"
        for c in cards_of(hand):
            assert state.can_play(c) == (c in legal)
        illegal = [c for c in cards_of(hand) if c not in legal]
        if step >= inject_at >= 0 and illegal:
            c = rng.choice(illegal)
            _, rule = deal.rules.requirement(hand, state.current, state.trick_no, seat)
            injected = (state.trick_no, seat, rule)
            current.append(c)
            tricks.append(current)
            break
        c = rng.choice(legal)
        state.play(c)
        current.append(c)
        step += 1
        if len(current) == len(deal.rules.seats):
            tricks.append(current)
            current = []
    return {**data, "tricks": [codes(t) for t in tricks]}, injected


def check_played_out(data: dict[str, Any]) -> None:
    """The replay accepts the play-out, and every card of the hands at the first lead is played once."""
    result = replay(data)
    deal = result.deals[0]
    assert deal.violations == ()
    assert deal.complete
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == len(set(played))
    start = 0
    for seat in deal.rules.seats:
        start |= deal.start[seat]
    assert sum(BIT[c] for c in played) == start
    for t in deal.tricks:  # each card came from the hand of the seat that played it
        for c, seat in zip(t.cards, t.seats, strict=True):
            assert deal.start[seat] & BIT[c]


def check_injected(data: dict[str, Any], injected: tuple[int, int, str | None]) -> None:
    found = [(v.trick, v.seat, v.rule) for v in replay(data).violations]
    assert found == [injected]


def random_triomphe(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(2, 6)
    options: dict[str, Any] = {"mode": rng.choice(["forcee", "forcat"] + (["plaisant"] if n > 2 else []))}
    if n in (4, 6) and options["mode"] != "plaisant" and rng.random() < 0.5:
        options["teams"] = [list(range(n // 2)), list(range(n // 2, n))]
    elif n >= 3 and rng.random() < 0.4:
        options["as_qui_pille"] = True
    elif rng.random() < 0.3:
        options["order"] = "piquet"
    pack = list(PIQUET_32)
    rng.shuffle(pack)
    dealer = rng.randrange(n)
    hands = [pack[5 * i:5 * i + 5] for i in range(n)]
    turn_up = pack[5 * n]
    talon = pack[5 * n + 1:]
    data: dict[str, Any] = {"format": "levee.deal/1", "game": "triomphe", "players": PLAYERS[:n],
                            "options": options, "dealer": dealer, "hands": [codes(h) for h in hands],
                            "turn_up": format_card(turn_up), "talon": codes(talon)}
    if options.get("as_qui_pille") and rng.random() < 0.8:
        trump = SUIT[turn_up]
        ace = card(ACE, trump)
        seat = dealer if RANK[turn_up] == ACE else next((s for s in range(n) if ace in hands[s]), None)
        if seat is not None:
            hand = list(hands[seat])
            taken, laid = [], []
            candidates = [turn_up, *talon]
            for c in candidates:
                if SUIT[c] != trump or rng.random() < 0.2:
                    break
                hand.append(c)
                out = rng.choice(hand)
                hand.remove(out)
                taken.append(c)
                laid.append(out)
            if taken:
                data["pillage"] = {"seat": seat, "taken": codes(taken), "discarded": codes(laid)}
    return data


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_playouts_are_accepted(seed: int) -> None:
    rng = random.Random(seed)
    data, _ = play_out(random_triomphe(rng), rng)
    check_played_out(data)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_injected_illegal_card_is_reported_at_its_trick_and_seat(seed: int) -> None:
    rng = random.Random(seed)
    data, injected = play_out(random_triomphe(rng), rng, inject=True)
    if injected is not None:
        check_injected(data, injected)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_without_hands_a_legal_playout_shows_no_violation(seed: int) -> None:
    rng = random.Random(seed)
    data, _ = play_out(random_triomphe(rng), rng)
    bare = {k: v for k, v in data.items() if k not in ("hands", "pillage", "talon")}
    if "pillage" in data:
        bare["options"] = {k: v for k, v in data["options"].items()}
    assert replay(bare).violations == []
