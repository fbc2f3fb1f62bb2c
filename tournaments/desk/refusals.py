"""What a refusal says, in the table's words: the problems a service reported, each as a sentence and where it
happened (« Pli 4 · Marie · roi de cœur »), never a JSON path or a rule code."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.cards import card_name
from tournaments.common.access import lang_of
from tournaments.common.elision import elide
from tournaments.common.errors import DealRejected, MalformedDeal, ServiceError
from tournaments.deals.models import Deal

_INDEX = re.compile(r"\[(\d+)\]")


def describe_field(path: str | None, players: list[str]) -> str:
    """A record's JSON path in words: ``tricks[3][2]`` → « Pli 4, carte 3 »; ``hands[1]`` → the player's hand;
    ``deals[2].summary.declined_by`` → « donne 3, résumé, échange refusé par ». An index is a card only inside a
    list of cards; a step of a list of declarations is its number (« étape 2 »)."""
    if not path or path == "$":
        return ""
    parts = [p for p in re.split(r"\.", _INDEX.sub(r".[\1]", path)) if p]
    words: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        index = int(nxt[1:-1]) if nxt and nxt.startswith("[") else None
        if part == "tricks" and index is not None:
            words.append(_("Trick %(n)s") % {"n": index + 1})
            i += 2
            continue
        if part == "deals" and index is not None:
            words.append(_("deal %(n)s") % {"n": index + 1})
            i += 2
            continue
        if part == "hands" and index is not None:
            who = players[index] if 0 <= index < len(players) else _("seat %(n)s") % {"n": index + 1}
            words.append(elide(_("hand of %(who)s") % {"who": who}, who))  # « main d'Anne »
            i += 2
            continue
        if part.startswith("["):
            after_cards = i > 0 and parts[i - 1] in CARD_LISTS
            words.append((_("card %(n)s") if after_cards else _("step %(n)s")) % {"n": int(part[1:-1]) + 1})
        elif part in FIELD_WORDS:  # a name the table does not use (« tournament », a schema key) is left out
            words.append(str(FIELD_WORDS[part]))
        i += 1
    return ", ".join(words)


FIELD_WORDS = {
    "dealer": gettext_lazy("dealer"), "bid": gettext_lazy("bid"), "taker": gettext_lazy("taker"),
    "contract": gettext_lazy("contract"), "called": gettext_lazy("called card"), "summary": gettext_lazy("summary"),
    "points": gettext_lazy("points"), "oudlers": gettext_lazy("bouts"), "petit_au_bout": gettext_lazy("petit au bout"),
    "chelem": gettext_lazy("chelem"), "handfuls": gettext_lazy("poignées"), "partner": gettext_lazy("partner"),
    "dog": gettext_lazy("chien"), "discard": gettext_lazy("écart"), "turn_up": gettext_lazy("turn-up"),
    "announcements": gettext_lazy("announcements"), "size": gettext_lazy("size"), "seat": gettext_lazy("seat"),
    "reason": gettext_lazy("reason"), "version": gettext_lazy("version"),
    "exchanges": gettext_lazy("exchange"), "king": gettext_lazy("king of trumps"), "talon": gettext_lazy("talon"),
    "tricks": gettext_lazy("tricks won"), "first_to_two": gettext_lazy("first to two tricks"),
    "turned_king": gettext_lazy("king turned"), "declined_by": gettext_lazy("exchange declined by"),
    "discards": gettext_lazy("cards discarded"), "draws": gettext_lazy("cards drawn"),
    "action": gettext_lazy("action"), "trick": gettext_lazy("when"),
}

#: the record's lists of cards, whose items are cards (« carte 2 »); the items of other lists are steps
CARD_LISTS = {"dog", "discard", "talon", "discards", "draws", "cards", "called", "hands"}


def explain_rejection(exc: ServiceError, request: HttpRequest, players: list[str]) -> list[dict[str, Any]]:
    """The problems a service reported, each as a sentence and where it happened."""
    lang = lang_of(request)
    if isinstance(exc, DealRejected):
        out = []
        for v in exc.violations:
            where = []
            if v.deal is not None and len({x.deal for x in exc.violations}) > 1:
                where.append(_("Deal %(n)s") % {"n": v.deal + 1})
            if v.trick is not None:
                where.append(_("Trick %(n)s") % {"n": v.trick + 1})
            if v.seat is not None and 0 <= v.seat < len(players):
                where.append(players[v.seat])
            if v.card is not None:
                where.append(card_name(v.card, lang))
            out.append({"message": v.message(lang, players), "where": " · ".join(where), "rule": v.rule})
        return out
    if isinstance(exc, MalformedDeal):
        where = describe_field(exc.field, players)
        message = exc.text(lang)
        token = re.search(r"'([^']+)' is not a card code", exc.message)
        if token:
            message = _("“%(token)s” is not a card code.") % {"token": token.group(1)}
        return [{"message": message, "where": where, "rule": exc.code, "field": exc.field}]
    return [{"message": exc.text(lang), "where": describe_field(exc.field, players), "rule": exc.code}]


def saved_message(deal: Deal) -> str:
    """What the table reads once its deal is saved: saved, waiting for the visa, or irregular (arbiter called)."""
    if deal.status == Deal.Status.IRREGULAR:
        return _("Deal %(n)s saved as an irregular deal: the arbiter is called; it counts once he has ruled.") % {
            "n": deal.number}
    if deal.status == Deal.Status.PENDING:
        return _("Deal %(n)s saved; it counts once the chief arbiter approves it.") % {"n": deal.number}
    return _("Deal %(n)s saved.") % {"n": deal.number}
