"""« Commencer la manche » before the draw (a phone walk: round 1 of a new tournament started with « Aucune table
placée », answered « Manche 1 : en cours. Le tournoi passe à « en cours ». »). The service refuses it, the page
does not offer the button until the round has tables; a round seated (by the draw, by hand or by a duplicate's
movement: each writes the round's tables) starts as before."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import RoundFactory, TournamentFactory, UserFactory, role, seated_table
from tournaments.common.errors import StateConflict
from tournaments.event.models import Round, Tournament
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def empty_round():
    tournament = TournamentFactory(game="tarot", options={"players": 4}, status=Tournament.Status.OPEN)
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    return RoundFactory(tournament=tournament, number=1), organizer


def test_the_service_refuses_to_start_a_round_without_tables(empty_round):
    rnd, _organizer = empty_round
    with pytest.raises(StateConflict) as exc:
        round_set_status(round=rnd, status="running")
    assert exc.value.code == "no_tables" and "faites d'abord le tirage des tables" in exc.value.message
    rnd.refresh_from_db()
    rnd.tournament.refresh_from_db()
    assert rnd.status == Round.Status.PLANNED and rnd.tournament.status == Tournament.Status.OPEN


def test_the_page_does_not_offer_the_start_and_a_post_is_refused(client, empty_round):
    rnd, organizer = empty_round
    client.force_login(organizer)
    url = reverse("round_detail", args=[rnd.tournament.slug, 1])
    page = html.unescape(client.get(url).content.decode())
    assert 'name="status" value="running"' not in page and 'id="start-after-draw"' in page
    answer = client.post(reverse("round_status", args=[rnd.tournament.slug, 1]), {"status": "running"}, follow=True)
    said = html.unescape(answer.content.decode())
    assert "Aucune table n'est placée dans la manche 1 : faites d'abord le tirage des tables" in said
    assert "Manche 1 : en cours" not in said and "Le tournoi passe" not in said
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PLANNED


def test_a_seated_round_is_offered_the_start_and_starts(client, empty_round):
    rnd, organizer = empty_round
    seated_table(rnd.tournament, players=4)
    client.force_login(organizer)
    page = client.get(reverse("round_detail", args=[rnd.tournament.slug, 1])).content.decode()
    assert 'name="status" value="running"' in page and 'id="start-after-draw"' not in page
    answer = client.post(reverse("round_status", args=[rnd.tournament.slug, 1]), {"status": "running"}, follow=True)
    assert "Manche 1 : en cours." in html.unescape(answer.content.decode())
