"""A tournament's settings after its creation (a phone walk: « Public » left unticked at creation could never be
ticked again, and the public got a 404): the settings page, and the one tap that opens its pages to the public."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tarot():
    tournament = TournamentFactory(name="Open de Rennes", game="tarot", options={"players": 4}, is_public=False,
                                   deals_per_round=3, rounds_planned=3)
    seated_table(tournament, players=4)  # round 1 created
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    return tournament, organizer


def test_the_organizer_opens_the_pages_to_the_public_in_one_tap(client, tarot):
    tournament, organizer = tarot
    ranking = reverse("public-ranking", args=[tournament.slug])
    assert client.get(ranking).status_code == 404  # not public: like a missing page
    client.force_login(organizer)
    page = client.get(reverse("tournament_detail", args=[tournament.slug])).content.decode()
    assert 'id="make-public"' in page and "Ouvrir ces pages au public" in page
    done = client.post(reverse("tournament_public", args=[tournament.slug]), {"public": "1"}, follow=True)
    assert "Les pages du tournoi sont ouvertes au public." in done.content.decode()
    assert 'id="make-public"' not in done.content.decode()
    tournament.refresh_from_db()
    assert tournament.is_public
    client.logout()
    assert client.get(ranking).status_code == 200


def test_the_settings_page_changes_name_public_rounds_and_the_day(client, tarot):
    tournament, organizer = tarot
    client.force_login(organizer)
    url = reverse("tournament_settings", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert 'value="Open de Rennes"' in page and 'name="deals_per_round"' in page and 'name="target"' not in page
    response = client.post(url, {"name": "Open de Rennes 2026", "is_public": "on", "rounds_planned": "4",
                                 "deals_per_round": "3", "date": "2026-12-05", "start_time": "13:30",
                                 "venue": "Salle des fêtes", "round_minutes": "75"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.is_public, tournament.rounds_planned) == ("Open de Rennes 2026", True, 4)
    assert str(tournament.date) == "2026-12-05" and tournament.venue == "Salle des fêtes"
    assert tournament.round_minutes == 75


def test_the_deals_per_round_are_fixed_once_it_runs(client, tarot):
    tournament, organizer = tarot
    tournament.status = "running"
    tournament.save()
    client.force_login(organizer)
    url = reverse("tournament_settings", args=[tournament.slug])
    page = html.unescape(client.get(url).content.decode())
    assert "Fixé une fois le tournoi en cours." in page
    response = client.post(url, {"name": "Open", "rounds_planned": "3", "deals_per_round": "9",
                                 "round_minutes": "60"})
    assert response.status_code == 302  # the disabled field keeps its value: no refusal, nothing frozen moved
    tournament.refresh_from_db()
    assert tournament.deals_per_round == 3 and tournament.name == "Open"


def test_fewer_rounds_than_created_is_refused_with_the_field_named(client, tarot):
    tournament, organizer = tarot
    for number in (2, 3):
        tournament.rounds.create(number=number)
    client.force_login(organizer)
    response = client.post(reverse("tournament_settings", args=[tournament.slug]),
                           {"name": "Open", "rounds_planned": "2", "deals_per_round": "3", "round_minutes": "60"})
    assert response.status_code == 422
    assert "3 manches sont déjà créées : prévoyez-en au moins autant." in html.unescape(response.content.decode())
    tournament.refresh_from_db()
    assert tournament.rounds_planned == 3 and tournament.name == "Open de Rennes"  # nothing half-saved


def test_a_game_of_matches_has_a_target_not_deals_per_round(client):
    tournament = TournamentFactory(game="triomphe", options={"mode": "forcee", "target": 5})
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    page = client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode()
    assert 'name="target"' in page and 'name="deals_per_round"' not in page


@pytest.mark.parametrize("who", ["arbiter", None])
def test_only_its_managers_change_it(client, tarot, who):
    tournament, _organizer = tarot
    if who:
        user = UserFactory(username=who)
        role(tournament, user, who)
        client.force_login(user)
    settings_page = client.get(reverse("tournament_settings", args=[tournament.slug]))
    public = client.post(reverse("tournament_public", args=[tournament.slug]), {"public": "1"})
    assert settings_page.status_code in (302, 403) and public.status_code in (302, 403)
    if who:
        assert settings_page.status_code == 403 and public.status_code == 403
    tournament.refresh_from_db()
    assert not tournament.is_public
