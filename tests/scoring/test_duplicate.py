"""Duplicate Tarot scoring (RULES.md §1.12 rule 36, decision A-T13), from hand-computed values.

Every expected value was computed by hand in the comments, never by running the code under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import (
    BoardResult,
    datum_of,
    matchpoints,
    neuberg,
    rank_duplicate,
    rank_duplicate_teams,
    score_results,
    traveller,
)

N, E, S, W = 0, 1, 2, 3


def _by_entry(scored):
    return {s.result.entry: s for s in scored}


def test_matchpoints_two_per_result_beaten_one_per_tie():
    # 90 beats −30 and 10 (4) and ties the other 90 (1) → 5; −30 beats none → 0; 10 beats −30 → 2.
    assert matchpoints([90, -30, 90, 10]) == [5, 0, 5, 2]
    assert sum(matchpoints([90, -30, 90, 10])) == 4 * 3


def test_percentages_on_the_top():
    results = [BoardResult(1, N, "A", 90), BoardResult(1, N, "B", -30), BoardResult(1, N, "C", 90),
               BoardResult(1, N, "D", 10)]
    scored = _by_entry(score_results(results))
    # top 2(4 − 1) = 6: 5/6 = 83 1/3 %, 0 %, 2/6 = 33 1/3 %
    assert scored["A"].top == 6
    assert scored["A"].percentage == Fraction(250, 3)
    assert scored["B"].percentage == 0
    assert scored["D"].percentage == Fraction(100, 3)


def test_a_lone_result_is_fifty_percent():
    scored = score_results([BoardResult(3, E, "A", -240)])
    assert scored[0].percentage == 50


def test_neuberg_the_issue_example():
    # an étui played 6 times instead of 7: 4 of 10 becomes (4 + 1)·7/6 − 1 = 29/6 ≈ 4.83 of 12
    assert neuberg(4, 6, 7) == Fraction(29, 6)
    # marks 60, 20, 20, −10, −40, −100: MP 10, 7, 7, 4, 2, 0 (sum 30 = 6·5); −10 has 4 of 10
    marks = {"A": 60, "B": 20, "C": 20, "D": -10, "F": -40, "G": -100}
    results = [BoardResult(1, S, who, m) for who, m in marks.items()]
    scored = _by_entry(score_results(results, expected={1: 7}))
    assert scored["D"].matchpoints == Fraction(29, 6)
    assert scored["D"].top == 12
    assert scored["D"].percentage == Fraction(725, 18)  # 100 · (29/6) / 12 = 2900/72
    assert scored["A"].matchpoints == Fraction(11 * 7, 6) - 1  # (10 + 1)·7/6 − 1 = 71/6


def test_neuberg_from_a_result_not_played():
    # the same six marks and a seventh table whose result is « not played »: E = 7 by default
    marks = {"A": 60, "B": 20, "C": 20, "D": -10, "F": -40, "G": -100}
    results = [BoardResult(1, S, who, m) for who, m in marks.items()]
    results.append(BoardResult(1, S, "H", None, artificial="absent"))
    scored = _by_entry(score_results(results))
    assert scored["D"].matchpoints == Fraction(29, 6)
    assert scored["H"].percentage is None


def test_artificial_results():
    # k = 3 played (30, 30, −10) and one « plus » (not at fault): E = 4, top 6.
    # raw MP 3, 3, 0 → Neuberg (3 + 1)·4/3 − 1 = 13/3 and (0 + 1)·4/3 − 1 = 1/3; plus = 60 % of 6 = 18/5
    results = [BoardResult(2, W, "A", 30), BoardResult(2, W, "B", 30), BoardResult(2, W, "C", -10),
               BoardResult(2, W, "D", None, artificial="plus")]
    scored = _by_entry(score_results(results))
    assert scored["A"].matchpoints == Fraction(13, 3)
    assert scored["A"].percentage == Fraction(650, 9)  # (13/3)/6 = 13/18
    assert scored["C"].matchpoints == Fraction(1, 3)
    assert scored["D"].matchpoints == Fraction(18, 5)
    assert scored["D"].percentage == 60
    minus = score_results([BoardResult(2, W, "A", 30), BoardResult(2, W, "D", None, artificial="minus")])
    assert _by_entry(minus)["D"].percentage == 40
    even = score_results([BoardResult(2, W, "A", 30), BoardResult(2, W, "D", None, artificial="even")])
    assert _by_entry(even)["D"].percentage == 50


def test_datum():
    # k = 5: 100, 40, 20, −20, −200; drop 100 and −200: datum (40 + 20 − 20)/3 = 40/3
    assert datum_of([100, 40, 20, -20, -200]) == Fraction(40, 3)
    # k = 4: nothing dropped: (30 − 30 + 60 + 0)/4 = 15
    assert datum_of([30, -30, 60, 0]) == 15
    marks = {"A": 100, "B": 40, "C": 20, "D": -20, "F": -200}
    scored = _by_entry(score_results([BoardResult(1, N, w, m) for w, m in marks.items()], method="datum"))
    assert scored["A"].datum_score == Fraction(260, 3)
    assert scored["F"].datum_score == Fraction(-640, 3)


def test_fouled_etui_is_compared_only_with_the_same_cards():
    # étui 2, North, 4 tables; one played other cards (fouled). E = 4.
    # étui's cards: 10, 20, 30 → MP 0, 2, 4 → Neuberg 1·4/3 − 1 = 1/3, 3·4/3 − 1 = 3, 5·4/3 − 1 = 17/3
    # fouled, alone: MP 0 → (0 + 1)·4/1 − 1 = 3 of 6 = 50 %
    results = [BoardResult(2, N, "A", 10), BoardResult(2, N, "B", 20), BoardResult(2, N, "C", 30),
               BoardResult(2, N, "D", 1000, fingerprint="ab12")]
    scored = _by_entry(score_results(results))
    assert [scored[w].matchpoints for w in "ABC"] == [Fraction(1, 3), 3, Fraction(17, 3)]
    assert scored["D"].matchpoints == 3
    assert scored["D"].percentage == 50


# A 4-player event, all North, two étuis:
#   étui 1: A 90, B −30, C 90, D 10 → 250/3, 0, 250/3, 100/3 %
#   étui 2: A −10, B 50, C 20, D 20 → MP 0, 6, 3, 3 → 0, 100, 50, 50 %
# means: A 125/3, B 50, C 200/3, D 125/3 → C 1st, B 2nd, A and D share 3rd.
# sums of MP: A 5, B 6, C 8, D 5.  best étui: A 250/3, D 50.  tops: B 1 (6 of 6).
EVENT = [BoardResult(1, N, "A", 90), BoardResult(1, N, "B", -30), BoardResult(1, N, "C", 90),
         BoardResult(1, N, "D", 10), BoardResult(2, N, "A", -10), BoardResult(2, N, "B", 50),
         BoardResult(2, N, "C", 20), BoardResult(2, N, "D", 20)]


def test_ranking_by_mean_percentage_ties_shared():
    snap = rank_duplicate(EVENT)
    assert [(line.rank, line.entry) for line in snap.lines] == [(1, "C"), (2, "B"), (3, "A"), (3, "D")]
    assert snap.line_for("C").metric("score") == Fraction(200, 3)
    assert snap.line_for("A").metric("score") == Fraction(125, 3)
    assert snap.line_for("B").metric("tops") == 1


def test_ranking_tie_break_declared():
    snap = rank_duplicate(EVENT, tie_breaks=("best_board",))
    assert [(line.rank, line.entry) for line in snap.lines] == [(1, "C"), (2, "B"), (3, "A"), (4, "D")]


def test_ranking_by_sum_of_matchpoints():
    snap = rank_duplicate(EVENT, score="sum")
    assert [(line.rank, line.entry, line.metric("score")) for line in snap.lines] == [
        (1, "C", 8), (2, "B", 6), (3, "A", 5), (3, "D", 5)]


def test_team_forms_are_sums_of_members():
    snap = rank_duplicate_teams(EVENT, {"AC": ["A", "C"], "BD": ["B", "D"]})
    # AC: 125/3 + 200/3 = 325/3; BD: 50 + 125/3 = 275/3
    assert [(line.entry, line.metric("score")) for line in snap.lines] == [
        ("AC", Fraction(325, 3)), ("BD", Fraction(275, 3))]


def test_refusals():
    with pytest.raises(ValueError, match="two results"):
        score_results([BoardResult(1, N, "A", 1), BoardResult(1, N, "A", 2)])
    with pytest.raises(ValueError, match="more than the 1 expected"):
        score_results([BoardResult(1, N, "A", 1), BoardResult(1, N, "B", 2)], expected={1: 1})
    with pytest.raises(ValueError, match="artificial"):
        BoardResult(1, N, "A", None, artificial="bonus")
    with pytest.raises(ValueError, match="tie-breaks"):
        rank_duplicate(EVENT, tie_breaks=("buchholz",))


def test_traveller_orders_a_board_best_first():
    rows = traveller(score_results(EVENT), 2)
    assert [s.result.entry for s in rows] == ["B", "C", "D", "A"]


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

marks_st = st.lists(st.integers(min_value=-20, max_value=20).map(lambda x: 10 * x), min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(marks_st)
def test_matchpoints_sum_to_k_k_minus_one(marks):
    k = len(marks)
    scored = score_results([BoardResult(7, E, i, m) for i, m in enumerate(marks)])
    assert sum(s.matchpoints for s in scored) == k * (k - 1)
    assert all(0 <= s.percentage <= 100 for s in scored)


@settings(max_examples=200, deadline=None)
@given(marks_st, st.lists(st.sampled_from(["plus", "even", "minus", "absent"]), max_size=4),
       st.integers(min_value=0, max_value=3))
def test_percentages_stay_in_range_with_neuberg_and_artificial(marks, artificial, missing):
    results = [BoardResult(7, E, i, m) for i, m in enumerate(marks)]
    results += [BoardResult(7, E, 100 + i, None, artificial=a) for i, a in enumerate(artificial)]
    expected = len(results) + missing
    for s in score_results(results, expected={7: expected}):
        assert s.percentage is None or 0 <= s.percentage <= 100
        assert s.top == 2 * (expected - 1)


@settings(max_examples=200, deadline=None)
@given(marks_st, st.lists(st.integers(min_value=-50, max_value=50), min_size=1, max_size=4))
def test_a_fouled_etui_never_enters_another_groups_comparison(marks, fouled_marks):
    clean = [BoardResult(7, S, i, m) for i, m in enumerate(marks)]
    fouled = [BoardResult(7, S, 100 + i, m, fingerprint="fouled") for i, m in enumerate(fouled_marks)]
    expected = {7: len(clean) + len(fouled)}
    alone = _by_entry(score_results(clean, expected=expected))
    together = _by_entry(score_results(clean + fouled, expected=expected))
    for entry, s in alone.items():
        assert together[entry].matchpoints == s.matchpoints
        assert together[entry].compared == len(clean)


def test_snapshots_regenerate_exactly():
    from scoring.snapshots import regenerate

    snap = rank_duplicate(EVENT, tie_breaks=("tops",), expected={1: 5, 2: 4}, entries=["A", "B", "C", "D", "Z"])
    assert snap.line_for("Z").metric("boards") == 0
    again = regenerate(snap)
    assert again.digest == snap.digest and again.lines == snap.lines
    teams = rank_duplicate_teams(EVENT, {"AC": ["A", "C"], "BD": ["B", "D"]}, score="sum")
    assert regenerate(teams).lines == teams.lines


def test_a_lone_artificial_result_keeps_its_percentage():
    # one seat, alone on its étui and orientation (top 0), given 60 % by the arbiter: its mean is 60, not 50
    snap = rank_duplicate([BoardResult(9, N, "A", None, artificial="plus"), BoardResult(8, N, "A", 20)])
    assert snap.line_for("A").metric("score") == 55  # (60 + 50) / 2
    assert snap.line_for("A").metric("best_board") == 60


def test_ranking_by_datum_sum():
    # étui 1 (datum 40/3): A 260/3, B 80/3, C 20/3, D −100/3, F −640/3
    # étui 2 (0, 30, −30, 60: datum 15): A −15, B 15, C −45, D 45; F did not play it
    # sums: A 215/3, B 125/3, D 35/3, C −115/3, F −640/3
    marks1 = {"A": 100, "B": 40, "C": 20, "D": -20, "F": -200}
    marks2 = {"A": 0, "B": 30, "C": -30, "D": 60}
    results = [BoardResult(1, N, w, m) for w, m in marks1.items()]
    results += [BoardResult(2, N, w, m) for w, m in marks2.items()]
    snap = rank_duplicate(results, method="datum")
    assert [(line.entry, line.metric("score")) for line in snap.lines] == [
        ("A", Fraction(215, 3)), ("B", Fraction(125, 3)), ("D", Fraction(35, 3)), ("C", Fraction(-115, 3)),
        ("F", Fraction(-640, 3))]
    assert snap.line_for("D").metric("best_board") == 45
    assert snap.line_for("A").metric("best_board") == Fraction(260, 3)


def test_explain_gives_percentages_with_two_decimals():
    snap = rank_duplicate(EVENT)
    # C: 200/3 = 66.666… → 66,67 ; A and D share 125/3 = 41,67
    assert "66,67" in snap.explain("C", "fr")
    assert "41.67" in snap.explain("A", "en")
