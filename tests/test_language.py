"""Pages are French by default, whatever the browser asks, until the visitor picks English."""

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_pages_are_french_even_for_an_english_browser(client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "fr"


@pytest.mark.django_db
def test_the_switcher_cookie_gives_english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.headers["Content-Language"] == "en"


@pytest.mark.django_db
def test_set_language_view_switches_to_english(client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert client.get("/").headers["Content-Language"] == "en"


@pytest.mark.django_db
def test_the_api_follows_accept_language(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.headers.get("Content-Language") == "en"
