"""The API's release of a Tarot round with no deal entered: 409 ``matches_unfinished`` on ``confirm_unfinished``,
then published once confirmed."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import UserFactory, role

pytestmark = pytest.mark.django_db


def test_the_api_asks_before_publishing_a_tarot_round_without_deals(tarot_table, api_client):
    organizer = UserFactory(username="orga")
    role(tarot_table.round.tournament, organizer, "organizer")
    api_client.force_authenticate(organizer)
    url = f"/api/rounds/{tarot_table.round.pk}/release/"
    refused = api_client.post(url, {"released": True}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "matches_unfinished" and body["field"] == "confirm_unfinished"
    assert body["message"].startswith("Aucune donne n'est saisie")
    done = api_client.post(url, {"released": True, "confirm_unfinished": True}, format="json")
    assert done.status_code == 200 and done.json()["released"] is True
