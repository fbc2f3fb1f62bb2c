"""One registry of games: the Django side branches on rules.game and the scoring modules through
tournaments/common/games.py, never on a game's code name.

The name scan reads every module of tournaments/ and every template: a code name written as a string
(``"tarot"``), compared in a template (``== "ecarte"``) or a member of the games' choices (``Game.TAROT``) is a
branch on the game that belongs in its rules or scoring module. Only the bridge, the demo seed and the
migrations may name games.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from tournaments.common import games

ROOT = Path(__file__).resolve().parents[3]
NAMES = ("tarot", "triomphe", "imperiale", "vingt-quatre", "vingt_quatre", "ecarte")
ALLOWED = {"tournaments/common/games.py", "tournaments/management/commands/seed_demo.py"}
_MEMBER = re.compile(r"\bGame\.(TAROT|TRIOMPHE|IMPERIALE|VINGT_QUATRE|ECARTE)\b")
_TEMPLATE = re.compile(r"""["'](""" + "|".join(NAMES) + r""")["']""")


def python_names(text: str) -> list[str]:
    """The code names a module writes as strings, and the choices' members it names."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.STRING:
            body = re.sub(r"^[rbuRBU]*", "", token.string).strip("\"'")
            if body in NAMES:
                found.append(f"{token.start[0]}: {token.string}")
    found += [f"{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}" for m in _MEMBER.finditer(text)]
    return found


def template_names(text: str) -> list[str]:
    return [f"{text[:m.start()].count(chr(10)) + 1}: {m.group(0)}" for m in _TEMPLATE.finditer(text)]


def test_the_scan_finds_a_game_name_where_it_is_written():
    assert python_names('if tournament.game == "tarot":\n    pass\n') == ['1: "tarot"']
    assert python_names("KINDS = {'vingt-quatre': 1}\nx = Game.ECARTE\n") == ["1: 'vingt-quatre'", "2: Game.ECARTE"]
    assert python_names('"""The Tarot summary."""\nlabel = "Tarot de démonstration"\n') == []
    assert template_names('{% if tournament.game == "imperiale" %}') == ['1: "imperiale"']


def test_no_game_name_outside_the_registry_bridge():
    offenders = []
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED or "/migrations/" in rel:
            continue
        offenders += [f"{rel}:{hit}" for hit in python_names(path.read_text(encoding="utf-8"))]
    templates = [*(ROOT / "templates").rglob("*"), *(ROOT / "tournaments").glob("*/templates/**/*")]
    for path in sorted(templates):
        if path.is_file():
            rel = path.relative_to(ROOT).as_posix()
            offenders += [f"{rel}:{hit}" for hit in template_names(path.read_text(encoding="utf-8"))]
    assert offenders == []


# -- what the bridge answers, from the rules modules -------------------------------------------------------

def test_the_games_their_labels_and_the_model_choices_as_before():
    """The tournament's choices are built from the registry, identical to the historical list (no migration)."""
    from tournaments.event.models import Game

    expected = [("tarot", "Tarot"), ("triomphe", "Triomphe"), ("imperiale", "Impériale"),
                ("vingt-quatre", "Vingt-quatre"), ("ecarte", "Écarté")]
    assert games.choices() == expected
    assert Game.choices == expected and Game.TAROT == "tarot" and Game.VINGT_QUATRE == "vingt-quatre"
    assert games.label("ecarte") == "Écarté" and games.label("belote") == "belote"


def test_matches_visa_duplicate_and_seats():
    assert games.match_games() == {"triomphe", "imperiale", "vingt-quatre", "ecarte"}
    assert not games.plays_matches("tarot") and not games.plays_matches("belote")
    # FFT: a garde sans or a garde contre counts once the chief arbiter has approved it (A-T11)
    assert games.needs_visa("tarot", {"bid": {"taker": 1, "contract": "garde_contre"}})
    assert not games.needs_visa("tarot", {"bid": {"taker": 1, "contract": "garde"}})
    assert games.needs_visa("tarot", {"bid": {"taker": 1, "contract": "garde"}, "chelem_announced": True})
    assert not games.needs_visa("tarot", {"bid": {"taker": 1, "contract": "garde"}, "chelem_announced": False})
    assert not games.needs_visa("triomphe", {"bid": {"contract": "garde_sans"}})
    assert games.duplicate_deals("tarot") and not games.duplicate_deals("ecarte")
    assert games.contracts("tarot") == ("petite", "garde", "garde_sans", "garde_contre")
    assert games.player_counts("tarot") == (3, 4, 5) and games.player_counts("imperiale") == (2, 3)
    assert games.player_counts("belote") == (2, 3, 4, 5, 6)


@pytest.mark.parametrize(("game", "chosen", "options"), [
    ("tarot", {"players": 5, "five": "called_king"}, {"players": 5, "five": "called_king"}),
    ("tarot", {"players": 4, "five": "called_king"}, {"players": 4}),  # ignored at 4
    ("triomphe", {}, {"mode": "forcee", "order": "1725"}),
    ("triomphe", {"mode": "forcat", "as_qui_pille": True, "order": "piquet"}, {"mode": "forcat", "as_qui_pille": True}),
    ("vingt-quatre", {"players": 5}, {"players": 5, "honours": "figures"}),
    ("ecarte", {"players": 4, "honours": "point"}, {"players": 4}),
])
def test_the_conventions_an_organizer_chooses(game, chosen, options):
    assert games.game(game).tournament_options(chosen) == options


def test_the_expert_skeleton_is_a_fresh_copy():
    first = games.record_fields("tarot")
    first["handfuls"].append({"seat": 0})
    assert games.record_fields("tarot")["handfuls"] == []
    assert "exchanges" in games.record_fields("ecarte")
    assert "Donne : donneur, virade" in games.record_help("vingt-quatre", {"players": 4})
