"""API: the arbiters' rulings and their withdrawal."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, paged, visible_tournament
from tournaments.common.errors import InvalidInput
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.event import permissions
from tournaments.event.models import Table


class RulingListView(Api):
    @extend_schema(responses=s.RulingOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        qs = Ruling.objects.filter(tournament=tournament).select_related("withdrawn_by").order_by("created_at", "id")
        if not permissions.is_staff_of(request.user, tournament):
            visible = permissions.visible_rounds(request.user, tournament)
            qs = qs.filter(table__round__in=visible)
        return paged(self, qs, s.RulingOut)

    @extend_schema(request=s.RulingIn, responses={201: s.RulingOut, 400: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
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
