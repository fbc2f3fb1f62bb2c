"""Golden Vingt-quatre match records (``tests/golden/vingt-quatre-*.json``) judged end to end.

``vingt-quatre-race-to-forty.json`` (4 players, a partie of 40 points = 10 jetons, honours aux figures)
  Every deal the virade is AS; the first hand holds the twelve spades (trump), the others a full suit each.
  Each hand is a twelve-card sequence to the king: trump decides, the first hand scores 1 (one sequence);
  each Point is 12 cards worth 2+…+10 + 30 = 84: primauté, the first hand again; he leads K, Q, J, 10, 9 of
  spades (the five honours, one per trick) and wins all twelve tricks (la carte): 8 jetons a deal.
  The deal passes to the right: Bruno, Chloé, David, Ana score 8 in turn; at deal 5 Bruno goes from 8 to 10
  with the sequence and the Point and wins at once (mark 2 of that deal).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.verdict import judge

GOLDEN = Path(__file__).resolve().parent.parent / "golden"



def eight(seat):
    return [("sequences", seat, 1), ("point", seat, 1), *[("honours", seat, 1)] * 5, ("carte", seat, 1)]


EXPECTED = {
    "vingt-quatre-race-to-forty.json": {
        "scores": [[0, 8, 0, 0], [0, 0, 8, 0], [0, 0, 0, 8], [8, 0, 0, 0], [0, 2, 0, 0]],
        "marks": [eight(1), eight(2), eight(3), eight(0), [("sequences", 1, 1), ("point", 1, 1)]],
        "totals": [8, 10, 8, 8],
        "winner": 1,
        "ended": {"deal": 4, "event": 1},
    },
}


def test_every_vingt_quatre_golden_record_has_expectations():
    assert {p.name for p in GOLDEN.glob("vingt-quatre-*.json")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_record(name):
    expected = EXPECTED[name]
    verdict = judge(json.loads((GOLDEN / name).read_text(encoding="utf-8"))).to_json()
    assert verdict["legal"] and verdict["violations"] == []
    assert [d["scores"] for d in verdict["deals"]] == expected["scores"]
    marks = [[(mk["step"], mk["seat"], mk["jetons"]) for mk in d["result"]["marks"]] for d in verdict["deals"]]
    assert marks == expected["marks"]
    assert verdict["totals"] == expected["totals"]
    assert verdict["winner"] == expected["winner"]
    assert verdict["ended"] == expected["ended"]
