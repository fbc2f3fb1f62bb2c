"""A round is not ended nor published, unasked, with a deal awaiting the chief arbiter's visa (a garde sans or a
garde contre entered by a table arbiter is saved « en attente du visa » and does not count until it is approved):
a walk closed a round with such a deal silently not counted. The service names the deals (409 ``deals_pending``
on ``confirm_pending``), the organizer's confirmation page lists them, the API answers so."""

from __future__ import annotations

import html
import re

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table, tarot_summary
from tournaments.common.errors import StateConflict
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_approve, deal_record
from tournaments.event.models import Round
from tournaments.event.setup import round_pending_deals, round_release
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db

ONE = ("La donne 1 de la table 2 attend le visa de l'arbitre principal : elle ne compte pas tant qu'elle n'est pas "
       "visée. Confirmez pour continuer quand même.")
TWO = ("2 donnes attendent le visa de l'arbitre principal (la donne 2 de la table 1 et la donne 1 de la table 2) : "
       "elles ne comptent pas tant qu'elles ne sont pas visées. Confirmez pour continuer quand même.")


def tarot_round_with_staff():
    """Round 1 of a Tarot at 4, tables 1 and 2; an organizer, a chief arbiter and a table arbiter of both tables
    (who cannot give the visa)."""
    tournament = TournamentFactory(game="tarot", options={"players": 4})
    tables = [seated_table(tournament, players=4, number=n) for n in (1, 2)]
    users = {name: UserFactory(username=name) for name in ("orga", "chief", "arb")}
    role(tournament, users["orga"], "organizer")
    role(tournament, users["chief"], "chief_arbiter")
    role(tournament, users["arb"], "arbiter", tables)
    return Round.objects.get(tournament=tournament, number=1), tables, users


@pytest.fixture
def event():
    return tarot_round_with_staff()


def _one_pending(tables, users):
    """Table 1 plays a garde, table 2 a garde sans entered by the table arbiter: waiting for the visa."""
    deal_record(table=tables[0], record=tarot_summary(dealer=0), user=users["arb"])
    pending = deal_record(table=tables[1], record=tarot_summary(dealer=0, contract="garde_sans"), user=users["arb"])
    assert pending.status == Deal.Status.PENDING
    return pending


def test_the_pending_deals_are_listed_table_by_table(event):
    rnd, tables, users = event
    _one_pending(tables, users)
    deal_record(table=tables[0], record=tarot_summary(dealer=1, contract="garde_contre"), user=users["arb"])
    assert round_pending_deals(rnd) == [(1, 2), (2, 1)]


def test_ending_the_round_asks_then_ends_once_confirmed(event):
    rnd, tables, users = event
    _one_pending(tables, users)
    with pytest.raises(StateConflict) as exc:
        round_set_status(round=rnd, status="finished")
    assert exc.value.code == "deals_pending" and exc.value.field == "confirm_pending"
    assert exc.value.message == ONE
    rnd.refresh_from_db()
    assert rnd.status != "finished"
    with pytest.raises(StateConflict):  # confirming unfinished tables is not confirming the visa
        round_set_status(round=rnd, status="finished", confirm_unfinished=True)
    round_set_status(round=rnd, status="finished", confirm_pending=True)
    rnd.refresh_from_db()
    assert rnd.status == "finished"


def test_publishing_the_round_asks_then_publishes_once_confirmed(event):
    rnd, tables, users = event
    _one_pending(tables, users)
    with pytest.raises(StateConflict) as exc:
        round_release(round=rnd)
    assert exc.value.code == "deals_pending" and exc.value.field == "confirm_pending"
    assert exc.value.message == ONE
    rnd.refresh_from_db()
    assert not rnd.released
    round_release(round=rnd, confirm_pending=True)
    rnd.refresh_from_db()
    assert rnd.released


def test_two_pending_deals_are_both_named(event):
    rnd, tables, users = event
    _one_pending(tables, users)
    deal_record(table=tables[0], record=tarot_summary(dealer=1, contract="garde_contre"), user=users["arb"])
    deal_record(table=tables[1], record=tarot_summary(dealer=1), user=users["arb"])
    with pytest.raises(StateConflict) as exc:
        round_set_status(round=rnd, status="finished")
    assert exc.value.message == TWO


def test_nothing_is_asked_once_the_chief_arbiter_gave_the_visa(event):
    rnd, tables, users = event
    pending = _one_pending(tables, users)
    deal_approve(deal=pending, user=users["chief"])
    assert round_pending_deals(rnd) == []
    round_release(round=rnd)
    round_set_status(round=rnd, status="finished")
    rnd.refresh_from_db()
    assert rnd.released and rnd.status == "finished"


def test_the_organizers_page_names_the_deal_then_ends_the_round(event, client):
    rnd, tables, users = event
    _one_pending(tables, users)
    client.force_login(users["orga"])
    url = f"/t/{rnd.tournament.slug}/rounds/1/status/"
    ask = client.post(url, {"status": "finished"})
    assert ask.status_code == 409
    text = html.unescape(ask.content.decode())
    assert "1 donne attend le visa de l'arbitre principal : terminer la manche quand même ?" in text
    assert "Table 2 : donne 1" in text
    assert "Elle ne compte pas tant qu'elle n'est pas visée." in text
    assert 'name="confirm_pending" value="1"' in text and 'name="confirm_unfinished"' not in text
    assert f'href="/t/{rnd.tournament.slug}/arbiter/"' in text  # where the visa is given
    assert "pending" not in re.sub(r"<[^>]*>", "", text.split("<main", 1)[1])  # no code on the screen
    rnd.refresh_from_db()
    assert rnd.status != "finished"
    done = client.post(url, {"status": "finished", "confirm_pending": "1"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == "finished"


def test_the_organizers_page_asks_before_publishing(event, client):
    rnd, tables, users = event
    _one_pending(tables, users)
    client.force_login(users["orga"])
    url = f"/t/{rnd.tournament.slug}/rounds/1/release/"
    ask = client.post(url, {"released": "1"})
    assert ask.status_code == 409
    text = html.unescape(ask.content.decode())
    assert "1 donne attend le visa de l'arbitre principal : publier la manche quand même ?" in text
    assert "Table 2 : donne 1" in text
    rnd.refresh_from_db()
    assert not rnd.released
    done = client.post(url, {"released": "1", "confirm_pending": "1"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.released


def test_a_short_table_and_a_pending_deal_are_asked_together(client):
    tournament = TournamentFactory(game="tarot", options={"players": 4}, deals_per_round=2)
    tables = [seated_table(tournament, players=4, number=n) for n in (1, 2)]
    orga, arb = UserFactory(username="orga"), UserFactory(username="arb")
    role(tournament, orga, "organizer")
    role(tournament, arb, "arbiter", tables)
    deal_record(table=tables[0], record=tarot_summary(dealer=0), user=arb)
    deal_record(table=tables[0], record=tarot_summary(dealer=1), user=arb)
    deal_record(table=tables[1], record=tarot_summary(dealer=0, contract="garde_contre"), user=arb)
    client.force_login(orga)
    url = f"/t/{tournament.slug}/rounds/1/status/"
    ask = client.post(url, {"status": "finished"})
    assert ask.status_code == 409
    text = html.unescape(ask.content.decode())
    assert ("1 table n'a pas joué toutes ses donnes ; 1 donne attend le visa de l'arbitre principal : terminer la "
            "manche quand même ?") in text
    assert "Table 2 : 1 donne sur 2" in text and "Table 2 : donne 1" in text
    assert 'name="confirm_pending" value="1"' in text and 'name="confirm_unfinished" value="1"' in text
    done = client.post(url, {"status": "finished", "confirm_pending": "1", "confirm_unfinished": "1"})
    assert done.status_code == 302
    assert Round.objects.get(tournament=tournament, number=1).status == "finished"


def test_the_api_answers_409_deals_pending_then_publishes(event, api_client):
    rnd, tables, users = event
    _one_pending(tables, users)
    api_client.force_authenticate(users["orga"])
    url = f"/api/rounds/{rnd.pk}/release/"
    refused = api_client.post(url, {"released": True}, format="json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "deals_pending" and body["field"] == "confirm_pending"
    assert body["message"] == ONE
    assert not Round.objects.get(pk=rnd.pk).released
    unfinished_only = api_client.post(url, {"released": True, "confirm_unfinished": True}, format="json")
    assert unfinished_only.status_code == 409 and unfinished_only.json()["error"] == "deals_pending"
    done = api_client.post(url, {"released": True, "confirm_pending": True}, format="json")
    assert done.status_code == 200 and done.json()["released"] is True
