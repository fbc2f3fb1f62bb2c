"""A team event played by sides (La Triomphe par équipes, RULES.md §2.2 rule 3): each team is one side of a table,
its partners side by side (a block of seats in the order of play), facing another team."""

from __future__ import annotations

import pytest

from scoring.seating import Seating, SeatingError, seat_team_sides

SIDES = ((0, 1), (2, 3))
TEAMS = [("Les Atouts", [1, 2]), ("La Retourne", [3, 4]), ("Le Talon", [5, 6]), ("Les Forçats", [7, 8])]


def test_round_one_neighbours_meet_partners_together() -> None:
    draw = seat_team_sides(TEAMS, round=1, sides=SIDES)
    # best team against the next: seats 0-1 the first team, 2-3 the second
    assert draw.tables == ((1, 2, 3, 4), (5, 6, 7, 8))
    assert draw.byes == ()


def test_round_two_no_team_meets_the_same_team_again() -> None:
    history = [Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8)))]
    draw = seat_team_sides(TEAMS, round=2, sides=SIDES, history=history)
    assert draw.tables == ((1, 2, 5, 6), (3, 4, 7, 8))


def test_three_against_three() -> None:
    teams = [("A", [1, 2, 3]), ("B", [4, 5, 6])]
    assert seat_team_sides(teams, round=1, sides=((0, 1, 2), (3, 4, 5))).tables == ((1, 2, 3, 4, 5, 6),)


def test_random_keeps_each_team_on_one_side() -> None:
    draw = seat_team_sides(TEAMS, round=1, sides=SIDES, method="random", seed=7)
    team_of = {e: name for name, members in TEAMS for e in members}
    for table in draw.tables:
        assert team_of[table[0]] == team_of[table[1]] != team_of[table[2]] == team_of[table[3]]
    assert sorted(e for t in draw.tables for e in t) == list(range(1, 9))


@pytest.mark.parametrize(("teams", "said"), [
    ([("Les Atouts", [1, 2, 9]), *TEAMS[1:]], "l'équipe Les Atouts compte 3 joueur(s) présent(s)"),
    (TEAMS[:3], "3 équipe(s) présente(s) ne remplissent pas"),
])
def test_a_team_that_cannot_fill_a_side_is_refused_in_words(teams, said) -> None:
    with pytest.raises(SeatingError) as info:
        seat_team_sides(teams, round=1, sides=SIDES)
    assert said in info.value.text("fr")
