"""Seating: table sizes, Tarot rotation / random / ranking, team-mates apart, swaps, meetings,
Swiss pairing. Hand cases first, then hypothesis properties checked against brute force."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ranking import MatchResult
from scoring.seating import (
    Meeting,
    Seating,
    SeatingError,
    meeting_counts,
    meetings_report,
    odd_seat_counts,
    seat_tarot_round,
    swap,
    swiss_history,
    swiss_pair,
    table_sizes,
)

# --------------------------------------------------------------------------------------------
# Table sizes, derived by hand from n = 4a + r and the policy in the module doc.
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "auto", "three", "five"),
    [
        (3, (3,), (3,), (3,)),
        (4, (4,), (4,), (4,)),
        (5, (5,), (5,), (5,)),  # 5 = one table of 5 whatever the policy
        (6, (3, 3), (3, 3), (3, 3)),  # two of 5 impossible
        (7, (4, 3), (4, 3), (4, 3)),  # three of 5 impossible
        (9, (4, 5), (3, 3, 3), (4, 5)),
        (10, (4, 3, 3), (4, 3, 3), (5, 5)),
        (11, (4, 4, 3), (4, 4, 3), (4, 4, 3)),
        (13, (4, 4, 5), (4, 3, 3, 3), (4, 4, 5)),
        (14, (4, 4, 3, 3), (4, 4, 3, 3), (4, 5, 5)),
        (15, (4, 4, 4, 3), (4, 4, 4, 3), (5, 5, 5)),
        (16, (4, 4, 4, 4), (4, 4, 4, 4), (4, 4, 4, 4)),
    ],
)
def test_table_sizes(n, auto, three, five):
    assert table_sizes(n) == auto
    assert table_sizes(n, "three") == three
    assert table_sizes(n, "five") == five


def test_table_sizes_refuse_too_few_or_bad_policy():
    for n in (0, 1, 2):
        with pytest.raises(SeatingError):
            table_sizes(n)
    with pytest.raises(SeatingError):
        table_sizes(8, "six")


# --------------------------------------------------------------------------------------------
# Hand cases
# --------------------------------------------------------------------------------------------


def cost(seating, history):
    met = meeting_counts(history)
    return sum(met[frozenset(p)] for table in seating.tables for p in combinations(table, 2))


def test_eight_players_second_round_splits_each_table_two_and_two():
    r1 = Seating(1, (("a", "b", "c", "d"), ("e", "f", "g", "h")))
    r2 = seat_tarot_round(list("abcdefgh"), round=2, history=[r1], seed=3)
    # Two tables of 4 from two old tables of 4: a 2 + 2 split gives 1 + 1 old pairs per table, 4 in
    # all; a 3 + 1 split gives 3 old pairs at each table, 6 in all; 4 + 0 gives 12.
    assert cost(r2, [r1]) == 4
    for table in r2.tables:
        assert sorted(Counter(r1.table_of(e) for e in table).values()) == [2, 2]


def test_sixteen_players_five_rounds_without_a_repeat():
    # 16 players, tables of 4: each round meets 3 new players; 5 rounds meet all 15 (an affine plane of
    # order 4 exists), so the rotation must find 5 rounds with no repeated meeting.
    history: list[Seating] = []
    for r in range(1, 6):
        history.append(seat_tarot_round(range(16), round=r, history=history, seed=11))
    assert meetings_report(history) == []
    sixth = seat_tarot_round(range(16), round=6, history=history, seed=11)
    assert cost(sixth, history) == 24  # every pair has met: 4 tables × 6 pairs repeat


def test_odd_table_goes_to_those_who_had_none():
    r1 = Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8, 9)))
    r2 = seat_tarot_round(range(1, 10), round=2, history=[r1], seed=0)
    five = next(t for t in r2.tables if len(t) == 5)
    assert {1, 2, 3, 4} <= set(five)  # all four who sat at a table of 4, plus one from the old five


def test_team_mates_never_at_the_same_table():
    teams = {"red": [0, 1], "blue": [2, 3], "green": [4, 5], "gold": [6, 7]}
    for method in ("rotation", "random"):
        history: list[Seating] = []
        for r in range(1, 4):
            s = seat_tarot_round(range(8), round=r, history=history, seed=r, teams=teams, method=method)
            history.append(s)
            for table in s.tables:
                assert len({t for t, ms in teams.items() for m in ms if m in table}) == len(table)


def test_ranking_method_best_against_best():
    ranking = list("abcdefgh")
    s = seat_tarot_round(list("hgfedcba"), round=1, method="ranking", ranking=ranking)
    assert s.tables == (("a", "b", "c", "d"), ("e", "f", "g", "h"))
    # 10 players, auto → 4, 3, 3; round 1: everybody 0 odd seats → the six lowest ranked take the odd seats.
    ten = list("abcdefghij")
    s1 = seat_tarot_round(ten, round=1, method="ranking", ranking=ten)
    assert s1.tables == (("a", "b", "c", "d"), ("e", "f", "g"), ("h", "i", "j"))
    # Round 2: a b c d never sat at an odd table: they must; then the two lowest ranked of the others (i, j).
    s2 = seat_tarot_round(ten, round=2, method="ranking", ranking=ten, history=[s1])
    assert s2.tables == (("e", "f", "g", "h"), ("a", "b", "c"), ("d", "i", "j"))


def test_ranking_method_splits_team_mates():
    ranking = list("abcdefgh")
    s = seat_tarot_round(ranking, round=1, method="ranking", ranking=ranking, teams={"t": ["a", "b"]})
    # b (the lower ranked of the two) swaps with e, the best of the next table.
    assert s.tables == (("a", "e", "c", "d"), ("b", "f", "g", "h"))


def test_meetings_report_and_swap():
    r1 = Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8)))
    r2 = Seating(2, ((1, 5, 2, 6), (3, 7, 4, 8)))
    assert meetings_report([r1, r2]) == [Meeting(1, 2, (1, 2)), Meeting(3, 4, (1, 2)), Meeting(5, 6, (1, 2)),
                                         Meeting(7, 8, (1, 2))]
    q1 = Seating(1, ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)))
    q2 = Seating(2, ((1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)))
    assert meetings_report([q1, q2]) == []
    # Swap 5 and 2: tables (1,2,9,13) and (5,6,10,14): new repeats 1-2 and 5-6 (both met in round 1).
    result = swap(q2, 5, 2, history=[q1])
    assert result.seating.tables == ((1, 2, 9, 13), (5, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16))
    assert result.repeats == (Meeting(1, 2, (1, 2)), Meeting(5, 6, (1, 2)))
    # r2 with 2 and 7 swapped: (1,5,7,6) (3,2,4,8); 5-6 and 3-4 were already repeats, 5-7 6-7 2-3 2-4 are new.
    assert swap(r2, 2, 7, history=[r1]).repeats == (Meeting(2, 3, (1, 2)), Meeting(2, 4, (1, 2)),
                                                    Meeting(5, 7, (1, 2)), Meeting(6, 7, (1, 2)))
    with pytest.raises(SeatingError):
        swap(q2, 1, 5)


def test_random_method_is_seeded():
    a = seat_tarot_round(range(20), round=1, method="random", seed=5)
    b = seat_tarot_round(range(20), round=1, method="random", seed=5)
    c = seat_tarot_round(range(20), round=1, method="random", seed=6)
    assert a == b and a != c


def test_swiss_hand_cases():
    assert swiss_pair(list("ABCD"), round=1).pairs == (("A", "B"), ("C", "D"))
    met = [MatchResult(1, 1, ("A", "B"), (1, 0), 0), MatchResult(1, 2, ("C", "D"), (1, 0), 0)]
    # A and B met: A meets the next one he has not met, C; B then D.
    assert swiss_pair(list("ACBD"), round=2, history=met).pairs == (("A", "C"), ("B", "D"))
    five = swiss_pair(list("ABCDE"), round=1)
    assert five.bye == "E" and five.pairs == (("A", "B"), ("C", "D"))
    had_bye = [MatchResult(1, None, ("E",), bye=True)]
    assert swiss_pair(list("ABCDE"), round=2, history=had_bye).bye == "D"
    # team-mates (individual event of a team tournament) are not paired while avoidable
    assert swiss_pair(list("ABCD"), round=1, teams={"x": ["A", "B"]}).pairs == (("A", "C"), ("B", "D"))


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------


def _check_round(seating, players, sizes, history):
    seated = [e for t in seating.tables for e in t]
    assert sorted(seated) == sorted(players)  # everyone exactly once
    assert sorted(len(t) for t in seating.tables) == sorted(sizes)
    counts = odd_seat_counts(history)
    odd = [counts[e] for t in seating.tables if len(t) != 4 for e in t]
    four = [counts[e] for t in seating.tables if len(t) == 4 for e in t]
    if odd and four and max(odd) > min(four):
        # an odd seat out of turn only where the odd-seat rule forbade every repeat-free seating
        # (rotation): a repeated meeting is the worse of the two
        assert cost(seating, history) == 0


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 60), rounds=st.integers(1, 4), method=st.sampled_from(["rotation", "random", "ranking"]),
       policy=st.sampled_from(["auto", "three", "five"]), seed=st.integers(0, 10**6))
def test_everyone_seated_once_valid_sizes_fair_odd_seats(n, rounds, method, policy, seed):
    players = list(range(n))
    rng = random.Random(seed)
    history: list[Seating] = []
    for r in range(1, rounds + 1):
        present = [p for p in players if rng.random() > 0.1] if n > 8 else players  # some absent
        ranking = sorted(players, key=lambda p: rng.random())
        s = seat_tarot_round(present, round=r, method=method, history=history, seed=seed, odd_tables=policy,
                             ranking=ranking, budget=2_000)
        _check_round(s, present, table_sizes(len(present), policy), history)
        history.append(s)


def _partitions(players, sizes):
    """Every partition of players into tables of the given sizes (brute force, independent code)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in _partitions(others, remaining):
                yield [(first, *mates), *tail]


def _brute_min(players, sizes, history, team_of, *, fair=True):
    met = meeting_counts(history)
    odd = odd_seat_counts(history)
    best = None
    for tables in _partitions(players, sizes):
        odd_c = [odd[e] for t in tables if len(t) != 4 for e in t]
        four_c = [odd[e] for t in tables if len(t) == 4 for e in t]
        if fair and odd_c and four_c and max(odd_c) > min(four_c):
            continue
        c = 0
        for t in tables:
            for a, b in combinations(t, 2):
                c += met[frozenset((a, b))] + (1_000_000 if a in team_of and team_of.get(b) == team_of[a] else 0)
        best = c if best is None else min(best, c)
    return best


@settings(max_examples=80, deadline=None)
@given(n=st.integers(4, 11), past=st.integers(0, 4), seed=st.integers(0, 10**6), with_teams=st.booleans())
def test_rotation_is_optimal_for_small_fields(n, past, seed, with_teams):
    """No repeated meeting where one can be avoided (odd seats given out of turn if need be) — and more:
    when a repeat cannot be avoided, the fewest possible with the odd seats in turn, by brute force."""
    players = list(range(n))
    rng = random.Random(seed)
    sizes = table_sizes(n)
    history = []
    for r in range(1, past + 1):  # arbitrary past rounds (random seatings of the same sizes)
        order = players[:]
        rng.shuffle(order)
        tables, i = [], 0
        for s in sizes:
            tables.append(tuple(order[i:i + s]))
            i += s
        history.append(Seating(r, tuple(tables)))
    teams = {k: [p for p in players if p % 4 == k and p < 8][:2] for k in range(4)} if with_teams else None
    team_of = {p: k for k, ms in (teams or {}).items() for p in ms}
    s = seat_tarot_round(players, round=past + 1, history=history, seed=seed, teams=teams)
    _check_round(s, players, sizes, history)
    got = cost(s, history) + sum(1_000_000 for t in s.tables for a, b in combinations(t, 2)
                                 if a in team_of and team_of.get(b) == team_of[a])
    if _brute_min(players, sizes, history, team_of, fair=False) == 0:
        assert got == 0
    else:
        assert got == _brute_min(players, sizes, history, team_of)


def _simulate_swiss(n, rounds, seed, absent_rate=0.0):
    rng = random.Random(seed)
    players = list(range(n))
    results: list[MatchResult] = []
    for r in range(1, rounds + 1):
        present = [p for p in players if rng.random() >= absent_rate] or players[:2]
        if len(present) < 2:
            present = players[:2]
        standings = sorted(present, key=lambda p: rng.random())
        before = list(results)
        pairing = swiss_pair(standings, round=r, history=before)
        yield present, before, pairing
        for t, (a, b) in enumerate(pairing.pairs):
            results.append(MatchResult(r, t, (a, b), (1, 0), 0))
        if pairing.bye is not None:
            results.append(MatchResult(r, None, (pairing.bye,), bye=True))


def _brute_swiss(present, before):
    """Fewest rematches over every pairing that gives the bye to someone with the fewest byes."""
    met, byes = swiss_history(before)
    candidates = [None]
    if len(present) % 2:
        fewest = min(byes[p] for p in present)
        candidates = [p for p in present if byes[p] == fewest]

    def matchings(ps):
        if not ps:
            yield 0
            return
        a = ps[0]
        for i in range(1, len(ps)):
            for rest in matchings(ps[1:i] + ps[i + 1:]):
                yield rest + met[frozenset((a, ps[i]))]

    return min(min(matchings([p for p in present if p != bye])) for bye in candidates)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_swiss_everyone_once_one_bye_fair_byes(n, rounds, seed):
    for present, before, pairing in _simulate_swiss(n, rounds, seed, absent_rate=0.1):
        seen = [e for pair in pairing.pairs for e in pair] + ([pairing.bye] if pairing.bye is not None else [])
        assert sorted(seen) == sorted(present)
        assert (pairing.bye is not None) == (len(present) % 2 == 1)
        if pairing.bye is not None:
            _, byes = swiss_history(before)
            assert byes[pairing.bye] == min(byes[p] for p in present)  # no second bye while avoidable


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 10), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_swiss_no_rematch_while_avoidable(n, rounds, seed):
    for present, before, pairing in _simulate_swiss(n, rounds, seed, absent_rate=0.15):
        met, _ = swiss_history(before)
        rematches = sum(met[frozenset(p)] for p in pairing.pairs)
        assert rematches == _brute_swiss(present, before)
