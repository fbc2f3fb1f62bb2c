"""API: tournaments, their status, their staff roles and their export (``/api/tournaments/…``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http.response import HttpResponseBase
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, kept_download, paged, visible_tournament
from tournaments.common.errors import InvalidInput
from tournaments.event import permissions
from tournaments.event.models import Table, TournamentRole
from tournaments.event.setup import (
    creation_club,
    role_assign,
    tournament_create,
    tournament_set_status,
    tournament_update,
)
from tournaments.operations import exports


class TournamentListView(Api):
    @extend_schema(responses=s.TournamentOut(many=True))
    def get(self, request: Request) -> Response:
        qs = permissions.visible_tournaments(request.user).order_by("-created_at", "id")
        return paged(self, qs, s.TournamentOut)

    @extend_schema(request=s.TournamentIn, responses={201: s.TournamentOut, 400: s.ErrorOut})
    def post(self, request: Request) -> Response:
        self.allow(permissions.can_create_tournament(request.user))
        data = self.valid(s.TournamentIn)
        data["club"] = creation_club(request.user, data.pop("club", None))
        tournament = tournament_create(user=request.user, **data)
        return Response(s.TournamentOut(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(Api):
    @extend_schema(responses=s.TournamentOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.TournamentOut(visible_tournament(request, pk)).data)

    @extend_schema(request=s.TournamentPatchIn, responses={200: s.TournamentOut, 400: s.ErrorOut, 409: s.ErrorOut})
    def patch(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.TournamentPatchIn)
        tournament = tournament_update(tournament=tournament, **data)
        return Response(s.TournamentOut(tournament).data)


class TournamentStatusView(Api):
    @extend_schema(request=s.StatusIn, responses={200: s.TournamentOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.StatusIn)
        return Response(s.TournamentOut(tournament_set_status(tournament=tournament, **data)).data)


class RoleListView(Api):
    @extend_schema(responses=s.RoleOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.is_staff_of(request.user, tournament))
        qs = TournamentRole.objects.filter(tournament=tournament).select_related("user").prefetch_related("tables")
        return Response(s.RoleOut(qs, many=True).data)

    @extend_schema(request=s.RoleIn, responses={201: s.RoleOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.RoleIn)
        user = get_user_model().objects.filter(username=data["user"]).first()
        if user is None:
            raise InvalidInput(_("no user %(user)s") % {"user": repr(data["user"])}, field="user")
        tables = list(Table.objects.filter(pk__in=data["tables"], round__tournament=tournament).select_related(
            "round"))
        if len(tables) != len(set(data["tables"])):
            raise InvalidInput(_("a table is not in this tournament"), field="tables")
        role = role_assign(tournament=tournament, user=user, role=data["role"], tables=tables)
        return Response(s.RoleOut(role).data, status=status.HTTP_201_CREATED)


class TournamentExportView(Api):
    @extend_schema(responses={200: dict, 202: dict},
                   description="Every table's deals, one levee.match/1 record per table (the released rounds, or "
                               "every round for the tournament's staff). Kept as a file per state: 202 with "
                               "Retry-After while the newest is being prepared and none was made before.")
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        tournament = visible_tournament(request, pk)
        doc, _render = exports.tournament_export(tournament, permissions.is_staff_of(request.user, tournament))
        return kept_download(request, doc)
