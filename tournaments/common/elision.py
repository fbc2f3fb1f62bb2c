"""French elision before a name: « l'inscription d'Éloïse », « celle d'Ana », « ce qu'Anne conteste », never
« de Éloïse » nor « que Anne »."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language

#: the first letters that elide « de » (a mute h is not told from an aspirated one by its spelling: left alone)
VOWELS = frozenset("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆaeiouyàâäéèêëîïôöùûüœæ")


def _elides(name: str) -> bool:
    return name[:1] in VOWELS and (get_language() or "fr").startswith("fr")


def with_name(message: str, name: str, **values: Any) -> str:
    """``message % {"name": name, **values}``, « de %(name)s » written « d'%(name)s » and « que %(name)s »
    « qu'%(name)s » in French when the name begins with a vowel. ``message`` is the translated text (the English
    one is left as it is)."""
    if _elides(name):
        message = _elided(message, "%(name)s")
    return message % {"name": name, **values}


def elide(text: str, name: str, shown: str | None = None) -> str:
    """``text`` with « de » and « que » elided before ``name`` where it follows them (« appel de Anne Un » →
    « appel d'Anne Un », « Ce que Anne » → « Ce qu'Anne »), in French when the name begins with a vowel.
    ``text`` is already written; ``shown``: the name as it appears there (a page's escaped text)."""
    return _elided(text, name if shown is None else shown) if name and _elides(name) else text


def _elided(text: str, shown: str) -> str:
    return re.sub(r"\b([dD]|[qQ]u)e (?=" + re.escape(shown) + ")", r"\1'", text)
