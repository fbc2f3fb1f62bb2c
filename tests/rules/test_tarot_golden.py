"""Golden Tarot records (tests/golden/tarot-*.json) replayed and scored against their expected verdicts.

The summary record's marks are the FFT's first worked example (hand arithmetic: 106, taker +318).
The full deals were played at random with legal cards; their expected marks were checked by hand from
the bouts and points shown in ``result`` (e.g. garde, 43 points with 2 bouts: (25 + 2) × 2 = 54, taker
+162), and serve as regression snapshots of the whole path (setup, replay, Excuse, scoring).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.cards import format_card
from rules.replay import replay
from scoring.tarot import score_match

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("tarot-*.json") if not p.name.endswith(".expected.json"))


def test_every_kind_is_there():
    names = {p.stem for p in RECORDS}
    assert {"tarot-garde-4p", "tarot-petite-3p", "tarot-called-king-5p", "tarot-mort-5p",
            "tarot-summary-fft-106", "tarot-revoke"} <= names


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))
    done = replay(data)
    match = score_match(done)
    assert done.legal == expected["legal"]
    assert [{"trick": v.trick, "seat": v.seat, "card": format_card(v.card) if v.card is not None else None,
             "rule": v.rule} for v in done.violations] == expected["violations"]
    assert [d.scores for d in match.deals] == expected["scores"]
    for deal, result in zip(match.deals, expected["result"], strict=True):
        assert {k: deal.result.get(k) for k in result} == result
    assert match.totals == expected["totals"]
    assert all(sum(d.scores) == 0 for d in match.deals if d.scores is not None)
