"""Names sorted as French sorts them: accents, case and hyphens second (« Élodie » before « Karim »,
« de La Tour » with the L's). A sort key, not a locale: the server's C locale sorts « É » after « z »."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.utils.text import slugify

T = TypeVar("T")


def french_key(text: str) -> tuple[str, str]:
    """The key: letters without accents, folded, punctuation as spaces; then the text itself to break ties
    (« cote » < « côte » as in a French dictionary's first pass)."""
    decomposed = unicodedata.normalize("NFKD", text)
    base = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    base = base.replace("œ", "oe").replace("æ", "ae").replace("ß", "ss")
    base = " ".join("".join(c if c.isalnum() else " " for c in base).split())
    return base, text


#: the letters NFKD does not take apart, and what they are written as without them
LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"})


def french_slug(text: str) -> str:
    """Django's ``slugify`` with the ligatures written out first (« Œcuménique » → « oecumenique », not
    « cumenique »: slugify drops what has no ASCII letter under it)."""
    return slugify(text.translate(LIGATURES))


def french_sorted(items: Iterable[T], key: Callable[[T], str] = str) -> list[T]:
    return sorted(items, key=lambda item: french_key(key(item)))
