"""Tarot scoring invariants on random legal deals: 91 points, zero-sum marks, full deal = its own summary."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import EXCUSE, TAROT_78
from rules.replay import replay
from rules.tarot import HALF_POINTS, random_record
from scoring.tarot import facts_from_tricks, points_text, score_match

TABLES = st.sampled_from([(3, "mort"), (4, "mort"), (5, "mort"), (5, "called_king")])
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=100, deadline=None)


def reference_points(deal) -> tuple[int, int]:
    """Each side's half-points counted card by card, the plain way (independent of scoring.tarot)."""
    rules = deal.rules
    side = {seat: ("attack" if seat in rules.attack else "defence") for seat in rules.seats}
    totals = {"attack": 0, "defence": 0}
    last = len(deal.tricks) - 1
    for trick in deal.tricks:
        taker_side = side[trick.winner]
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            if card == EXCUSE and trick.index != last and side[seat] != taker_side:
                totals[side[seat]] += HALF_POINTS[card] - 1  # keeps the Excuse, gives a half-point card
                totals[taker_side] += 1
            else:
                totals[taker_side] += HALF_POINTS[card]
    rest = set(TAROT_78) - {c for t in deal.tricks for c in t.cards}
    totals["defence" if rules.contract == "garde_contre" else "attack"] += sum(HALF_POINTS[c] for c in rest)
    return totals["attack"], totals["defence"]


@PROPERTY
@given(TABLES, SEEDS)
def test_card_points_sum_to_91(table, seed):
    players, five = table
    deal = replay(random_record(random.Random(seed), players=players, five=five)).deals[0]
    attack, defence = reference_points(deal)
    assert attack + defence == 182
    assert facts_from_tricks(deal).points_half == attack
    if deal.rules.table == 4:
        assert attack % 2 == 0  # at 4 players the taker's total is whole (rule 28)


@PROPERTY
@given(TABLES, SEEDS, st.booleans())
def test_marks_sum_to_zero_and_a_full_deal_scores_as_its_own_summary(table, seed, primes):
    players, five = table
    rng = random.Random(seed)
    data = random_record(rng, players=players, five=five)
    if primes:
        data["chelem_announced"] = rng.random() < 0.3
        taker = data["bid"]["taker"]
        data["handfuls"] = [{"seat": taker, "size": rng.choice(["simple", "double", "triple"])}]
    full = score_match(replay(data)).deals[0]
    assert full.scores is not None and sum(full.scores) == 0
    if data["options"].get("five", "mort") == "mort" and players == 5:
        assert full.scores[data["dealer"]] == 0
    facts = facts_from_tricks(replay(data).deals[0])
    summary = copy.deepcopy(data)
    for name in ("hands", "tricks", "dog", "discard"):
        summary.pop(name, None)
    summary["partner"] = full.result["partner"]
    if any(v.rule.startswith("handful") for v in replay(data).deals[0].violations):
        summary["handfuls"] = []  # a poignée the hands do not hold gives no bonus (scoring.tarot.score_facts)
    summary["summary"] = {"oudlers": facts.oudlers, "points": float(points_text(facts.points_half)),
                          "petit_au_bout": facts.petit_au_bout, "chelem": facts.chelem}
    entered = score_match(replay(summary)).deals[0]
    assert not entered.violations
    assert entered.scores == full.scores
    assert {k: v for k, v in entered.result.items() if k != "source"} == \
        {k: v for k, v in full.result.items() if k != "source"}
    # the same deal with its summary alongside the tricks: no mismatch
    both = dict(data, summary=summary["summary"])
    assert not score_match(replay(both)).deals[0].violations
