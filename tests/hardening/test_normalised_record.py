"""Issue 11 §6: a deal is stored as normalised — the format's fields only, numbers as numbers."""

from __future__ import annotations

import pytest

from rules.normalise import normalise_deal
from tests.tournaments.api.test_api import deals_url
from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db


def test_normalise_deal_keeps_the_format_and_types():
    deal = {**tarot_summary(), "foo": 1}
    deal["bid"] = {**deal["bid"], "zz": 2}
    deal["summary"] = {**deal["summary"], "points": "40,5", "x": 3}
    out = normalise_deal("tarot", deal)
    assert "foo" not in out and "zz" not in out["bid"] and "x" not in out["summary"]
    assert out["summary"]["points"] == 40.5 and normalise_deal("tarot", {"summary": {"points": "41"}}) == {
        "summary": {"points": 41}}
    assert normalise_deal("triomphe", {"dealer": 0, "turn_up": "7H", "note": "x"}) == {"dealer": 0, "turn_up": "7H"}


def test_a_deal_posted_with_extras_is_stored_normalised(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    deal = {**tarot_summary(points="41"), "commentaire": "<script>", "dealer": 0}
    response = api_client.post(deals_url(tarot_table), deal, format="json")
    assert response.status_code == 201
    stored = Deal.objects.get().record
    assert stored["summary"]["points"] == 41 and "commentaire" not in stored
