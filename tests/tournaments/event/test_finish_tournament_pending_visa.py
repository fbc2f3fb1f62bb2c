"""Finishing a whole tournament with deals awaiting the chief arbiter's visa asks first, as ending or publishing a
round does (tests/tournaments/standings/test_round_pending_visa.py): a garde sans entered by a table arbiter does not
count until approved, and finishing the tournament would leave it silently uncounted. The service names each deal
(409 ``deals_pending`` on ``confirm_pending``), the organizer's confirmation page lists them with a link to each
one's visa, the API answers so."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tests.tournaments.standings.test_round_pending_visa import tarot_round_with_staff
from tournaments.common.errors import StateConflict
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_approve, deal_record
from tournaments.event import setup
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db

ONE = ("La donne 1 de la table 2 (manche 1) attend le visa de l'arbitre principal : elle ne compte pas tant qu'elle "
       "n'est pas visée. Confirmez pour continuer quand même.")


@pytest.fixture
def event():
    """Round 1 of a Tarot at 4, finished, tables 1 and 2: table 2's garde sans, entered by the table arbiter (who
    cannot give the visa), waits for it."""
    rnd, tables, users = tarot_round_with_staff()
    tournament = rnd.tournament
    deal_record(table=tables[0], record=tarot_summary(dealer=0), user=users["arb"])
    pending = deal_record(table=tables[1], record=tarot_summary(dealer=0, contract="garde_sans"), user=users["arb"])
    assert pending.status == Deal.Status.PENDING
    Round.objects.filter(tournament=tournament).update(status=Round.Status.FINISHED)
    return Tournament.objects.get(pk=tournament.pk), pending, users


def test_the_service_asks_then_finishes_once_confirmed(event):
    tournament, _pending, _users = event
    with pytest.raises(StateConflict) as exc:
        setup.tournament_set_status(tournament=tournament, status="finished")
    assert exc.value.code == "deals_pending" and exc.value.field == "confirm_pending"
    assert str(exc.value.message) == ONE
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    setup.tournament_set_status(tournament=tournament, status="finished", confirm_pending=True)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_once_the_deal_is_approved_nothing_is_asked(event):
    tournament, pending, users = event
    deal_approve(deal=pending, user=users["chief"])
    assert setup.tournament_set_status(tournament=tournament, status="finished").status == "finished"


def test_the_organizer_is_asked_with_each_deal_and_its_visa(client, event):
    tournament, pending, users = event
    client.force_login(users["orga"])
    url = reverse("tournament_status", args=[tournament.slug])
    asked = client.post(url, {"status": "finished"})
    assert asked.status_code == 409
    text = html.unescape(asked.content.decode())
    assert "1 donne attend le visa de l'arbitre principal : terminer le tournoi quand même ?" in text
    items = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>', text.split('id="pending-deals"')[1].split("</ul>")[0])
    assert items == [(reverse("deal_detail", args=[pending.pk]), "Manche 1 · table 2 · donne 1")]
    assert 'name="confirm_pending" value="1"' in text
    assert "confirm_unfinished" not in text  # every round is over: nothing else to confirm
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert client.post(url, {"status": "finished", "confirm_pending": "1"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_a_round_in_play_and_a_deal_waiting_are_asked_on_one_page(client, event):
    tournament, _pending, users = event
    Round.objects.filter(tournament=tournament).update(status=Round.Status.RUNNING)
    client.force_login(users["orga"])
    url = reverse("tournament_status", args=[tournament.slug])
    asked = client.post(url, {"status": "finished"})
    text = html.unescape(asked.content.decode())
    assert asked.status_code == 409
    assert ("La manche 1 n'est pas terminée ; 1 donne attend le visa de l'arbitre principal : terminer le tournoi "
            "quand même ?") in text
    assert 'name="confirm_pending" value="1"' in text and 'name="confirm_unfinished" value="1"' in text
    assert client.post(url, {"status": "finished", "confirm_unfinished": "1",
                             "confirm_pending": "1"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_the_api_answers_409_deals_pending_until_confirmed(api_client, event):
    tournament, _pending, users = event
    api_client.force_authenticate(users["orga"])
    url = reverse("api:tournament-status", args=[tournament.pk])
    refused = api_client.post(url, {"status": "finished"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "deals_pending"
    assert refused.json()["field"] == "confirm_pending"
    done = api_client.post(url, {"status": "finished", "confirm_pending": True}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "finished"
