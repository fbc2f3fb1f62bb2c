"""Public duplicate pages: the travellers (« feuilles ambulantes ») of the étuis of the released rounds.

An étui's traveller is public once its round is released (the round is over and published): every
table that played it, the marks of the four seats and each seat's percentage on the full field
(Neuberg when a table did not play it, fouled étuis set apart).

Both pages are kept per published state like the ranking's (:func:`published.respond`), and rendered ahead of their
first reader in the quiet pass after a publication (:func:`store_published`, ``tasks.render_published``): at 1,000
players a traveller took 1.6 – 2.0 s to render for the first reader of each web worker.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from tournaments.common.access import lang_of
from tournaments.duplicate.models import Etui
from tournaments.duplicate.results import ORIENTATIONS, Traveller, setup_of, traveller, travellers
from tournaments.public import published
from tournaments.public.pages import html, state_of
from tournaments.standings import rankings
from tournaments.standings.formats import percent_text

Page = tuple[str, Callable[[], str]]


def _released_etuis(state: published.Published) -> list[tuple[int, int]]:
    """The étuis of the released rounds: (number, round), in order."""
    tournament = state.tournament
    released = list(rankings.released_rounds(tournament).values_list("number", flat=True))
    return list(Etui.objects.filter(tournament=tournament, round_number__in=released)
                .order_by("number").values_list("number", "round_number"))


def etuis_page(state: published.Published, lang: str) -> Page:
    """The released étuis, round by round, each a link to its traveller: its ETag and its render."""
    etag = published.validator(state, lang, "etuis", (state.version,))

    def render() -> str:
        tournament = state.whole().tournament
        if setup_of(tournament) is None:
            raise Http404("not a duplicate")
        by_round: dict[int, list[int]] = {}
        for number, round_no in _released_etuis(state):
            by_round.setdefault(round_no, []).append(number)
        return html("public/etuis.html", {"tournament": tournament, "rounds": sorted(by_round.items()),
                                          "next_url": reverse("public-etuis", args=[tournament.slug])})

    return etag, render


def traveller_page(state: published.Published, lang: str, number: int, trav: Traveller | None = None) -> Page:
    """The traveller of étui ``number`` (404 when its round is not released): its ETag and its render (``trav``:
    the traveller, computed already with the others')."""
    etag = published.validator(state, lang, "etui", (number, state.version))

    def render() -> str:
        tournament = state.whole().tournament
        etui = Etui.objects.filter(tournament=tournament, number=number).first()
        numbers = [n for n, _round in _released_etuis(state)]
        if etui is None or number not in numbers:
            raise Http404("this étui's round is not released")
        sheet = trav if trav is not None else traveller(tournament, etui)
        rows = [{"line": line, "cells": [(line.names[o], line.marks[o], percent_text(line.percentages[o]))
                                         for o in range(len(line.marks))]} for line in sheet.lines]
        at = numbers.index(number)
        return html("public/etui_traveller.html", {
            "tournament": tournament, "etui": etui, "rows": rows, "orientations": ORIENTATIONS[:etui.players],
            "expected": sheet.expected, "previous": numbers[at - 1] if at > 0 else None,
            "next": numbers[at + 1] if at + 1 < len(numbers) else None,
            "next_url": reverse("public-etui", args=[tournament.slug, number])})

    return etag, render


def store_published(state: published.Published, lang: str) -> int:
    """The quiet pass of a publication (the active language ``lang``): the étuis' page and every released étui's
    traveller put in the cache; nothing for a tournament that is not a duplicate. How many were rendered."""
    if setup_of(state.tournament) is None:
        return 0
    done = published.store(state, *etuis_page(state, lang))
    numbers = [number for number, _round in _released_etuis(state)]
    sheets = travellers(state.tournament, list(Etui.objects.filter(tournament=state.tournament, number__in=numbers)))
    for number in numbers:
        done += published.store(state, *traveller_page(state, lang, number, sheets[number]))
    return done


def etuis(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    return published.respond(request, state, *etuis_page(state, lang_of(request)), private=private)


def etui_traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state, private = state_of(request, slug)
    return published.respond(request, state, *traveller_page(state, lang_of(request), number), private=private)
