"""A round of a game played in matches is not ended nor published with matches still in play unless the
organizer confirms it (issue 20: a Triomphe round was published with every match unfinished, everyone 0); a round
of a game of deals, not with a table short of its deals or with no deal at all (a phone walk: a Tarot round was
published with 0 deals, and ended with one table two deals behind, without a word)."""

from __future__ import annotations

import html

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table, tarot_summary
from tournaments.common.errors import StateConflict
from tournaments.deals.models import Deal, Forfeit
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Table
from tournaments.event.setup import round_release, round_short_tables, round_unfinished
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def rnd():
    """Round 1 of a Triomphe: table 1 over, tables 2, 3, 4 in play, table 5 a bye (one player)."""
    tournament = TournamentFactory(game="triomphe", options={"mode": "forcee", "target": 5})
    for number in (1, 2, 3, 4):
        seated_table(tournament, players=2, number=number)
    seated_table(tournament, players=1, number=5)
    Table.objects.filter(round__tournament=tournament, number=1).update(match_ended=True)
    return Round.objects.get(tournament=tournament, number=1)


def test_unfinished_matches_counted_without_byes(rnd):
    assert round_unfinished(rnd) == [2, 3, 4]
    table4 = rnd.tables.get(number=4)
    Forfeit.objects.create(tournament=rnd.tournament, table=table4, kind="forfeit")
    assert round_unfinished(rnd) == [2, 3]  # a forfeit ends the match


def test_services_refuse_without_the_confirmation(rnd):
    with pytest.raises(StateConflict) as exc:
        round_release(round=rnd)
    assert exc.value.code == "matches_unfinished" and exc.value.field == "confirm_unfinished"
    assert "3 parties ne sont pas terminées (tables 2, 3, 4)" in exc.value.message
    rnd.refresh_from_db()
    assert not rnd.released
    with pytest.raises(StateConflict):
        round_set_status(round=rnd, status="finished")
    rnd.refresh_from_db()
    assert rnd.status != "finished"
    round_set_status(round=rnd, status="finished", confirm_unfinished=True)
    round_release(round=rnd, confirm_unfinished=True)
    rnd.refresh_from_db()
    assert rnd.released and rnd.status == "finished"


def _tarot_round(deals_per_round=None):
    """Round 1 of a Tarot at 4: tables 1 and 2 of four players, table 3 a forfeit, table 4 a bye (one player)."""
    tournament = TournamentFactory(game="tarot", options={"players": 4}, deals_per_round=deals_per_round)
    tables = [seated_table(tournament, players=4, number=n) for n in (1, 2, 3)]
    seated_table(tournament, players=1, number=4)
    Forfeit.objects.create(tournament=tournament, table=tables[2], kind="forfeit")
    return Round.objects.get(tournament=tournament, number=1), tables


def _deals(table, count, user):
    for i in range(count):
        deal_record(table=table, record=tarot_summary(dealer=i % 4), user=user)


def test_a_tarot_round_without_any_deal_is_not_published_unasked():
    rnd, _tables = _tarot_round()
    with pytest.raises(StateConflict) as exc:
        round_release(round=rnd)
    assert exc.value.code == "matches_unfinished" and exc.value.field == "confirm_unfinished"
    assert exc.value.message.startswith("Aucune donne n'est saisie dans cette manche")
    with pytest.raises(StateConflict):
        round_set_status(round=rnd, status="finished")
    round_release(round=rnd, confirm_unfinished=True)
    rnd.refresh_from_db()
    assert rnd.released


def test_a_table_short_of_the_planned_deals_is_named():
    rnd, (one, two, _forfeit) = _tarot_round(deals_per_round=2)
    user = UserFactory(username="arb")
    _deals(one, 2, user)
    _deals(two, 1, user)
    assert round_short_tables(rnd).expected == 2 and round_short_tables(rnd).tables == [(2, 1)]
    assert round_unfinished(rnd) == [2]  # neither the forfeit (3) nor the bye (4)
    round_release(round=rnd)  # a round in play is published for the live ranking: its tables are short till the end
    round_release(round=rnd, released=False)
    with pytest.raises(StateConflict) as exc:
        round_set_status(round=rnd, status="finished")
    assert "1 table n'a pas joué ses 2 donnes (table 2)" in exc.value.message
    _deals(two, 1, user)
    round_set_status(round=rnd, status="finished")  # every table has its 2 deals: nothing to confirm
    round_release(round=rnd)
    rnd.refresh_from_db()
    assert rnd.released and rnd.status == "finished"


def test_without_a_planned_number_the_table_behind_the_others_is_named():
    rnd, (one, two, _forfeit) = _tarot_round()
    user = UserFactory(username="arb")
    _deals(one, 3, user)
    _deals(two, 1, user)
    Deal.objects.filter(table=one, number=3).update(status=Deal.Status.ANNULLED)  # an annulled deal was not played
    assert round_short_tables(rnd).expected == 2 and round_short_tables(rnd).tables == [(2, 1)]


def test_the_tarot_page_asks_with_each_short_table(client):
    rnd, (one, two, _forfeit) = _tarot_round(deals_per_round=3)
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    _deals(one, 3, organizer)
    _deals(two, 1, organizer)
    client.force_login(organizer)
    ask = client.post(f"/t/{rnd.tournament.slug}/rounds/1/status/", {"status": "finished"})
    assert ask.status_code == 409
    text = html.unescape(ask.content.decode())
    assert "1 table n'a pas joué toutes ses donnes : terminer la manche quand même ?" in text
    assert "Table 2 : 1 donne sur 3" in text and "Table 1 :" not in text
    assert "Ses joueurs seront classés sur moins de donnes que les autres" in text and "ne marqueront rien" not in text
    done = client.post(f"/t/{rnd.tournament.slug}/rounds/1/status/", {"status": "finished", "confirm_unfinished": "1"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == "finished"


def test_the_tarot_page_asks_before_publishing_a_round_without_any_deal(client):
    rnd, _tables = _tarot_round(deals_per_round=3)
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    client.force_login(organizer)
    ask = client.post(f"/t/{rnd.tournament.slug}/rounds/1/release/", {"released": "1"})
    assert ask.status_code == 409
    text = html.unescape(ask.content.decode())
    assert "Aucune donne n'est saisie dans cette manche : publier la manche quand même ?" in text
    assert "Personne ne marquera de point pour cette manche." in text
    rnd.refresh_from_db()
    assert not rnd.released


def test_the_page_asks_then_publishes(rnd, client):
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    client.force_login(organizer)
    url = f"/t/{rnd.tournament.slug}/rounds/1/release/"
    ask = client.post(url, {"released": "1"})
    assert ask.status_code == 409
    text = ask.content.decode()
    assert "3 parties ne sont pas terminées : publier la manche quand même ?" in text
    assert 'name="confirm_unfinished" value="1"' in text and "confirm_unfinished" not in text.split("<h2>")[1][:200]
    rnd.refresh_from_db()
    assert not rnd.released
    done = client.post(url, {"released": "1", "confirm_unfinished": "1"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.released
    ask = client.post(f"/t/{rnd.tournament.slug}/rounds/1/status/", {"status": "finished"})
    assert "3 parties ne sont pas terminées : terminer la manche quand même ?" in ask.content.decode()


def test_the_api_answers_409_with_a_code(rnd, api_client):
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    api_client.force_authenticate(organizer)
    url = f"/api/rounds/{rnd.pk}/release/"
    refused = api_client.post(url, {"released": True}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"] == "matches_unfinished" and refused.json()["field"] == "confirm_unfinished"
    done = api_client.post(url, {"released": True, "confirm_unfinished": True}, format="json")
    assert done.status_code == 200 and done.json()["released"] is True


def test_a_table_with_no_deal_reads_in_the_singular(client):
    """French counts 0 in the singular: « Table 2 : 0 donne sur 3 » (a walk read « 0 donnes sur 3 »: the plural
    French messages had no French entry, so the English rule, 0 in the plural, applied)."""
    rnd, (one, _two, _forfeit) = _tarot_round(deals_per_round=3)
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    _deals(one, 3, organizer)
    client.force_login(organizer)
    ask = client.post(f"/t/{rnd.tournament.slug}/rounds/1/status/", {"status": "finished"})
    text = html.unescape(ask.content.decode())
    assert "Table 2 : 0 donne sur 3" in text and "0 donnes" not in text
