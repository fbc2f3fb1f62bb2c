"""Golden Impériale match records (``tests/golden/imperiale-*.json``) judged end to end.

The expected figures are worked by hand (RULES.md §4):

``imperiale-protected-retourne-and-end.json`` (2 players, game of 5 impériales)
  Deal 1 (dealer Ana, retourne 9H): the Point is a tie (5 cards worth 51 each) and goes to the first hand,
  Bruno; the honours KH+7H, QH, JH, AH fall to Bruno in tricks 1–4, the AH brings his sixth jeton (1 fiche,
  nothing left over); 7 tricks to 5: 1 jeton of cartes.
  Deal 2 (dealer Bruno, retourne 7C, an honour): Bruno's second jeton; Ana shows the quatrième majeure of
  spades (1 fiche) which erases only Bruno's older jeton — the retourne jeton is protected (rule 14); the
  Point (8 diamonds) to Bruno; Ana's capote (2 fiches) erases his two jetons.
  Deal 3 (dealer Ana, retourne 7C): Ana's jeton; Bruno's cartes blanches (2 fiches) leave it; Ana's carrés of
  kings and queens: the second brings her to 5 fiches — the game ends at that mark.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.verdict import judge

GOLDEN = Path(__file__).resolve().parent.parent / "golden"



EXPECTED = {
    "imperiale-protected-retourne-and-end.json": {
        "scores": [[0, 1], [3, 0], [2, 2]],
        # (step, seat, jetons, fiches) of every mark, in order
        "marks": [
            [("point", 1, 1, 0), ("honours", 1, 2, 0), ("honours", 1, 1, 0), ("honours", 1, 1, 0),
             ("honours", 1, 1, 1), ("cartes", 1, 1, 0)],
            [("retourne", 1, 1, 0), ("imperiale_quatrieme_majeure", 0, 0, 1), ("point", 1, 1, 0),
             ("capote", 0, 0, 2)],
            [("retourne", 0, 1, 0), ("cartes_blanches", 1, 0, 2), ("imperiale_carre", 0, 0, 1),
             ("imperiale_carre", 0, 0, 1)],
        ],
        "wiped": {(1, 1): {"1": 1}, (1, 3): {"1": 2}},
        "totals": [5, 3],
        "winner": 0,
        "ended": {"deal": 2, "event": 3},
    },
}


def test_every_impériale_golden_record_has_expectations():
    assert {p.name for p in GOLDEN.glob("imperiale-*.json")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_record(name):
    expected = EXPECTED[name]
    verdict = judge(json.loads((GOLDEN / name).read_text(encoding="utf-8"))).to_json()
    assert verdict["legal"] and verdict["violations"] == []
    assert [d["scores"] for d in verdict["deals"]] == expected["scores"]
    marks = [[(mk["step"], mk["seat"], mk["jetons"], mk["fiches"]) for mk in d["result"]["marks"]]
             for d in verdict["deals"]]
    assert marks == expected["marks"]
    wiped = {(i, k): mk["wiped"] for i, d in enumerate(verdict["deals"])
             for k, mk in enumerate(d["result"]["marks"]) if "wiped" in mk}
    assert wiped == expected["wiped"]
    assert verdict["totals"] == expected["totals"]
    assert verdict["winner"] == expected["winner"]
    assert verdict["ended"] == expected["ended"]
