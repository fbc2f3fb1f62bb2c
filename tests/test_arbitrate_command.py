"""``manage.py arbitrate`` as a user runs it: its output and its exit code. A real process for standard input,
the languages and a file that is missing or not JSON; the golden records and the malformed ones through
``call_command`` in this process (the same command, its output and its ``sys.exit`` code, without a Python and a
Django started for each of them: about 2 s each on the CI machine).

Golden records live in ``tests/golden/``; a record whose name says ``illegal`` (or ``revoke``,
``violation``) must exit 1 with violations, every other one 0. Where a hand-worked
``NAME.expected.json`` sits beside a record, its ``totals`` and ``winner`` must be printed too.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted(p for p in (ROOT / "tests" / "golden").glob("*.json") if not p.name.endswith(".expected.json"))
BAD_WORDS = ("illegal", "revoke", "violation")


def arbitrate(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "arbitrate", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def arbitrate_here(*args: str, stdin: str | None = None) -> SimpleNamespace:
    """The command run by ``call_command``: its standard output and error, and the code it exits with."""
    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        call_command("arbitrate", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = saved
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_there_are_golden_records_for_every_game() -> None:
    games = {json.loads(p.read_text(encoding="utf-8"))["game"] for p in GOLDEN}
    assert games == {"tarot", "triomphe", "imperiale", "vingt-quatre", "ecarte"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_records_replay(path: Path) -> None:
    done = arbitrate_here(str(path), "--compact")
    expected = 1 if any(word in path.name for word in BAD_WORDS) else 0
    assert done.returncode == expected, done.stderr or done.stdout[:2000]
    verdict = json.loads(done.stdout)
    assert verdict["legal"] is (expected == 0)
    assert bool(verdict["violations"]) is (expected == 1)
    for violation in verdict["violations"]:
        assert violation["rule"] and violation["message"]
    sidecar = path.with_name(path.name.removesuffix(".json") + ".expected.json")
    if sidecar.exists():
        expected_verdict = json.loads(sidecar.read_text(encoding="utf-8"))
        for key in ("totals", "winner", "legal"):
            if key in expected_verdict:
                assert verdict[key] == expected_verdict[key], key


def test_golden_records_follow_the_json_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "rules" / "schema" / "deal-record.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in GOLDEN:
        errors = [e.message for e in validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path.name


def test_standard_input_is_read_with_a_dash() -> None:
    first = next(p for p in GOLDEN if p.name.startswith("tarot-"))
    done = arbitrate("-", stdin=first.read_text(encoding="utf-8"))
    assert done.returncode in (0, 1)
    assert json.loads(done.stdout)["game"] == "tarot"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"format": "levee.deal/2"}', "format"),
        ('{"format": "levee.deal/1", "game": "belote", "players": ["A", "B"]}', "game"),
        ('{"format": "levee.deal/1", "game": "ecarte", "players": ["A", "B"], "dealer": 5}', "dealer"),
        ('{"format": "levee.deal/1", "game": "ecarte", "players": ["A", "B"], "dealer": 0, "tricks": [["KS", "ZZ"]]}',
         "tricks[0][1]"),
        ('{"format": "levee.match/1", "game": "ecarte", "players": ["A", "B"], "deals": [{"dealer": 0}, {}]}',
         "deals[1].dealer"),
    ],
)
def test_malformed_records_exit_2_naming_the_field(text: str, field: str) -> None:
    done = arbitrate_here("-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert field in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_malformed_record_exits_2_from_a_real_process() -> None:
    done = arbitrate("-", stdin='{"format": "levee.deal/1", "game": "belote", "players": ["A", "B"]}')
    assert done.returncode == 2 and done.stdout == "" and "game" in done.stderr and "Traceback" not in done.stderr


def test_not_json_and_missing_file_exit_2() -> None:
    assert arbitrate("-", stdin="{not json").returncode == 2
    missing = arbitrate("no/such/file.json")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_unreadable_input_is_explained_in_the_asked_language() -> None:
    fr = arbitrate("-", stdin="{not json")
    assert fr.stderr.strip().startswith("- : ce n'est pas du JSON (ligne 1, colonne 2")
    en = arbitrate("-", "--lang", "en", stdin="{not json")
    assert en.stderr.strip().startswith("-: not JSON (line 1, column 2")
    missing = arbitrate("no/such/file.json")
    assert missing.stderr.strip().startswith("lecture impossible de no/such/file.json : ")
    assert arbitrate("no/such/file.json", "--lang", "en").stderr.strip().startswith("cannot read no/such/file.json: ")
