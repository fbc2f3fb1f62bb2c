"""Match games at more than two a table (scoring.seating.seat_match_round): tables of exactly the
game's size, byes to the fewest-byes lowest-ranked entries, fewest repeated meetings, Swiss by
standings or seeded random, team-mates apart, partners not given twice. Expected values by hand."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import (
    MatchDraw,
    Seating,
    SeatingError,
    bye_counts,
    meeting_counts,
    partner_counts,
    seat_match_round,
)

OPPOSITE = ((0, 2), (1, 3))  # Écarté à quatre: seats 0 and 2 against 1 and 3


def as_seating(draw: MatchDraw) -> Seating:
    """What the service stores: the full tables, then one table of one entry per bye."""
    return Seating(draw.round, draw.tables + tuple((b,) for b in draw.byes))


def test_nine_at_tables_of_four_swiss_first_round():
    draw = seat_match_round(list("ABCDEFGHI"), round=1, size=4, partners=OPPOSITE)
    # standings order: A B C D together, E F G H together, I (last) the bye; each table 1st and 4th
    # against 2nd and 3rd (rank sums 0 + 3 = 1 + 2), partners opposite
    assert draw == MatchDraw(1, (("A", "B", "D", "C"), ("E", "F", "H", "G")), ("I",))


def test_tables_of_three_without_partners_keep_standings_order():
    draw = seat_match_round(list("ABCDEFG"), round=1, size=3)
    assert draw == MatchDraw(1, (("A", "B", "C"), ("D", "E", "F")), ("G",))


def test_several_byes_to_the_lowest_ranked():
    draw = seat_match_round(list("ABCDEFGHIJK"), round=1, size=4)
    assert draw.tables == (("A", "B", "C", "D"), ("E", "F", "G", "H")) and draw.byes == ("I", "J", "K")


def test_no_second_bye_while_someone_has_fewer():
    past = Seating(1, (("I",), ("J",), ("K",)))
    draw = seat_match_round(list("ABCDEFGHIJK"), round=2, size=4, history=[past])
    # I, J, K had a bye: the three byes go to the lowest ranked of the others, F, G and H
    assert draw.byes == ("F", "G", "H")
    # fewer repeats come before the lowest ranked: after A B C D and E F G H met, byes to F G H
    # leave A B C D E I J K (A B C D split 2 and 2: two repeats); H G D leave A B C and E F: one
    past = Seating(1, (("A", "B", "C", "D"), ("E", "F", "G", "H"), ("I",), ("J",), ("K",)))
    draw = seat_match_round(list("ABCDEFGHIJK"), round=2, size=4, history=[past])
    assert draw.byes == ("D", "G", "H")
    # who must take a bye takes it even when lowest ranked is someone else: E alone has none
    past = [Seating(r, (("ABCDE"[r - 1],),)) for r in range(1, 5)]  # A, B, C, D each had one
    draw = seat_match_round(list("ABCDE"), round=5, size=3, history=past)
    assert draw.byes == ("D", "E")


def test_swiss_second_round_without_a_repeat():
    past = Seating(1, (("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I")))
    draw = seat_match_round(list("ABCDEFGHI"), round=2, size=3, history=[past])
    # A, then the best entry it has not met (D), then G: each table takes one of each table of round 1
    assert draw.tables == (("A", "D", "G"), ("B", "E", "H"), ("C", "F", "I"))


def test_team_mates_apart():
    teams = {"X": "AB", "Y": "CD", "Z": "EF", "W": "GH"}
    draw = seat_match_round(list("ABCDEFGH"), round=1, size=4, teams=teams)
    assert draw.tables == (("A", "C", "E", "G"), ("B", "D", "F", "H"))


def test_four_entries_change_partners_every_round():
    history: list[Seating] = []
    sides = []
    for number in (1, 2, 3, 4):
        draw = seat_match_round(list("ABCD"), round=number, size=4, partners=OPPOSITE, history=history)
        history.append(as_seating(draw))
        sides.append(draw.tables)
    # 1: A, D v B, C (balanced); 2: A, C v B, D (A, D again is a repeat; 2 v 4 beats 1 v 5);
    # 3: A, B v C, D, the one split left; 4: every split repeats, the most balanced again
    assert sides == [(("A", "B", "D", "C"),), (("A", "B", "C", "D"),), (("A", "C", "B", "D"),),
                     (("A", "B", "D", "C"),)]
    assert partner_counts(history[:3], OPPOSITE) == Counter({frozenset(p): 1 for p in combinations("ABCD", 2)})


def test_triomphe_partners_side_by_side():
    draw = seat_match_round(list("ABCD"), round=1, size=4, partners=((0, 1), (2, 3)))
    assert draw.tables == (("A", "D", "B", "C"),)


def test_random_is_seeded():
    entries = list(range(1, 14))
    a = seat_match_round(entries, round=1, size=4, method="random", seed=3)
    b = seat_match_round(entries, round=1, size=4, method="random", seed=3)
    assert a == b and len(a.byes) == 1 and [len(t) for t in a.tables] == [4, 4, 4]


def test_bye_counts_and_refusals():
    assert bye_counts([Seating(1, (("A", "B", "C"), ("D",))), Seating(2, (("D",), ("E",)))]) == Counter(D=2, E=1)
    with pytest.raises(SeatingError):
        seat_match_round(list("ABC"), round=1, size=4)
    with pytest.raises(SeatingError):
        seat_match_round(list("ABCA"), round=1, size=3)
    with pytest.raises(SeatingError):
        seat_match_round(list("ABCD"), round=1, size=4, method="rotation")
    with pytest.raises(SeatingError):
        seat_match_round(list("ABCD"), round=1, size=4, partners=((0, 1), (2,)))


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(size=st.sampled_from([3, 4, 5, 6]), extra=st.integers(0, 14), rounds=st.integers(1, 4),
       method=st.sampled_from(["swiss", "random"]), seed=st.integers(0, 1000), partnered=st.booleans())
def test_everyone_once_tables_of_size_fair_byes(size, extra, rounds, method, seed, partnered):
    entries = list(range(size + extra))
    partners = ((0, 2), (1, 3)) if partnered and size == 4 else ((0, 1, 2), (3, 4, 5)) if partnered and size == 6 \
        else None
    history: list[Seating] = []
    for number in range(1, rounds + 1):
        before = bye_counts(history)
        draw = seat_match_round(entries, round=number, size=size, method=method, seed=seed, history=history,
                                partners=partners, budget=2_000)
        seated = [e for t in draw.tables for e in t]
        assert sorted(seated + list(draw.byes)) == entries
        assert all(len(t) == size for t in draw.tables)
        assert len(draw.byes) == len(entries) % size
        if draw.byes:  # nobody takes a bye while someone seated had fewer
            assert max(before[b] for b in draw.byes) <= min(before[e] for e in seated)
        assert draw == seat_match_round(entries, round=number, size=size, method=method, seed=seed,
                                        history=history, partners=partners, budget=2_000)
        history.append(as_seating(draw))


@settings(max_examples=20, deadline=None)
@given(size=st.sampled_from([3, 4]), method=st.sampled_from(["swiss", "random"]), seed=st.integers(0, 1000))
def test_no_repeat_while_possible(size, method, seed):
    # size × size entries: a second and a third round without a repeat exist (a Latin square: one
    # entry from each earlier table per table, then the diagonals)
    entries = list(range(size * size))
    history: list[Seating] = []
    for number in (1, 2, 3):
        draw = seat_match_round(entries, round=number, size=size, method=method, seed=seed, history=history)
        history.append(as_seating(draw))
        assert max(meeting_counts(history).values()) == 1
