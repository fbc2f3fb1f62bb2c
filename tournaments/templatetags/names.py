"""Players' names on narrow screens: a short form for the head of a score sheet's column, and the places where a long
name may break."""

from __future__ import annotations

import re
from itertools import pairwise

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

VOWELS = frozenset("aeiouyàâäéèêëîïôöûüùÿœæ")
#: two consonants that start a syllable together (« Dela-croix », « Ro-che-foucauld »): never split
PAIRS = frozenset({"bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gn", "gr", "ph", "pl", "pr", "th", "tr",
                   "vr"})
#: the consonants that start a syllable together, longest first: a cluster between two vowels breaks before the
#: longest of them it ends with (« Mont-fort », « Œhlen-schläger »), else before its last consonant
ONSETS = ("schl", "schr", "chl", "chr", "sch", "scr", "spl", "spr", "str", *sorted(PAIRS))
#: a word shorter than this is left whole
LONG_WORD = 8
SOFT_HYPHEN = "\u00ad"
_LETTERS = re.compile(r"[^\W\d_]+")
#: a name's words and the parts of its compound words, each with the hyphen or space after it
_PIECES = re.compile(r"[^\s-]+-?|-")


def _vowel(letter: str) -> bool:
    return letter.lower() in VOWELS


@register.filter
def short_name(name: str, length: int = 8) -> str:
    """The first name for a column ``length`` characters wide: whole where it fits (« François », « Jean-Édouard »),
    a compound one as its first part and the other's initial (« Marie-B. ») or as its initials (« M.-B. »), a long
    one cut after a consonant and before a vowel, as French abbreviates (« Maximil. », « Franç. »)."""
    words = (name or "").split()
    if not words:
        return ""
    first = words[0]
    if len(first) <= length:
        return first
    head, _, rest = first.partition("-")
    if rest and len(head) + 3 <= length:
        return f"{head}-{rest[0]}."
    if rest and length >= 5:
        return f"{head[0]}.-{rest[0]}."  # « J.-É. », as French writes a compound first name's initials
    for k in range(min(length - 1, len(first) - 1), 1, -1):
        if not _vowel(first[k - 1]) and first[k - 1].isalpha() and _vowel(first[k]):
            return first[:k] + "."
    return first[: length - 1] + "."


def _syllable_breaks(word: str) -> list[int]:
    """Where a long word may break between its syllables: before the consonants between two vowels that start the
    next syllable (:data:`ONSETS`; « Ro-che-fou-cauld », « Mont-fort »)."""
    vowels = [i for i, letter in enumerate(word) if _vowel(letter)]
    breaks = []
    for a, b in pairwise(vowels):
        cluster = word[a + 1:b].lower()
        if not cluster:
            continue
        onset = next((o for o in ONSETS if cluster.endswith(o)), cluster[-1])
        at = b - len(onset)
        if 2 <= at <= len(word) - 2:
            breaks.append(at)
    return breaks


def _breakable_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if len(word) < LONG_WORD:
        return word
    out, last = [], 0
    for at in _syllable_breaks(word):
        out.append(word[last:at])
        last = at
    out.append(word[last:])
    return SOFT_HYPHEN.join(out)


@register.filter
def breakable(name: str) -> str:
    """``name`` with soft hyphens between the syllables of its long words: on a phone's narrow column it breaks at its
    spaces and its own hyphens first, and inside a word only when that word cannot fit (« Rochefou-cauld »), with a
    hyphen shown, never at any letter (« Rochefouca|uld »)."""
    return _LETTERS.sub(_breakable_word, name or "")


@register.filter
def name_words(name: str) -> SafeString:
    """``name`` for a narrow column, each word (each part of a compound word, its hyphen kept) a box of its own
    (``<span class="w">``, styled ``inline-block``): the name breaks between them first, and inside one only when it
    cannot fit on a line of its own — then between its syllables (:func:`breakable`) with a hyphen shown. Where a
    soft hyphen alone let the line be filled greedily (« Marie-Ber-|nadette »), the box keeps « Bernadette » whole."""
    return mark_safe(" ".join(  # each piece escaped
        "".join(f'<span class="w">{conditional_escape(breakable(p))}</span>' for p in _PIECES.findall(word))
        for word in (name or "").split()))
