"""API: a table, its export and import as a ``levee.match/1`` record (``/api/tables/…``)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, visible_table
from tournaments.common.errors import InvalidInput, MalformedDeal, StateConflict
from tournaments.deals import selectors
from tournaments.deals.record import deal_record
from tournaments.event import permissions
from tournaments.event.models import Table


class TableDetailView(Api):
    @extend_schema(responses=s.TableOut)
    def get(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        data = s.TableOut(Table.objects.prefetch_related("seats__entry__player").select_related("round").get(
            pk=table.pk)).data
        data["totals"] = [{"entry": e, "points": p} for e, p in selectors.table_totals(table).items()]
        return Response(data)


class TableExportView(Api):
    @extend_schema(responses={200: dict}, description="The table's deals as a levee.match/1 record "
                   "(?annulled=1 keeps the annulled deals).")
    def get(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        include = request.query_params.get("annulled") in ("1", "true", "yes")
        return Response(selectors.table_match_record(table, include_annulled=include))


class TableImportView(Api):
    @extend_schema(request=dict, responses={201: s.DealOut(many=True), 400: s.RejectedOut},
                   description="Enter a levee.match/1 record's deals at this table, in order, all or nothing.")
    def post(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        self.allow(permissions.can_enter_deal(request.user, table))
        why = selectors.unplayable(table)
        if why is not None:
            raise StateConflict(why, field="table")
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
