"""The canonical JSON of a ranking's inputs, written in one pass (``scoring.ranking.canonical_json``): the same text
as the original ``json.dumps(_canon(…))`` (so every digest already published stays valid), the same refusals, and
digests pinned from the code before the change. Plus the cyclic GC held off while a ranking is built, and given back.
"""

from __future__ import annotations

import gc
import hashlib
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import snapshots
from scoring.duplicate import BoardResult, rank_duplicate, rank_duplicate_teams
from scoring.ranking import (
    MatchPoints,
    MatchResult,
    TarotTotals,
    _canon,
    canonical_json,
    digest_of,
    gc_paused,
    inputs_digest,
    rank_match_teams,
    rank_matches,
    rank_tarot,
    rank_tarot_teams,
)

ODD = "a\tb\nc\\d\"e « Œ » 😀 %s \x01"
"""A name with every character an encoder can get wrong: tab, newline, backslash, quote, French quotes, Œ, an emoji,
a %-format, a control character."""


def old_text(obj):
    """What the digest was computed from before: the recursive canonical form, then json.dumps."""
    return json.dumps(_canon(obj), separators=(",", ":"), ensure_ascii=False)


def cases():
    totals = [TarotTotals(3, 120, 60, 2, 10), TarotTotals(1, -40, None, 0, 0), TarotTotals(2, 120, 75, 1, 9)]
    yield "tarot", rank_tarot(totals, tie_breaks=("best_deal",))
    yield "tarot_names", rank_tarot([TarotTotals("Chloé « Œ »", 5), TarotTotals("a\tb\\n\"😀", -5)])
    yield "tarot_teams", rank_tarot_teams(totals, {10: (1, 2), 11: (3,)})
    results = [MatchResult(1, 1, (1, 2), (7, 3), 0), MatchResult(1, None, (3,), bye=True),
               MatchResult(2, 1, (2, 3), (5, 5), None), MatchResult(2, 2, (1, 4), (), 1, forfeit=True)]
    yield "matches", rank_matches(results, points=MatchPoints(3, 1, 0, 2), tie_breaks=("sonneborn_berger", "margin"))
    sided = [MatchResult(1, 1, (1, 2, 3, 4), (10, 4, 10, 4), 0, sides=(0, 1, 0, 1)),
             MatchResult(2, 1, (1, 3, 2, 4), (3, 3, 9, 9), 1, sides=(0, 0, 1, 1))]
    yield "matches_sides", rank_matches(sided)
    yield "matches_teams", rank_match_teams(sided, {20: (1, 3), 21: (2, 4)})
    boards = [BoardResult(1, 0, 1, 90), BoardResult(1, 0, 2, -30), BoardResult(1, 0, 3, 90, round=1, table=2),
              BoardResult(1, 0, 4, None, artificial="plus"), BoardResult(2, 1, 1, 10, fingerprint="ab\tc"),
              BoardResult(2, 1, 2, 20), BoardResult(2, 1, 3, None, artificial="absent")]
    # form 1 (one BoardResult a result): what every duplicate snapshot published before form 2 holds
    yield "duplicate", rank_duplicate(boards, tie_breaks=("tops",), entries=(1, 2, 3, 4, 5), form=1)
    yield "duplicate_neuberg", rank_duplicate(boards, expected={1: 5, 2: 4}, form=1)
    yield "duplicate_datum", rank_duplicate(boards, method="datum", score="sum", form=1)
    yield "duplicate_teams", rank_duplicate_teams(boards, {"N-S": (1, 3), "E-W": (2, 4)}, form=1)
    # form 2 (one row per étui and orientation), the default since
    yield "duplicate_form2", rank_duplicate(boards, tie_breaks=("tops",), entries=(1, 2, 3, 4, 5))
    yield "duplicate_teams_form2", rank_duplicate_teams(boards, {"N-S": (1, 3), "E-W": (2, 4)})


# computed by the code before canonical_json (main at df9f15c), on the inputs of cases()
PINNED = {
    "tarot": "d0da1da72fddd6a1942b9ecec77dca3e1316854b30238e88433fd4c7117d089f",
    "tarot_names": "59e185ff766b996b3158260252f134f135dac87f825e128cc5ef4f5784fed40b",
    "tarot_teams": "7e05e2ba222c59ba8e1d69c3c2f645574f2cbd4590890ad6ad836d07345dd702",
    "matches": "b0df0ea31005b63f7b6ea1f79bee707174d0b2ba14df4b6a5a17786429cf6ce2",
    "matches_sides": "d5a312242838034769818ee9357e1c5d050b2c757db77ad92b87d1e896eb5f9a",
    "matches_teams": "04fef161be2246423253c4179895f1470dc601b8a1b6a9e4a64f3a07ef5e8132",
    "duplicate": "4b880298d281b37f8d9885f223499fd61b48f43eedc95ea4143404fe3eefa35c",
    "duplicate_neuberg": "401bb02d31a27ee05cfffc5b28373a52c802677cbea2a9c8e7e16549cf0ff42d",
    "duplicate_datum": "59d520dbf35356547d6bc85659a63c2f6a59f35e50db09eafaf0d7e2a6a534ff",
    "duplicate_teams": "b07c52384ccdf299d4ea12117f5e0b1f6f1e5ed919f94a2445a56404f2f580f9",
    # form 2, pinned when it came (dupl3): a change of its text shows here
    "duplicate_form2": "461e66aa63935c2b4adc3be8c509077344d8c59d300d0f0cc9d71f9ccd432400",
    "duplicate_teams_form2": "4f70b34c8641324b4934b74ae873ae1f52de92bda33cb3fb830bb26e6ad48a86",
}


@pytest.mark.parametrize(("name", "snapshot"), list(cases()), ids=[name for name, _ in cases()])
def test_digests_are_those_of_before_and_the_snapshot_keeps_the_text_it_hashed(name, snapshot):
    assert snapshot.digest == PINNED[name]
    inputs_json, options_json = snapshot.encoded
    assert inputs_json == old_text(snapshot.inputs) and options_json == old_text(snapshot.options)
    assert digest_of(snapshot.kind, inputs_json, options_json) == snapshot.digest
    rebuilt = snapshots.regenerate(snapshot)
    assert rebuilt.digest == snapshot.digest and rebuilt.lines == snapshot.lines


def test_a_long_run_of_one_dataclass_takes_the_fast_path_and_writes_the_same_text():
    totals = tuple(TarotTotals(i, i * 7 - 300, None if i % 5 == 0 else i, i % 3, i % 11) for i in range(500))
    assert canonical_json(totals) == old_text(totals)
    assert json.loads(canonical_json(totals))[1] == ["TarotTotals", 1, -293, 1, 1, 1, 0]
    # a value that is not plain in the run (a Fraction): the slow path, the same text
    mixed = (*totals[:300], TarotTotals(999, Fraction(7, 2)), *totals[300:])  # type: ignore[arg-type]
    assert canonical_json(mixed) == old_text(mixed)
    assert '["TarotTotals",999,"7/2",null,0,0,0]' in canonical_json(mixed)
    # a later field at its default is left out, set it is written (the MatchResult digests of before stay valid)
    matches = tuple(MatchResult(r, 1, (1, 2), (3, 1), 0) for r in range(1, 100))
    assert canonical_json(matches) == old_text(matches) and '"MatchResult",1,1,[1,2],[3,1],0,false,false]' in \
        canonical_json(matches)
    sided = tuple(MatchResult(r, 1, (1, 2, 3, 4), (), 0, sides=(0, 1, 0, 1)) for r in range(1, 100))
    assert canonical_json(sided) == old_text(sided) and ",false,false,[0,1,0,1]]" in canonical_json(sided)


@pytest.mark.parametrize("bad", [
    (1.5,),
    (TarotTotals(1, 2.5),),  # type: ignore[arg-type]
    tuple(TarotTotals(i, 0.5 if i == 70 else i) for i in range(100)),  # type: ignore[arg-type]
    (MatchResult(1, 1, (1, 2.0), (), 0),),  # type: ignore[arg-type]
    ({"a": 1},),
    ((Fraction(1, 2), [1, {2}]),),
    (object(),),
])
def test_what_the_canonical_form_refuses_it_still_refuses(bad):
    with pytest.raises(TypeError, match="cannot digest"):
        _canon(bad)
    with pytest.raises(TypeError, match="cannot digest"):
        canonical_json(bad)
    with pytest.raises(TypeError, match="cannot digest"):
        inputs_digest("tarot", bad, ())


names = st.one_of(st.integers(-10**12, 10**12), st.text(max_size=12), st.sampled_from([ODD, "Œ", "😀", "\\"]))
values = st.one_of(st.none(), st.integers(-10**6, 10**6),
                   st.fractions(max_denominator=50), st.booleans())
totals_st = st.builds(TarotTotals, names, st.one_of(st.integers(-999, 999), st.fractions(max_denominator=9)),
                      st.one_of(st.none(), st.integers(-500, 500)), st.integers(0, 9), st.integers(0, 99))
board_st = st.builds(BoardResult, st.integers(1, 40), st.integers(0, 3), names, st.integers(-500, 500),
                     st.sampled_from(["", "x\ty", ODD]), st.none(), st.integers(0, 9), st.integers(0, 99))


@settings(max_examples=150, deadline=None)
@given(st.one_of(
    st.lists(totals_st, max_size=80).map(tuple),
    st.lists(board_st, max_size=80).map(tuple),
    st.tuples(st.lists(board_st, max_size=20).map(tuple), st.lists(st.tuples(names, st.lists(names, max_size=3)
                                                                               .map(tuple)), max_size=4).map(tuple)),
    st.lists(st.tuples(st.text(max_size=5), st.one_of(values, st.lists(values, max_size=4).map(tuple))), max_size=6)
    .map(tuple),
))
def test_any_inputs_are_written_as_before(inputs):
    assert canonical_json(inputs) == old_text(inputs)
    assert inputs_digest("tarot", inputs, (("tie_breaks", ()),)) == hashlib.sha256(
        json.dumps(["tarot", _canon((("tie_breaks", ()),)), _canon(inputs)], separators=(",", ":"),
                   ensure_ascii=False).encode()).hexdigest()


def test_the_gc_is_held_off_while_ranking_and_given_back_even_after_an_error():
    assert gc.isenabled()
    seen = []
    with gc_paused():
        seen.append(gc.isenabled())
    assert seen == [False] and gc.isenabled()
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()
    with pytest.raises(ValueError):
        rank_tarot([TarotTotals(1)], tie_breaks=("nope",))
    assert gc.isenabled()
    gc.disable()
    try:
        rank_tarot([TarotTotals(1)])
        assert not gc.isenabled(), "a collector switched off by the caller stays off"
    finally:
        gc.enable()
