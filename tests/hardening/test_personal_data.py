"""Issue 11 §8: licence numbers are for the tournament's staff only; a user without a role lists no player."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import PlayerFactory, TournamentFactory, UserFactory, role, seated_table

pytestmark = pytest.mark.django_db



def test_a_user_without_a_role_lists_no_player(api_client, tarot_table, staff):
    private = TournamentFactory(is_public=False)
    seated_table(private)
    api_client.force_authenticate(staff["outsider"])
    listed = api_client.get("/api/players/").json()
    assert listed["count"] == 0
    some = tarot_table.seats.first().entry.player
    assert api_client.get(f"/api/players/{some.pk}/").status_code == 404


def test_staff_list_their_tournaments_players_only(api_client, tarot_table, staff):
    private = TournamentFactory(is_public=False)
    seated_table(private, names=["Secret Un", "Secret Deux", "Secret Trois", "Secret Quatre"])
    api_client.force_authenticate(staff["arbiter"])
    names = {p["name"] for p in api_client.get("/api/players/").json()["results"]}
    assert names == {"Ana", "Bruno", "Chloé", "David"}
    lone = PlayerFactory(name="Pas encore inscrit")
    api_client.force_authenticate(staff["organizer"])
    names = {p["name"] for p in api_client.get("/api/players/").json()["results"]}
    assert "Pas encore inscrit" in names and "Secret Un" not in names
    api_client.force_authenticate(staff["arbiter"])
    assert api_client.get(f"/api/players/{lone.pk}/").status_code == 404


def test_the_public_registration_list_has_no_licence(api_client, tarot_table, staff):
    url = f"/api/tournaments/{tarot_table.round.tournament_id}/registrations/"
    public = api_client.get(url).json()["results"]
    assert public and all("licence" not in row["player"] for row in public)
    entry = public[0]["id"]
    assert "licence" not in api_client.get(f"/api/registrations/{entry}/").json()["player"]
    api_client.force_authenticate(UserFactory(username="curieux"))
    assert all("licence" not in row["player"] for row in api_client.get(url).json()["results"])
    api_client.force_authenticate(staff["arbiter"])
    staff_view = api_client.get(url).json()["results"]
    assert all(row["player"]["licence"] for row in staff_view)


def test_an_organizer_cannot_register_a_player_he_may_not_see(api_client, tarot_table, staff):
    other = TournamentFactory(is_public=False)
    hidden = seated_table(other).seats.first().entry.player
    role(other, UserFactory(username="autre-orga"), "organizer")
    api_client.force_authenticate(staff["organizer"])
    url = f"/api/tournaments/{tarot_table.round.tournament_id}/registrations/"
    response = api_client.post(url, {"player": hidden.pk}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "player"
