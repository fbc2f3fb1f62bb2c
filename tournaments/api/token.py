"""``POST /api/auth/token/``: a user's API token for a username and password, throttled against guessing."""

from __future__ import annotations

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser

from tournaments.api.parsers import BoundedJSONParser
from tournaments.api.throttles import LoginThrottle


class TokenView(ObtainAuthToken):
    """DRF's token view, with the bounded JSON parser and at most ``THROTTLE_LOGIN_USER`` attempts per username,
    then ``THROTTLE_LOGIN`` per address (429 with ``Retry-After`` past either; :class:`LoginThrottle`)."""

    parser_classes = [FormParser, MultiPartParser, BoundedJSONParser]
    throttle_classes = [LoginThrottle]

    def get_serializer_context(self) -> dict:
        # django-axes counts failures on Django's request (DRF's wraps it): its lockout then answers here too
        return {**super().get_serializer_context(), "request": self.request._request}
