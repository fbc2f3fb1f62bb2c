"""Errors as values.

A :class:`Violation` is a breach of a game rule found in a record or refused during entry:
a stable rule code, where it happened (deal, trick, seat, card; indices from 0) and the
parameters of its message. A :class:`MalformedRecord` is a record that cannot be read at
all; it names the field. Neither is a bug: bugs stay ordinary exceptions.

Messages are produced here in French (default) and English from the code and the
parameters, so that every layer says the same thing; the Django layer only picks the
language.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, CardCodeError, card_with_article, format_card, parse_card
from .frozen import quick_init
from .messages import render, seats_named

CARD_PARAMS = ("example", "best", "proof", "called", "expected_card")
"""Parameters holding a card code, shown by name in messages."""


@quick_init
@dataclass(frozen=True)
class Violation:
    """A rule broken at a given place.

    ``rule`` is a stable code (``must_follow``, ``must_overtrump`` …); ``params`` holds
    what the message needs (cards as codes, counts, names). ``seat`` is an index into the
    record's ``players``; ``trick`` counts from 0.
    """

    rule: str
    deal: int | None = None
    trick: int | None = None
    seat: int | None = None
    card: Card | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "fr", players: list[str] | None = None) -> str:
        """The sentence for people, counting tricks and deals from 1."""
        who = None
        if self.seat is not None:
            if players and 0 <= self.seat < len(players):
                who = players[self.seat]
            else:
                who = (f"le joueur {self.seat + 1}" if lang == "fr" else f"player {self.seat + 1}")
        values = {
            "who": who,
            "card": card_with_article(self.card, lang) if self.card is not None else None,
            "trick": self.trick + 1 if self.trick is not None else None,
            "deal": self.deal + 1 if self.deal is not None else None,
            **{k: v for k, v in self.params.items()},
        }
        for key in CARD_PARAMS:
            code = values.get(key)
            if isinstance(code, str) and code:
                with contextlib.suppress(CardCodeError):
                    values[key] = card_with_article(parse_card(code), lang)
        named = seats_named(self.rule, values, players)
        text = render(self.rule, named, lang, named=True) if named is not None else render(self.rule, values, lang)
        if self.trick is None:
            text = text[:1].upper() + text[1:]
        elif lang == "fr":
            text = f"Pli {self.trick + 1} : {text}"
        else:
            text = f"Trick {self.trick + 1}: {text}"
        return text

    def to_json(self, lang: str = "fr", players: list[str] | None = None) -> dict[str, Any]:
        """The verdict's form of a violation (``../shared/deal-record.md``)."""
        return {
            "deal": self.deal,
            "trick": self.trick,
            "seat": self.seat,
            "card": format_card(self.card) if self.card is not None else None,
            "rule": self.rule,
            "message": self.message(lang, players),
            "params": {k: _jsonable(v) for k, v in self.params.items()},
        }

    def at(self, *, deal: int | None = None) -> Violation:
        """The same violation placed in a deal of a match."""
        return Violation(self.rule, deal, self.trick, self.seat, self.card, self.params)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


class RuleViolation(ValueError):
    """Raised by ``verify_*`` methods: the action breaks a rule. Carries the violation."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message("en"))
        self.violation = violation


class Bilingual:
    """An error told in English (``message``, the exception's text) and in French (``fr``)."""

    message: str
    fr: str | None

    def text(self, lang: str = "fr") -> str:
        """The sentence in ``lang`` (``fr`` or ``en``; French falls back to English when missing)."""
        if lang.lower().startswith("en"):
            return self.message
        return self.fr or self.message


class MalformedRecord(Bilingual, ValueError):
    """A record that cannot be read: ``field`` is a JSON path such as ``deals[2].tricks[3][1]``.

    ``message`` is the English sentence (also the exception's text, for logs and tracebacks),
    ``fr`` the French one; :meth:`text` picks by language. Every raise in ``rules/`` and
    ``scoring/`` gives both (``tests/rules/test_malformed_messages.py`` scans for it); a
    record error raised without ``fr`` falls back to English.
    """

    def __init__(self, field: str, message: str, *, fr: str | None = None) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.fr = fr

    def to_json(self, lang: str = "en") -> dict[str, str]:
        return {"field": self.field, "message": self.text(lang)}
