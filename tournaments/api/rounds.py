"""API: rounds, their seating and their release (``/api/rounds/…``)."""

from __future__ import annotations

from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, visible_round, visible_tournament
from tournaments.event import permissions
from tournaments.event.models import Round, Seat, Table
from tournaments.event.setup import (
    round_create,
    round_release,
    round_seat,
)


def _rounds_qs():
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("round").prefetch_related(Prefetch("seats", queryset=seats))
    return Round.objects.prefetch_related(Prefetch("tables", queryset=tables.order_by("number")))


class RoundListView(Api):
    @extend_schema(responses=s.RoundOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        qs = permissions.visible_rounds(request.user, tournament, _rounds_qs().filter(tournament=tournament))
        return Response(s.RoundOut(qs.order_by("number"), many=True).data)

    @extend_schema(request=s.RoundIn, responses={201: s.RoundOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.RoundIn)
        rnd = round_create(tournament=tournament, number=data.get("number"), tables=data.get("tables"))
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data, status=status.HTTP_201_CREATED)


class RoundDetailView(Api):
    @extend_schema(responses=s.RoundOut)
    def get(self, request: Request, pk: int) -> Response:
        rnd = visible_round(request, pk)
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)


class RoundSeatingView(Api):
    @extend_schema(request=s.SeatingIn, responses={200: s.RoundOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        rnd = visible_round(request, pk)
        self.allow(permissions.can_manage(request.user, rnd.tournament))
        data = self.valid(s.SeatingIn)
        round_seat(round=rnd, tables=data["tables"])
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)


class RoundReleaseView(Api):
    @extend_schema(request=s.ReleaseIn, responses={200: s.RoundOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        rnd = visible_round(request, pk)
        self.allow(permissions.can_manage(request.user, rnd.tournament))
        data = self.valid(s.ReleaseIn)
        round_release(round=rnd, released=data["released"], confirm_unfinished=data["confirm_unfinished"],
                      confirm_pending=data["confirm_pending"], confirm_disputes=data["confirm_disputes"])
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)
