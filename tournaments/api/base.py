"""API views: one per operation, thin — permissions, input, one service or selector call, output.

Errors: every 4xx body is ``{"error": code, "field": JSON path, "message": …}``; a deal that breaks
rules is a 400 whose ``violations`` name the deal, trick, seat, card and rule (messages in French,
``?lang=en`` or ``Accept-Language: en`` for English); a stale correction is a 409 with the
``current_version``. Reads of what the user may not see are 404s; writes without the role, 403s.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import DataError
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from rules.errors import MalformedRecord
from tournaments.api.parsers import PayloadTooLarge, too_large
from tournaments.common import downloads
from tournaments.common.errors import DealRejected, InvalidInput, MalformedDeal, PreconditionFailed, ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.event import permissions
from tournaments.event.models import Round, Table, Tournament

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
        response = super().handle_exception(exc)
        # DRF's own refusals (401, 403, 404, 405, 406, 415) in the same shape as the others: {error, field,
        # message}, « detail » kept for the clients that read it (a walk found {"detail": …} on the 401s and 404s)
        if isinstance(response.data, dict) and set(response.data) == {"detail"}:  # (a Django Http404 too)
            detail = response.data["detail"]
            code = getattr(detail, "code", None) or getattr(exc, "default_code", None) or "not_found"
            response.data = {"error": code, "field": None, "message": str(detail), "detail": detail}
        return response

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


def visible_tournament(request: Request, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not permissions.can_view_tournament(request.user, tournament):
        raise exceptions.NotFound()
    return tournament


def visible_round(request: Request, pk: int) -> Round:
    rnd = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not permissions.can_view_round(request.user, rnd):
        raise exceptions.NotFound()
    return rnd


def visible_table(request: Request, pk: int) -> Table:
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    if not permissions.can_view_table(request.user, table):
        raise exceptions.NotFound()
    return table


def visible_table_for_entry(request: Request, pk: int) -> Table:
    """The table a deal is posted to, with its seats (one query), checked like :func:`visible_table`."""
    table = selectors.table_for_entry(pk)
    if table is None or not permissions.can_view_table(request.user, table):
        raise exceptions.NotFound()
    return table


def visible_deal(request: Request, pk: int) -> Deal:
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    if not permissions.can_view_deal(request.user, deal):
        raise exceptions.NotFound()
    return deal


def paged(view: Api, queryset: Any, serializer: type) -> Response:
    paginator = view.paginator
    page = paginator.paginate_queryset(queryset, view.request, view=view) if paginator else None
    if page is not None:
        return paginator.get_paginated_response(serializer(page, many=True).data)
    return Response(serializer(queryset, many=True).data)


def etag(deal: Deal) -> str:
    return f'"{deal.version}"'


def deal_response(deal: Deal, code: int = status.HTTP_200_OK, data: dict | None = None) -> Response:
    response = Response(data if data is not None else selectors.deal_to_json(deal), status=code)
    response["ETag"] = etag(deal)
    return response


def stored_response(deal: Deal, code: int, body: str | None) -> HttpResponse:
    """A deal entered with an Idempotency-Key: the JSON text stored with the key, sent as it is (a retry
    gets the same bytes as the first answer); without a key, the deal as JSON."""
    if not body:
        body = selectors.deal_body(deal)
    response = HttpResponse(body, status=code, content_type="application/json")
    response["ETag"] = etag(deal)
    return response


_IF_MATCH = re.compile(r'^\s*"?(\d+)"?\s*$')
_WEAK = re.compile(r"^\s*W/", re.IGNORECASE)


def optional_version(request: Request, body_version: int | None) -> int | None:
    """The version a change is based on, from ``If-Match`` or the body, when the client gives one (annul,
    restore); None skips the check."""
    if request.headers.get("If-Match") is not None:
        return expected_version(request, body_version)
    return body_version


def expected_version(request: Request, body_version: int | None) -> int:
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


def kept_download(request: Request, doc: downloads.Download) -> HttpResponseBase:
    """A whole export kept as a file (:mod:`tournaments.common.downloads`): the file with its ETag (304 when the
    client has it), or while its first render runs a JSON answer saying so, 202 with ``Retry-After``."""

    def preparing() -> HttpResponse:
        return HttpResponse(json.dumps({
            "detail": _("%(title)s is being prepared: ask again in %(seconds)s seconds.") % {
                "title": doc.title, "seconds": downloads.RETRY_AFTER},
            "retry_after": downloads.RETRY_AFTER}, ensure_ascii=False), content_type="application/json")

    return downloads.serve(request, doc, preparing)



def not_found(request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any path under /api/ that names no operation (``/api/tables/abc/deals/``): a 404 in the API's shape, never
    the site's HTML page."""
    body = {"error": "not_found", "field": None, "message": _("no such address in the API: see /api/docs/")}
    return HttpResponse(json.dumps(body, ensure_ascii=False), status=404, content_type="application/json")
