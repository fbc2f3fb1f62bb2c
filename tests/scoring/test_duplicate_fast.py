"""``rank_duplicate``'s fast path (the results read once into rows, three stable sorts, matchpoints by counting,
values summed per denominator in C passes, the canonical text written from the rows) against the plain definitions
it replaces: ``score_results`` + ``entry_scores`` for the figures, ``sorted(…, key=_result_key)`` for the canonical
order, ``canonical_json`` / ``inputs_digest`` for the text and the digest."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import (
    BoardResult,
    _marks_points,
    _result_key,
    entry_scores,
    matchpoints,
    rank_duplicate,
    rank_duplicate_teams,
    regenerate,
    score_results,
)
from scoring.ranking import canonical_json, inputs_digest

FORMS = [("matchpoints", "mean"), ("matchpoints", "sum"), ("datum", "mean"), ("datum", "sum")]


@st.composite
def duplicates(draw):
    """Drawn duplicates in any order: fouled étuis (several sets of cards), artificial and absent results, seats
    with no result (Neuberg), E given or not; entries ints or strings (never mixed), odd fingerprints."""
    tables = draw(st.integers(1, 7))
    boards = draw(st.lists(st.integers(1, 60), min_size=1, max_size=4, unique=True))
    as_text = draw(st.booleans())
    results = []
    for b in boards:
        for t in range(tables):
            fouled = draw(st.sampled_from(["", "", "", "f", 'é"\\x', "[],"]))
            for o in range(4):
                entry = 10 * t + o
                entry = f"J{entry:03d}" if as_text else entry
                kind = draw(st.sampled_from([None] * 8 + ["plus", "even", "minus", "absent"]))
                if draw(st.integers(0, 10)) == 0:
                    continue
                mark = None if kind else draw(st.integers(-4, 4)) * draw(st.sampled_from([5, 10, 25]))
                results.append(BoardResult(b, o, entry, mark, fouled, kind, draw(st.integers(1, 3)), t + 1))
    results = draw(st.permutations(results))
    expected = None
    if draw(st.booleans()):
        expected = {b: tables + draw(st.integers(0, 2)) for b in boards}
    return results, expected


def _figures(snap):
    return {line.entry: line.metrics for line in snap.lines}


@settings(max_examples=300, deadline=None)
@given(duplicates(), st.sampled_from(FORMS))
def test_the_fast_path_gives_the_plain_definitions_figures(drawn, form):
    results, expected = drawn
    method, score = form
    snap = rank_duplicate(results, method=method, score=score, expected=expected)
    plain = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score)
    assert _figures(snap) == {e: (("score", s.score), ("best_board", s.best_board), ("tops", s.tops),
                                  ("boards", s.boards)) for e, s in plain.items()}
    # the canonical order, text and digest are the plain ones
    ordered = tuple(sorted(results, key=_result_key))
    assert snap.inputs == ordered
    assert snap.encoded is not None and snap.encoded[0] == canonical_json(ordered)
    assert snap.digest == inputs_digest("duplicate", ordered, snap.options)
    assert regenerate(snap).digest == snap.digest


@settings(max_examples=100, deadline=None)
@given(duplicates(), st.sampled_from(FORMS))
def test_the_team_ranking_sums_the_plain_member_scores(drawn, form):
    results, expected = drawn
    method, score = form
    entries = sorted({r.entry for r in results})
    teams = {f"T{i}": entries[i:i + 2] for i in range(0, len(entries), 2)}
    snap = rank_duplicate_teams(results, teams, method=method, score=score, expected=expected)
    plain = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score)
    for team, members in teams.items():
        line = snap.line_for(team)
        assert line.metric("score") == sum((plain[m].score for m in members if m in plain), Fraction(0))
        assert line.metric("boards") == sum(plain[m].boards for m in members if m in plain)
    ordered = tuple(sorted(results, key=_result_key))
    membership = tuple((t, tuple(sorted(teams[t]))) for t in sorted(teams))
    assert snap.encoded is not None and snap.encoded[0] == canonical_json((ordered, membership))
    assert snap.digest == inputs_digest("duplicate_teams", (ordered, membership), snap.options)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=40))
def test_matchpoints_by_counting_are_the_definitions(marks):
    assert _marks_points(marks) == matchpoints(marks)
    # 2 per result beaten, 1 per other result tied, written out
    assert _marks_points(marks) == [sum(2 if m > o else 1 if m == o else 0 for j, o in enumerate(marks) if j != i)
                                    for i, m in enumerate(marks)]


def test_values_the_canonical_text_cannot_write_are_refused_as_before():
    # a float mark: canonical_json refuses it (TypeError), so does the fast path (it falls back to it)
    results = [BoardResult(1, 0, 1, 10.0), BoardResult(1, 0, 2, 0)]  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="float"):
        canonical_json(tuple(results))
    with pytest.raises(TypeError, match="float"):
        rank_duplicate(results)


def test_the_text_of_a_bool_or_a_big_int_is_the_json_encoders():
    # True is a plain value JSON writes « true » (a %-format would write 1): that étui goes through the encoder
    results = [BoardResult(1, 0, 1, True), BoardResult(1, 0, 2, 0), BoardResult(2, 1, 3, -(10**30)),  # type: ignore[arg-type]
               BoardResult(2, 1, 4, 5, round=2, table=7)]
    snap = rank_duplicate(results)
    assert snap.encoded is not None
    assert snap.encoded[0] == canonical_json(snap.inputs)
    assert snap.encoded[0].startswith('[["BoardResult",1,0,1,true,"",null,0,0],')
    assert '["BoardResult",2,1,3,-1000000000000000000000000000000,"",null,0,0]' in snap.encoded[0]


def test_two_results_of_one_seat_on_one_etui_are_refused_whatever_their_order():
    results = [BoardResult(2, 1, "B", 10), BoardResult(1, 0, "A", 0), BoardResult(2, 1, "C", 5),
               BoardResult(2, 1, "B", -10)]
    with pytest.raises(ValueError, match="two results for entry 'B' on étui 2, orientation E"):
        rank_duplicate(results)


def test_a_hand_computed_event_through_the_fast_path():
    # étui 1, North: A 20, B 20, C −10 (E 3, top 4): A 3, B 3, C 0 → 75 %, 75 %, 0 %
    # étui 2, North: A 50, C 40 and B absent (E 3, k 2, Neuberg): A 2 → (2 + 1)·3/2 − 1 = 7/2 → 87.5 %;
    #                C 0 → (0 + 1)·3/2 − 1 = 1/2 → 12.5 %
    results = [BoardResult(2, 0, "C", 40), BoardResult(1, 0, "B", 20), BoardResult(1, 0, "C", -10),
               BoardResult(2, 0, "A", 50), BoardResult(1, 0, "A", 20),
               BoardResult(2, 0, "B", None, artificial="absent")]
    snap = rank_duplicate(results, expected={1: 3, 2: 3})
    assert snap.line_for("A").metric("score") == Fraction(325, 4)  # (75 + 87.5) / 2
    assert snap.line_for("A").metric("best_board") == Fraction(175, 2)
    assert snap.line_for("B").metric("score") == 75 and snap.line_for("B").metric("boards") == 1
    assert snap.line_for("C").metric("score") == Fraction(25, 4)  # (0 + 12.5) / 2
    assert [line.entry for line in snap.lines] == ["A", "B", "C"]


# --------------------------------------------------------------------------------------------
# Results given as rows (``ResultRows``, what the app's reader gives): the same rankings as the objects
# --------------------------------------------------------------------------------------------


def _as_rows(results):
    from dataclasses import astuple

    return [("BoardResult", *astuple(r)) for r in results]


@settings(max_examples=200, deadline=None)
@given(duplicates(), st.sampled_from(FORMS), st.sampled_from([(), ("best_board",), ("tops", "best_board")]))
def test_rows_rank_as_the_results_they_hold(drawn, form, tie_breaks):
    from scoring.duplicate import ResultRows

    results, expected = drawn
    method, score = form
    rows = ResultRows(_as_rows(results))
    assert rows.results() == tuple(results) and list(rows) == results and len(rows) == len(results)
    entries = {r.entry for r in results}
    try:
        plain = rank_duplicate(results, method=method, score=score, tie_breaks=tie_breaks, expected=expected,
                               entries=entries)
    except ValueError as error:  # a duplicate listed or too many results for E: the same refusal from the rows
        with pytest.raises(ValueError) as caught:
            rank_duplicate(rows, method=method, score=score, tie_breaks=tie_breaks, expected=expected,
                           entries=entries)
        assert str(caught.value) == str(error)
        return
    fast = rank_duplicate(ResultRows(_as_rows(results)), method=method, score=score, tie_breaks=tie_breaks,
                          expected=expected, entries=entries)
    assert isinstance(fast.inputs, ResultRows) and fast.inputs._results is None  # kept as rows: no object built
    assert fast == plain and fast.digest == plain.digest and fast.encoded == plain.encoded
    assert fast.inputs == tuple(sorted(results, key=_result_key)) == plain.inputs
    assert canonical_json(fast.inputs.results()) == fast.encoded[0]
    assert regenerate(fast) == plain and regenerate(fast).digest == plain.digest
    members = {f"T{e}": [e] for e in entries}
    assert rank_duplicate_teams(ResultRows(_as_rows(results)), members, method=method, score=score,
                                tie_breaks=tie_breaks, expected=expected) == rank_duplicate_teams(
        results, members, method=method, score=score, tie_breaks=tie_breaks, expected=expected)


@pytest.mark.parametrize(("row", "message"), [
    (("BoardResult", 1, 4, 7, 10, "", None, 1, 1), "orientation is a seat"),
    (("BoardResult", 1, -1, 7, 10, "", None, 1, 1), "orientation is a seat"),
    (("BoardResult", 1, 0, 7, None, "", None, 1, 1), "a played result has a mark"),
    (("BoardResult", 1, 0, 7, 10, "", "plus", 1, 1), "an artificial result has no mark"),
    (("BoardResult", 1, 0, 7, None, "", "bonus", 1, 1), "artificial is one of"),
    (("ScoreRow", 1, 0, 7, 10, "", None, 1, 1), "a result row is"),
    (("BoardResult", 1, 0, 7, 10, ""), "a result row is"),
])
def test_rows_are_refused_as_their_results_are(row, message):
    from scoring.duplicate import ResultRows

    good = ("BoardResult", 2, 1, 8, -20, "", None, 1, 1), ("BoardResult", 2, 2, 9, None, "", "absent", 1, 1)
    with pytest.raises(ValueError, match=message):
        ResultRows([*good, row])


def test_rows_of_odd_but_valid_values_are_ranked_by_the_general_path():
    # a bool orientation passes BoardResult's check (True == 1): the rows are taken (checked by building the
    # objects), the ranking and its text are those of the objects (JSON writes true)
    from scoring.duplicate import ResultRows

    results = [BoardResult(1, True, 1, 10), BoardResult(1, 1, 2, 20), BoardResult(1, 0, 3, -30)]
    rows = ResultRows(_as_rows(results))
    assert rows._results is not None
    fast, plain = rank_duplicate(rows), rank_duplicate(results)
    assert fast == plain and fast.encoded == plain.encoded and ",true," in fast.encoded[0]
