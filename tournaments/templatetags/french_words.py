"""Words for people in place of a record's field paths: « points du preneur » rather than ``summary.points``
(the path itself stays in the API)."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.translation import get_language

register = template.Library()

#: a record's fields, in the words of the table (docs/deal-record.md names them)
FIELDS = {
    "dealer": "donneur", "players": "joueurs", "options": "conventions", "bid": "enchère", "taker": "preneur",
    "contract": "contrat", "called": "roi appelé", "partner": "partenaire", "chelem_announced": "chelem annoncé",
    "handfuls": "poignées", "seat": "joueur", "size": "taille", "summary": "", "oudlers": "bouts",
    "points": "points du preneur", "petit_au_bout": "petit au bout", "chelem": "chelem", "tricks": "plis",
    "hands": "mains", "chien": "chien", "ecart": "écart", "declarations": "annonces", "exchanges": "échanges",
    "trump": "atout", "turned": "retourne", "deals": "donnes", "kind": "nature", "cards": "cartes",
    "leader": "entame", "five": "jeu à cinq", "mode": "manière de jouer", "order": "ordre des cartes",
    "honours": "honneurs", "as_qui_pille": "as qui pille", "teams": "équipes", "announcements": "annonces",
    "misdeal": "maldonne", "target": "objectif",
    # L'Impériale and Le Vingt-quatre (the retourne, called virade at Le Vingt-quatre, is « la retourne » in both
    # texts); the Point as both texts write it
    "turn_up": "retourne", "point": "Point", "count": "nombre de cartes", "value": "valeur",
    "imperiales": "impériales", "cartes_blanches": "cartes blanches", "sequences": "séquences",
    # the record's own names (docs/deal-record.md), as a deal's detail shows them
    "dog": "chien", "discard": "écart", "mort": "mort", "abandon": "abandon", "accepted": "acceptée",
    "adjustments": "ajustements", "annulled_dealers": "donneurs des donnes annulées", "discarded": "écartées",
    "discards": "écarts", "draws": "rentrées", "engaged": "engagée", "first_to_two": "le premier à deux",
    "pillage": "pillage", "stopped": "arrêtée", "taken": "prises", "talon": "talon", "trick": "pli",
    "turned_king": "roi retourné", "declined_by": "refusée par", "seats": "joueurs", "winner": "gagnant",
    "after": "après", "ref": "référence", "label": "nom", "action": "action", "king": "roi",
}
_INDEX = re.compile(r"\[(\d+)\]")
#: lists whose items have a name of their own: (one item, one item of an item)
ITEMS = {"tricks": ("pli", "carte"), "hands": ("main du joueur", "carte"), "handfuls": ("poignée", "atout"),
         "deals": ("donne", ""), "players": ("joueur", "")}


@register.filter
def field_words(path: str) -> str:
    """``handfuls[0].size`` → « poignée 1, taille »; ``tricks[3][1]`` → « pli 4, carte 2 »;
    ``summary.points`` → « points du preneur »."""
    words = []
    for part in str(path).split("."):
        indices = [int(i) + 1 for i in _INDEX.findall(part)]
        name = _INDEX.sub("", part)
        word = FIELDS.get(name, name.replace("_", " "))
        if indices:
            one, inner = ITEMS.get(name, (word, "n°"))
            word = f"{one} {indices[0]}"
            if len(indices) > 1:
                word += f", {inner or 'n°'} {indices[1]}"
        if word:
            words.append(word)
    return ", ".join(words) or str(path)


@register.filter(expects_localtime=True)
def long_date(value: Any, arg: str = "j F Y") -> str:
    """A date in full, the French way for the first of the month: « 1er septembre 2026 » (« 1 September 2026 » in
    English); any other day as Django's ``date`` filter writes it. A moment is written in the site's time zone, as
    ``date`` writes it (the template engine turns it to local time first: a PDF rendered by a worker said UTC)."""
    text = date_filter(value, arg)
    if text and arg.startswith("j ") and getattr(value, "day", None) == 1 and \
            (get_language() or "fr").startswith("fr"):
        return "1er" + text[1:]
    return text


@register.filter
def after_colon(text: str) -> str:
    """A sentence written after a colon: its first letter in lower case in French (« pour ce jeu : le code
    d'arbitrage… », not « : Le code »); as it is in English. An acronym (two capitals first) is left alone."""
    text = str(text)
    if not (get_language() or "fr").startswith("fr") or not text[:1].isupper() or text[1:2].isupper():
        return text
    return text[:1].lower() + text[1:]
