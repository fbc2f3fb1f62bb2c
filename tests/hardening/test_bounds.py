"""Issue 11 §3 and §6: every record is bounded before it is judged, the stateless check is throttled, and bad
JSON (too deep, a lone surrogate, too large) is a JSON 4xx, never a 500."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules import limits
from rules.errors import MalformedRecord
from scoring.verdict import judge
from tests.tournaments.api.test_api import deals_url
from tests.tournaments.factories import tarot_full_deal, tarot_summary
from tournaments.deals.models import Deal

ARBITRATE = "/api/arbitrate/"
RECORD = {"format": "levee.deal/1", "game": "tarot", "options": {"players": 4},
          "players": ["Ana", "Bruno", "Chloé", "David"], **tarot_summary()}


def _field(record):
    with pytest.raises(MalformedRecord) as caught:
        judge(record)
    return caught.value.field


def test_every_bound_names_its_field():
    assert judge(RECORD).to_json()["legal"] in (True, False)
    assert _field({**RECORD, "tricks": [["KS"]] * 79}) == "tricks"
    assert _field({**RECORD, "hands": [["KS"] * 79] * 4}) == "hands[0]"
    assert _field({**RECORD, "players": ["Ana", "Bruno", "Chloé", "x" * 1001]}) == "players[3]"
    assert _field({**RECORD, **{f"extra{i}": 0 for i in range(64)}}) == "$"
    nested: list = []
    deep = {**RECORD, "summary": {**RECORD["summary"], "x": nested}}
    for _ in range(12):
        nested.append([])
        nested = nested[0]
    assert _field(deep).startswith("summary.x[0]")
    match = {**{k: RECORD[k] for k in ("format", "game", "options", "players")}, "format": "levee.match/1",
             "deals": [tarot_summary()] * 501}
    assert _field(match) == "deals"


def test_a_lone_surrogate_is_malformed_not_a_crash():
    assert _field({**RECORD, "players": ["Ana", "Bruno", "Chloé", "\ud800"]}) == "players[3]"
    assert _field({**RECORD, "bid": {**RECORD["bid"], "\udfff": 1}}) == "bid.\udfff"


def test_bounds_match_the_schema():
    schema = json.loads(Path("rules/schema/deal-record.schema.json").read_text(encoding="utf-8"))
    assert schema["maxProperties"] == limits.MAX_FIELDS
    assert schema["properties"]["adjustments"]["maxItems"] == limits.MAX_DEALS
    assert schema["$defs"]["cards"]["maxItems"] == limits.MAX_ITEMS
    assert schema["properties"]["players"]["items"]["maxLength"] == limits.MAX_TEXT


@pytest.mark.django_db
def test_arbitrate_refuses_a_record_too_large_before_judging(api_client, settings):
    settings.ARBITRATE_MAX_BYTES = 50_000
    big = {**RECORD, "format": "levee.match/1", "deals": [tarot_full_deal(i) for i in range(60)]}
    response = api_client.post(ARBITRATE, big, format="json")
    assert response.status_code == 413 and response.json()["error"] == "too_large"
    settings.ARBITRATE_MAX_BYTES = 1_000_000
    wide = {**RECORD, "format": "levee.match/1", "deals": [tarot_summary()] * 501}
    response = api_client.post(ARBITRATE, wide, format="json")
    assert response.status_code == 400 and response.json()["field"] == "deals"


@pytest.mark.django_db
def test_arbitrate_is_throttled_for_anonymous_callers(api_client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "arbitrate_anon": "3/min"}}
    from rest_framework.throttling import SimpleRateThrottle

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    old = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = rates  # DRF reads its settings once
    try:
        codes = [api_client.post(ARBITRATE, RECORD, format="json").status_code for _ in range(4)]
    finally:
        SimpleRateThrottle.THROTTLE_RATES = old
    assert codes == [200, 200, 200, 429]


def test_the_default_rates_are_set():
    from rest_framework.throttling import SimpleRateThrottle

    assert SimpleRateThrottle.THROTTLE_RATES["arbitrate_anon"] == "30/min"
    # the token endpoint: 10 tries a minute per name, counted first; 300 per address (a hall of 100 behind one router)
    assert SimpleRateThrottle.THROTTLE_RATES["login_user"] == "10/min"
    assert SimpleRateThrottle.THROTTLE_RATES["login"] == "300/min"


@pytest.mark.django_db
@pytest.mark.parametrize("url", [ARBITRATE, "/api/auth/token/"])
def test_deeply_nested_json_is_a_400(api_client, url):
    body = "[" * 20_000 + "]" * 20_000
    response = api_client.generic("POST", url, body, content_type="application/json")
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    body = json.dumps({"username": "a", "password": json.loads("[" * 40 + "]" * 40)})
    response = api_client.generic("POST", url, body, content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_deal_is_a_400(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    deal = tarot_summary()
    deal["bid"]["note"] = "\ud800"
    body = json.dumps(deal)  # ensure_ascii: the surrogate travels as the escape \ud800
    response = api_client.generic("POST", deals_url(tarot_table), body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"] == "malformed"
    response = api_client.post("/api/players/", '{"name": "\\ud800", "club": "", "licence": ""}',
                               content_type="application/json")
    assert response.status_code in (400, 403)
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_body_over_the_upload_limit_is_a_json_413(api_client, tarot_table, staff, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    api_client.force_authenticate(staff["arbiter"])
    body = json.dumps({**tarot_summary(), "pad": "x" * 20_000})
    response = api_client.generic("POST", deals_url(tarot_table), body, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"] == "too_large"


@pytest.mark.django_db
def test_a_cache_that_cannot_count_lets_requests_through(api_client):
    from unittest import mock

    with mock.patch("django.core.cache.backends.locmem.LocMemCache.get", side_effect=ConnectionError("redis down")):
        assert api_client.post(ARBITRATE, RECORD, format="json").status_code == 200
        assert api_client.post("/api/auth/token/", {"username": "x", "password": "y"}, format="json"
                               ).status_code == 400
