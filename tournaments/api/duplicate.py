"""API of duplicate Tarot, with the permissions of its pages.

* ``tournaments/<id>/duplicate/`` — GET the setup (the tournament's staff), PUT it (the organizer:
  ``duplicate_create`` builds the movement and the étuis).
* ``tournaments/<id>/duplicate/etuis/import/`` — POST deal records giving étuis their cards (arbiters).
* ``tables/<id>/etuis/<n>/artificial/`` — POST an artificial result (the chief arbiter).
* ``tournaments/<id>/duplicate/etuis/`` and ``…/etuis/<n>/`` — the étuis of the released rounds and
  their travellers (whoever may see the tournament; an étui of a round not released is a 404).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, visible_table, visible_tournament
from tournaments.duplicate.models import DuplicateSetup, Etui
from tournaments.duplicate.results import setup_of, traveller
from tournaments.duplicate.service import artificial_result_set, duplicate_create, etuis_import
from tournaments.event import permissions
from tournaments.event.models import Tournament
from tournaments.standings import rankings


def _setup_json(tournament: Tournament, setup: DuplicateSetup) -> dict:
    etuis = Etui.objects.filter(tournament=tournament)
    return {"tournament": tournament.pk, "boards_per_round": setup.boards_per_round, "seed": setup.seed,
            "method": setup.method, "score": setup.score, "short": setup.short,
            "tie_breaks": list(tournament.tie_breaks or []), "etuis": etuis.count(),
            "known": etuis.exclude(hands=[]).count()}


def _duplicate(tournament: Tournament) -> DuplicateSetup:
    setup = setup_of(tournament)
    if setup is None:
        raise exceptions.NotFound(_("ce tournoi ne se joue pas en donnes dupliquées"))
    return setup


class DuplicateSetupView(Api):
    @extend_schema(operation_id="duplicate_setup_read", responses={200: s.DuplicateSetupOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.is_staff_of(request.user, tournament))
        return Response(_setup_json(tournament, _duplicate(tournament)))

    @extend_schema(operation_id="duplicate_setup_write", request=s.DuplicateSetupIn,
                   responses={200: s.DuplicateSetupOut, 400: s.ErrorOut, 409: s.ErrorOut})
    def put(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.DuplicateSetupIn)
        setup = duplicate_create(tournament=tournament, **data)
        tournament.refresh_from_db()
        return Response(_setup_json(tournament, setup))


class EtuisImportView(Api):
    @extend_schema(operation_id="duplicate_etuis_import", request=s.EtuisImportIn,
                   responses={200: s.EtuisImportOut, 400: s.ErrorOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_referee(request.user, tournament))
        _duplicate(tournament)
        data = self.valid(s.EtuisImportIn)
        done = etuis_import(tournament=tournament, records=data["records"], first=data["first"])
        return Response({"imported": [e.number for e in done]})


class ArtificialView(Api):
    @extend_schema(operation_id="duplicate_artificial_set", request=s.ArtificialIn,
                   responses={200: s.ArtificialOut, 400: s.ErrorOut})
    def post(self, request: Request, pk: int, number: int) -> Response:
        table = visible_table(request, pk)
        self.allow(permissions.can_referee(request.user, table.round.tournament))
        data = self.valid(s.ArtificialIn)
        result = artificial_result_set(table=table, etui_number=number, entry_id=data["entry"], kind=data["kind"],
                                       reason=data["reason"], user=request.user)
        return Response({"etui": number, "entry": data["entry"], "kind": result.kind if result else None,
                         "reason": result.reason if result else ""})


def _released(tournament: Tournament) -> set[int]:
    return set(rankings.released_rounds(tournament).values_list("number", flat=True))


class EtuiListView(Api):
    @extend_schema(operation_id="duplicate_etuis_list", responses={200: s.EtuiOut(many=True), 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        _duplicate(tournament)
        etuis = Etui.objects.filter(tournament=tournament, round_number__in=_released(tournament)).order_by("number")
        return Response([{"number": e.number, "round": e.round_number, "players": e.players} for e in etuis])


class TravellerView(Api):
    @extend_schema(operation_id="duplicate_traveller_read", responses={200: s.TravellerOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int, number: int) -> Response:
        tournament = visible_tournament(request, pk)
        _duplicate(tournament)
        etui = get_object_or_404(Etui, tournament=tournament, number=number)
        if etui.round_number not in _released(tournament):
            raise exceptions.NotFound(_("la manche de cet étui n'est pas encore publiée"))
        trav = traveller(tournament, etui)
        lines = [{"round": ln.round, "table": ln.table, "names": list(ln.names), "marks": list(ln.marks),
                  "percentages": [None if p is None else round(float(p), 2) for p in ln.percentages],
                  "fouled": ln.fouled} for ln in trav.lines]
        return Response({"etui": etui.number, "round": etui.round_number, "expected": trav.expected, "lines": lines})
