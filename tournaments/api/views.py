"""API views: one per operation, thin — permissions, input, one service or selector call, output.

Errors: every 4xx body is ``{"error": code, "field": JSON path, "message": …}``; a deal that breaks
rules is a 400 whose ``violations`` name the deal, trick, seat, card and rule (messages in French,
``?lang=en`` or ``Accept-Language: en`` for English); a stale correction is a 409 with the
``current_version``. Reads of what the user may not see are 404s; writes without the role, 403s.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import RequestDataTooBig
from django.db import DataError, transaction
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from rules.errors import MalformedRecord
from scoring.verdict import judge
from tournaments.api import serializers as s
from tournaments.api.parsers import BoundedJSONParser, PayloadTooLarge, too_large
from tournaments.api.throttles import ArbitrateAnonThrottle, ArbitrateUserThrottle
from tournaments.common.errors import DealRejected, InvalidInput, MalformedDeal, PreconditionFailed, ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_annul, deal_approve, deal_correct, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.event import permissions
from tournaments.event.models import Entry, Round, Seat, Table, Team, Tournament, TournamentRole
from tournaments.event.setup import (
    entry_update,
    player_create,
    player_register,
    players_import_csv,
    role_assign,
    round_create,
    round_release,
    round_seat,
    team_create,
    tournament_create,
    tournament_set_status,
    tournament_update,
)

# -- shared ----------------------------------------------------------------------------------------


log = logging.getLogger(__name__)


def lang_of(request: Request) -> str:
    lang = request.query_params.get("lang") or translation.get_language() or "fr"
    return "en" if lang.lower().startswith("en") else "fr"


def _first_error(detail: Any, path: str = "") -> tuple[str, str]:
    """The first (JSON path, message) of a DRF ValidationError detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            sub = path if key == "non_field_errors" else (f"{path}.{key}" if path else str(key))
            return _first_error(value, sub)
    if isinstance(detail, list) and detail:
        for i, value in enumerate(detail):
            if value:
                if isinstance(value, (dict, list)):
                    return _first_error(value, f"{path}[{i}]")
                return path or "$", str(value)
    return path or "$", str(detail)


class Api(APIView):
    """Base view: service errors and validation errors as ``{"error", "field", "message"}``."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, (DealRejected, MalformedDeal)):
            return Response(exc.to_json(lang_of(self.request)), status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, ServiceError):
            return Response(exc.to_json(), status=exc.status)
        if isinstance(exc, MalformedRecord):
            return Response({"error": "malformed", **exc.to_json(lang_of(self.request))},
                            status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, exceptions.ValidationError):
            field, message = _first_error(exc.detail)
            return Response({"error": "invalid", "field": field, "message": message, "errors": exc.detail},
                            status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, (DataError, OverflowError)):  # a number the database cannot hold (OverflowError: SQLite)
            log.warning("API input refused by the database: %s", exc)
            return Response({"error": "invalid", "field": "$", "message": _("a value is out of range")},
                            status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, RequestDataTooBig):  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, when DRF reads the body
            exc = too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        if isinstance(exc, exceptions.ParseError):
            return Response({"error": "malformed", "field": "$", "message": str(exc.detail)},
                            status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, (exceptions.Throttled, PayloadTooLarge)):
            response = super().handle_exception(exc)  # keeps Retry-After
            response.data = {"error": "throttled" if isinstance(exc, exceptions.Throttled) else "too_large",
                             "field": "$", "message": str(exc.detail)}
            return response
        return super().handle_exception(exc)

    @property
    def paginator(self) -> Any:
        """The default paginator (``?limit=&offset=``), as generic views have."""
        if not hasattr(self, "_paginator"):
            cls = api_settings.DEFAULT_PAGINATION_CLASS
            self._paginator = cls() if cls else None
        return self._paginator

    def valid(self, serializer_class: type, data: Any = None, **kwargs: Any) -> dict[str, Any]:
        serializer = serializer_class(data=self.request.data if data is None else data, **kwargs)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def allow(self, condition: bool) -> None:
        if not condition:
            if not self.request.user.is_authenticated:
                raise exceptions.NotAuthenticated()
            raise exceptions.PermissionDenied(_("your role in this tournament does not allow this"))


def _tournament(request: Request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not permissions.can_view_tournament(request.user, tournament):
        raise exceptions.NotFound()
    return tournament


def _round(request: Request, pk: int) -> Round:
    rnd = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not permissions.can_view_round(request.user, rnd):
        raise exceptions.NotFound()
    return rnd


def _table(request: Request, pk: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    if not permissions.can_view_table(request.user, table):
        raise exceptions.NotFound()
    return table


def _table_for_entry(request: Request, pk: int) -> Table:
    """The table a deal is posted to, with its seats (one query), checked like :func:`_table`."""
    table = selectors.table_for_entry(pk)
    if table is None or not permissions.can_view_table(request.user, table):
        raise exceptions.NotFound()
    return table


def _deal(request: Request, pk: int) -> Deal:
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    if not permissions.can_view_deal(request.user, deal):
        raise exceptions.NotFound()
    return deal


def _page(view: Api, queryset: Any, serializer: type) -> Response:
    paginator = view.paginator
    page = paginator.paginate_queryset(queryset, view.request, view=view) if paginator else None
    if page is not None:
        return paginator.get_paginated_response(serializer(page, many=True).data)
    return Response(serializer(queryset, many=True).data)


def _etag(deal: Deal) -> str:
    return f'"{deal.version}"'


def _deal_response(deal: Deal, code: int = status.HTTP_200_OK, data: dict | None = None) -> Response:
    response = Response(data if data is not None else selectors.deal_to_json(deal), status=code)
    response["ETag"] = _etag(deal)
    return response


def _stored_response(deal: Deal, code: int, body: str | None) -> HttpResponse:
    """A deal entered with an Idempotency-Key: the JSON text stored with the key, sent as it is (a retry
    gets the same bytes as the first answer); without a key, the deal as JSON."""
    if not body:
        body = selectors.deal_body(deal)
    response = HttpResponse(body, status=code, content_type="application/json")
    response["ETag"] = _etag(deal)
    return response


_IF_MATCH = re.compile(r'^\s*"?(\d+)"?\s*$')
_WEAK = re.compile(r"^\s*W/", re.IGNORECASE)


def _optional_version(request: Request, body_version: int | None) -> int | None:
    """The version a change is based on, from ``If-Match`` or the body, when the client gives one (annul,
    restore); None skips the check."""
    if request.headers.get("If-Match") is not None:
        return _expected_version(request, body_version)
    return body_version


def _expected_version(request: Request, body_version: int | None) -> int:
    header = request.headers.get("If-Match")
    if header is not None:
        if _WEAK.match(header):  # If-Match compares strongly (RFC 9110 §13.1.1): a weak tag never matches
            raise PreconditionFailed(_("If-Match needs the deal's strong ETag (e.g. \"3\"), not a weak "
                                                "one (W/…)"), field="If-Match")
        match = _IF_MATCH.match(header)
        if match is None:
            raise InvalidInput(_("If-Match holds the deal's version (its ETag, e.g. \"3\")"), field="If-Match")
        return int(match.group(1))
    if body_version is None:
        raise InvalidInput(_("give the version corrected (field 'version' or the If-Match header)"),
                                    field="version")
    return body_version


# -- tournaments -----------------------------------------------------------------------------------


class TournamentListView(Api):
    @extend_schema(responses=s.TournamentOut(many=True))
    def get(self, request: Request) -> Response:
        qs = permissions.visible_tournaments(request.user).order_by("-created_at", "id")
        return _page(self, qs, s.TournamentOut)

    @extend_schema(request=s.TournamentIn, responses={201: s.TournamentOut, 400: s.ErrorOut})
    def post(self, request: Request) -> Response:
        self.allow(permissions.can_create_tournament(request.user))
        data = self.valid(s.TournamentIn)
        tournament = tournament_create(user=request.user, **data)
        return Response(s.TournamentOut(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(Api):
    @extend_schema(responses=s.TournamentOut)
    def get(self, request: Request, pk: int) -> Response:
        return Response(s.TournamentOut(_tournament(request, pk)).data)

    @extend_schema(request=s.TournamentPatchIn, responses={200: s.TournamentOut, 400: s.ErrorOut, 409: s.ErrorOut})
    def patch(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.TournamentPatchIn)
        tournament = tournament_update(tournament=tournament, **data)
        return Response(s.TournamentOut(tournament).data)


class TournamentStatusView(Api):
    @extend_schema(request=s.StatusIn, responses={200: s.TournamentOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.StatusIn)
        return Response(s.TournamentOut(tournament_set_status(tournament=tournament, **data)).data)


class RoleListView(Api):
    @extend_schema(responses=s.RoleOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.is_staff_of(request.user, tournament))
        qs = TournamentRole.objects.filter(tournament=tournament).select_related("user").prefetch_related("tables")
        return Response(s.RoleOut(qs, many=True).data)

    @extend_schema(request=s.RoleIn, responses={201: s.RoleOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
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


# -- players, registrations, teams -----------------------------------------------------------------


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
        return _page(self, qs, s.PlayerOut)

    @extend_schema(request=s.PlayerIn, responses={201: s.PlayerOut})
    def post(self, request: Request) -> Response:
        self.allow(request.user.has_perm("tournaments.add_player") or TournamentRole.objects.filter(
            user=request.user, role=TournamentRole.Role.ORGANIZER).exists())
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
        tournament = _tournament(request, pk)
        qs = Entry.objects.filter(tournament=tournament).select_related("player").order_by("id")
        return _page(self, qs, _entry_out(request.user, tournament))

    @extend_schema(request=s.RegistrationIn, responses={201: s.EntryOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
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
            player = player_create(name=data["name"], club=data["club"], licence=data["licence"])
        entry = player_register(tournament=tournament, player=player, team=team)
        return Response(s.EntryOut(entry).data, status=status.HTTP_201_CREATED)


class RegistrationDetailView(Api):
    @extend_schema(responses=s.PublicEntryOut)
    def get(self, request: Request, pk: int) -> Response:
        entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=pk)
        tournament = _tournament(request, entry.tournament_id)
        return Response(_entry_out(request.user, tournament)(entry).data)

    @extend_schema(request=s.RegistrationPatchIn, responses=s.EntryOut)
    def patch(self, request: Request, pk: int) -> Response:
        entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=pk)
        tournament = _tournament(request, entry.tournament_id)
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
        tournament = _tournament(request, pk)
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
        body = {"registered": s.EntryOut(result.entries, many=True).data, "errors": result.errors}
        if not result.ok:
            first = result.errors[0]
            body.update({"error": "invalid_csv", "field": f"line {first['line']}" + (
                f".{first['field']}" if first.get("field") else ""), "message": first["message"]})
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(body, status=status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED)


class TeamListView(Api):
    @extend_schema(responses=s.TeamOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        return Response(s.TeamOut(tournament.teams.prefetch_related("entries"), many=True).data)

    @extend_schema(request=s.TeamIn, responses={201: s.TeamOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.TeamIn)
        entries = list(Entry.objects.filter(pk__in=data["entries"], tournament=tournament))
        if len(entries) != len(set(data["entries"])):
            raise InvalidInput(_("an entry is not registered in this tournament"), field="entries")
        team = team_create(tournament=tournament, name=data["name"], entries=entries)
        return Response(s.TeamOut(team).data, status=status.HTTP_201_CREATED)


# -- rounds and tables -----------------------------------------------------------------------------

def _rounds_qs():
    seats = Seat.objects.select_related("entry__player").order_by("position")
    tables = Table.objects.select_related("round").prefetch_related(Prefetch("seats", queryset=seats))
    return Round.objects.prefetch_related(Prefetch("tables", queryset=tables.order_by("number")))


class RoundListView(Api):
    @extend_schema(responses=s.RoundOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        qs = permissions.visible_rounds(request.user, tournament, _rounds_qs().filter(tournament=tournament))
        return Response(s.RoundOut(qs.order_by("number"), many=True).data)

    @extend_schema(request=s.RoundIn, responses={201: s.RoundOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        data = self.valid(s.RoundIn)
        rnd = round_create(tournament=tournament, number=data.get("number"), tables=data.get("tables"))
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data, status=status.HTTP_201_CREATED)


class RoundDetailView(Api):
    @extend_schema(responses=s.RoundOut)
    def get(self, request: Request, pk: int) -> Response:
        rnd = _round(request, pk)
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)


class RoundSeatingView(Api):
    @extend_schema(request=s.SeatingIn, responses={200: s.RoundOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        rnd = _round(request, pk)
        self.allow(permissions.can_manage(request.user, rnd.tournament))
        data = self.valid(s.SeatingIn)
        round_seat(round=rnd, tables=data["tables"])
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)


class RoundReleaseView(Api):
    @extend_schema(request=s.ReleaseIn, responses=s.RoundOut)
    def post(self, request: Request, pk: int) -> Response:
        rnd = _round(request, pk)
        self.allow(permissions.can_manage(request.user, rnd.tournament))
        data = self.valid(s.ReleaseIn)
        round_release(round=rnd, released=data["released"])
        return Response(s.RoundOut(_rounds_qs().get(pk=rnd.pk)).data)


class TableDetailView(Api):
    @extend_schema(responses=s.TableOut)
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        data = s.TableOut(Table.objects.prefetch_related("seats__entry__player").select_related("round").get(
            pk=table.pk)).data
        data["totals"] = [{"entry": e, "points": p} for e, p in selectors.table_totals(table).items()]
        return Response(data)


class TableExportView(Api):
    @extend_schema(responses={200: dict}, description="The table's deals as a levee.match/1 record "
                   "(?annulled=1 keeps the annulled deals).")
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        include = request.query_params.get("annulled") in ("1", "true", "yes")
        return Response(selectors.table_match_record(table, include_annulled=include))


class TableImportView(Api):
    @extend_schema(request=dict, responses={201: s.DealOut(many=True), 400: s.RejectedOut},
                   description="Enter a levee.match/1 record's deals at this table, in order, all or nothing.")
    def post(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        self.allow(permissions.can_enter_deal(request.user, table))
        data = request.data
        if not isinstance(data, dict) or not isinstance(data.get("deals"), list):
            raise InvalidInput(_("a levee.match/1 record with its list of deals"), field="deals")
        head = {k: data[k] for k in selectors.FIXED_FIELDS if k in data and k != "format"}
        saved = []
        with transaction.atomic():
            for i, deal in enumerate(data["deals"]):
                if not isinstance(deal, dict):
                    raise MalformedDeal("a deal is a JSON object", field=f"deals[{i}]",
                                                 fr="une donne est un objet JSON")
                try:
                    saved.append(deal_record(table=table, record={**head, **deal}, user=request.user))
                except MalformedDeal as exc:
                    exc.field = f"deals[{i}].{exc.field}" if exc.field and exc.field != "$" else f"deals[{i}]"
                    raise
        return Response([selectors.deal_to_json(d) for d in saved], status=status.HTTP_201_CREATED)


class TournamentExportView(Api):
    @extend_schema(responses={200: dict}, description="Every table's deals, one levee.match/1 record per table.")
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        rounds = None
        if not permissions.is_staff_of(request.user, tournament):
            rounds = list(permissions.visible_rounds(request.user, tournament).values_list("number", flat=True))
        return Response(selectors.tournament_export(tournament, rounds=rounds))


# -- deals -----------------------------------------------------------------------------------------


def _with_scores(deals: list[Deal]) -> list[Deal]:
    scores: dict[int, dict[int, int]] = {d.pk: {} for d in deals}
    rows = ScoreRow.objects.filter(deal__in=deals, ruling__isnull=True).values_list("deal_id", "entry_id", "points")
    for deal_id, entry_id, points in rows:
        scores[deal_id][entry_id] = points
    for d in deals:
        d.__dict__["_levee_scores"] = scores[d.pk]
    return deals


class TableDealsView(Api):
    @extend_schema(responses=s.DealOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = _table(request, pk)
        deals = _with_scores(selectors.table_deals(table))
        seats = selectors.table_seats(table)
        for d in deals:
            d.table = table
        return Response([selectors.deal_to_json(d, seats=seats) for d in deals])

    @extend_schema(
        request=dict,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                     description="a retried submission with the same key returns the first "
                                                 "response and never creates a second deal")],
        responses={201: s.DealOut, 400: s.RejectedOut, 409: s.ErrorOut, 422: s.ErrorOut},
        description="Enter a deal: its own fields (dealer, bid, hands, dog, discard, tricks or summary …); the "
                    "format, game, options and players come from the table. Checked by the rules service; a deal "
                    "with violations is rejected (400) and nothing is saved.")
    def post(self, request: Request, pk: int) -> Response:
        table = _table_for_entry(request, pk)
        self.allow(permissions.can_enter_deal(request.user, table))
        key = request.headers.get("Idempotency-Key") or None
        deal = deal_record(table=table, record=request.data, user=request.user, idempotency_key=key)
        if getattr(deal, "idempotent_replay", False):
            response = _stored_response(deal, deal.idempotent_status, deal.idempotent_response)
            response["Idempotent-Replayed"] = "true"
            return response
        return _stored_response(deal, status.HTTP_201_CREATED, deal.idempotent_response)


class DealDetailView(Api):
    @extend_schema(responses=s.DealOut)
    def get(self, request: Request, pk: int) -> Response:
        return _deal_response(_deal(request, pk))

    @extend_schema(
        request=s.DealCorrectIn,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER,
                                     description="the version corrected (the deal's ETag)")],
        responses={200: s.DealOut, 400: s.RejectedOut, 409: s.ErrorOut},
        description="Correct a deal: a new version with the reason. A stale version gets 409.")
    def put(self, request: Request, pk: int) -> Response:
        deal = _deal(request, pk)
        self.allow(permissions.can_correct(request.user, deal.table.round.tournament))
        data = self.valid(s.DealCorrectIn)
        expected = _expected_version(request, data.get("version"))
        deal = deal_correct(deal=deal, record=data["record"], expected_version=expected,
                                     reason=data["reason"], user=request.user)
        return _deal_response(deal)

    patch = put


class DealVersionsView(Api):
    @extend_schema(responses=s.DealVersionOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.deal_versions(_deal(request, pk)))


class DealAnnulView(Api):
    @extend_schema(request=s.AnnulIn, responses={200: s.DealOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        deal = _deal(request, pk)
        self.allow(permissions.can_correct(request.user, deal.table.round.tournament))
        data = self.valid(s.AnnulIn)
        version = _optional_version(request, data.get("version"))
        return _deal_response(deal_annul(deal=deal, reason=data["reason"], user=request.user,
                                                  expected_version=version))


class DealRestoreView(Api):
    @extend_schema(request=s.RestoreIn,
                   parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER, required=False,
                                                description="the version restored (the deal's ETag)")],
                   responses={200: s.DealOut, 400: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut},
                   description="Restore an annulled deal (chief arbiter or organizer): a new version with the "
                               "reason, the deal back to its status before the annulment (valid, or pending the "
                               "visa), its marks counting again; a match is judged again with it in place. 400 "
                               "naming 'reason' without a reason; 409 for a stale version, a deal not annulled, "
                               "a full table, a deal no longer legal or a match that would not stand with it.")
    def post(self, request: Request, pk: int) -> Response:
        deal = _deal(request, pk)
        self.allow(permissions.can_restore(request.user, deal.table.round.tournament))
        data = self.valid(s.RestoreIn)
        version = _optional_version(request, data.get("version"))
        return _deal_response(deal_restore(deal=deal, reason=data["reason"], user=request.user,
                                                    expected_version=version))


class DealApproveView(Api):
    @extend_schema(request=None, responses={200: s.DealOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        deal = _deal(request, pk)
        self.allow(permissions.can_approve(request.user, deal.table.round.tournament))
        return _deal_response(deal_approve(deal=deal, user=request.user))


# -- rulings ---------------------------------------------------------------------------------------


class RulingListView(Api):
    @extend_schema(responses=s.RulingOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        qs = Ruling.objects.filter(tournament=tournament).select_related("withdrawn_by").order_by("created_at", "id")
        if not permissions.is_staff_of(request.user, tournament):
            visible = permissions.visible_rounds(request.user, tournament)
            qs = qs.filter(table__round__in=visible)
        return _page(self, qs, s.RulingOut)

    @extend_schema(request=s.RulingIn, responses={201: s.RulingOut, 400: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = _tournament(request, pk)
        self.allow(permissions.can_rule(request.user, tournament))
        data = self.valid(s.RulingIn)
        table = Table.objects.filter(pk=data["table"], round__tournament=tournament).select_related("round").first()
        if table is None:
            raise InvalidInput(_("no such table in this tournament"), field="table")
        deal = None
        if data.get("deal") is not None:
            deal = Deal.objects.filter(pk=data["deal"], table=table).first()
            if deal is None:
                raise InvalidInput(_("no such deal at this table"), field="deal")
        ruling = ruling_record(table=table, deal=deal, kind=data.get("kind"), reason=data.get("reason"),
                                        user=request.user, adjustments=data["adjustments"],
                                        is_penalty=data["is_penalty"], annuls_deal=data["annuls_deal"],
                                        penalty=data.get("penalty") or None, offender=data.get("offender"))
        return Response(s.RulingOut(ruling).data, status=status.HTTP_201_CREATED)


class RulingWithdrawView(Api):
    @extend_schema(request=s.RulingWithdrawIn,
                   responses={200: s.RulingOut, 400: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut},
                   description="Withdraw a ruling recorded by mistake (chief arbiter or organizer): it is kept and "
                               "listed as withdrawn (who, when, why), its points stop counting and a match is "
                               "judged again without it; a ruling that annulled a deal restores the deal. 400 "
                               "naming 'reason' without a reason; 409 when it is already withdrawn, when the deal "
                               "it annulled cannot be restored (or was annulled again since), or when the match "
                               "could not stand without it.")
    def post(self, request: Request, pk: int) -> Response:
        ruling = get_object_or_404(Ruling.objects.select_related("table__round__tournament"), pk=pk)
        if not permissions.can_view_table(request.user, ruling.table):
            raise exceptions.NotFound()
        self.allow(permissions.can_rule(request.user, ruling.table.round.tournament))
        data = self.valid(s.RulingWithdrawIn)
        ruling = ruling_withdraw(ruling=ruling, reason=data["reason"], user=request.user,
                                          expected_version=data.get("version"))
        return Response(s.RulingOut(ruling).data)


# -- the stateless check ---------------------------------------------------------------------------


class ArbitrateParser(BoundedJSONParser):
    """A record to check is at most ``ARBITRATE_MAX_BYTES`` (rules.limits bounds it once parsed)."""

    @property
    def max_bytes(self) -> int:  # type: ignore[override]
        return settings.ARBITRATE_MAX_BYTES


class ArbitrateView(Api):
    """Open to anyone, and bounded: the body's size, the record's (``rules.limits``), and the rate of calls
    (``THROTTLE_ARBITRATE_ANON`` per address without login, ``THROTTLE_ARBITRATE_USER`` per user)."""

    permission_classes = [AllowAny]
    parser_classes = [ArbitrateParser]
    throttle_classes = [ArbitrateAnonThrottle, ArbitrateUserThrottle]

    @extend_schema(request=dict, responses={200: s.VerdictOut, 400: OpenApiResponse(s.ErrorOut), 413: s.ErrorOut,
                                            429: s.ErrorOut},
                   description="Check any levee.deal/1 or levee.match/1 record without saving anything: 200 with "
                               "the verdict (legal or not), 400 {field, message} for a record that cannot be read.")
    def post(self, request: Request) -> Response:
        record = request.data  # parse errors (size, depth, Unicode) are answered as such, not as a record error
        try:
            verdict = judge(record)
        except MalformedRecord:
            raise
        except Exception as exc:
            raise MalformedRecord("$", f"the record could not be checked ({type(exc).__name__})",
                                  fr=f"le record n'a pas pu être vérifié ({type(exc).__name__})") from exc
        return Response(verdict.to_json(lang_of(request)))
