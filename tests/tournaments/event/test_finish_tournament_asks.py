"""Finishing a tournament with a round still in play asks first (a phone walk: « Passer à « terminé » » took effect
in one tap during round 1, with no warning)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournaments.event import setup
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_the_organizer_is_asked_and_nothing_changes_until_he_says_yes(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    assert tarot_table.round.status != Round.Status.FINISHED
    client.force_login(staff["organizer"])
    url = reverse("tournament_status", args=[tournament.slug])
    asked = client.post(url, {"status": "finished"})
    text = html.unescape(asked.content.decode())
    assert asked.status_code == 409 and "La manche 1 n'est pas terminée : terminer le tournoi quand même ?" in text
    # what finishing the tournament leaves open (a walk's players kept « Je confirme » with no word to him)
    assert "ses résultats ne deviennent pas officiels et les joueurs peuvent encore confirmer" in text
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert client.post(url, {"status": "finished", "confirm_unfinished": "1"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_api_answers_409_until_confirmed(api_client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    api_client.force_authenticate(staff["organizer"])
    url = reverse("api:tournament-status", args=[tournament.pk])
    refused = api_client.post(url, {"status": "finished"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "rounds_unfinished"
    done = api_client.post(url, {"status": "finished", "confirm_unfinished": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "finished"


def test_once_every_round_is_finished_nothing_is_asked(tarot_table):
    Round.objects.filter(pk=tarot_table.round_id).update(status=Round.Status.FINISHED)
    tournament = Tournament.objects.get(pk=tarot_table.round.tournament_id)
    assert setup.tournament_set_status(tournament=tournament, status="finished").status == "finished"
