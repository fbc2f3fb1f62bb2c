"""Unreadable records are explained in French and English.

Every ``MalformedRecord(...)`` raised in ``rules/``, ``scoring/`` and ``tournaments/`` gives its French sentence
(``fr=``) beside the English ``message``: an AST scan holds the line. A few messages are checked
word for word in both languages.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from rules.errors import MalformedRecord
from scoring.verdict import judge

ROOT = Path(__file__).resolve().parent.parent.parent
PLAYERS = ["Ana", "Bruno", "Chloé", "David"]


def _calls_without_french(folder: str) -> list[str]:
    missing = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name != "MalformedRecord":
                continue
            fr = next((k.value for k in node.keywords if k.arg == "fr"), None)
            if fr is None or (isinstance(fr, ast.Constant) and not fr.value):
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return missing


@pytest.mark.parametrize("folder", ["rules", "scoring", "tournaments"])
def test_every_malformed_record_has_a_french_sentence(folder: str) -> None:
    assert _calls_without_french(folder) == []


def test_the_scan_sees_the_raises() -> None:
    """The scan is not vacuous: rules/ raises MalformedRecord in about a hundred places."""
    count = sum(
        1
        for path in (ROOT / "rules").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "MalformedRecord"
    )
    assert count > 90


def test_text_picks_the_language_and_falls_back_to_english() -> None:
    both = MalformedRecord("dealer", "the dealer is a seat from 0 to 3", fr="le donneur est une place de 0 à 3")
    assert both.text("fr") == both.text() == "le donneur est une place de 0 à 3"
    assert both.text("en") == both.text("en-gb") == both.message == "the dealer is a seat from 0 to 3"
    assert both.to_json() == {"field": "dealer", "message": "the dealer is a seat from 0 to 3"}
    assert both.to_json("fr") == {"field": "dealer", "message": "le donneur est une place de 0 à 3"}
    assert str(both) == "dealer: the dealer is a seat from 0 to 3"
    english_only = MalformedRecord("$", "a record is a JSON object")
    assert english_only.text("fr") == "a record is a JSON object"


def _tarot(**fields: Any) -> dict[str, Any]:
    return {"format": "levee.deal/1", "game": "tarot", "players": PLAYERS, "dealer": 0,
            "bid": {"taker": 1, "contract": "garde"}, "summary": {"oudlers": 2, "points": 45}, **fields}


def _ecarte(tricks: list[list[str]]) -> dict[str, Any]:
    return {"format": "levee.deal/1", "game": "ecarte", "players": ["Ana", "Bruno"], "dealer": 0, "turn_up": "KS",
            "exchanges": [{"seat": 1, "action": "play"}], "tricks": tricks}


@pytest.mark.parametrize(("record", "field", "fr", "en"), [
    (_tarot(bid={"taker": 1, "contract": "grande"}), "bid.contract",
     "'grande' n'est pas un contrat connu (petite, garde, garde_sans, garde_contre)",
     "'grande' is not one of petite, garde, garde_sans, garde_contre"),
    (_tarot(dealer=4), "dealer",
     "le donneur est une place de 0 à 3",
     "the dealer is a seat from 0 to 3"),
    (_tarot(bid={"taker": 7, "contract": "garde"}), "bid.taker",
     "une place de 0 à 3",
     "a seat from 0 to 3"),
    (_tarot(bid={"taker": 1, "contract": "garde", "called": "KS"}), "bid.called",
     "on n'appelle une carte qu'à 5 joueurs (roi appelé)",
     "a card is called only at 5 players (called king)"),
    (_ecarte([["T1", "7S"]]), "tricks[0][0]",
     "T1 n'appartient pas au jeu de 32 cartes de cette partie",
     "T1 is not a card of this game's 32-card pack"),
    (_ecarte([["7S", "8S", "9S"]]), "tricks[0]",
     "Pli 1 : un pli compte 2 cartes, celui-ci en compte 3",
     "Trick 1: a trick holds 2 cards, this one holds 3"),
    # Bruno (first hand, the dealer's adversary) leads 7S, Ana's 8S wins (spades trump): Ana leads trick 2 with
    # 9S and Bruno's card is missing
    (_ecarte([["7S", "8S"], ["9S"], ["KH", "7H"]]), "tricks[1]",
     "Pli 2 : un pli compte 2 cartes (seul le dernier peut être inachevé), celui-ci en compte 1 : il manque la "
     "carte de Bruno",
     "Trick 2: a trick holds 2 cards (only the last may be unfinished), this one holds 1: Bruno's card is "
     "missing"),
    (_ecarte([["7S", "ZZ"]]), "tricks[0][1]",
     "'ZZ' n'est pas un code de carte (exemples : KS, 10H, NC, T21, EX)",
     "'ZZ' is not a card code (examples: KS, 10H, NC, T21, EX)"),
    ({"format": "levee.deal/2"}, "format",
     "format attendu : 'levee.deal/1' ou 'levee.match/1', reçu : 'levee.deal/2'",
     "expected 'levee.deal/1' or 'levee.match/1', got 'levee.deal/2'"),
], ids=["bad contract", "dealer out of range", "taker out of range", "called card at 4", "card of another pack",
        "wrong trick size", "a card missing", "not a card code", "unknown format"])
def test_messages_in_both_languages(record: dict[str, Any], field: str, fr: str, en: str) -> None:
    with pytest.raises(MalformedRecord) as raised:
        judge(record)
    assert raised.value.field == field
    assert raised.value.text("fr") == fr
    assert raised.value.text("en") == en == raised.value.message


def test_a_rule_code_has_one_sentence():
    """Declaring a known code again with other texts is refused (it would replace the sentence of every game)."""
    import pytest

    from rules.messages import register

    register({"match_over": {"fr": "La partie était déjà terminée : cette donne ne compte pas.",
                             "en": "The match was already over: this deal does not count."}})  # the same: fine
    with pytest.raises(ValueError, match="match_over"):
        register({"match_over": {"fr": "La partie est terminée (donne {ended_deal}).", "en": "Over ({ended_deal})."}})


def _french_naming_a_field_in_brackets(folder: str) -> list[str]:
    """French sentences of ``MalformedRecord`` that name a record field in brackets (« la retourne (turn_up) »)."""
    import re

    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            name = (node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                    ) if isinstance(node, ast.Call) else None
            if name != "MalformedRecord":
                continue
            for k in node.keywords:
                texts = [c.value for c in ast.walk(k.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                if k.arg == "fr" and any(re.search(r"\((options\.)?[a-z]+_[a-z_]+\)", t) for t in texts):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("folder", ["rules", "scoring"])
def test_no_french_sentence_names_a_field_in_brackets(folder: str) -> None:
    # a walk read « la retourne (turn_up) est obligatoire » on the arbiter's tap page: the field is the API's
    # detail (``field``), the sentence is for people
    assert _french_naming_a_field_in_brackets(folder) == []
