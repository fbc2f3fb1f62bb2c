"""French elision before a name: « l'inscription d'Éloïse », « celle d'Ana », never « de Éloïse »."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language

#: the first letters that elide « de » (a mute h is not told from an aspirated one by its spelling: left alone)
VOWELS = frozenset("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆaeiouyàâäéèêëîïôöùûüœæ")


def with_name(message: str, name: str, **values: Any) -> str:
    """``message % {"name": name, **values}``, « de %(name)s » written « d'%(name)s » in French when the name
    begins with a vowel. ``message`` is the translated text (the English one is left as it is)."""
    if name[:1] in VOWELS and (get_language() or "fr").startswith("fr"):
        message = message.replace("de %(name)s", "d'%(name)s")
    return message % {"name": name, **values}
