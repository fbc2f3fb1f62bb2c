"""No entry offered where it cannot be saved (a phone walk: the desk's deal form of a finished tournament was shown
whole and refused only once filled, « les donnes se saisissent pendant le tournoi (il est terminé) »; an old table
link still showed « Saisir une donne » for a finished round, and the next page said « Cette manche est finie »).
The pages say at once that the round or the tournament is over, and what is left: a correction by the chief
arbiter from the deal's page, or calling him."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.record import deal_record
from tournaments.event.models import Tournament
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db

OVER = "Le tournoi est terminé : plus aucune donne ne se saisit."


@pytest.fixture
def finished_round(tarot_table, staff):
    """Round 1 with Bruno's garde, finished; its tables enter their own deals through their link."""
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["arbiter"])
    round_set_status(round=tarot_table.round, status="finished")
    tarot_table.round.refresh_from_db()
    return tarot_table


@pytest.fixture
def finished_tournament(finished_round):
    Tournament.objects.filter(pk=finished_round.round.tournament_id).update(status=Tournament.Status.FINISHED)
    finished_round.round.tournament.refresh_from_db()
    return finished_round


@pytest.mark.parametrize("who", ["organizer", "chief"])
def test_the_desk_says_the_tournament_is_over_before_any_form(client, finished_tournament, staff, who):
    table = finished_tournament
    client.force_login(staff[who])
    page = html.unescape(client.get(reverse("table_detail", args=[table.pk])).content.decode())
    assert OVER in page and "« Corriger »" in page
    assert reverse("deal_enter", args=[table.pk]) not in page
    for name in ("deal_play", "deal_enter"):
        answer = client.get(reverse(name, args=[table.pk]), follow=True)
        assert answer.redirect_chain[-1][0] == reverse("table_detail", args=[table.pk]), name
        said = html.unescape(answer.content.decode())
        assert OVER in said and 'id="deal-entry"' not in said


@pytest.mark.parametrize("who", [None, "organizer"])
def test_an_old_table_link_does_not_offer_an_entry_for_a_finished_round(client, finished_round, staff, who):
    table = finished_round
    if who:
        client.force_login(staff[who])
    link = sheet.link_for_table(table=table)
    page = html.unescape(client.get(reverse("link_home", args=[link.token])).content.decode())
    assert "Cette manche est finie" in page and "appelez l’arbitre principal" in page
    assert reverse("link_enter", args=[link.token]) not in page and reverse("deal_enter", args=[table.pk]) not in page


def test_an_old_table_link_says_the_tournament_is_over(client, finished_tournament, staff):
    table = finished_tournament
    client.force_login(staff["organizer"])
    link = sheet.link_for_table(table=table)
    page = html.unescape(client.get(reverse("link_home", args=[link.token])).content.decode())
    assert OVER in page
    assert reverse("link_enter", args=[link.token]) not in page and reverse("deal_enter", args=[table.pk]) not in page
