"""Golden Triomphe and Écarté match records (tests/golden/{triomphe,ecarte}-*.json) replayed and scored;
the expected figures (``*.expected.json``) were worked out by hand from the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.verdict import judge

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
RECORDS = sorted(p for pattern in ("triomphe-*.json", "ecarte-*.json") for p in GOLDEN.glob(pattern)
                 if not p.name.endswith(".expected.json"))


def test_there_are_golden_records_for_both_games() -> None:
    names = {p.name.split("-")[0] for p in RECORDS}
    assert names == {"triomphe", "ecarte"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_record(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    verdict = judge(record)
    assert [v.to_json("en") for v in verdict.violations] == []
    assert verdict.legal is expected["legal"]
    assert [d.scores for d in verdict.deals] == expected["scores"]
    assert [[m["kind"] for m in d.result["marks"]] for d in verdict.deals] == expected["marks"]
    assert verdict.totals == expected["totals"]
    assert verdict.winner == expected["winner"]
    assert verdict.match.ended == expected["ended"]
    as_json = verdict.to_json("fr")
    assert as_json["legal"] is expected["legal"]
    assert json.dumps(as_json)  # the verdict is plain JSON
