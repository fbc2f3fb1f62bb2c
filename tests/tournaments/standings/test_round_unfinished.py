"""A round of a game played in matches is not ended nor published with matches still in play unless the
organizer confirms it (issue 20: a Triomphe round was published with every match unfinished, everyone 0)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.common.errors import StateConflict
from tournaments.deals.models import Forfeit
from tournaments.event.models import Round, Table
from tournaments.event.setup import round_release, round_unfinished
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


def test_a_game_of_deals_has_no_match_to_finish(tarot_table):
    round_release(round=tarot_table.round)
    assert tarot_table.round.released


def test_the_page_asks_then_publishes(rnd, client):
    organizer = UserFactory(username="orga")
    role(rnd.tournament, organizer, "organizer")
    client.force_login(organizer)
    url = f"/t/{rnd.tournament.slug}/rounds/1/release/"
    ask = client.post(url, {"released": "1"})
    assert ask.status_code == 409
    text = ask.content.decode()
    assert "3 parties ne sont pas terminées : les publier quand même ?" in text
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
