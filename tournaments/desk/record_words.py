"""A deal's record in the table's words, for its page: « Donneur : Ana », « Roi appelé : roi de cœur »,
« Pli 3 : as de pique, 7 de pique »; never a card code, a seat index nor a Python value."""

from __future__ import annotations

import re
from typing import Any

from rules.cards import CardCodeError, card_name, parse_card
from tournaments.common import games
from tournaments.templatetags.french_words import field_words

#: the record's keys that hold a seat (RULES.md and ../shared/deal-record.md): shown as the player's name
SEAT_KEYS = frozenset({"dealer", "taker", "partner", "seat", "winner", "leader", "player", "called_seat"})
#: the keys left out of the detail (shown elsewhere on the page, or the engine's own bookkeeping)
SKIPPED = frozenset({"players", "game", "options", "schema", "version", "format"})
_HAND = re.compile(r"^hands\[(\d+)\]$")
_CODE = re.compile(r"^(?:[2-9]|10|[AKQJCN])[SHDC]$|^T(?:[1-9]|1\d|2[01])$|^EX$")


def _card(value: str) -> str | None:
    if not _CODE.match(value):
        return None
    try:
        return card_name(parse_card(value))
    except CardCodeError:
        return None


def of(name: str) -> str:
    """« d'Ana », « de Bruno »: the French « de » before a name, elided before a vowel."""
    return f"d'{name}" if name[:1].lower() in "aeiouyàâäéèêëîïôöùûü" else f"de {name}"


def value_words(key: str, value: Any, players: list[str]) -> str:
    """One value of the record as people say it."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int) and key in SEAT_KEYS:
        return players[value] if 0 <= value < len(players) else f"place {value + 1}"
    if isinstance(value, str):
        return _card(value) or value
    if isinstance(value, float):
        return f"{value:g}".replace(".", ",")
    if isinstance(value, list):
        if key in ("seats",) or key.endswith("_seats"):
            return ", ".join(value_words("seat", v, players) for v in value) or "—"
        return ", ".join(value_words(key, v, players) for v in value) or "—"
    if isinstance(value, dict):
        return " ; ".join(f"{field_words(k)} : {value_words(k, v, players)}" for k, v in value.items())
    return str(value)


def record_words(record: Any, players: list[str]) -> list[tuple[str, str]]:
    """The record as lines (what, value), in the record's order: objects unfolded, a list of cards on one line,
    each trick on its own line."""
    lines: list[tuple[str, str]] = []

    def walk(value: Any, path: str, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if not path and k in SKIPPED:
                    continue
                walk(v, f"{path}.{k}" if path else k, k)
            return
        if isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]", key)
            return
        hand = _HAND.match(path)
        what = f"main {of(players[int(hand[1])])}" if hand and int(hand[1]) < len(players) else field_words(path)
        # a contract by its name in the game (« Garde sans le chien », never « garde_sans »)
        named = games.contract_label(game, {"bid": {"contract": value}}) if key == "contract" else ""
        lines.append((what, named or value_words(key, value, players)))

    game = str(record.get("game", "")) if isinstance(record, dict) else ""
    walk(record if isinstance(record, dict) else {}, "", "")
    return lines
