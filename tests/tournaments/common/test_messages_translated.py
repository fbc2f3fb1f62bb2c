"""Every refusal the service raises is written for translation: no English-only sentence reaches a French desk.

An AST scan of ``tournaments/``: the message of a service error (``InvalidInput``, ``StateConflict`` …), of
a DRF ``NotFound`` / ``ValidationError`` / ``PermissionDenied``, is ``_("…")`` (or ``_("…") % {…}``), a
value already in the reader's language (``exc.text(lang)``), or a variable; never a string literal or an
f-string. ``SeatingError`` sentences are checked like MalformedRecord's: each raise in ``scoring/`` gives ``fr=``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ERRORS = {"InvalidInput", "StateConflict", "VersionConflict", "IdempotencyMismatch", "NotFound", "PermissionDenied",
          "ValidationError"}


def _literal(node: ast.AST) -> bool:
    """A sentence written out in the code: a string, an f-string, or a dict holding one (DRF's field errors)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _literal(node.left)
    if isinstance(node, ast.Dict):
        return any(_literal(v) for v in node.values if v is not None)
    return False


def _calls(folder: str, names: set[str]):
    for path in sorted((ROOT / folder).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if name in names:
                    yield path.relative_to(ROOT), node


def test_service_and_api_refusals_are_translatable():
    offenders = [f"{path}:{node.lineno}" for path, node in _calls("tournaments", ERRORS)
                 if node.args and _literal(node.args[0])]
    assert offenders == [], "wrap these messages in gettext: " + ", ".join(offenders)


def test_every_seating_error_has_its_french_sentence():
    offenders = [f"{path}:{node.lineno}" for path, node in _calls("scoring", {"SeatingError"})
                 if not any(k.arg == "fr" for k in node.keywords)]
    assert offenders == [], ", ".join(offenders)


@pytest.mark.django_db
def test_a_refusal_by_role_is_said_in_french(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["other_arbiter"])  # an arbiter of another table
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rounds/", {}, format="json")
    assert response.status_code == 403
    assert "votre rôle dans ce tournoi ne le permet pas" in response.content.decode()
