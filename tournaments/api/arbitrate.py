"""API: the stateless check of any record (``/api/arbitrate/``), open to anyone and bounded."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from rules.errors import MalformedRecord
from scoring.verdict import judge
from tournaments.api import serializers as s
from tournaments.api.base import Api, lang_of
from tournaments.api.parsers import BoundedJSONParser
from tournaments.api.throttles import ArbitrateAnonThrottle, ArbitrateUserThrottle


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
