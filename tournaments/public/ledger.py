"""The public ledger of a tournament: what changed in official results, who, when, why, which ranks moved; kept
per published state (the staff's view, which also lists the rounds not released, apart)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse

from tournaments.common.access import guarded, lang_of, require
from tournaments.event import permissions
from tournaments.public import published
from tournaments.public.pages import html
from tournaments.standings import appeal


@guarded
def ledger(request: HttpRequest, slug: str) -> HttpResponse:
    state = published.read(slug)
    if state is None:
        raise Http404("no such tournament")
    require(request, permissions.can_view_tournament(request.user, state.tournament))
    t = state.tournament
    staff = permissions.is_staff_of(request.user, t)
    private = staff or not (t.is_public and t.status != t.Status.DRAFT)
    etag = published.validator(state, lang_of(request), "ledger", (state.version, staff))

    def render() -> str:
        tournament = state.whole().tournament
        rounds = list(permissions.visible_rounds(request.user, tournament))
        return html("tables/ledger.html", {"tournament": tournament, "next_url": request.path,
                                           "entries": appeal.ledger(tournament, rounds=rounds)})

    return published.respond(request, state, etag, render, private=private)
