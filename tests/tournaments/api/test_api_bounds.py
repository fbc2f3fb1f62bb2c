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


def test_a_player_registered_by_his_licence_alone(api_client, tarot_table, staff):
    """The licence file names the player (as the players' page and the arrivals page do); a licence it does not
    know asks for the name, naming the field; nothing at all names the player field."""
    from tournaments.clubs.models import Licence

    Licence.objects.create(number="0451234", first_name="Éloïse", last_name="Œillet", category="Dames")
    api_client.force_authenticate(staff["organizer"])
    url = f"/api/tournaments/{tarot_table.round.tournament_id}/registrations/"
    response = api_client.post(url, {"licence": "0451234"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["player"]["name"] == "Éloïse Œillet"
    unknown = api_client.post(url, {"licence": "9999999"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["field"] == "name"
    assert "9999999" in unknown.json()["message"] and "donnez le nom" in unknown.json()["message"]
    nothing = api_client.post(url, {"club": "Vanves"}, format="json")
    assert nothing.status_code == 400 and nothing.json()["field"] == "player"
