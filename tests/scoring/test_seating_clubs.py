"""Club-mates kept apart in a draw (the organizer's choice, usually for the first round)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import seat_tarot_round, table_sizes


def _clashes(seating, club_of):
    return sum(1 for table in seating.tables
               for club, k in Counter(club_of[p] for p in table if p in club_of).items() if k > 1)


def test_the_reported_draw_two_lyon_and_two_paris_players_never_meet_at_table_1():
    # 12 players, 3 tables of 4: 3 from Lyon, 3 from Paris, 2 from Nice, 4 without club
    clubs = {"Lyon": ["L1", "L2", "L3"], "Paris": ["P1", "P2", "P3"], "Nice": ["N1", "N2"]}
    players = [m for ms in clubs.values() for m in ms] + ["A", "B", "C", "D"]
    club_of = {m: c for c, ms in clubs.items() for m in ms}
    for method in ("rotation", "random"):
        for seed in range(20):
            s = seat_tarot_round(players, round=1, method=method, seed=seed, clubs=clubs)
            assert sorted(len(t) for t in s.tables) == [4, 4, 4]
            assert _clashes(s, club_of) == 0, (method, seed, s.tables)


def test_without_the_option_clubs_are_ignored():
    clubs = {"Lyon": [0, 1]}
    # without clubs a seeded random draw of 8 seats 0 and 1 together for some seed; with clubs, never
    assert any(s.table_of(0) == s.table_of(1)
               for s in (seat_tarot_round(range(8), round=1, method="random", seed=seed) for seed in range(30)))
    for seed in range(30):
        s = seat_tarot_round(range(8), round=1, method="random", seed=seed, clubs=clubs)
        assert s.table_of(0) != s.table_of(1)


def test_a_club_larger_than_the_tables_shares_as_little_as_possible():
    # 5 Lyon players, 2 tables of 4: at least one table holds 3 of them; never 4 + 1
    clubs = {"Lyon": [0, 1, 2, 3, 4]}
    s = seat_tarot_round(range(8), round=1, clubs=clubs)
    assert sorted(sum(1 for p in t if p < 5) for t in s.tables) == [2, 3]


def test_team_mates_come_before_club_mates():
    # team {0, 1} must be apart; clubs ask the same of {0, 1, 2}: with 2 tables, 0 and 1 are apart
    s = seat_tarot_round(range(8), round=1, teams={"t": [0, 1]}, clubs={"c": [0, 1, 2]})
    assert s.table_of(0) != s.table_of(1)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(6, 17), clubs=st.integers(1, 4), seed=st.integers(0, 10**6),
       method=st.sampled_from(["rotation", "random"]))
def test_clubs_no_larger_than_the_table_count_are_always_kept_apart(n, clubs, seed, method):
    tables = len(table_sizes(n))
    players = list(range(n))
    # each club has at most ``tables`` members, so a seating without club-mates together exists
    club_of = {p: p % clubs for p in players[:min(n, clubs * tables)]}
    groups: dict[int, list[int]] = {}
    for p, c in club_of.items():
        groups.setdefault(c, []).append(p)
    s = seat_tarot_round(players, round=1, method=method, seed=seed, clubs=groups)
    assert sorted(s.entries) == players
    assert _clashes(s, club_of) == 0
