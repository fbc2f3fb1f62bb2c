"""Page access: every page asks ``tournaments.permissions`` and answers 403, or sends anonymous visitors to log in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse


class LoginRequired(Exception):
    """Raised inside a view when an anonymous visitor must log in first."""


def require(request: HttpRequest, allowed: bool) -> None:
    """Stop the page unless ``allowed``: anonymous visitors log in, others get 403."""
    if allowed:
        return
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def guarded(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Turn :class:`LoginRequired` into a redirect to the login page that comes back here."""

    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except LoginRequired:
            return redirect_to_login(request.get_full_path())

    wrapper.__name__ = view.__name__
    wrapper.__doc__ = view.__doc__
    wrapper.__module__ = view.__module__
    return wrapper


def lang_of(request: HttpRequest) -> str:
    """The language of messages produced outside Django (rules/, scoring/): ``fr`` or ``en``."""
    code = getattr(request, "LANGUAGE_CODE", "fr") or "fr"
    return "en" if code.startswith("en") else "fr"
