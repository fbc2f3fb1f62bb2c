"""Numbers too large for their column are a 400 naming the field, never a 500 (PostgreSQL refuses what does not fit
its integer types; SQLite would store it). Run on PostgreSQL in CI."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import tarot_summary

pytestmark = pytest.mark.django_db

HUGE = 10**12


def test_a_round_number_too_large(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["organizer"])
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rounds/", {"number": 40000},
                               format="json")
    assert response.status_code == 400 and response.json()["field"] == "number"


def test_ruling_points_too_large(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["chief"])
    a, b = tarot_table.seats.order_by("position").values_list("entry_id", flat=True)[:2]
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rulings/",
                               {"table": tarot_table.pk, "kind": "renonce", "reason": "renonce",
                                "adjustments": {str(a): -HUGE, str(b): HUGE}}, format="json")
    assert response.status_code == 400 and response.json()["field"].startswith("adjustments")


@pytest.mark.parametrize("field", ["table", "deal", "offender"])
def test_ruling_ids_too_large(api_client, tarot_table, staff, field):
    api_client.force_authenticate(staff["chief"])
    body = {"table": tarot_table.pk, "kind": "renonce", "reason": "renonce", "annuls_deal": field == "deal",
            field: HUGE * HUGE}
    if field == "offender":
        body.update(penalty="triomphe_misdeal", kind="misdeal")
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rulings/", body, format="json")
    assert response.status_code in (400, 404), response.content


def test_ids_too_large_in_paths_and_bodies(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["chief"])
    assert api_client.post(f"/api/tables/{HUGE * HUGE}/deals/", tarot_summary(), format="json").status_code == 404
    assert api_client.get(f"/api/deals/{HUGE * HUGE}/").status_code == 404
    api_client.force_authenticate(staff["organizer"])
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/registrations/",
                               {"player": HUGE * HUGE}, format="json")
    assert response.status_code == 400, response.content


def test_the_refusals_are_in_french_by_default(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["organizer"])
    response = api_client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rounds/", {"number": 40000},
                               format="json")
    assert response.json()["message"] == "les numéros de manche vont jusqu'à 999"
