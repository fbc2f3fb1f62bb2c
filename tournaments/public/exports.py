"""The complete results file (``levee.results/1``, tournaments/results_file.py) as a download, rendered once per
published state (the staff's copy, with the licence numbers, apart)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse

from tournaments.event import permissions
from tournaments.public import published
from tournaments.public.pages import state_of
from tournaments.seasons.results_file import with_extension
from tournaments.standings.results_file import results_file


def results_json(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    staff = permissions.is_staff_of(request.user, state.tournament)
    etag = published.validator(state, "fr", "results.json", (state.version, staff))

    def render() -> str:
        tournament = state.whole().tournament
        document = with_extension(results_file(tournament, licences=staff), tournament)
        return json.dumps(document, ensure_ascii=False, indent=1)

    return published.respond(request, state, etag, render, private=private or staff,
                             content_type="application/json; charset=utf-8",
                             filename=f"{state.tournament.slug}-resultats-complets.json")
