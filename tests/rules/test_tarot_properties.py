"""Tarot property tests: random legal play-outs at 3, 4 and 5 players (OpenSpiel style)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import TAROT_78, format_card, mask_of, parse_card
from rules.play import DealState
from rules.record import read_record
from rules.replay import replay
from rules.tarot import TABLE, random_record
from tests.rules.test_tarot_helpers import mask

TABLES = st.sampled_from([(3, "mort"), (4, "mort"), (5, "mort"), (5, "called_king")])
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=100, deadline=None)


def _rules_and_start(data):
    rec = read_record(data)
    deal = rec.deals[0]
    rules = rec.game.deal_rules(rec.options, deal.raw, players=len(rec.players), field="")
    setup = rules.setup([mask(" ".join(h)) for h in data["hands"]])
    return rules, setup, deal


@PROPERTY
@given(TABLES, SEEDS)
def test_random_legal_playouts_are_accepted(table, seed):
    players, five = table
    data = random_record(random.Random(seed), players=players, five=five)
    done = replay(data)
    assert done.legal, done.violations
    deal = done.deals[0]
    assert deal.complete
    playing = 4 if five == "mort" and players == 5 else players
    assert sum(deal.tricks_won(players)) == TABLE[playing][0]


@PROPERTY
@given(TABLES, SEEDS)
def test_cards_are_conserved(table, seed):
    players, five = table
    data = random_record(random.Random(seed), players=players, five=five)
    deal = replay(data).deals[0]
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == len(set(played))
    rest = set(TAROT_78) - set(played)
    size = TABLE[4 if five == "mort" and players == 5 else players][1]
    assert len(rest) == size  # the écart (petite, garde) or the chien (garde sans, garde contre)
    for seat in deal.rules.seats:  # every card a seat played was in its hand at the first lead
        assert {c for t in deal.tricks for c, s in zip(t.cards, t.seats, strict=True) if s == seat} \
            <= {c for c in TAROT_78 if deal.start[seat] >> c & 1}


@PROPERTY
@given(TABLES, SEEDS)
def test_generator_agrees_with_the_checker(table, seed):
    """At every step the legal cards are exactly the cards of the pack that can_play accepts."""
    players, five = table
    rng = random.Random(seed)
    data = random_record(rng, players=players, five=five)
    rules, setup, deal = _rules_and_start(data)
    state = DealState(rules, setup.hands)
    for trick in deal.tricks:
        for card in trick:
            accepted = {c for c in TAROT_78 if state.can_play(c)}
            assert accepted == set(state.legal_cards())
            state.play(card)
    assert state.over


@PROPERTY
@given(TABLES, SEEDS)
def test_fast_replay_agrees_with_the_play_state(table, seed):
    players, five = table
    data = random_record(random.Random(seed), players=players, five=five)
    rules, setup, deal = _rules_and_start(data)
    state = DealState(rules, setup.hands)
    for trick in deal.tricks:
        for card in trick:
            state.play(card)
    tricks, won = rules.fast_replay(setup.hands, deal.tricks)
    assert tricks == tuple(state.tricks)
    assert won == [mask_of(c for t in state.tricks if t.winner == seat for c in t.cards) for seat in range(players)]


@PROPERTY
@given(TABLES, SEEDS, st.data())
def test_an_injected_illegal_card_is_reported_where_it_was_played(table, seed, data):
    players, five = table
    rng = random.Random(seed)
    record = random_record(rng, players=players, five=five)
    rules, setup, deal = _rules_and_start(record)
    state = DealState(rules, setup.hands)
    spots = []  # (trick, position, seat, an illegal card from the seat's hand)
    for t, trick in enumerate(deal.tricks):
        for k, card in enumerate(trick):
            seat = state.seat_to_play
            legal = set(state.legal_cards())
            illegal = [c for c in TAROT_78 if state.hands[seat] >> c & 1 and c not in legal]
            if illegal:
                spots.append((t, k, seat, illegal))
            state.play(card)
    if not spots:
        return
    t, k, seat, illegal = data.draw(st.sampled_from(spots))
    bad = data.draw(st.sampled_from(illegal))
    tricks = [list(x) for x in record["tricks"][:t + 1]]
    tricks[t] = [*tricks[t][:k], format_card(bad)]
    record["tricks"] = tricks
    done = replay(record)
    first = done.violations[0]
    assert (first.trick, first.seat, first.card) == (t, seat, bad)
    assert first.rule in {"must_follow", "must_overtrump", "must_undertrump", "must_trump", "must_go_higher",
                          "must_play_trump", "called_suit_lead"}


@PROPERTY
@given(SEEDS)
def test_a_card_from_another_hand_is_not_in_hand(seed):
    record = random_record(random.Random(seed), players=4)
    first_trick = record["tricks"][0]
    leader_hand = set(first_trick[:1])
    others = [c for h in record["hands"] for c in h if c not in leader_hand]
    stranger = next(c for c in others if parse_card(c) not in _start_of_leader(record))
    record["tricks"] = [[stranger]]
    found = replay(record).violations
    assert [(v.rule, v.trick) for v in found][:1] == [("not_in_hand", 0)]


def _start_of_leader(record):
    rules, setup, _ = _rules_and_start(record)
    return {c for c in TAROT_78 if setup.hands[rules.first_leader] >> c & 1}
