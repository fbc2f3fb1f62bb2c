"""A round is not published, unasked, over a contested deal or a player's call the arbiter has not answered (a
phone walk: a player tapped « Je conteste » on his link, the chief gave the deal its visa, « Publier » published at
once while the arbiter's page still said « 1 appel en attente » and « Donnes contestées »). Publishing asks, as it
does for the deals awaiting the visa: how many deals are contested, how many calls unanswered, a link to them."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.common.errors import StateConflict
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Seat
from tournaments.event.setup import round_release
from tournaments.links import service as sheet
from tournaments.links.models import ArbiterCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def contested(client, tarot_table, staff):
    """Deal 1 of table 1, contested by Chloé from her own link (« Je conteste »): the arbiter is called."""
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"])
    chloe = Seat.objects.get(table=tarot_table, position=2).entry
    link = sheet.link_for_entry(entry=chloe)
    client.post(reverse("player_answer", args=[link.token, 1, 1]),
                {"seat": 2, "answer": "disputed", "note": "49 points, pas 51"})
    assert ArbiterCall.objects.filter(state="open").count() == 1
    return tarot_table.round


def test_the_service_asks_before_publishing_over_a_dispute(contested):
    with pytest.raises(StateConflict) as exc:
        round_release(round=contested)
    assert exc.value.code == "deals_disputed" and exc.value.field == "confirm_disputes"
    assert exc.value.message.startswith("1 donne contestée et 1 appel sans réponse : l'arbitre principal n'a pas "
                                        "encore répondu")
    contested.refresh_from_db()
    assert not contested.released
    round_release(round=contested, confirm_disputes=True)
    contested.refresh_from_db()
    assert contested.released


def test_publish_asks_with_the_count_and_a_link_then_publishes_once_confirmed(client, contested, staff):
    tournament = contested.tournament
    client.force_login(staff["organizer"])
    url = reverse("round_release", args=[tournament.slug, 1])
    asked = client.post(url, {"released": "1"})
    page = html.unescape(asked.content.decode())
    assert asked.status_code == 409
    assert "1 donne contestée et 1 appel sans réponse : publier la manche quand même ?" in page
    assert "Table 1 : donne 1 contestée" in page and "Table 1 : appel sans réponse" in page
    assert f'href="{reverse("chief_page", args=[tournament.slug])}"' in page
    assert 'name="confirm_disputes" value="1"' in page
    assert not Round.objects.get(pk=contested.pk).released
    client.post(url, {"released": "1", "confirm_disputes": "1"})
    assert Round.objects.get(pk=contested.pk).released


def test_once_the_arbiter_answered_publishing_does_not_ask(client, contested, staff):
    call = ArbiterCall.objects.get()
    sheet.call_resolve(call=call, user=staff["chief"], outcome="nothing", answer="Les points sont justes.")
    round_release(round=contested)
    contested.refresh_from_db()
    assert contested.released
