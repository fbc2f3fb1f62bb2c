"""Errors answered as the client expects: JSON under ``/api/``, a French page with a way back elsewhere.

* 400, 403, 404, 500: Django's handlers (``levee.urls``), which Django calls when DEBUG is off;
* a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (Django's ``RequestDataTooBig``, a 400 for Django) is a 413;
* the database unavailable (``OperationalError``, ``InterfaceError``: the server restarting, the connection cut,
  no connection possible) is a 503 with ``Retry-After``, from the view (:class:`DatabaseUnavailableMiddleware`,
  also with DEBUG on) or from anywhere else (:func:`server_error`). Django closes a broken connection when the
  request ends (and PostgreSQL connections are health-checked before reuse), so the service recovers by itself;
* the debug page (development) hides credentials: settings and variables named like a secret, and the password
  in any URL such as ``DATABASE_URL`` (:class:`SafeExceptionReporterFilter`).
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import debug

log = logging.getLogger(__name__)

#: seconds a client should wait before trying again when the database is unavailable
RETRY_AFTER = 5
DATABASE_DOWN = (OperationalError, InterfaceError)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _page(request: HttpRequest, template: str, status: int, **context: Any) -> HttpResponse:
    """The error page, rendered without a database query (no user, no session read)."""
    try:
        body = loader.render_to_string(template, {"request_path": request.path, **context})
    except Exception:  # an error page must answer, whatever broke
        log.exception("error page %s could not be rendered", template)
        body = f"<!doctype html><title>{status}</title><p>{status}</p><p><a href='/'>Levée</a></p>"
    return HttpResponse(body, status=status, content_type="text/html; charset=utf-8")


def _json(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": code, "field": "$", "message": message}, status=status)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the database cannot be reached (what this request wrote may or may not be saved)."""
    if is_api(request):
        # not "nothing was saved": the connection may be cut after a commit, before the answer (the pipelined
        # entry, a task at commit); a retry with the same Idempotency-Key never saves a deal twice
        response = _json("unavailable", _("The database is unavailable for a moment. Send again in a few seconds, "
                                          "with the same Idempotency-Key: a deal already saved is not saved "
                                          "twice."), 503)
    else:
        response = _page(request, "503.html", 503, retry_after=RETRY_AFTER)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        if is_api(request):
            return _json("too_large", _("The request body is too large."), 413)
        return _page(request, "400.html", 413)
    if is_api(request):
        return _json("bad_request", _("The request cannot be read."), 400)
    return _page(request, "400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return _json("forbidden", _("your role in this tournament does not allow this"), 403)
    return _page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if is_api(request):
        return _json("not_found", _("Not found."), 404)
    return _page(request, "404.html", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        return database_unavailable(request)
    if is_api(request):
        return _json("server_error", _("An error on our side: it has been logged. Nothing was saved by this "
                                       "request."), 500)
    return _page(request, "500.html", 500)


class DatabaseUnavailableMiddleware:
    """A view that could not reach the database answers 503 (see the module), DEBUG or not."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN):
            log.warning("database unavailable (%s: %s): 503", type(exception).__name__, exception)
            return database_unavailable(request)
        return None


_URL_PASSWORD = re.compile(r"(?P<head>\b[a-z][a-z0-9+.\-]*://[^:/@\s]*:)[^@\s]+@", re.IGNORECASE)


class SafeExceptionReporterFilter(debug.SafeExceptionReporterFilter):
    """Django's filter, also hiding ``*_URL`` settings and variables and any password written in a URL."""

    hidden_settings = re.compile(r"API|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|DATABASE_URL|BROKER_URL|"
                                 r"CACHE_URL|REDIS_URL", flags=re.IGNORECASE)

    def cleanse_setting(self, key: Any, value: Any) -> Any:
        value = super().cleanse_setting(key, value)
        if type(value) is str:  # not a lazy object posing as one
            value = _URL_PASSWORD.sub(rf"\g<head>{self.cleansed_substitute}@", value)
        return value
