"""A table that has entered the round's deals offers no more entry (a phone walk: after 3 deals of 3, the table
page still showed « Saisir une donne » with « 0 donne à jouer », and « Donne suivante » opened a « Donne 4 » that
the save then refused). An annulled deal leaves its place; a double tap on the last save still gets its deal."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import tap_save, tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def full(tarot_table, staff):
    tournament = tarot_table.round.tournament
    tournament.deals_per_round = 2
    tournament.save()
    for dealer in (0, 1):
        deal_record(table=tarot_table, record=tarot_summary(dealer=dealer), user=staff["arbiter"])
    return tarot_table


def test_the_table_page_says_the_round_is_entered(client, full, staff):
    client.force_login(staff["arbiter"])
    page = html.unescape(client.get(reverse("table_detail", args=[full.pk])).content.decode())
    assert 'id="table-full"' in page and "Les 2 donnes de la manche sont saisies" in page
    assert reverse("deal_enter", args=[full.pk]) not in page


def test_the_last_deal_has_no_next_deal(client, full, staff):
    client.force_login(staff["arbiter"])
    last = Deal.objects.get(table=full, number=2)
    page = client.get(reverse("deal_detail", args=[last.pk])).content.decode()
    assert reverse("deal_enter", args=[full.pk]) not in page


def test_the_tap_page_sends_back_to_the_table_with_the_reason(client, full, staff):
    client.force_login(staff["chief"])
    response = client.get(reverse("deal_enter", args=[full.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("table_detail", args=[full.pk])
    assert "Les 2 donnes de la manche sont saisies" in html.unescape(response.content.decode())


def test_an_annulled_deal_leaves_its_place(client, full, staff):
    Deal.objects.filter(table=full, number=1).update(status=Deal.Status.ANNULLED)
    client.force_login(staff["arbiter"])
    page = client.get(reverse("table_detail", args=[full.pk])).content.decode()
    assert 'id="table-full"' not in page and reverse("deal_enter", args=[full.pk]) in page
    assert client.get(reverse("deal_enter", args=[full.pk]), follow=True).redirect_chain[-1][0].endswith("/deal/play/")


def test_a_double_tap_on_the_last_save_gets_its_deal(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    tournament.deals_per_round = 1
    tournament.save()
    client.force_login(staff["arbiter"])
    first = tap_save(client, tarot_table, tarot_summary(), key="last-deal-key")
    again = tap_save(client, tarot_table, tarot_summary(), key="last-deal-key")
    assert first.status_code == 201 and again.status_code in (200, 201)
    assert again.json()["url"] == first.json()["url"] and Deal.objects.filter(table=tarot_table).count() == 1


def test_the_tables_link_says_the_round_is_entered_and_offers_no_entry(client, full):
    # a walk: the link's page of a full table read « Les arbitres saisissent les donnes ; confirmez chacune
    # ci-dessous », although the tables entered their own; and a Triomphe table whose partie was over still
    # offered « Saisir une donne »
    from tournaments.links import service as links
    from tournaments.links.models import TablePolicy

    TablePolicy.objects.create(tournament=full.round.tournament, tables_enter=True)
    token = links.link_for_table(table=full).token
    page = html.unescape(client.get(reverse("link_home", args=[token])).content.decode())
    assert 'id="table-full"' in page and "Les 2 donnes de la manche sont saisies" in page
    assert reverse("link_enter", args=[token]) not in page and "Les arbitres saisissent" not in page
    Deal.objects.filter(table=full).update(status=Deal.Status.ANNULLED)
    full.match_ended = True
    full.save(update_fields=["match_ended"])
    page = html.unescape(client.get(reverse("link_home", args=[token])).content.decode())
    assert "La partie de cette table est terminée" in page and reverse("link_enter", args=[token]) not in page
