"""Page access: every page asks ``tournaments.event.permissions``: what the visitor may not see is a 404 (like a missing
page); an action the visitor may not take is a 403, or sends anonymous visitors to log in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse


class LoginRequired(Exception):
    """Raised inside a view when an anonymous visitor must log in first."""


def require(request: HttpRequest, allowed: bool) -> None:
    """Stop the page unless ``allowed``: anonymous visitors log in, others get 403."""
    if allowed:
        return
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def require_visible(request: HttpRequest, allowed: bool, *, login_first: bool = False) -> None:
    """Stop the page with a 404 unless the visitor may see what it shows: a private tournament (or its rounds,
    tables, deals) answers like a missing one, so that its existence is not told to those who may not see it.

    ``login_first`` (the desk's pages): an anonymous visitor is sent to log in instead, whether the page exists
    or not, so an arbiter following a link logs in and the answer still tells nothing."""
    if allowed:
        return
    if login_first and not request.user.is_authenticated:
        raise LoginRequired
    raise Http404


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


def sent(request: HttpRequest, to: str) -> HttpResponse:
    """A form taken: a plain form is redirected to ``to``; a form whose draft is kept on the device
    (``data-keep-draft``, static/js/offline-entry.js) sent it by fetch asking for JSON, and hears where to go next
    (the message left for the next page is shown there, not spent by the fetch). Only then is its draft dropped."""
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"url": to})
    return HttpResponseRedirect(to)
