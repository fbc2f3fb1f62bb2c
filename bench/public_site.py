"""Settings and URLconf of bench/public.py's server: the project's own, plus one trivial view, the reference.

``DJANGO_SETTINGS_MODULE=public_site`` (with bench/ on the path): every setting and middleware of the project,
and the project's URLs with ``/bench/trivial/`` added, a view that reads nothing and answers two bytes. A public
page measured beside it in the same run costs what the page adds to Django's and gunicorn's own work.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from levee.settings import *  # noqa: F403 - the project's settings, unchanged

ROOT_URLCONF = "public_site"


def trivial(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/trivial/", trivial), path("", include("levee.urls"))]
