"""API: the players' confirmations and disputes of their deals, as on the private links' pages.

Through a table's link (no account): ``GET /api/k/{token}/deals/`` (each deal in the table's words, its marks,
each player's answer, the sheet's state) and ``POST /api/k/{token}/deals/{number}/answer/`` (``seat``,
``answer``, ``note``). Through a player's link: ``GET /api/j/{token}/deals/`` and ``POST
/api/j/{token}/rounds/{round}/deals/{number}/answer/`` (his own answer only). A dispute says why (``note``,
read by the chief arbiter) and calls the arbiter; none once the tournament is finished and its results official
(409). The staff read a deal's answers: ``GET /api/deals/{id}/answers/``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, lang_of, visible_deal
from tournaments.api.calls import live_link
from tournaments.common import games
from tournaments.common.errors import Forbidden, InvalidInput
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.event import permissions
from tournaments.event.models import Seat, Table, Tournament
from tournaments.links import service
from tournaments.links.models import DealAnswer, DealSheet, PrivateLink


class AnswerIn(serializers.Serializer):
    answer = serializers.ChoiceField(choices=DealAnswer.Answer.choices)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=300,
                                 help_text="a dispute says why in a few words (required with 'disputed')")


class TableAnswerIn(AnswerIn):
    seat = serializers.IntegerField(min_value=0, max_value=9, help_text="the player's seat at the table (0 first)")


class AnswerOut(serializers.ModelSerializer):
    player = serializers.CharField(source="entry.player.name", read_only=True)
    through = serializers.SerializerMethodField(help_text="table link, player link or account")

    class Meta:
        model = DealAnswer
        fields = ["id", "deal", "version", "entry", "player", "answer", "through", "created_at"]

    def get_through(self, obj: DealAnswer) -> str:
        if obj.link_id is None:
            return "account"
        return "table_link" if obj.link.table_id is not None else "player_link"


class SheetOut(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField(help_text="the table's number in its round")
    number = serializers.IntegerField(help_text="the deal's number at the table")
    version = serializers.IntegerField()
    status = serializers.CharField()
    headline = serializers.CharField(help_text="the deal in the table's words")
    words = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                  help_text="label and value pairs: taker, contract, bouts, points…")
    lines = serializers.ListField(child=serializers.DictField())
    sum = serializers.IntegerField()
    state = serializers.CharField(help_text="entered, confirmed or disputed")
    confirmed = serializers.IntegerField()
    needed = serializers.IntegerField()
    disputable = serializers.BooleanField()


def sheet_json(deal: Deal, lang: str, *, facts: service.SheetFacts | None = None,
               closed: bool | None = None) -> dict[str, Any]:
    """A deal as the players check it: in words, each seat's mark and answer, the sheet's state. ``facts`` and
    ``closed``: read already for many deals (:func:`sheets_json`)."""
    table = deal.table
    seats = selectors.table_seats(table)
    players = selectors.table_players(table)
    facts = facts or service.sheet_facts([deal])[deal.pk]
    scores, answers, sheet = facts.scores, facts.answers, facts.sheet
    detail = games.explain(str((deal.record or {}).get("game", "")), deal.verdict, players, lang)
    lines = [{"seat": seat.position, "player": name, "points": scores.get(seat.entry_id),
              "answer": answers[seat.entry_id].answer if seat.entry_id in answers else None}
             for seat, name in zip(seats, players, strict=True)]
    return {"round": table.round.number, "table": table.number, "number": deal.number, "version": deal.version,
            "status": deal.status, "headline": detail.headline, "words": [list(pair) for pair in detail.lines],
            "lines": lines, "sum": sum(p for p in scores.values() if p is not None),
            "state": sheet.state if sheet else DealSheet.State.ENTERED,
            "confirmed": sheet.confirmed if sheet else 0,
            "needed": service.policy_of(table.round.tournament).needed(len(seats)),
            "disputable": not (service.dispute_closed(deal) if closed is None else closed)}


def sheets_json(deals: list[Deal], lang: str) -> list[dict[str, Any]]:
    """:func:`sheet_json` of each of ``deals`` (read with their table, round and tournament), their tables' seats,
    their facts and their rounds' closing read together: a fixed number of statements, not a few per deal."""
    tables: dict[int, Table] = {}
    tournaments: dict[int, Tournament] = {}
    for deal in deals:  # one table object per table (its seats read once), one tournament (its policy read once)
        deal.table = tables.setdefault(deal.table_id, deal.table)
        deal.table.round.tournament = tournaments.setdefault(deal.table.round.tournament_id,
                                                             deal.table.round.tournament)
    selectors.with_seats(list(tables.values()))
    facts = service.sheet_facts(deals)
    closed = {t.pk: service.disputes_closed(t.round) for t in tables.values()}
    return [sheet_json(d, lang, facts=facts[d.pk], closed=closed[d.table_id]) for d in deals]


def _answer(link: PrivateLink, deal: Deal, seat: Seat | None, data: dict[str, Any], lang: str) -> Response:
    if seat is None:
        raise InvalidInput(_("no player sits there at this table"), field="seat")
    if not service.answer_allowed(link, deal, seat.entry):
        raise Forbidden(_("this link cannot answer for this player"), field="seat")
    service.deal_answer(deal=deal, entry=seat.entry, answer=data["answer"], link=link, note=data["note"])
    return Response(sheet_json(Deal.objects.select_related("table__round__tournament").get(pk=deal.pk), lang),
                    status=status.HTTP_201_CREATED)


class TableSheetsView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SheetOut(many=True), 404: s.ErrorOut, 410: s.ErrorOut})
    def get(self, request: Request, token: str) -> Response:
        link = live_link(token, table=True)
        deals = Deal.objects.filter(table_id=link.table_id).exclude(status=Deal.Status.ANNULLED).select_related(
            "table__round__tournament").order_by("number")
        return Response(sheets_json(list(deals), lang_of(request)))


class TableAnswerView(Api):
    permission_classes = [AllowAny]

    @extend_schema(request=TableAnswerIn, responses={201: SheetOut, 400: s.ErrorOut, 403: s.ErrorOut,
                                                     404: s.ErrorOut, 409: s.ErrorOut, 410: s.ErrorOut})
    def post(self, request: Request, token: str, number: int) -> Response:
        link = live_link(token, table=True)
        deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), table_id=link.table_id,
                                 number=number)
        data = self.valid(TableAnswerIn)
        seat = Seat.objects.select_related("entry__player").filter(table_id=deal.table_id,
                                                                   position=data["seat"]).first()
        return _answer(link, deal, seat, data, lang_of(request))


class PlayerSheetsView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SheetOut(many=True), 404: s.ErrorOut, 410: s.ErrorOut})
    def get(self, request: Request, token: str) -> Response:
        link = live_link(token, table=False)
        deals = (Deal.objects.filter(table__seats__entry_id=link.entry_id).exclude(status=Deal.Status.ANNULLED)
                 .select_related("table__round__tournament").order_by("table__round__number", "number"))
        return Response(sheets_json(list(deals), lang_of(request)))


class PlayerAnswerView(Api):
    permission_classes = [AllowAny]

    @extend_schema(request=AnswerIn, responses={201: SheetOut, 400: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut,
                                                 410: s.ErrorOut})
    def post(self, request: Request, token: str, round_number: int, number: int) -> Response:
        link = live_link(token, table=False)
        deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), number=number,
                                 table__round__number=round_number, table__seats__entry_id=link.entry_id,
                                 table__round__tournament_id=link.tournament_id)
        data = self.valid(AnswerIn)
        seat = Seat.objects.select_related("entry__player").filter(table_id=deal.table_id,
                                                                   entry_id=link.entry_id).first()
        return _answer(link, deal, seat, data, lang_of(request))


class DealAnswersView(Api):
    @extend_schema(responses={200: AnswerOut(many=True), 403: s.ErrorOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        deal = visible_deal(request, pk)
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        self.allow(permissions.is_staff_of(request.user, deal.table.round.tournament))
        answers = (DealAnswer.objects.filter(deal=deal).select_related("entry__player", "link")
                   .order_by("created_at", "id"))
        return Response(AnswerOut(answers, many=True).data)


urlpatterns = [
    path("k/<str:token>/deals/", TableSheetsView.as_view(), name="link-sheets"),
    path("k/<str:token>/deals/<id:number>/answer/", TableAnswerView.as_view(), name="link-answer"),
    path("j/<str:token>/deals/", PlayerSheetsView.as_view(), name="player-sheets"),
    path("j/<str:token>/rounds/<id:round_number>/deals/<id:number>/answer/", PlayerAnswerView.as_view(),
         name="player-answer"),
    path("deals/<id:pk>/answers/", DealAnswersView.as_view(), name="deal-answers"),
]
