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
    """Attempts to obtain a token: per username first (``THROTTLE_LOGIN_USER``), then per client address
    (``THROTTLE_LOGIN``).

    The name is counted first and an attempt it refuses is not counted against the address: one phone
    retrying a wrong password at a venue (every phone behind the router's one address) is throttled for that
    name only, and the rest of the hall keeps logging in. The address' rate is sized for a hall (README:
    100 people logging in at once, each with a typo or two) and still bounds one address trying many names.
    django-axes locks a name out per address after ``LOGIN_FAILURE_LIMIT`` failures besides.
    """

    scope = "login"

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request, view):  # type: ignore[no-untyped-def]
        username = request.data.get("username") if hasattr(request.data, "get") else None
        if isinstance(username, str) and username:
            per_user = _PerUsername(username[:150])
            if not per_user.allow_request(request, view):
                self.wait = per_user.wait  # type: ignore[method-assign]
                return False
        return super().allow_request(request, view)


class _PerUsername(FailOpen, SimpleRateThrottle):
    scope = "login_user"

    def __init__(self, username: str) -> None:
        super().__init__()
        self.username = hashlib.sha256(username.lower().encode("utf-8", "replace")).hexdigest()[:32]

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        return self.cache_format % {"scope": self.scope, "ident": self.username}
