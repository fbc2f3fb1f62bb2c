"""Issue 11 §10 and the error pages: the database unavailable is a 503 with Retry-After (JSON on the API, a French
page on the site); 403, 404, 500 are French pages with a way back (JSON under /api/); the debug page hides the
password of DATABASE_URL."""

from __future__ import annotations

import sys
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client, RequestFactory
from django.views import debug

from levee import errors

pytestmark = pytest.mark.django_db

DOWN = OperationalError("connection to server at \"127.0.0.1\", port 5432 failed: Connection refused")


@pytest.fixture
def quiet_client():
    return Client(raise_request_exception=False)


def test_a_view_without_database_answers_503_json_on_the_api(quiet_client):
    with mock.patch("tournaments.event.permissions.visible_tournaments", side_effect=DOWN):
        response = quiet_client.get("/api/tournaments/")
    assert response.status_code == 503 and response["Retry-After"] == str(errors.RETRY_AFTER)
    assert response.json()["error"] == "unavailable"


def test_a_page_without_database_answers_a_french_503(quiet_client, settings):
    settings.DEBUG = True  # the middleware answers, DEBUG or not
    with mock.patch("tournaments.event.permissions.visible_tournaments", side_effect=InterfaceError("closed")):
        response = quiet_client.get("/")
    html = response.content.decode()
    assert response.status_code == 503 and response["Retry-After"] == str(errors.RETRY_AFTER)
    assert "Service momentanément indisponible" in html and 'href="/"' in html


def test_the_database_failing_outside_the_view_is_a_503_too(quiet_client):
    quiet_client.cookies["sessionid"] = "x" * 32
    with mock.patch("django.contrib.sessions.backends.db.SessionStore._get_session_from_db", side_effect=DOWN):
        response = quiet_client.get("/desk/")  # the session is read by a middleware, before any view
    assert response.status_code == 503 and "Retry-After" in response


def test_the_service_recovers_once_the_database_answers(quiet_client):
    with mock.patch("tournaments.event.permissions.visible_tournaments", side_effect=DOWN):
        assert quiet_client.get("/api/tournaments/").status_code == 503
    assert quiet_client.get("/api/tournaments/").status_code == 200


def test_error_pages_are_french_with_a_way_back(quiet_client, client, django_user_model):
    missing = client.get("/t/nulle-part/")
    assert missing.status_code == 404 and "Page introuvable" in missing.content.decode()
    assert 'href="/"' in missing.content.decode()
    assert client.get("/api/nulle-part/").json()["error"] == "not_found"
    client.force_login(django_user_model.objects.create_user("curieux"))
    forbidden = client.post("/new/", {})
    assert forbidden.status_code == 403 and "Action non autorisée" in forbidden.content.decode()
    with mock.patch("tournaments.organizer.pages.permissions.visible_tournaments", side_effect=ZeroDivisionError):
        crashed = quiet_client.get("/")
    assert crashed.status_code == 500 and "Un incident est survenu" in crashed.content.decode()
    with mock.patch("tournaments.event.permissions.visible_tournaments", side_effect=ZeroDivisionError):
        api = quiet_client.get("/api/tournaments/")
    assert api.status_code == 500 and api.json()["error"] == "server_error"


SECRET = "-".join(["s3cr3t", "pw"])  # built, so that the traceback's source lines do not show it


def _request_with_credentials():
    secret = SECRET
    return RequestFactory().get("/", DATABASE_URL=f"postgres://levee:{secret}@db.example:5432/levee",
                                CELERY_BROKER_URL=f"redis://:{secret}@cache:6379/0",
                                CACHE_LOCATION=f"redis://user:{secret}@cache:6379/1")


def test_the_debug_page_hides_the_database_password(settings):
    settings.DEBUG = True
    request = _request_with_credentials()
    try:
        raise ValueError("boom")
    except ValueError:
        html = debug.technical_500_response(request, *sys.exc_info()).content.decode()
    assert SECRET not in html and "DATABASE_URL" in html
    assert errors.SafeExceptionReporterFilter().cleanse_setting("X", "see postgres://u:pw@h/db") == \
        "see postgres://u:********************@h/db"
