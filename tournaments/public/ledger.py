"""The public ledger of a tournament: what changed in official results, who, when, why, which ranks moved."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.common.access import guarded, require
from tournaments.event import permissions
from tournaments.event.models import Tournament
from tournaments.standings import appeal


@guarded
def ledger(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_view_tournament(request.user, tournament))
    rounds = list(permissions.visible_rounds(request.user, tournament))
    return render(request, "tables/ledger.html", {"tournament": tournament,
                                                  "entries": appeal.ledger(tournament, rounds=rounds)})
