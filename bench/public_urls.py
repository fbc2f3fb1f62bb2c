"""URLconf of bench/public.py's server: the project's URLs, plus ``/bench/trivial/``, a view that reads nothing
and answers two bytes. A public page measured beside it in the same run costs what the page adds to Django's
and gunicorn's own work (the same middleware runs for both)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/trivial/", trivial), path("", include("levee.urls"))]
