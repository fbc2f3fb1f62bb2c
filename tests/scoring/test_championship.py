"""Championships computed by hand: a points table, best N with a qualifying minimum, shared places, tie-breaks,
categories, a corrected tournament; and the invariants (hypothesis)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import championship as ch
from scoring import ranking, snapshots
from scoring.championship import ChampionshipError, PointsTable, Result, Rules

TABLE = PointsTable("rank", points=(20, 15, 12, 10, 8), beyond=5)
RULES = Rules(TABLE, best=3, minimum=2, tie_breaks=("wins", "best_result"))


def season(t3: tuple[tuple[str, int, int], ...] | None = None) -> list[Result]:
    """Four tournaments T1..T4; (player, rank, shared) per tournament."""
    played = {
        "T1": (5, (("A", 1, 1), ("B", 2, 1), ("C", 3, 1), ("D", 4, 1), ("E", 5, 1))),
        "T2": (4, (("B", 1, 1), ("A", 2, 2), ("C", 2, 2), ("D", 4, 1))),
        "T3": (4, t3 or (("A", 1, 1), ("C", 2, 1), ("B", 3, 1), ("F", 4, 1))),
        "T4": (3, (("C", 1, 1), ("B", 2, 1), ("D", 3, 1))),
    }
    return [Result(p, t, order=int(t[1]), rank=r, field=n, shared=k)
            for t, (n, rows) in played.items() for p, r, k in rows]


def test_points_table_by_rank_and_shared_places():
    # rank 1 → 20; a 2nd place shared by two holds places 2 and 3: (15 + 12) / 2 = 27/2; beyond the list → 5
    assert TABLE.worth(Result("A", "T", 1, rank=1, field=5)) == 20
    assert TABLE.worth(Result("A", "T", 1, rank=2, field=5, shared=2)) == Fraction(27, 2)
    assert TABLE.worth(Result("A", "T", 1, rank=7, field=9)) == 5
    # places 5 and 6 shared: (8 + 5) / 2 = 13/2
    assert TABLE.worth(Result("A", "T", 1, rank=5, field=9, shared=2)) == Fraction(13, 2)


def test_points_table_by_percentage_of_the_field():
    table = PointsTable("percent", bands=((10, 50), (25, 30), (50, 15), (100, 5)))
    # 20 players: 1st = 5 % → 50; 2nd = 10 % → 50; 3rd = 15 % → 30; 5th = 25 % → 30; 6th = 30 % → 15;
    # 10th = 50 % → 15; 11th = 55 % → 5; 20th = 100 % → 5
    expected = {1: 50, 2: 50, 3: 30, 5: 30, 6: 15, 10: 15, 11: 5, 20: 5}
    for rank, points in expected.items():
        assert table.worth(Result("A", "T", 1, rank=rank, field=20)) == points, rank


def test_marks_table_keeps_the_best_n_totals():
    # marks +120, −40, +60 at three tournaments, best 2: 120 + 60 = 180
    rules = Rules(PointsTable("marks"), best=2)
    results = [Result("A", f"T{i}", i, rank=1, field=4, marks=m) for i, m in enumerate((120, -40, 60), 1)]
    snap = ch.rank_championship(results, rules)
    assert snap.lines[0].metric("points") == 180


def test_best_n_with_a_qualifying_minimum():
    snap = ch.rank_championship(season(), RULES)
    # A: T1 20, T2 27/2, T3 20 → three results, all kept: 53 + 1/2 = 107/2; wins 2, best 20
    # B: T1 15, T2 20, T3 12, T4 15 → best 3 = 20 + 15 + 15 = 50 (T3's 12 left out); wins 1
    # C: T1 12, T2 27/2, T3 15, T4 20 → best 3 = 20 + 15 + 27/2 = 97/2 (T1's 12 left out); wins 1
    # D: T1 10, T2 10, T4 12 → 32
    # E (T1 only) and F (T3 only): one result, the minimum is 2: not ranked
    assert [(line.rank, line.entry, line.metric("points")) for line in snap.lines] == [
        (1, "A", Fraction(107, 2)), (2, "B", 50), (3, "C", Fraction(97, 2)), (4, "D", 32)]
    assert snap.line_for("A").metric("wins") == 2
    assert snap.line_for("B").metric("kept") == 3 and snap.line_for("B").metric("played") == 4
    waiting = ch.pending(snap)
    # E: 8 points (5th of T1); F: 10 points (4th of T3): F first
    assert [(s.player, s.points, s.missing) for s in waiting] == [("F", 10, 1), ("E", 8, 1)]


def test_ties_broken_by_the_declared_tie_breaks_or_shared():
    table = PointsTable("rank", points=(10, 6, 4, 2))
    t = [("T1", ("B", "C", "A", "D")), ("T2", ("A", "D", "C", "B")), ("T3", ("D", "A", "C", "B"))]
    results = [Result(p, name, i, rank=r, field=4) for i, (name, order) in enumerate(t, 1)
               for r, p in enumerate(order, 1)]
    # A: 4 + 10 + 6 = 20; B: 10 + 2 + 2 = 14; C: 6 + 4 + 4 = 14; D: 2 + 6 + 10 = 18
    # B and C level on 14: B has one win, C none → B 3rd, C 4th
    snap = ch.rank_championship(results, Rules(table, tie_breaks=("wins",)))
    assert [(line.rank, line.entry) for line in snap.lines] == [(1, "A"), (2, "D"), (3, "B"), (4, "C")]
    why = ch.explain(snap, "C", names={"B": "Bruno", "C": "Chloé"})
    assert "Rang 4 sur 4 : 14 points de championnat." in why
    assert "Derrière Bruno (rang 3), à égalité de points, au départage « victoires » : 0 contre 1." in why
    # without a tie-break declared, B and C share the 3rd rank
    plain = ch.rank_championship(results, Rules(table))
    assert [(line.rank, line.entry) for line in plain.lines] == [(1, "A"), (2, "D"), (3, "B"), (3, "C")]
    assert "Rang partagé avec B" in ch.explain(plain, "C")


def test_categories_are_filters_of_the_same_ranking():
    snap = ch.rank_championship(season(), RULES)
    # dames: B (2nd overall) and D (4th overall) → 1st and 2nd among the dames; E is not ranked
    dames = ch.category_lines(snap, {"B", "D", "E"})
    assert [(line.rank, line.entry) for line in dames] == [(1, "B"), (2, "D")]
    # two level players stay level in a category
    table = PointsTable("rank", points=(10, 6, 4, 2))
    results = [Result("P", "T1", 1, rank=1, field=4), Result("Q", "T1", 1, rank=2, field=4, shared=1),
               Result("R", "T1", 1, rank=3, field=4, shared=2), Result("S", "T1", 1, rank=3, field=4, shared=2)]
    shared = ch.rank_championship(results, Rules(table))
    assert [(line.rank, line.entry) for line in ch.category_lines(shared, {"Q", "R", "S"})] == [
        (1, "Q"), (2, "R"), (2, "S")]


def test_a_corrected_tournament_changes_the_season_ranking():
    before = ch.rank_championship(season(), RULES)
    # T3 corrected: C 1st (20), A 2nd (15)
    # A: 20 + 27/2 + 15 = 97/2; C: T1 12, T2 27/2, T3 20, T4 20 → best 3 = 20 + 20 + 27/2 = 107/2; B 50; D 32
    after = ch.rank_championship(season((("C", 1, 1), ("A", 2, 1), ("B", 3, 1), ("F", 4, 1))), RULES)
    assert [(line.rank, line.entry) for line in after.lines] == [(1, "C"), (2, "B"), (3, "A"), (4, "D")]
    moves = ranking.diff(before, after)
    assert not moves.same_inputs
    assert {(m.entry, m.old_rank, m.new_rank) for m in moves.moved} == {("C", 3, 1), ("A", 1, 3)}


def test_why_this_rank_names_the_results_kept_and_left_out():
    snap = ch.rank_championship(season(), RULES)
    why = ch.explain(snap, "B", tournaments={"T1": "Open de mars", "T2": "T2", "T3": "Coupe", "T4": "T4"})
    assert "Rang 2 sur 4 : 50 points de championnat." in why
    assert ("Les 3 meilleurs résultats sur 4 comptent : Open de mars (2e, 15 pts), T2 (1er, 20 pts), "
            "T4 (2e, 15 pts).") in why
    assert "Non retenus : Coupe (3e, 12 pts)." in why
    assert "13,5 pts" in ch.explain(snap, "A")
    assert "il en manque 1" in ch.explain(snap, "E")


def test_snapshot_regenerates_and_bad_rules_name_their_field():
    snap = ch.rank_championship(season(), RULES)
    again = snapshots.regenerate(snap)
    assert again.digest == snap.digest and again.lines == snap.lines
    with pytest.raises(ChampionshipError) as error:
        Rules(TABLE, tie_breaks=("wins", "wins"))
    assert error.value.field == "tie_breaks"
    with pytest.raises(ChampionshipError) as error:
        PointsTable("percent", bands=((50, 10), (20, 5)))
    assert error.value.field == "table.bands"
    with pytest.raises(ChampionshipError) as error:
        PointsTable.from_data({"kind": "rank", "points": ["x"]})
    assert error.value.field == "table"
    with pytest.raises(ChampionshipError):
        ch.rank_championship([Result("A", "T1", 1, 1, 3), Result("A", "T1", 1, 2, 3)], RULES)


# ---------------------------------------------------------------------------------------------- properties

PROPERTY = settings(max_examples=120, deadline=None)
PLAYERS = ("a", "b", "c", "d", "e", "f")


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[Result], Rules]:
    count = draw(st.integers(1, 5))
    results = []
    for t in range(count):
        field = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=6, unique=True))
        for rank, player in enumerate(field, 1):
            results.append(Result(player, f"T{t}", t, rank=rank, field=len(field), marks=draw(st.integers(0, 300))))
    kind = draw(st.sampled_from(ch.TABLE_KINDS))
    table = {"rank": PointsTable("rank", points=(25, 18, 15, 12, 10), beyond=draw(st.integers(0, 5))),
             "percent": PointsTable("percent", bands=((20, 40), (50, 20), (100, 8))),
             "marks": PointsTable("marks")}[kind]
    best = draw(st.none() | st.integers(1, 4))
    rules = Rules(table, best=best, minimum=draw(st.integers(0, 3)),
                  tie_breaks=tuple(draw(st.permutations(ch.TIE_BREAKS))[: draw(st.integers(0, 3))]))
    return results, rules


@PROPERTY
@given(seasons())
def test_season_points_never_exceed_the_sum_of_the_best_n(case):
    results, rules = case
    for player, standing in ch.standings(results, rules).items():
        worth = sorted((rules.table.worth(r) for r in results if r.player == player), reverse=True)
        best = worth if rules.best is None else worth[: rules.best]
        assert standing.points <= sum(best)
        assert len(standing.kept) <= (rules.best or len(worth))


@PROPERTY
@given(seasons(), st.integers(0, 4))
def test_removing_a_tournament_never_raises_anyone_who_played_only_it(case, removed):
    results, rules = case
    gone = f"T{removed}"
    before = ch.rank_championship(results, rules)
    after = ch.rank_championship([r for r in results if r.tournament != gone], rules)
    only_it = {r.player for r in results if r.tournament == gone} - {
        r.player for r in results if r.tournament != gone}
    ranked_after = {line.entry for line in after.lines}
    for player in only_it:
        assert player not in ranked_after
    # and with points that are never negative, nobody's season points go up
    old = ch.standings(results, rules)
    for player, standing in ch.standings([r for r in results if r.tournament != gone], rules).items():
        assert standing.points <= old[player].points
    # a player ranked after the removal was ranked before it (results only go away)
    assert ranked_after <= {line.entry for line in before.lines}


def test_explain_all_says_what_explain_says_for_everyone():
    snap = ch.rank_championship(season(), RULES)
    everyone = ch.explain_all(snap, names={"B": "Bruno"})
    assert sorted(everyone) == ["A", "B", "C", "D", "E", "F"]  # the ranked and the waiting
    assert everyone == {p: ch.explain(snap, p, names={"B": "Bruno"}) for p in "ABCDEF"}


def test_a_large_group_level_on_points_is_counted_not_named():
    """A tournament of 12 where only the first 2 places earn points (10, 6, then 0): the ten others are level on
    0 points. With « victoires » declared nobody is separated (none won), so each of the ten shares rank 3 with the
    nine others — said in counts (no name: 2,000 players level at 0 made each line name 1,999 others)."""
    table = PointsTable("rank", points=(10, 6), beyond=0)
    players = [f"P{k:02d}" for k in range(1, 13)]
    results = [Result(p, "T1", 1, rank=r, field=12) for r, p in enumerate(players, 1)]
    snap = ch.rank_championship(results, Rules(table, tie_breaks=("wins",)))
    assert [line.rank for line in snap.lines] == [1, 2] + [3] * 10
    why = ch.explain(snap, "P07", names={p: f"Marie-Bernadette Delacroix-Montfort {p}" for p in players})
    assert "Rang 3 sur 12 : 0 point de championnat." in why  # (French: the singular below two)
    assert "À égalité de points avec 9 autres." in why and "Aux départages" not in why
    assert "Rang partagé avec 9 d'entre eux : égalité de points et à chaque départage annoncé." in why
    assert "Delacroix-Montfort P08" not in why
