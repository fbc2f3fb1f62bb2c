"""The dealer rotation across annulled deals (``annulled_dealers``, ``scoring.rotation``).

A deal after annulled deals may be dealt by the dealer the rule gives after the previous deal that counts (the
annulled deals never happened), after an annulled deal (it was dealt and passed the deal on: RULES.md §2.2 rule
6, §3.1 rule 2, A-X1), or by an annulled deal's dealer (a void deal dealt again). Nobody else.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import MalformedRecord
from rules.replay import replay
from scoring.ecarte import score_match as ecarte_match
from scoring.jetons import dealer_violations
from scoring.rotation import allowed_dealers
from scoring.triomphe import score_match as triomphe_match
from tests.scoring.test_ecarte_scoring import VOLE_0, VOLE_1
from tests.scoring.test_ecarte_scoring import deal as ecarte_deal
from tests.scoring.test_ecarte_scoring import in_turn as ecarte_in_turn
from tests.scoring.test_triomphe_scoring import P3, P4, SIX, SIX_TEAMS

P2 = ["Ana", "Bruno"]


def triomphe(dealers: list[tuple[int, list[int]]], players: list[str], **options: Any):
    deals = [{"dealer": d, "turn_up": "9H", **({"annulled_dealers": a} if a else {})} for d, a in dealers]
    data = {"format": "levee.match/1", "game": "triomphe", "players": players, "options": options, "deals": deals}
    return triomphe_match(replay(data))


def wrong(scored) -> list[tuple[int, str]]:
    return [(v.deal, v.params["expected"]) for v in scored.violations if v.rule == "wrong_dealer"]


def test_triomphe_individual_after_an_annulled_deal() -> None:
    # at three: Chloé (2) deals, then Ana (0), the first hand; Ana's deal annulled
    assert wrong(triomphe([(2, []), (1, [0])], P3)) == []  # it was dealt: Bruno, Ana's first hand, deals
    assert wrong(triomphe([(2, []), (0, [0])], P3)) == []  # it never happened (or void): Ana deals
    assert wrong(triomphe([(2, []), (1, [])], P3)) == [(1, "1")]  # without it, Bruno is out of turn
    assert wrong(triomphe([(2, []), (2, [0])], P3)) == [(1, "1 ou 2")]  # Chloé twice: nobody passed it back
    # two annulled deals in a row, by Ana then Bruno: Chloé may deal (after Bruno)
    assert wrong(triomphe([(2, []), (2, [0, 1])], P3)) == []
    # the rotation goes on from the actual dealer: after Bruno comes Chloé
    assert wrong(triomphe([(2, []), (1, [0]), (2, [])], P3)) == []
    assert wrong(triomphe([(2, []), (1, [0]), (0, [])], P3)) == [(2, "3")]


def test_triomphe_teams_after_an_annulled_deal() -> None:
    # the seed's six: C (5) and F (2) alternate. F's deal annulled: C deals again after it
    assert wrong(triomphe([(5, []), (5, [2])], SIX, **SIX_TEAMS)) == []
    assert wrong(triomphe([(5, []), (5, [])], SIX, **SIX_TEAMS)) == [(1, "3")]
    # D (0), who led, never deals: F (after C), F (the annulled deal's dealer) or C (after it)
    assert wrong(triomphe([(5, []), (0, [2])], SIX, **SIX_TEAMS)) == [(1, "3 ou 6")]
    # 2 v 2 side by side: 1 and 3 alternate; 3's deal annulled, then 1 deals, then 3 again
    four = {"teams": [[0, 1], [2, 3]]}
    assert wrong(triomphe([(1, []), (1, [3]), (3, [])], P4, **four)) == []


def test_ecarte_partie_liee_an_annulled_first_deal_of_a_manche() -> None:
    # target 2, partie liée: Ana's vole (dealt by Bruno) wins the first manche; Bruno, the loser, deals first in
    # the next (§3.1 rule 2). That deal is annulled: it was dealt, so Ana deals the next one.
    first, by_ana = ecarte_in_turn([ecarte_deal(VOLE_0), ecarte_deal(VOLE_1)])
    data = {"format": "levee.match/1", "game": "ecarte", "players": P2,
            "options": {"target": 2, "partie_liee": True}, "deals": [first, {**by_ana, "annulled_dealers": [1]}]}
    assert wrong(ecarte_match(replay(data))) == []
    del data["deals"][1]["annulled_dealers"]
    assert wrong(ecarte_match(replay(data))) == [(1, "2")]


def test_jetons_games_pass_the_deal_to_the_right_across_annulled_deals() -> None:
    # L'Impériale / Le Vingt-quatre at three: Ana dealt, Bruno's deal annulled
    assert dealer_violations(1, 2, 0, 3, [1]) == []  # Chloé, after Bruno
    assert dealer_violations(1, 1, 0, 3, [1]) == []  # Bruno: his deal never happened, or again
    assert [(v.seat, v.params["expected"]) for v in dealer_violations(1, 0, 0, 3, [1])] == [(0, "2 ou 3")]
    assert [v.params["expected"] for v in dealer_violations(1, 2, 0, 3)] == ["2"]


def test_annulled_dealers_are_seats() -> None:
    data = {"format": "levee.match/1", "game": "triomphe", "players": P3,
            "deals": [{"dealer": 2, "turn_up": "9H"}, {"dealer": 0, "turn_up": "9H", "annulled_dealers": [3]}]}
    with pytest.raises(MalformedRecord) as exc:
        replay(data)
    assert exc.value.field == "deals[1].annulled_dealers[0]"
    data["deals"][1]["annulled_dealers"] = 1
    with pytest.raises(MalformedRecord) as exc:
        replay(data)
    assert exc.value.field == "deals[1].annulled_dealers"


seats = st.integers(min_value=0, max_value=5)


@given(seats, st.lists(seats, max_size=4))
def test_annulled_deals_only_widen_the_rotation(previous: int, annulled: list[int]) -> None:
    def after(seat: int) -> list[int]:
        return [(seat + 1) % 6]

    allowed = allowed_dealers(after(previous), annulled, after)
    assert allowed is not None and allowed[0] == after(previous)[0]
    assert set(allowed) == {after(previous)[0], *annulled, *(after(a)[0] for a in annulled)}
    assert allowed_dealers(None, annulled, after) is None  # the first deal follows the draw
