"""``GET /health/``: the service's health for the load balancer and the director (tournaments.operations.health).

Anonymous-safe: anyone gets the states and ages only; a logged-in member of the site's staff (``is_staff``) gets
the detail (the tournaments behind, the worker's host, the last backup's file, the errors). 200 while the
database answers (``degraded`` when something else needs a look), 503 when it does not. Never cached.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from tournaments.operations.health import health_report


def _is_site_staff(request: HttpRequest) -> bool:
    if not request.COOKIES:  # a load balancer's probe: no session to read
        return False
    try:
        return bool(request.user.is_authenticated and request.user.is_staff)
    except Exception:  # the database is down: the anonymous report says so
        return False


@require_safe
def health(request: HttpRequest) -> JsonResponse:
    report = health_report(detail=_is_site_staff(request))
    response = JsonResponse(report.body, status=report.http_status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response
