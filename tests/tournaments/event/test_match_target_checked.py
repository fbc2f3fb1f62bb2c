"""A match's target is checked by the game when the organizer sets it, naming « Objectif d'une partie »: Le
Vingt-quatre's partie is a multiple of 4 points (RULES.md, Le Vingt-quatre: 24 points, 6 jetons of 4). A target of
25 used to be saved, and every deal of the tournament then failed to read (the expert page answered 500,
``MalformedRecord options.target``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.common.errors import InvalidInput
from tournaments.event import setup
from tournaments.event.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = get_user_model().objects.create_superuser("orga", "o@example.org", "pw-123456")
    client.force_login(user)
    return user


def _new(client, target: str):
    return client.post(reverse("tournament_create"), {
        "name": "Vingt-quatre du Boulou", "game": "vingt-quatre", "format": "individual", "rounds_planned": "2",
        "players_vingt_quatre": "4", "target": target})


def test_the_form_refuses_a_target_the_game_cannot_play_and_names_the_field(client, organizer):
    response = _new(client, "25")
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Vingt-quatre du Boulou").exists()
    errors = response.context["form"].errors
    assert "target" in errors and "multiple positif de 4" in errors["target"][0]
    assert "options.target" not in response.content.decode()


def test_a_target_the_game_plays_is_saved_and_its_deals_read(client, organizer):
    assert _new(client, "28").status_code == 302
    t = Tournament.objects.get(name="Vingt-quatre du Boulou")
    assert t.target == 28
    from tournaments.common import games
    assert games.game("vingt-quatre").parse_options(t.record_options()).target == 28


def test_the_service_refuses_it_at_creation_and_in_the_settings(organizer):
    with pytest.raises(InvalidInput) as refused:
        setup.tournament_create(name="V", game="vingt-quatre", user=organizer, target=30)
    assert refused.value.field == "target"
    t = setup.tournament_create(name="V", game="vingt-quatre", user=organizer, target=32)
    with pytest.raises(InvalidInput) as refused:
        setup.tournament_update(tournament=t, target=2)
    assert refused.value.field == "target"
    t.refresh_from_db()
    assert t.target == 32
    # a game of deals keeps no match target: nothing to check there
    setup.tournament_create(name="T", game="tarot", user=organizer, target=25)
