"""Cards on pages: short labels with suit symbols, and names in the page's language.

``{% load cards %}`` then ``{{ "KS"|card }}`` → ``<span class="card card-s" title="roi de pique">R♠</span>``,
``{{ "T21"|card_name }}`` → ``atout 21`` (or ``trump 21`` in English), ``{{ hand|cards }}`` for a list.
Codes that name no card are shown as typed, marked as wrong, never raising.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from rules.cards import (
    EXCUSE,
    SUIT,
    TRUMPS,
    Card,
    CardCodeError,
    card_label,
    card_name,
    parse_card,
)

register = template.Library()

_SUIT_CLASS = {0: "s", 1: "h", 2: "d", 3: "c", TRUMPS: "t"}


def _lang() -> str:
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def _as_card(value: object) -> Card | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return parse_card(value)
        except CardCodeError:
            return None
    return None


@register.filter(name="card")
def card_filter(value: object) -> SafeString | str:
    """A card code (or id) as a short label with its suit symbol and its full name as a tooltip."""
    if value in (None, ""):
        return ""
    c = _as_card(value)
    if c is None:
        return format_html('<span class="card card-bad">{}</span>', value)
    css = "x" if c == EXCUSE else _SUIT_CLASS.get(SUIT[c], "t")
    return format_html('<span class="card card-{}" title="{}">{}</span>', css, card_name(c, _lang()), card_label(c))


@register.filter(name="cards")
def cards_filter(values: Iterable[object] | None) -> SafeString | str:
    """A list of card codes as labels separated by thin spaces."""
    if not values:
        return ""
    return format_html_join(" ", "{}", ((card_filter(v),) for v in values))


@register.filter(name="card_name")
def card_name_filter(value: object) -> str:
    """A card's name for people in the page's language (``roi de pique`` / ``king of spades``)."""
    c = _as_card(value)
    if c is None:
        return "" if value is None else str(value)
    return card_name(c, _lang())
