"""Public duplicate pages: the travellers (« feuilles ambulantes ») of the étuis of the released rounds.

An étui's traveller is public once its round is released (the round is over and published): every
table that played it, the marks of the four seats and each seat's percentage on the full field
(Neuberg when a table did not play it, fouled étuis set apart).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from tournaments.common.access import lang_of
from tournaments.duplicate.models import Etui
from tournaments.duplicate.results import ORIENTATIONS, setup_of, traveller
from tournaments.public import published
from tournaments.public.pages import html, state_of
from tournaments.standings import rankings
from tournaments.standings.formats import percent_text


def etuis(request: HttpRequest, slug: str) -> HttpResponse:
    """The released étuis, round by round, each a link to its traveller (kept per published state)."""
    state, private = state_of(request, slug)
    etag = published.validator(state, lang_of(request), "etuis", (state.version,))

    def render() -> str:
        tournament = state.whole().tournament
        if setup_of(tournament) is None:
            raise Http404("not a duplicate")
        released = list(rankings.released_rounds(tournament).values_list("number", flat=True))
        by_round: dict[int, list[int]] = {}
        for number, round_no in (Etui.objects.filter(tournament=tournament, round_number__in=released)
                                 .order_by("number").values_list("number", "round_number")):
            by_round.setdefault(round_no, []).append(number)
        return html("public/etuis.html", {"tournament": tournament, "rounds": sorted(by_round.items()),
                                          "next_url": request.path})

    return published.respond(request, state, etag, render, private=private)


def etui_traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    state, private = state_of(request, slug)
    etag = published.validator(state, lang_of(request), "etui", (number, state.version))

    def render() -> str:
        tournament = state.whole().tournament
        etui = Etui.objects.filter(tournament=tournament, number=number).first()
        released = set(rankings.released_rounds(tournament).values_list("number", flat=True))
        if etui is None or etui.round_number not in released:
            raise Http404("this étui's round is not released")
        trav = traveller(tournament, etui)
        rows = [{"line": line, "cells": [(line.names[o], line.marks[o], percent_text(line.percentages[o]))
                                         for o in range(len(line.marks))]} for line in trav.lines]
        numbers = list(Etui.objects.filter(tournament=tournament, round_number__in=released)
                       .order_by("number").values_list("number", flat=True))
        at = numbers.index(number)
        return html("public/etui_traveller.html", {
            "tournament": tournament, "etui": etui, "rows": rows, "orientations": ORIENTATIONS[:etui.players],
            "expected": trav.expected, "previous": numbers[at - 1] if at > 0 else None,
            "next": numbers[at + 1] if at + 1 < len(numbers) else None, "next_url": request.path})

    return published.respond(request, state, etag, render, private=private)
