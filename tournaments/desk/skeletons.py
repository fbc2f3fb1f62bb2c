"""Pre-filled JSON records for the expert entry.

Each skeleton is a ``levee.deal/1`` record with the table's players and conventions already in,
the next dealer, and the deal fields of the game (``Game.record_fields`` of the game module, documented
in ``docs/deal-record.md``) left empty for the arbiter to fill.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tournaments.common import games


def game_help(game: str, options: Mapping[str, Any], lang: str = "fr") -> str:
    """One line of help on what the deal says, phase by phase in the words of the table, shown above the JSON."""
    return games.record_help(game, options, lang)


def skeleton(head: dict[str, Any], *, dealer: int) -> dict[str, Any]:
    """The record to start from: the table's fixed fields, the next dealer, the game's fields empty."""
    fields = games.record_fields(str(head.get("game", "")))
    if "exchanges" in fields and len(head.get("players") or ()) in (2, 3):
        fields["exchanges"] = [{"seat": (dealer + 1) % len(head["players"]), "action": "play"}]  # d'autorité
    elif "exchanges" in fields:
        del fields["exchanges"]  # no exchange at 4 players
    return {**head, "dealer": dealer, **fields}


def dumps(record: dict[str, Any]) -> str:
    """A record as the textarea shows it: indented, one trick per line where possible."""
    return _dump(record, 0)


def _flat(value: Any) -> bool:
    if isinstance(value, list):
        return all(not isinstance(v, (dict, list)) for v in value)
    if isinstance(value, dict):
        return len(value) <= 4 and all(not isinstance(v, (dict, list)) for v in value.values())
    return True


def _dump(value: Any, depth: int) -> str:
    if _flat(value):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, list):
        return "[\n" + ",\n".join(inner + _dump(v, depth + 1) for v in value) + "\n" + pad + "]"
    items = (inner + json.dumps(k, ensure_ascii=False) + ": " + _dump(v, depth + 1) for k, v in value.items())
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"
