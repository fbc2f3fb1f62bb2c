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


def test_a_tournament_where_nothing_was_published_counts_for_nobody(client, django_capture_on_commit_callbacks):
    from tests.integration.builders import add_deal, make_round, make_tournament
    from tournaments.event.models import Entry
    from tournaments.standings import tasks

    made = season_of_three()
    t4, _others = make_tournament([], slug="t4-vide")
    entries = [Entry.objects.create(tournament=t4, player=made["players"][n]) for n in ("Émile", "Bruno", "Chloé",
                                                                                       "David")]
    made["championship"].tournaments.add(t4)
    # its round played but not published yet: its ranking lists the four, every one first with nothing (a walk
    # saw such a tournament give its eight players « 1er ex » and points)
    (table,) = make_round(t4, 1, [entries], released=False)
    add_deal(table, [90, -30, -30, -30], taker=0)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.ranking_refresh(t4.pk)
    text = page(client)
    assert "Tournoi t4-vide" not in text.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
