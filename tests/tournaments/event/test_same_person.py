"""One person across a club's tournaments: registered again by name and club (no licence typed), the register's
record is taken again, so his season's championship has one line for him (a walk: « Marie-Bernadette
Delacroix-Montfort », Tarot Club de Lyon in both tournaments, was 4th ex and 12th of the championship). A same name
that nothing contradicts but nothing confirms (no club on either side) is not taken on a guess: the players' list
flags it as a likely duplicate and the player's page offers to merge the two records."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tests.tournaments.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory, role
from tournaments.event import register
from tournaments.event.models import Entry, Player
from tournaments.event.setup import player_create, player_register, players_import_csv

pytestmark = pytest.mark.django_db

MARIE = "Marie-Bernadette Delacroix-Montfort"
LYON = "Tarot Club de Lyon"


def _organizer(client, *tournaments):
    user = UserFactory(username="orga")
    for t in tournaments:
        role(t, user, "organizer")
    client.force_login(user)
    return user


def _register_on_page(client, tournament, name, club="", licence="", birth_date=""):
    answer = client.post(reverse("players", args=[tournament.slug]),
                         {"action": "add", "name": name, "club": club, "licence": licence, "birth_date": birth_date})
    assert answer.status_code == 302, answer.content.decode()[:2000]


def test_the_same_name_and_club_in_a_second_tournament_is_the_same_player(client):
    first, second = TournamentFactory(status="open"), TournamentFactory(status="open")
    _organizer(client, first, second)
    _register_on_page(client, first, MARIE, LYON)
    _register_on_page(client, second, "marie-bernadette delacroix-montfort", "tarot club de lyon")
    assert Player.objects.count() == 1
    marie = Player.objects.get()
    assert set(Entry.objects.filter(player=marie).values_list("tournament_id", flat=True)) == {first.pk, second.pk}
    assert marie.name == MARIE  # the register's spelling kept


def test_a_licence_typed_the_second_time_goes_on_the_same_record():
    first, second = TournamentFactory(), TournamentFactory()
    marie = player_create(name=MARIE, club=LYON, tournament=first)
    player_register(tournament=first, player=marie)
    again = player_create(name=MARIE, club=LYON, licence="0691234", tournament=second)
    assert again.pk == marie.pk and Player.objects.get(pk=marie.pk).licence == "0691234"


def test_what_contradicts_makes_another_person():
    first, second = TournamentFactory(), TournamentFactory()
    marie = player_create(name=MARIE, club=LYON, birth_date=dt.date(1958, 3, 14), tournament=first)
    player_register(tournament=first, player=marie)
    # another club: a namesake
    assert player_create(name=MARIE, club="Tarot Club Nantais", tournament=second).pk != marie.pk
    # another birth date: a namesake
    assert player_create(name=MARIE, club=LYON, birth_date=dt.date(1990, 1, 1), tournament=second).pk != marie.pk
    # another licence: his own record (two licences are two people)
    marie.licence = "0691234"
    marie.save()
    assert player_create(name=MARIE, club=LYON, licence="0447777", tournament=second).pk != marie.pk


def test_a_namesake_in_the_same_tournament_is_not_merged_into_the_first():
    """Two « Jean Martin » of one club in one tournament: the second registration is a second person, not the
    first one's entry returned."""
    t = TournamentFactory()
    first = player_register(tournament=t, player=player_create(name="Jean Martin", club=LYON, tournament=t))
    second = player_register(tournament=t, player=player_create(name="Jean Martin", club=LYON, tournament=t))
    assert first.pk != second.pk and first.player_id != second.player_id


def test_two_records_that_could_be_one_are_not_merged_on_a_guess():
    """No club on either side: nothing says they are one person, nothing says they are not."""
    first, second = TournamentFactory(), TournamentFactory()
    zoe = player_create(name="Zoé Ä", tournament=first)
    player_register(tournament=first, player=zoe)
    again = player_create(name="Zoé Ä", tournament=second)
    assert again.pk != zoe.pk
    entry = player_register(tournament=second, player=again)
    flags = register.entry_flags([entry])
    assert [f["kind"] for f in flags[entry.pk]] == ["duplicate"] and flags[entry.pk][0]["players"] == [zoe]
    assert register.likely_duplicates(again) == [zoe]


def test_a_namesake_of_another_club_is_not_flagged():
    first, second = TournamentFactory(), TournamentFactory()
    EntryFactory(tournament=first, player=PlayerFactory(name=MARIE, club=LYON, licence=""))
    other = EntryFactory(tournament=second, player=PlayerFactory(name=MARIE, club="Tarot Club Nantais", licence=""))
    assert register.entry_flags([other]) == {}
    assert register.likely_duplicates(other.player) == []


def test_the_players_page_flags_the_likely_duplicate_and_its_page_offers_the_merge(client):
    first, second = TournamentFactory(status="open"), TournamentFactory(status="open")
    _organizer(client, first, second)
    _register_on_page(client, first, "Zoé Ä")
    _register_on_page(client, second, "Zoé Ä")
    page = client.get(reverse("players", args=[second.slug])).content.decode()
    assert "doublon probable" in page
    entry = Entry.objects.get(tournament=second)
    edit = client.get(reverse("player_edit", args=[second.slug, entry.pk])).content.decode()
    other = Player.objects.exclude(pk=entry.player_id).get()
    assert f'value="{other.pk}"' in edit  # the merge form offers the other record


def test_the_club_file_imported_again_takes_the_same_records():
    first, second = TournamentFactory(status="open"), TournamentFactory(status="open")
    text = "Nom;Club\r\nMarie-Bernadette Delacroix-Montfort;Tarot Club de Lyon\r\nBruno Lefèvre;Tarot Club de Lyon\r\n"
    assert players_import_csv(tournament=first, text=text.encode()).ok
    assert players_import_csv(tournament=second, text=text.encode()).ok
    assert Player.objects.count() == 2 and Entry.objects.count() == 4


def test_the_api_registration_by_name_takes_the_same_record(api_client):
    first, second = TournamentFactory(status="open"), TournamentFactory(status="open")
    user = UserFactory(username="orga")
    role(first, user, "organizer")
    role(second, user, "organizer")
    api_client.force_authenticate(user)
    for t in (first, second):
        answer = api_client.post(f"/api/tournaments/{t.pk}/registrations/", {"name": MARIE, "club": LYON},
                                 format="json")
        assert answer.status_code == 201, answer.content
    assert Player.objects.count() == 1
