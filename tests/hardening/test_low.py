"""Issue 11, low defects: weak ETags, the correction page's version, private tournaments as 404s, local Swagger UI."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, seated_table, tap_correct, tarot_summary
from tests.tournaments.test_api import deals_url
from tests.tournaments.test_pages import _saved_deal
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db


def test_weak_etag_is_refused_in_if_match(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    deal = api_client.post(deals_url(tarot_table), tarot_summary(), format="json").json()
    api_client.force_authenticate(staff["chief"])
    url = f"/api/deals/{deal['id']}/"
    weak = api_client.put(url, {"record": tarot_summary(points=51), "reason": "recompté"}, format="json",
                          HTTP_IF_MATCH='W/"1"')
    assert weak.status_code == 412 and weak.json()["field"] == "If-Match"
    annul = api_client.post(url + "annul/", {"reason": "x"}, format="json", HTTP_IF_MATCH='W/"1"')
    assert annul.status_code == 412
    assert Deal.objects.get(pk=deal["id"]).version == 1


def test_correction_page_without_version_is_refused(client, tarot_table, staff):
    deal = _saved_deal(tarot_table, staff["arbiter"])
    client.force_login(staff["chief"])
    response = tap_correct(client, deal, tarot_summary(points=39), version=None, reason="recompté")
    assert response.status_code == 422 and "reload" not in response.content.decode()
    assert "rechargez" in response.json()["problems"][0]["message"].lower()
    deal.refresh_from_db()
    assert deal.version == 1


def test_private_tournament_is_a_404_like_a_missing_one(client, db):
    private = TournamentFactory(is_public=False, slug="secret")
    table = seated_table(private)
    deal = _saved_deal(table, UserFactory(username="someone"))
    client.force_login(UserFactory(username="nosy"))
    for url in (reverse("tournament_detail", args=["secret"]), reverse("round_detail", args=["secret", 1]),
                reverse("table_detail", args=[table.pk]), reverse("deal_detail", args=[deal.pk])):
        assert client.get(url).status_code == 404, url
    assert client.get(reverse("tournament_detail", args=["missing"])).status_code == 404
    client.logout()
    assert client.get(reverse("tournament_detail", args=["secret"])).status_code == 404
    hidden, missing = client.get(reverse("table_detail", args=[table.pk])), client.get(reverse("table_detail",
                                                                                                args=[999999]))
    assert hidden.status_code == missing.status_code == 302  # the desk: log in first, existing or not


def test_swagger_ui_is_served_locally(client):
    html = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr.net" not in html and "unpkg.com" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
