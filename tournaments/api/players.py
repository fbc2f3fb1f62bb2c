"""API: players, registrations (with the players' CSV import) and teams."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, paged, visible_tournament
from tournaments.api.parsers import BoundedJSONParser
from tournaments.clubs import permissions as clubs
from tournaments.common.errors import InvalidInput
from tournaments.event import permissions
from tournaments.event.models import Entry, Team, Tournament, TournamentRole
from tournaments.event.setup import (
    entry_update,
    player_create,
    player_register,
    players_import_csv,
    team_create,
)


class PlayerListView(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("q", str, description="name contains")],
                   responses=s.PlayerOut(many=True),
                   description="The players of the tournaments where you have a staff role (and, for an "
                               "organizer, those registered nowhere yet), with their licence numbers.")
    def get(self, request: Request) -> Response:
        qs = permissions.visible_players(request.user).order_by("name", "id")
        if request.query_params.get("q"):
            qs = qs.filter(name__icontains=request.query_params["q"])
        return paged(self, qs, s.PlayerOut)

    @extend_schema(request=s.PlayerIn, responses={201: s.PlayerOut})
    def post(self, request: Request) -> Response:
        self.allow(request.user.has_perm("tournaments.add_player") or TournamentRole.objects.filter(
            user=request.user, role=TournamentRole.Role.ORGANIZER).exists()
            or bool(clubs.organized_club_ids(request.user)))
        player = player_create(**self.valid(s.PlayerIn))
        return Response(s.PlayerOut(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.PlayerOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.PlayerOut(get_object_or_404(permissions.visible_players(request.user), pk=pk)).data)


def _entry_out(user: Any, tournament: Tournament) -> type:
    """Registrations with licence numbers for the tournament's staff, without for anyone else."""
    return s.EntryOut if permissions.can_see_licences(user, tournament) else s.PublicEntryOut


class RegistrationListView(Api):
    @extend_schema(responses=s.PublicEntryOut(many=True),
                   description="The players registered; the tournament's staff also get each licence number.")
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        qs = Entry.objects.filter(tournament=tournament).select_related("player").order_by("id")
        return paged(self, qs, _entry_out(request.user, tournament))

    @extend_schema(request=s.RegistrationIn, responses={201: s.EntryOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.RegistrationIn)
        team = None
        if data.get("team") is not None:
            team = Team.objects.filter(pk=data["team"], tournament=tournament).first()
            if team is None:
                raise InvalidInput(_("no such team in this tournament"), field="team")
        if "player" in data:
            player = permissions.visible_players(request.user).filter(pk=data["player"]).first()
            if player is None:
                raise InvalidInput(_("no player %(player)s") % {"player": data["player"]}, field="player")
        else:
            player = player_create(name=data["name"], club=data["club"], licence=data["licence"],
                                   tournament=tournament)
        entry = player_register(tournament=tournament, player=player, team=team)
        return Response(s.EntryOut(entry).data, status=status.HTTP_201_CREATED)


class RegistrationDetailView(Api):
    @extend_schema(responses=s.PublicEntryOut)
    def get(self, request: Request, pk: int) -> Response:
        entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=pk)
        tournament = visible_tournament(request, entry.tournament_id)
        return Response(_entry_out(request.user, tournament)(entry).data)

    @extend_schema(request=s.RegistrationPatchIn, responses=s.EntryOut)
    def patch(self, request: Request, pk: int) -> Response:
        entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=pk)
        tournament = visible_tournament(request, entry.tournament_id)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.RegistrationPatchIn)
        kwargs: dict[str, Any] = {"withdrawn": data.get("withdrawn")}
        if "team" in data:
            team = None
            if data["team"] is not None:
                team = Team.objects.filter(pk=data["team"], tournament=tournament).first()
                if team is None:
                    raise InvalidInput(_("no such team in this tournament"), field="team")
            kwargs["team"] = team
        return Response(s.EntryOut(entry_update(entry=entry, **kwargs)).data)


class CsvParser(BaseParser):
    media_type = "text/csv"

    def parse(self, stream, media_type=None, parser_context=None):  # type: ignore[override]
        return stream.read()


class TextParser(CsvParser):
    media_type = "text/plain"


class PlayersCsvView(Api):
    parser_classes = [CsvParser, TextParser, MultiPartParser, FormParser, BoundedJSONParser]

    @extend_schema(request={"text/csv": str}, responses={201: s.CsvImportOut, 400: s.CsvImportOut},
                   description="Players as CSV (name, club, licence; optional team). All or nothing: any bad "
                               "line is reported with its number and nothing is saved. Body: text/csv, a "
                               "multipart 'file', or JSON {\"csv\": \"…\"}. ?dry_run=1 only checks.")
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = request.data
        if isinstance(data, (bytes, str)):
            text = data
        elif "file" in request.FILES:
            text = request.FILES["file"].read()
        elif hasattr(data, "get") and isinstance(data.get("csv"), str):
            text = data["csv"]
        else:
            raise InvalidInput(_("send the CSV as text/csv, a multipart 'file' or JSON {\"csv\": …}"),
                                        field="csv")
        dry_run = request.query_params.get("dry_run") in ("1", "true", "yes")
        result = players_import_csv(tournament=tournament, text=text, dry_run=dry_run)
        body = {"registered": s.EntryOut(result.entries, many=True).data, "errors": result.errors,
                "already_registered": result.already}
        if not result.ok:
            first = result.errors[0]
            where = f"line {first['line']}" + (f".{first['field']}" if first.get("field") else "") \
                if first.get("line") else first.get("field") or "file"  # the whole file (a spreadsheet)
            body.update({"error": "invalid_csv", "field": where, "message": first["message"]})
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(body, status=status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED)


class TeamListView(Api):
    @extend_schema(responses=s.TeamOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        return Response(s.TeamOut(tournament.teams.prefetch_related("entries"), many=True).data)

    @extend_schema(request=s.TeamIn, responses={201: s.TeamOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.TeamIn)
        entries = list(Entry.objects.filter(pk__in=data["entries"], tournament=tournament))
        if len(entries) != len(set(data["entries"])):
            raise InvalidInput(_("an entry is not registered in this tournament"), field="entries")
        team = team_create(tournament=tournament, name=data["name"], entries=entries)
        return Response(s.TeamOut(team).data, status=status.HTTP_201_CREATED)
