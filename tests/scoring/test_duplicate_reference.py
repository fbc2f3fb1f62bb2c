"""``scoring.duplicate.rank_duplicate`` (scored on plain tuples, ints summed per denominator) against a reference
written from A-T13's definitions with one Fraction per result, on drawn duplicates: fouled étuis, artificial and
absent results, Neuberg (fewer results than expected), the datum, every score form."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import ARTIFICIAL, BoardResult, rank_duplicate


def reference(results, method, score, expected):
    """Each entry's (score, best_board, tops, boards), from the rule's words."""
    listed = defaultdict(int)
    groups = defaultdict(list)
    for r in results:
        listed[(r.board, r.orientation)] += 1
        groups[(r.board, r.fingerprint, r.orientation)].append(r)
    values = defaultdict(list)  # entry → [(value, top?)]
    for (board, _f, orientation), members in groups.items():
        e = listed[(board, orientation)] if expected is None else expected[board]
        top = 2 * (e - 1)
        played = [r for r in members if r.artificial is None]
        k = len(played)
        marks = [r.mark for r in played]
        if marks:
            datum = (Fraction(sum(marks) - max(marks) - min(marks), k - 2) if k >= 5 else Fraction(sum(marks), k))
        for r in members:
            if r.artificial == "absent":
                continue
            if r.artificial is not None:
                pct = ARTIFICIAL[r.artificial]
                mp = pct * top / 100
                diff = Fraction(0)
                is_top = False
            else:
                raw = sum(2 if r.mark > o.mark else 1 if r.mark == o.mark else 0 for o in played if o is not r)
                mp = Fraction(raw) if k == e else (Fraction(raw) + 1) * e / k - 1
                pct = Fraction(50) if top == 0 else 100 * mp / top
                diff = r.mark - datum
                is_top = top > 0 and mp == top
            value = diff if method == "datum" else (pct if score == "mean" else mp)
            values[r.entry].append((value, is_top))
    out = {}
    for entry, vs in values.items():
        total = sum((v for v, _ in vs), Fraction(0))
        if method != "datum" and score == "mean":
            total /= len(vs)
        out[entry] = (total, max(v for v, _ in vs), sum(t for _, t in vs), len(vs))
    return out


@st.composite
def duplicates(draw):
    tables = draw(st.integers(1, 6))
    boards = draw(st.integers(1, 4))
    results = []
    for b in range(1, boards + 1):
        for t in range(tables):
            fouled = draw(st.sampled_from(["", "", "", "f"]))
            for o in range(4):
                entry = 10 * t + o
                kind = draw(st.sampled_from([None] * 8 + ["plus", "even", "minus", "absent"]))
                if draw(st.integers(0, 12)) == 0:
                    continue  # a seat with no result at all (Neuberg then)
                mark = None if kind else draw(st.integers(-3, 3)) * 10  # few values: many ties
                results.append(BoardResult(b, o, entry, mark, fouled, kind, 1, t + 1))
    expected = None
    if draw(st.booleans()):
        expected = {b: tables + draw(st.integers(0, 2)) for b in range(1, boards + 1)}
    return results, expected


@settings(max_examples=200, deadline=None)
@given(duplicates(), st.sampled_from([("matchpoints", "mean"), ("matchpoints", "sum"), ("datum", "mean")]))
def test_rank_duplicate_matches_the_rule_written_out(drawn, form):
    results, expected = drawn
    method, score = form
    snap = rank_duplicate(results, method=method, score=score, expected=expected)
    want = reference(results, method, score, expected)
    got = {line.entry: (line.metric("score"), line.metric("best_board"), line.metric("tops"), line.metric("boards"))
           for line in snap.lines}
    assert {e: v for e, v in got.items() if v[3]} == want
    assert all(v == (0, None, 0, 0) for e, v in got.items() if e not in want)
