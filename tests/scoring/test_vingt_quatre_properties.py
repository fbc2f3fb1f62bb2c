"""Property tests of Vingt-quatre scoring over random matches: nobody passes the target, the partie ends
at the first mark reaching it, la carte goes to the most tricks (primauté on ties), deal scores add up."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.replay import replay
from scoring.vingt_quatre import score_match
from tests.rules.test_vingt_quatre_properties import vingt_quatre_deal


def random_match(rng: random.Random, players: int, deals: int, options: dict) -> dict:
    out = [vingt_quatre_deal(rng, players, k % players, **options)[0] for k in range(deals)]
    return {"format": "levee.match/1", "game": "vingt-quatre", "options": {"players": players, **options},
            "players": [f"P{i}" for i in range(players)], "deals": out}


@settings(max_examples=50, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([4, 5]), st.integers(1, 5),
       st.sampled_from(["figures", "point"]), st.sampled_from([12, 24, 40]))
def test_random_matches_keep_the_invariants(rng, players, deals, honours, target):
    data = random_match(rng, players, deals, {"honours": honours, "target": target})
    replayed = replay(data)
    assert replayed.violations == []
    score = score_match(replayed)
    need = target // 4
    jetons = [0] * players
    ended = False
    for i, (deal, deal_replay) in enumerate(zip(score.deals, replayed.deals, strict=True)):
        if ended:
            assert deal.scores is None
            continue
        for k, mark in enumerate(deal.result["marks"]):
            jetons[mark["seat"]] += mark["jetons"]
            if mark.get("reaches_target"):
                assert jetons[mark["seat"]] >= need and score.ended == {"deal": i, "event": k}
                assert k == len(deal.result["marks"]) - 1
                ended = True
            else:
                assert max(jetons) < need
            if mark["step"] == "carte":
                won = deal_replay.tricks_won(players)
                rules_ = deal_replay.rules
                first_best = next(s for s in rules_.primaute if won[s] == max(won))
                assert mark["seat"] == first_best
        assert deal.scores is not None
    assert score.totals == jetons
    assert (score.winner is not None) == ended
