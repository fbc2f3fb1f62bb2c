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
