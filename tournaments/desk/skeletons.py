"""Pre-filled JSON records for the expert entry (and the historical games' entry form).

Each skeleton is a ``levee.deal/1`` record with the table's players and conventions already in,
the next dealer, and the deal fields of the game (documented in the game module and
``docs/deal-record.md``) left empty for the arbiter to fill.
"""

from __future__ import annotations

import json
from typing import Any

#: each game's own deal fields, as the arbiter fills them at the table
GAME_FIELDS: dict[str, dict[str, Any]] = {
    "tarot": {
        "bid": {"taker": 0, "contract": "garde", "called": None},
        "chelem_announced": False,
        "handfuls": [],
        "hands": None,
        "dog": None,
        "discard": None,
        "tricks": [],
    },
    "triomphe": {
        "turn_up": "",
        "hands": None,
        "tricks": [],
    },
    "imperiale": {
        "turn_up": "",
        "announcements": {"cartes_blanches": [], "imperiales": []},
        "hands": None,
        "tricks": [],
    },
    "vingt-quatre": {
        "turn_up": "",
        "announcements": {"sequences": []},
        "hands": None,
        "tricks": [],
    },
    "ecarte": {
        "turn_up": "",
        "exchanges": [],
        "king": None,
        "hands": None,
        "tricks": [],
    },
}

#: one line of help per game, shown above the JSON textarea
GAME_HELP = {
    "tarot": "bid.contract: petite | garde | garde_sans | garde_contre; "
             "handfuls: [{\"seat\": 0, \"size\": \"simple\"}]",
    "triomphe": "turn_up: la retourne (\"9H\"); talon, pillage (As qui pille), abandon {by, accepted}, stopped",
    "imperiale": "turn_up; announcements: cartes_blanches [seats], imperiales [{seat, cards}], "
                 "point {seat, count, value} (left out: found from the hands; null: not counted)",
    "vingt-quatre": "turn_up: la virade; announcements: sequences [{seat, cards}], point {seat, count, value} "
                    "(left out: found from the hands)",
    "ecarte": "turn_up; exchanges [{seat, action: play | propose | accept | refuse | exchange, discards, draws}]; "
              "king {seat, trick}",
}


def skeleton(head: dict[str, Any], *, dealer: int) -> dict[str, Any]:
    """The record to start from: the table's fixed fields, the next dealer, the game's fields empty."""
    fields = json.loads(json.dumps(GAME_FIELDS.get(head.get("game", ""), {"hands": None, "tricks": []})))
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
