"""Request rates (DRF throttling), counted in Django's cache: Redis when configured, so every gunicorn worker
shares the counts (``CACHE_URL``; ``levee.settings``). Rates are settings
(``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from the environment)."""

from __future__ import annotations

import hashlib
import logging

from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

log = logging.getLogger(__name__)


class FailOpen:
    """A rate that cannot be counted (the cache's Redis unreachable) lets the request through, with a warning:
    logins and checks keep working while Redis is down, as entries do."""

    def allow_request(self, request, view):  # type: ignore[no-untyped-def]
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # any cache failure: redis' ConnectionError, TimeoutError …
            log.warning("request rate not counted (%s: %s): allowed", type(exc).__name__, exc)
            return True


class ArbitrateAnonThrottle(FailOpen, AnonRateThrottle):
    """The stateless check without login: per client address (``THROTTLE_ARBITRATE_ANON``)."""

    scope = "arbitrate_anon"


class ArbitrateUserThrottle(FailOpen, UserRateThrottle):
    """The stateless check for a logged-in user or token (``THROTTLE_ARBITRATE_USER``)."""

    scope = "arbitrate_user"


class LoginThrottle(FailOpen, SimpleRateThrottle):
    """Attempts to obtain a token, per client address and per username (``THROTTLE_LOGIN``): a password cannot be
    guessed from many addresses at one account, nor at many accounts from one address."""

    scope = "login"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view):  # type: ignore[no-untyped-def]
        if not super().allow_request(request, view):
            return False
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if not isinstance(username, str) or not username:
            return True
        per_user = _PerUsername(username[:150])
        if not per_user.allow_request(request, view):
            self.wait = per_user.wait  # type: ignore[method-assign]
            return False
        return True


class _PerUsername(FailOpen, SimpleRateThrottle):
    scope = "login"

    def __init__(self, username: str) -> None:
        super().__init__()
        self.username = hashlib.sha256(username.lower().encode("utf-8", "replace")).hexdigest()[:32]

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": "login_user", "ident": self.username}
