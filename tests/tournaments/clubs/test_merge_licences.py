"""Merging two records that each hold a licence: a player holds one licence (``Player.licence``), and the register
refuses one licence for two players; a merge that would keep one licence and drop the other is refused, naming
both licences and what to do (the federation says which is right; the other is taken off its record; merge then).
Nothing is changed by a refusal. Two records with the same licence, or one without, merge as before."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.integration.builders import make_tournament
from tests.tournaments.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory, role
from tournaments.common.errors import StateConflict
from tournaments.event import players as service
from tournaments.event import register
from tournaments.event.models import Entry, Player

pytestmark = pytest.mark.django_db

BORN = dt.date(1961, 4, 9)
LONG = "Marie-Bernadette Delacroix-Montfort"


def _two_records():
    here = PlayerFactory(name=LONG, licence="9200123", birth_date=BORN, club="Vanves")
    there = PlayerFactory(name=LONG, licence="7800456", birth_date=BORN, club="Versailles")
    e1 = EntryFactory(tournament=TournamentFactory(), player=here)
    e2 = EntryFactory(tournament=TournamentFactory(), player=there)
    return here, there, e1, e2


def test_two_licences_are_not_merged_into_one_and_the_refusal_names_both():
    here, there, e1, e2 = _two_records()
    with pytest.raises(StateConflict) as caught:
        register.players_records_merge(kept=here, duplicate=there)
    message = caught.value.message
    assert caught.value.code == "merge_two_licences" and caught.value.field == "other"
    assert "9200123" in message and "7800456" in message
    assert "fédération" in message and "N° de licence" in message
    # nothing changed: both records, both licences, both entries where they were
    assert Player.objects.get(pk=here.pk).licence == "9200123"
    assert Player.objects.get(pk=there.pk).licence == "7800456"
    assert Entry.objects.get(pk=e2.pk).player_id == there.pk and Entry.objects.get(pk=e1.pk).player_id == here.pk


def test_once_one_licence_is_taken_off_the_merge_keeps_the_other():
    here, there, _e1, e2 = _two_records()
    service.player_update(player=there, name=there.name, club=there.club, licence="",
                          reason="licence 7800456 annulée par la fédération")
    kept = register.players_records_merge(kept=here, duplicate=Player.objects.get(pk=there.pk))
    assert kept.licence == "9200123" and Entry.objects.get(pk=e2.pk).player_id == here.pk
    # the other way round: the kept record without a licence takes the duplicate's
    a = PlayerFactory(name="Zoé", licence="", birth_date=BORN)
    b = PlayerFactory(name="Zoé", licence="9200999", birth_date=BORN)
    assert register.players_records_merge(kept=a, duplicate=b).licence == "9200999"


def test_the_same_licence_on_both_is_no_conflict():
    a = PlayerFactory(name="Zoé", licence="", birth_date=BORN)
    b = PlayerFactory(name="Zoé", licence="9200999", birth_date=BORN)
    a.licence = "9200999"  # in memory only: the database holds a licence once (player_licence_unique)
    service._licences_clash(a, b)  # no refusal


def test_merging_two_entries_of_one_tournament_with_two_licences_is_refused():
    t, e = make_tournament(["Anne", "Anne Bis"], slug="two-lic")
    Player.objects.filter(pk=e["Anne"].player_id).update(licence="9200001")
    Player.objects.filter(pk=e["Anne Bis"].player_id).update(licence="9200002")
    with pytest.raises(StateConflict) as caught:
        service.players_merge(kept=Entry.objects.get(pk=e["Anne"].pk), duplicate=Entry.objects.get(pk=e["Anne Bis"].pk))
    assert caught.value.code == "merge_two_licences"
    assert set(Player.objects.filter(entries__tournament=t).values_list("licence", flat=True)) == {"9200001",
                                                                                                   "9200002"}


def test_the_page_says_both_licences_and_what_to_do(client):
    _here, there, e1, e2 = _two_records()
    organizer = UserFactory(username="orga-merge")
    role(e1.tournament, organizer, "organizer")
    role(e2.tournament, organizer, "organizer")  # he sees both records
    client.force_login(organizer)
    page = client.get(reverse("player_edit", args=[e1.tournament.slug, e1.pk])).content.decode()
    assert "7800456" in page  # offered as a likely duplicate (same name, same birth date)
    response = client.post(reverse("records_merge", args=[e1.tournament.slug, e1.pk]),
                           {"other": there.pk, "keep": "this", "reason": "même personne"})
    html = response.content.decode().replace("&#x27;", "'").replace("&nbsp;", " ")
    assert response.status_code == 409
    assert "licence 9200123" in html and "licence 7800456" in html and "une seule licence" in html
    assert Player.objects.filter(pk=there.pk, licence="7800456").exists()


@pytest.mark.django_db(transaction=True)
def test_the_entry_merge_runs_in_its_own_transaction():
    """Outside any transaction (as a page calls it), the merge still locks its rows: it is atomic itself."""
    t, e = make_tournament(["Anne", "Anne Bis"], slug="atomic-merge")
    Player.objects.filter(pk=e["Anne Bis"].player_id).update(licence="")
    kept = service.players_merge(kept=Entry.objects.get(pk=e["Anne"].pk),
                                 duplicate=Entry.objects.get(pk=e["Anne Bis"].pk))
    assert kept.pk == e["Anne"].pk and t.entries.count() == 1
