"""``plan_tables``: the tables a draw makes, told before it; exempts only where the game allows them.

Expected values by hand: Le Vingt-quatre at 5 or 4 (RULES.md §5 rule 1): 6 = 5 + 1 exempt, 7 = 5 + 2, 11 = 5 + 5 + 1;
Tarot at « 5 par table » (5, 4, 3): 11 = 5 + 3 + 3 (as many tables of 5 as can be, §1.12 rule 35 admits tables of 3).
"""

from __future__ import annotations

import pytest

from scoring.seating import MatchDraw, SeatingError, TablePlan, plan_tables, seat_match_round

V24 = (5, 4)


@pytest.mark.parametrize(("n", "sizes", "byes"), [
    (4, (4,), 0), (5, (5,), 0), (6, (5,), 1), (7, (5,), 2), (8, (4, 4), 0), (9, (5, 4), 0), (11, (5, 5), 1),
    (13, (5, 4, 4), 0),
])
def test_vingt_quatre_exempts_only_where_no_4s_and_5s_seat_everybody(n, sizes, byes):
    assert plan_tables(n, V24, byes=True) == TablePlan(n, sizes, byes)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_vingt_quatre_below_four_is_refused(n):
    with pytest.raises(SeatingError):
        plan_tables(n, V24, byes=True)


def test_without_exempts_a_count_no_table_seats_is_refused():
    with pytest.raises(SeatingError) as caught:
        plan_tables(7, V24)
    assert caught.value.fr == "impossible de placer 7 joueurs à des tables de 4 ou 5 joueurs"
    assert plan_tables(11, (5, 4, 3)) == TablePlan(11, (5, 3, 3))


def test_a_game_of_two_pairs_with_one_exempt():
    assert plan_tables(9, (2,)) == TablePlan(9, (2, 2, 2, 2), 1)
    with pytest.raises(SeatingError):
        plan_tables(1, (2,))


def test_match_tables_leave_the_exempts_of_the_plan():
    draw = seat_match_round(list("ABCDEFG"), round=1, size=5, sizes=(5,))
    assert isinstance(draw, MatchDraw) and [len(t) for t in draw.tables] == [5] and len(draw.byes) == 2
    assert sorted(draw.byes + draw.tables[0]) == list("ABCDEFG")
    assert set(draw.byes) == {"F", "G"}  # the lowest ranked, nobody having had a bye yet
