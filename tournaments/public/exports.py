"""The complete results file (``levee.results/1``, tournaments/results_file.py) as a download."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.event import permissions
from tournaments.event.models import Tournament
from tournaments.standings.results_file import results_file


def results_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("no such public tournament")
    staff = permissions.is_staff_of(request.user, tournament)
    body = json.dumps(results_file(tournament, licences=staff), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-resultats-complets.json"'
    return response
