"""A match's target in the words of the game (the registry's unit and default target): the new-tournament page
read « Objectif d'une partie (autres jeux) … valeur du jeu si vide » and the tournament's page « objectif 2 »."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from rules.game import get_game
from tests.tournaments.factories import TournamentFactory, UserFactory
from tournaments.common import games

pytestmark = pytest.mark.django_db


def test_the_registry_says_each_match_games_unit_and_default_target():
    assert games.target_unit("imperiale") == "impériales"
    assert games.target_unit("vingt-quatre") == "points"  # a partie of 24 points (6 jetons)
    assert get_game("imperiale").default_target({}) == 5
    assert get_game("ecarte").default_target({"players": 2}) == 5
    assert get_game("ecarte").default_target({"players": 3}) == 7
    assert get_game("triomphe").default_target({}) == 5
    assert get_game("vingt-quatre").default_target({}) == 24
    assert games.target_default_words("imperiale") == "5 impériales"
    assert games.target_default_words("ecarte") == "5 points à 2 joueurs par table, 7 à 3 ou 4"


@pytest.fixture
def organizer(client):
    user = UserFactory(username="orga")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)
    return user


def test_the_new_tournament_page_words_the_target_per_game(client, organizer):
    page = html.unescape(client.get(reverse("tournament_create")).content.decode())
    assert "autres jeux" not in page and "valeur du jeu si vide" not in page
    assert "Objectif d'une partie" in page
    assert "En impériales. Vide : la valeur du jeu, 5 impériales." in page
    assert "Vide : la valeur du jeu, 5 points à 2 joueurs par table, 7 à 3 ou 4." in page


def test_the_tournament_page_says_the_target_with_its_unit(client, organizer):
    t = TournamentFactory(game="imperiale", options={}, target=2)
    organizer.is_superuser = True
    organizer.save()
    page = html.unescape(client.get(reverse("tournament_detail", args=[t.slug])).content.decode())
    assert "partie en 2 impériales" in page and "objectif 2" not in page
    t2 = TournamentFactory(game="imperiale", options={})
    page = html.unescape(client.get(reverse("tournament_detail", args=[t2.slug])).content.decode())
    assert "partie en 5 impériales (valeur du jeu)" in page
