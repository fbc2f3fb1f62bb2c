"""Middleware of the project: the language choice, and one log line per request.

Language choice: French unless the visitor chose English.

Club members share tablets and phones whose browsers may ask for English; the pages stay in
French (the default) until someone picks English with the language switcher, which sets
Django's language cookie. API clients are machines: for ``/api/`` the standard negotiation
(``Accept-Language``) applies.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.functional import empty

request_log = logging.getLogger("levee.request")


class FrenchFirstLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, without Accept-Language for pages."""

    def process_request(self, request: HttpRequest) -> None:
        if request.path.startswith("/api/"):
            super().process_request(request)
            return
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class RequestLogMiddleware:
    """One line per request on ``levee.request`` (JSON in production): the method, the URL pattern it matched
    (not the path: a table's private link carries its token), the view, the status, the duration in
    milliseconds and the user's id when the request already knew it. ``LOG_REQUESTS=false`` turns it off."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request_log.isEnabledFor(logging.INFO):
            return self.get_response(request)
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            match = getattr(request, "resolver_match", None)
            user = getattr(request, "user", None)
            wrapped = getattr(user, "_wrapped", user)  # a lazy user not read by the view is not loaded here
            request_log.info("request", extra={
                "event": "request",
                "method": request.method,
                "route": "/" + match.route if match else request.path[:200],
                "view": match.view_name if match else None,
                "status": status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                "user": wrapped.pk if wrapped is not empty and getattr(wrapped, "is_authenticated", False) else None,
            })
