"""``rank_duplicate``'s fast path (the results read once into rows, three stable sorts, matchpoints by counting,
values summed per denominator in C passes, the canonical text written from the rows) against the plain definitions
it replaces: ``score_results`` + ``entry_scores`` for the figures, ``sorted(…, key=_result_key)`` for the canonical
order, ``canonical_json`` / ``inputs_digest`` for the text and the digest."""

from __future__ import annotations

from fractions import Fraction
from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import (
    BoardResult,
    _marks_points,
    _result_key,
    entry_scores,
    expand,
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


def _compact(ordered):
    """Form 2 written out from docs/duplicate.md: per (étui, orientation), in canonical order, its entries, then each
    field's one value when all its results have it (the same type too: 1 is not True), else all their values."""
    units = []
    for (board, orientation), run in groupby(ordered, key=lambda r: (r.board, r.orientation)):
        rs = list(run)

        def field(name, rs=rs):
            values = tuple(getattr(r, name) for r in rs)
            same = all(type(v) is type(values[0]) and v == values[0] for v in values)
            return values[0] if same else values

        units.append((board, orientation, tuple(r.entry for r in rs),
                      *(field(name) for name in ("mark", "fingerprint", "artificial", "round", "table"))))
    return tuple(units)


@settings(max_examples=300, deadline=None)
@given(duplicates(), st.sampled_from(FORMS), st.sampled_from([1, 2]))
def test_the_fast_path_gives_the_plain_definitions_figures(drawn, form, input_form):
    results, expected = drawn
    method, score = form
    snap = rank_duplicate(results, method=method, score=score, expected=expected, form=input_form)
    plain = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score)
    assert _figures(snap) == {e: (("score", s.score), ("best_board", s.best_board), ("tops", s.tops),
                                  ("boards", s.boards)) for e, s in plain.items()}
    # the canonical order, text and digest are the plain ones
    ordered = tuple(sorted(results, key=_result_key))
    if input_form == 1:  # one BoardResult a result; the options name no form (as before form 2)
        assert snap.inputs == ordered and "form" not in dict(snap.options)
    else:  # one row per (étui, orientation); the options say so
        assert snap.inputs == _compact(ordered) and dict(snap.options)["form"] == 2
        assert expand(snap.inputs).results() == ordered
    assert snap.encoded is not None and snap.encoded[0] == canonical_json(snap.inputs)
    assert snap.digest == inputs_digest("duplicate", snap.inputs, snap.options)
    again = regenerate(snap)
    assert again.digest == snap.digest and again.lines == snap.lines


@settings(max_examples=100, deadline=None)
@given(duplicates(), st.sampled_from(FORMS), st.sampled_from([1, 2]))
def test_the_team_ranking_sums_the_plain_member_scores(drawn, form, input_form):
    results, expected = drawn
    method, score = form
    entries = sorted({r.entry for r in results})
    teams = {f"T{i}": entries[i:i + 2] for i in range(0, len(entries), 2)}
    snap = rank_duplicate_teams(results, teams, method=method, score=score, expected=expected, form=input_form)
    plain = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score)
    for team, members in teams.items():
        line = snap.line_for(team)
        assert line.metric("score") == sum((plain[m].score for m in members if m in plain), Fraction(0))
        assert line.metric("boards") == sum(plain[m].boards for m in members if m in plain)
    ordered = tuple(sorted(results, key=_result_key))
    ordered = ordered if input_form == 1 else _compact(ordered)
    membership = tuple((t, tuple(sorted(teams[t]))) for t in sorted(teams))
    assert snap.inputs == (ordered, membership)
    assert snap.encoded is not None and snap.encoded[0] == canonical_json((ordered, membership))
    assert snap.digest == inputs_digest("duplicate_teams", (ordered, membership), snap.options)
    assert regenerate(snap).digest == snap.digest


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
    snap = rank_duplicate(results, form=1)
    assert snap.encoded is not None
    assert snap.encoded[0] == canonical_json(snap.inputs)
    assert snap.encoded[0].startswith('[["BoardResult",1,0,1,true,"",null,0,0],')
    assert '["BoardResult",2,1,3,-1000000000000000000000000000000,"",null,0,0]' in snap.encoded[0]
    # form 2: true and 0 are two values (not one shared by both results), and 1 (an int) is not true
    snap = rank_duplicate(results)
    assert snap.encoded[0] == ('[[1,0,[1,2],[true,0],"",null,0,0],'
                               '[2,1,[3,4],[-1000000000000000000000000000000,5],"",null,[0,2],[0,7]]]')
    assert regenerate(snap).digest == snap.digest


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
@given(duplicates(), st.sampled_from(FORMS), st.sampled_from([(), ("best_board",), ("tops", "best_board")]),
       st.sampled_from([1, 2]))
def test_rows_rank_as_the_results_they_hold(drawn, form, tie_breaks, input_form):
    from scoring.duplicate import ResultRows

    results, expected = drawn
    method, score = form
    rows = ResultRows(_as_rows(results))
    assert rows.results() == tuple(results) and list(rows) == results and len(rows) == len(results)
    entries = {r.entry for r in results}
    args = {"method": method, "score": score, "tie_breaks": tie_breaks, "expected": expected, "form": input_form}
    try:
        plain = rank_duplicate(results, entries=entries, **args)
    except ValueError as error:  # a duplicate listed or too many results for E: the same refusal from the rows
        with pytest.raises(ValueError) as caught:
            rank_duplicate(rows, entries=entries, **args)
        assert str(caught.value) == str(error)
        return
    fast = rank_duplicate(ResultRows(_as_rows(results)), entries=entries, **args)
    if input_form == 1:
        assert isinstance(fast.inputs, ResultRows) and fast.inputs._results is None  # kept as rows: no object built
    assert fast == plain and fast.digest == plain.digest and fast.encoded == plain.encoded
    if input_form == 1:
        assert fast.inputs == tuple(sorted(results, key=_result_key)) == plain.inputs
        assert canonical_json(fast.inputs.results()) == fast.encoded[0]
    else:
        assert fast.inputs == _compact(sorted(results, key=_result_key)) == plain.inputs
    assert regenerate(fast) == plain and regenerate(fast).digest == plain.digest
    members = {f"T{e}": [e] for e in entries}
    assert rank_duplicate_teams(ResultRows(_as_rows(results)), members, **args) == rank_duplicate_teams(
        results, members, **args)


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


# --------------------------------------------------------------------------------------------
# Form 2 (one row per étui and orientation) and the snapshots written before it (form 1)
# --------------------------------------------------------------------------------------------

HAND = [BoardResult(2, 0, "C", 40, round=1, table=3), BoardResult(1, 0, "B", 20, round=1, table=2),
        BoardResult(1, 0, "C", -10, round=1, table=3), BoardResult(2, 0, "A", 50, round=1, table=1),
        BoardResult(1, 0, "A", 20, round=1, table=1), BoardResult(2, 0, "B", None, artificial="absent", round=1,
                                                                  table=2),
        BoardResult(1, 2, "D", 30, "f", round=1, table=1)]


def test_form_two_is_one_row_per_etui_and_orientation_as_documented():
    # written out by hand from docs/duplicate.md: étui 1 North (A 20, B 20, C −10 at tables 1, 2, 3, round 1, the
    # étui's own cards), étui 1 South (D alone, fouled cards "f"), étui 2 North (A 50, B absent, C 40)
    snap = rank_duplicate(HAND, expected={1: 3, 2: 3})
    assert snap.encoded[0] == ('[[1,0,["A","B","C"],[20,20,-10],"",null,1,[1,2,3]],'
                               '[1,2,["D"],30,"f",null,1,1],'
                               '[2,0,["A","B","C"],[50,null,40],"",[null,"absent",null],1,[1,2,3]]]')
    assert snap.options == (("entries", ()), ("expected", ((1, 3), (2, 3))), ("form", 2), ("method", "matchpoints"),
                            ("score", "mean"), ("tie_breaks", ()))
    old = rank_duplicate(HAND, expected={1: 3, 2: 3}, form=1)
    assert old.lines == snap.lines and old.digest != snap.digest and len(snap.encoded[0]) < len(old.encoded[0]) * 0.6


# form 1, as main wrote it before form 2 (``rank_duplicate(HAND, expected={1: 3, 2: 3})`` at 947161d): the stored text,
# options and digest of a snapshot published then
OLD_TEXT = ('[["BoardResult",1,0,"A",20,"",null,1,1],["BoardResult",1,0,"B",20,"",null,1,2],'
            '["BoardResult",1,0,"C",-10,"",null,1,3],["BoardResult",1,2,"D",30,"f",null,1,1],'
            '["BoardResult",2,0,"A",50,"",null,1,1],["BoardResult",2,0,"B",null,"","absent",1,2],'
            '["BoardResult",2,0,"C",40,"",null,1,3]]')
OLD_OPTIONS = '[["entries",[]],["expected",[[1,3],[2,3]]],["method","matchpoints"],["score","mean"],["tie_breaks",[]]]'
OLD_DIGEST = "33e54c450ba20bec335f29c60a3384f0224fdb42b2b31164ec573e1ace96b64b"


def test_a_snapshot_written_in_form_one_still_regenerates_to_its_digest():
    import json

    from scoring.ranking import RankingSnapshot, digest_of

    assert digest_of("duplicate", OLD_TEXT, OLD_OPTIONS) == OLD_DIGEST
    # decoded as the app decodes a stored snapshot (lists → tuples, a class name → its dataclass)
    def decode(obj):
        if isinstance(obj, list):
            if obj and obj[0] == "BoardResult":
                return BoardResult(*obj[1:])
            return tuple(decode(x) for x in obj)
        return obj

    stub = RankingSnapshot("duplicate", ("score",), (), decode(json.loads(OLD_TEXT)), decode(json.loads(OLD_OPTIONS)),
                           OLD_DIGEST)
    again = regenerate(stub)
    assert again.digest == OLD_DIGEST and again.encoded == (OLD_TEXT, OLD_OPTIONS)
    assert again.lines == rank_duplicate(HAND, expected={1: 3, 2: 3}).lines


def test_form_two_inputs_of_the_wrong_shape_are_refused_or_do_not_verify():
    snap = rank_duplicate(HAND, expected={1: 3, 2: 3})
    units = list(snap.inputs)
    with pytest.raises(ValueError, match="2 values for 3 entries"):
        expand([(*units[0][:3], (20, 20), *units[0][4:])])
    with pytest.raises(ValueError, match="a form-2 unit is"):
        expand([units[0][:7]])
    with pytest.raises(ValueError, match="a played result has a mark"):
        expand([(1, 0, ("A",), None, "", None, 1, 1)])
    # the same results written otherwise (a shared round written out per result): not the canonical text, so the
    # snapshot rebuilt from them does not come out with the digest of the text given
    from dataclasses import replace

    from scoring.ranking import digest_of

    loose = replace(snap, inputs=((*units[0][:6], (1, 1, 1), units[0][7]), *units[1:]))
    assert expand(loose.inputs).results() == expand(snap.inputs).results()
    stored = digest_of("duplicate", canonical_json(loose.inputs), snap.encoded[1])  # a snapshot stored so
    assert regenerate(loose).digest == snap.digest != stored  # rebuilt canonical: it does not verify
