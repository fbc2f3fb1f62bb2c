"""A championship that counts a tournament not finished says « provisoire » (a phone walk: a season's page read
« Version 1, publiée le … » and « Coupe d'automne (1er, 20 pts) » for a tournament at its first round, as if
final, while the club's page listed that tournament as « à venir »). Finishing it publishes a new version without
the word; reopening it brings the word back."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournaments.event import setup
from tournaments.event.models import Tournament
from tournaments.seasons.models import ChampionshipSnapshot

from .builders import season_of_three

pytestmark = pytest.mark.django_db

URL = ("public-championship", ["saison-2025", "challenge"])


def page(client) -> str:
    return html.unescape(client.get(reverse(URL[0], args=URL[1])).content.decode())


def test_a_tournament_still_running_makes_the_championship_provisional(client):
    made = season_of_three()
    assert 'id="provisional"' not in page(client)  # the three are finished
    t3 = made["tournaments"][2]
    Tournament.objects.filter(pk=t3.pk).update(status=Tournament.Status.RUNNING)  # (as if never finished)
    text = page(client)
    assert 'id="provisional"' in text and "le tournoi Tournoi T3 n'est pas terminé" in text and "provisoire" in text
    from tournaments.public import seasons
    from tournaments.seasons import championships

    snap = championships.latest_snapshot(made["championship"].pk)
    assert "Provisoire : tournois non terminés;Tournoi T3" in seasons.csv_text(made["championship"], snap)


def test_finishing_and_reopening_publish_a_new_version(client, django_capture_on_commit_callbacks):
    made = season_of_three()
    t3 = Tournament.objects.get(pk=made["tournaments"][2].pk)
    before = ChampionshipSnapshot.objects.filter(championship=made["championship"]).count()
    with django_capture_on_commit_callbacks(execute=True):
        setup.tournament_set_status(tournament=t3, status="running")  # reopened
    assert ChampionshipSnapshot.objects.filter(championship=made["championship"]).count() == before + 1
    assert "n'est pas terminé" in page(client)
    with django_capture_on_commit_callbacks(execute=True):
        setup.tournament_set_status(tournament=t3, status="finished")
    assert ChampionshipSnapshot.objects.filter(championship=made["championship"]).count() == before + 2
    assert 'id="provisional"' not in page(client)
