"""API: entering a deal (``Idempotency-Key``), reading, correcting (``If-Match``), annulling, restoring and
approving it (``/api/tables/{id}/deals/``, ``/api/deals/…``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import (
    Api,
    deal_response,
    expected_version,
    optional_version,
    stored_response,
    visible_deal,
    visible_table,
    visible_table_for_entry,
)
from tournaments.common.errors import StateConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_annul, deal_approve, deal_correct, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.event import permissions
from tournaments.links import service as links_service


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
        table = visible_table(request, pk)
        deals = _with_scores(selectors.table_deals(table))
        seats = selectors.table_seats(table)
        for d in deals:
            d.table = table
        return Response([selectors.deal_to_json(d, seats=seats) for d in deals])

    @extend_schema(
        request=dict,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                     description="a retried submission with the same key returns the first "
                                                 "response and never creates a second deal"),
                    OpenApiParameter("irregular", bool, OpenApiParameter.QUERY, required=False,
                                     description="true: a deal whose only problems are violations of play (a "
                                                 "renonce) is saved as played with them, status 'irregular', "
                                                 "counting nowhere until the chief arbiter rules "
                                                 "(POST /api/deals/{id}/ruling/); the arbiter is called")],
        responses={201: s.DealOut, 400: s.RejectedOut, 409: s.ErrorOut, 422: s.ErrorOut},
        description="Enter a deal: its own fields (dealer, bid, hands, dog, discard, tricks or summary …); the "
                    "format, game, options and players come from the table. Checked by the rules service; a deal "
                    "with violations is rejected (400) and nothing is saved.")
    def post(self, request: Request, pk: int) -> Response:
        table = visible_table_for_entry(request, pk)
        self.allow(permissions.can_enter_deal(request.user, table))
        why = selectors.unplayable(table)
        if why is not None:
            raise StateConflict(why, field="table")
        key = request.headers.get("Idempotency-Key") or None
        irregular = request.query_params.get("irregular", "").lower() in ("1", "true", "yes")
        deal = deal_record(table=table, record=request.data, user=request.user, idempotency_key=key,
                           irregular=irregular)
        if getattr(deal, "idempotent_replay", False):
            response = stored_response(deal, deal.idempotent_status, deal.idempotent_response)
            response["Idempotent-Replayed"] = "true"
            return response
        return stored_response(deal, status.HTTP_201_CREATED, deal.idempotent_response)


class DealDetailView(Api):
    @extend_schema(responses=s.DealOut)
    def get(self, request: Request, pk: int) -> Response:
        return deal_response(visible_deal(request, pk))

    @extend_schema(
        request=s.DealCorrectIn,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER,
                                     description="the version corrected (the deal's ETag)")],
        responses={200: s.DealOut, 400: s.RejectedOut, 409: s.ErrorOut},
        description="Correct a deal: a new version with the reason. A stale version gets 409.")
    def put(self, request: Request, pk: int) -> Response:
        deal = visible_deal(request, pk)
        self.allow(permissions.can_correct(request.user, deal.table.round.tournament))
        data = self.valid(s.DealCorrectIn)
        expected = expected_version(request, data.get("version"))
        deal = deal_correct(deal=deal, record=data["record"], expected_version=expected,
                                     reason=data["reason"], user=request.user)
        links_service.calls_answered_by_correction(deal=deal, user=request.user, reason=data["reason"])
        return deal_response(deal)

    patch = put


class DealVersionsView(Api):
    @extend_schema(responses=s.DealVersionOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        return Response(selectors.deal_versions(visible_deal(request, pk)))


class DealAnnulView(Api):
    @extend_schema(request=s.AnnulIn, responses={200: s.DealOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        deal = visible_deal(request, pk)
        self.allow(permissions.can_correct(request.user, deal.table.round.tournament))
        data = self.valid(s.AnnulIn)
        version = optional_version(request, data.get("version"))
        return deal_response(deal_annul(deal=deal, reason=data["reason"], user=request.user,
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
        deal = visible_deal(request, pk)
        self.allow(permissions.can_restore(request.user, deal.table.round.tournament))
        data = self.valid(s.RestoreIn)
        version = optional_version(request, data.get("version"))
        return deal_response(deal_restore(deal=deal, reason=data["reason"], user=request.user,
                                                    expected_version=version))


class DealApproveView(Api):
    @extend_schema(request=None, responses={200: s.DealOut, 409: s.ErrorOut})
    def post(self, request: Request, pk: int) -> Response:
        deal = visible_deal(request, pk)
        self.allow(permissions.can_approve(request.user, deal.table.round.tournament))
        return deal_response(deal_approve(deal=deal, user=request.user))
