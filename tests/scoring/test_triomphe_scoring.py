"""Scoring La Triomphe (RULES.md §2.4 rules 9–14, A-R4..A-R6). Trump is ♥ (retourne 9♥), order
K Q J A 10 9 8 7; every trick below follows suit, and its winner is worked out in the comment."""

from __future__ import annotations

from typing import Any

from rules.replay import replay
from scoring.triomphe import score_match

P2 = ["Ana", "Bruno"]
P3 = ["Ana", "Bruno", "Chloé"]
P4 = ["Ana", "Bruno", "Chloé", "David"]

# 2 players, dealer 1, seat 0 leads
POINT_0 = [["KS", "7S"],  # 0
           ["7D", "KD"],  # 1
           ["8C", "QC"],  # 1 led 8♣, 0 plays Q♣: 0
           ["QS", "8S"],  # 0
           ["7C", "JC"]]  # 1 → 0: 3 tricks, 1: 2
VOLE_0 = [["KS", "7S"], ["QS", "8S"], ["JS", "9S"], ["KD", "7D"], ["QD", "8D"]]  # 0 every time
ENGAGED_LOST = [["KS", "7S"], ["QS", "8S"], ["JS", "9S"],  # 0, 0, 0: the point is sure
                ["7D", "KD"]]  # 0 leads to the fourth trick (vole engagée) and loses it to 1's K♦
VOLE_1 = [["7S", "KS"], ["QS", "8S"], ["JS", "9S"], ["KD", "7D"], ["QD", "8D"]]  # 1 leads from trick 2, wins all


def deal(tricks: list[list[str]] | None, **fields: Any) -> dict[str, Any]:
    return {"dealer": 1, "turn_up": "9H", "tricks": tricks, **fields}


def in_turn(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two-player deals dealt in turn (§2.2 rule 6: the next dealer is the previous first hand): every other
    deal is dealt by seat 0, so seat 1 leads its first trick; each seat plays the same cards (the first trick,
    of one suit in every fixture, in the other order: its winner is the same)."""
    out = []
    for i, d in enumerate(deals):
        if i % 2:
            d = {**d, "dealer": 1 - d["dealer"]}
            if d.get("tricks"):
                d["tricks"] = [list(reversed(d["tricks"][0])), *d["tricks"][1:]]
        out.append(d)
    return out


def match(deals: list[dict[str, Any]], players: list[str] = P2, **options: Any):
    data = {"format": "levee.match/1", "game": "triomphe", "players": players, "options": options, "deals": deals}
    replayed = replay(data)
    assert replayed.violations == []
    return score_match(replayed)


def single(tricks, players=P2, options=None, **fields):
    return match([deal(tricks, **fields)], players, **(options or {})).deals[0]


def test_most_tricks_scores_one_point() -> None:
    scored = single(POINT_0)
    assert scored.scores == [1, 0]
    assert scored.result["marks"] == [{"kind": "point", "seats": [0], "points": 1, "tie": False}]


def test_vole_scores_two() -> None:
    assert single(VOLE_0).scores == [2, 0]
    assert single(VOLE_1).scores == [0, 2]


def test_failed_vole_engagee_costs_two_and_nobody_scores() -> None:
    scored = single(ENGAGED_LOST)  # the record may stop at the lost trick
    assert scored.scores == [-2, 0]
    assert scored.result["marks"][0]["kind"] == "vole_failed"
    # played on to the end: the same
    assert single([*ENGAGED_LOST, ["QD", "8D"]]).scores == [-2, 0]


def test_laying_down_after_three_tricks_scores_one() -> None:
    assert single(VOLE_0[:3], stopped=True).scores == [1, 0]


def test_laying_down_needs_the_first_three_tricks() -> None:
    scored = single(POINT_0[:3], stopped=True)  # 0, 1, 0: not allowed
    assert scored.scores is None
    assert [v.rule for v in scored.violations] == ["stop_not_allowed"]


def test_unfinished_deal_has_no_score() -> None:
    assert single(VOLE_0[:3]).scores is None  # neither stopped nor played on
    assert single([*VOLE_0[:3], ["KD"]]).scores is None  # committed, the fourth trick not finished


def test_primaute_breaks_ties() -> None:
    # dealer 2: primauté 0, 1, 2
    tricks = [["7S", "KS", "8S"],  # 1
              ["7D", "KD", "8D"],  # 1 leads, 2 wins
              ["7C", "8C", "KC"],  # 2 leads, 1 wins
              ["9D", "QD", "10D"],  # 1 leads, 2 wins
              ["9C", "QC", "10C"]]  # 2 leads, 0 wins → 0: 1, 1: 2, 2: 2
    scored = match([{"dealer": 2, "turn_up": "9H", "tricks": tricks}], P3).deals[0]
    assert scored.scores == [0, 1, 0]
    assert scored.result["marks"][0]["tie"] is True
    # dealer 1: primauté 2, 0, 1; seats 0 and 1 tie on two tricks, 0 is nearer the first hand
    tricks = [["7S", "KS", "8S"],  # 2 leads, 0 wins
              ["7D", "KD", "8D"],  # 0 leads, 1 wins
              ["7C", "8C", "KC"],  # 1 leads, 0 wins
              ["9D", "QD", "10D"],  # 0 leads, 1 wins
              ["9C", "QC", "10C"]]  # 1 leads, 2 wins → 0: 2, 1: 2, 2: 1
    assert match([{"dealer": 1, "turn_up": "9H", "tricks": tricks}], P3).deals[0].scores == [1, 0, 0]


def test_teams_score_together() -> None:
    tricks = [["KS", "7S", "8S", "9S"],  # 0
              ["7D", "KD", "8D", "9D"],  # 0 leads, 1 wins
              ["7C", "KC", "8C", "9C"],  # 1 leads, 2 wins
              ["10S", "QS", "JS", "AS"],  # 2 leads, 3 wins (Q above J and A)
              ["10D", "QD", "JD", "AD"]]  # 3 leads, 0 wins → team 0-1: 3 tricks
    scored = match([{"dealer": 3, "turn_up": "9H", "tricks": tricks}], P4, teams=[[0, 1], [2, 3]]).deals[0]
    assert scored.scores == [1, 1, 0, 0]


def test_abandon_accepted_gives_the_point_to_the_other_party() -> None:
    scored = single([["KS"]], abandon={"by": 0, "accepted": True})
    assert scored.scores == [0, 1]
    assert scored.result["marks"][0]["kind"] == "abandon"
    assert single(None, abandon={"by": 1, "accepted": True}).scores == [1, 0]


def test_abandon_accepted_ends_the_deal() -> None:
    scored = single(POINT_0[:2], abandon={"by": 0, "accepted": True})
    assert scored.scores is None
    assert [v.rule for v in scored.violations] == ["play_after_abandon"]


def test_abandon_refused_the_refuser_must_make_the_vole() -> None:
    # 0 offers, 1 refuses: 1 wins every trick → +2
    assert single(VOLE_1, abandon={"by": 0, "accepted": False}).scores == [0, 2]
    # 1 loses the first trick → −2 for 1, nothing for 0 (the record may stop there)
    assert single(POINT_0[:1], abandon={"by": 0, "accepted": False}).scores == [0, -2]
    # even winning the point (3 tricks) is not enough
    assert single(POINT_0, abandon={"by": 1, "accepted": False}).scores == [-2, 0]


def test_abandon_only_one_against_one_or_team_against_team() -> None:
    tricks = [["7S", "KS", "8S"]]
    scored = match([{"dealer": 2, "turn_up": "9H", "tricks": tricks, "abandon": {"by": 0, "accepted": True}}],
                   P3).deals[0]
    assert [v.rule for v in scored.violations] == ["abandon_not_allowed"]


def test_match_ends_at_the_deal_that_reaches_the_target() -> None:
    deals = in_turn([deal(POINT_0),  # 0: 1
                     deal(ENGAGED_LOST),  # 0: -1
                     deal(VOLE_1),  # 1: 2
                     deal(VOLE_1),  # 1: 4
                     deal(POINT_0),  # 0: 0
                     deal(VOLE_1)])  # 1: 6 ≥ 5
    scored = match(deals)
    assert not scored.violations
    assert scored.totals == [0, 6]
    assert scored.winner == 1
    assert scored.ended == {"deal": 5, "event": 0}
    after = match([*deals, deal(VOLE_0)])  # the seventh deal, dealt by seat 1 again
    assert after.totals == [0, 6]
    assert [v.rule for v in after.violations] == ["match_over"]


def test_match_in_teams_to_seven_for_three_against_three() -> None:
    six = ["A", "B", "C", "D", "E", "F"]
    # 6 players, teams 0-1-2 and 3-4-5, dealer 5: seat 0 leads; team 0-1-2 wins the first three tricks
    # and lays down each time: +1 per deal; the default target 3 v 3 is 7
    tricks = [["KS", "7S", "8S", "9S", "10S", "AS"],  # 0
              ["KD", "7D", "8D", "9D", "10D", "AD"],  # 0
              ["KC", "7C", "8C", "9C", "10C", "AC"]]  # 0
    one = {"dealer": 5, "turn_up": "9H", "tricks": tricks, "stopped": True}
    scored = match([one] * 6, six, teams=[[0, 1, 2], [3, 4, 5]])
    assert scored.totals == [6, 6, 6, 0, 0, 0] and scored.ended is None and scored.winner is None
    scored = match([one] * 7, six, teams=[[0, 1, 2], [3, 4, 5]])
    assert scored.winner == [0, 1, 2] and scored.ended == {"deal": 6, "event": 0}


# -- who deals (§2.2 rule 6) ------------------------------------------------------------------------------

def test_individual_the_next_dealer_is_the_previous_first_hand() -> None:
    three = [{"dealer": d, "turn_up": "9H"} for d in (2, 0, 1, 2)]
    assert not match(three, P3).violations
    wrong = match([three[0], three[2]], P3).violations  # after 2 comes 0, the first hand
    assert [(v.rule, v.deal, v.seat, v.params["expected"]) for v in wrong] == [("wrong_dealer", 1, 1, "1")]
    assert not match(in_turn([deal(POINT_0), deal(POINT_0)])).violations
    assert [v.rule for v in match([deal(POINT_0), deal(POINT_0)]).violations] == ["wrong_dealer"]


SIX = ["D", "E", "F", "A", "B", "C"]  # the seed's example, seats 0..5 in the order of play
SIX_TEAMS = {"teams": [[0, 1, 2], [3, 4, 5]]}


def dealt_by(*dealers: int) -> list[dict[str, Any]]:
    return [{"dealer": d, "turn_up": "9H"} for d in dealers]


def test_teams_alternate_each_through_the_same_player() -> None:
    # "C deals and D leads; then F deals and A leads; C and F alternate": C is seat 5, F seat 2
    assert not match(dealt_by(5, 2, 5, 2), SIX, **SIX_TEAMS).violations
    # not "the next first hand": D (seat 0), who led, does not deal next
    wrong = match(dealt_by(5, 0), SIX, **SIX_TEAMS).violations
    assert [(v.rule, v.seat, v.params["expected"]) for v in wrong] == [("wrong_dealer", 0, "3")]
    # the same team twice in a row, or the team's other player
    assert [v.deal for v in match(dealt_by(5, 4), SIX, **SIX_TEAMS).violations] == [1]
    assert [v.deal for v in match(dealt_by(5, 2, 3), SIX, **SIX_TEAMS).violations] == [2]
    # 2 v 2, partners side by side: seat 1 deals (seat 2, an opponent, leads), then seat 3, then 1 …
    four = {"teams": [[0, 1], [2, 3]]}
    assert not match(dealt_by(1, 3, 1, 3), P4, **four).violations
    assert [v.params["expected"] for v in match(dealt_by(1, 2), P4, **four).violations] == ["4"]
    # partners opposite: either player of the other team first, then always the same
    across = {"teams": [[0, 2], [1, 3]]}
    assert not match(dealt_by(0, 3, 0, 3), P4, **across).violations
    assert [v.params["expected"] for v in match(dealt_by(0, 3, 2), P4, **across).violations] == ["1"]
    assert [v.params["expected"] for v in match(dealt_by(0, 2), P4, **across).violations] == ["2 ou 4"]
