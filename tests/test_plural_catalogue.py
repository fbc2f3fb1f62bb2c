"""French plurals follow the French rule (0 and 1 in the singular): a message written in French with a plural
(« %(count)s donne sur %(expected)s ») needs its own entry in the French catalogue, or gettext applies the
English rule to it and a page reads « 0 donnes » (a walk saw « Table 4 : 0 donnes sur 3 »)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def _entries(path: Path) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    current: dict[str, str] = {}
    key = None
    for line in [*path.read_text(encoding="utf-8").split("\n"), ""]:
        if not line.strip():
            if current:
                out.append(current)
            current, key = {}, None
            continue
        if line.startswith("#"):
            continue
        match = re.match(r'^(msgid_plural|msgid|msgstr\[\d\]|msgstr|msgctxt) (".*")$', line)
        if match:
            key = match.group(1)
            current[key] = ast.literal_eval(match.group(2))
        elif line.startswith('"') and key:
            current[key] += ast.literal_eval(line)
    return out


def test_every_french_plural_message_has_a_french_entry() -> None:
    french = {(e.get("msgctxt"), e.get("msgid")) for e in _entries(LOCALE / "fr/LC_MESSAGES/django.po")}
    missing = [e["msgid"] for e in _entries(LOCALE / "en/LC_MESSAGES/django.po")
               if e.get("msgid_plural") and e.get("msgid") and (e.get("msgctxt"), e["msgid"]) not in french]
    assert not missing, missing
