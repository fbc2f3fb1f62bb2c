"""Every API refusal has the documented shape {error, field, message} (a walk: 401, 404 and 415 answered
{"detail": …}, and /api/tables/abc/deals/ answered the site's HTML 404 page)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/tables/abc/deals/", "/api/nothing-here/", "/api/tournaments/x/status/"])
def test_a_path_the_api_does_not_know_is_a_json_404(client, path):
    answer = client.get(path)
    assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
    assert answer.json()["error"] == "not_found" and answer.json()["message"]


def test_drf_refusals_have_the_documented_shape(api_client, tarot_table, staff):
    unauthenticated = api_client.post(f"/api/tables/{tarot_table.pk}/deals/", {}, format="json")
    assert unauthenticated.status_code == 401
    body = unauthenticated.json()
    assert body["error"] == "not_authenticated" and body["field"] is None and body["message"] == body["detail"]
    api_client.force_authenticate(staff["arbiter"])
    unsupported = api_client.post(f"/api/tables/{tarot_table.pk}/deals/", "x", content_type="text/plain")
    assert unsupported.status_code == 415 and unsupported.json()["error"] == "unsupported_media_type"
    missing = api_client.get("/api/tables/999999/deals/")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
