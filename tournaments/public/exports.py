"""The complete results file (``levee.results/1``, tournaments/results_file.py) as a download, rendered by a worker
once per published state and kept as a file (:mod:`downloads`; the staff's copy, with the licence numbers, apart).
It is never rendered in the request: at 10,000 players it takes most of a minute."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from tournaments.common import downloads
from tournaments.event import permissions
from tournaments.public import preparing, published
from tournaments.public.pages import state_of
from tournaments.seasons.results_file import extension_versions, with_extension
from tournaments.standings.results_file import results_file

JSON = "application/json; charset=utf-8"


def results_file_download(state: published.Published, staff: bool,
                          private: bool = False) -> tuple[downloads.Download, Callable[[], str]]:
    """The results file of ``state`` (the staff's variant with ``staff``) as a kept download, and its render."""
    # the tournament's state, and its seasons' championships as published (the extension shows their rankings)
    etag = published.validator(state, "fr", "results.json",
                               (state.version, staff, extension_versions(state.tournament)))

    def render() -> str:
        tournament = state.whole().tournament
        document = with_extension(results_file(tournament, licences=staff), tournament)
        return json.dumps(document, ensure_ascii=False, indent=1)

    t = state.tournament
    return downloads.Download("results.json", t.pk, t.slug, etag, f"{t.slug}-resultats-complets.json", JSON,
                              "Le fichier complet des résultats", staff=staff, private=private or staff), render


def results_json(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    staff = permissions.is_staff_of(request.user, state.tournament)
    return preparing.serve(request, state, results_file_download(state, staff, private)[0])
