"""django-axes' backend, for logins over HTTP only."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Counts failed logins per user name and address (django-axes) and refuses a locked-out pair.

    ``authenticate()`` without a request (a shell, a management command, a test) has no address to count: it goes
    on to the next backend instead of failing as axes' own backend does. Every login page and the token
    endpoint pass their request."""

    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def lockout_response(request: Any, original_response: Any = None, credentials: Any = None) -> Any:
    """The answer to a locked-out login: the French page (429), or under ``/api/`` the API's JSON error."""
    from django.conf import settings
    from django.http import JsonResponse
    from django.shortcuts import render
    from django.utils.translation import gettext as _

    if request.path.startswith("/api/"):
        response = JsonResponse({"error": "locked_out", "field": "username", "message": _(
            "Too many wrong passwords for this user name: logging in is paused for a few minutes.")}, status=429)
    else:
        response = render(request, settings.AXES_LOCKOUT_TEMPLATE, status=429)
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
