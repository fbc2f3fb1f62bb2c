"""The staff page names a person by a tap among those the organizer may name — the club's staff, those already in
the tournament, other clubs' arbiters (inter-club events) — never by a typed user name; a table arbiter's tables
are tapped too. Another club's organizer and members are not offered; a forged choice is refused naming the
field; another club's organizer cannot open the page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tournaments.clubs.models import ClubRole
from tournaments.event import permissions, staff_choice
from tournaments.event.models import TournamentRole

from ..factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

LONG = "Marie-Bernadette Delacroix-Montfort"


@pytest.fixture
def world():
    a, b = ClubFactory(name="Tarot Club de Vanves"), ClubFactory(name="Les Excuses d'Issy")
    alice = ClubRoleFactory(club=a, user=UserFactory(username="alice")).user
    first, last = LONG.split(" ", 1)
    marie = ClubRoleFactory(club=a, user=UserFactory(username="mbdm", first_name=first, last_name=last),
                            role=ClubRole.Role.ARBITER).user
    carole = ClubRoleFactory(club=b, user=UserFactory(username="carole", first_name="Carole",
                                                      last_name="Issoise"), role=ClubRole.Role.ARBITER).user
    bruno = ClubRoleFactory(club=b, user=UserFactory(username="bruno", first_name="Bruno")).user  # b's organizer
    gone = ClubRoleFactory(club=a, user=UserFactory(username="parti", first_name="Parti", is_active=False),
                           role=ClubRole.Role.ARBITER).user
    stranger = UserFactory(username="inconnu", first_name="Inconnu")  # no club, no role
    t, e = make_tournament("ABCDEFGH", slug="vanves-open")
    t.club = a
    t.save()
    PlayerFactory(name="Membre d'Issy", home_club=b)
    return {"a": a, "b": b, "alice": alice, "marie": marie, "carole": carole, "bruno": bruno, "gone": gone,
            "stranger": stranger, "t": t, "e": e}


def _names(groups):
    return {g.code: [c.name for c in g.people] for g in groups}


def test_the_candidates_are_the_clubs_staff_then_other_clubs_arbiters(world):
    groups = staff_choice.staff_candidates(world["t"], world["alice"])
    assert _names(groups) == {"club": ["alice", LONG], "other": ["Carole Issoise"]}
    club = next(g for g in groups if g.code == "club")
    assert next(c.detail for c in club.people if c.name == LONG) == "arbitre, Tarot Club de Vanves"
    # someone given a role earlier (an account made on the staff page) is offered again, for more tables
    TournamentRole.objects.create(tournament=world["t"], user=world["stranger"], role="arbiter")
    groups = staff_choice.staff_candidates(world["t"], world["alice"])
    assert _names(groups)["tournament"] == ["Inconnu"]


def test_the_page_offers_people_to_tap_and_no_name_to_type(client, world):
    client.force_login(world["alice"])
    html = client.get(reverse("staff", args=[world["t"].slug])).content.decode()
    role_form = html[html.index("Donner un rôle"):html.index("Créer le compte")]
    assert 'name="username"' not in role_form and 'type="text"' not in role_form
    assert f'type="radio" name="user" value="{world["marie"].pk}"' in role_form
    assert LONG in role_form and "Carole Issoise" in role_form
    assert "Bruno" not in role_form and "Membre d&#x27;Issy" not in role_form  # b's organizer, b's member
    assert "Parti" not in role_form and "Inconnu" not in role_form  # an inactive account; a stranger
    assert 'type="search"' not in role_form  # three people: no search needed


def test_the_organizer_taps_an_arbiter_and_his_tables(client, world):
    t, e = world["t"], world["e"]
    one, two = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    client.force_login(world["alice"])
    response = client.post(reverse("staff", args=[t.slug]),
                           {"user": world["marie"].pk, "role": "arbiter", "tables": [two.pk]})
    assert response.status_code == 302
    given = TournamentRole.objects.get(tournament=t, user=world["marie"])
    assert given.role == "arbiter" and list(given.tables.all()) == [two]
    assert permissions.can_enter_deal(world["marie"], two) and not permissions.can_enter_deal(world["marie"], one)
    assert f"Rôle donné à {LONG}" in client.get(response["Location"]).content.decode()
    # inter-club: the other club's arbiter, chief arbiter here
    assert client.post(reverse("staff", args=[t.slug]),
                       {"user": world["carole"].pk, "role": "chief_arbiter"}).status_code == 302
    assert permissions.can_referee(world["carole"], t)


@pytest.mark.parametrize("who", ["bruno", "stranger", "gone"])
def test_a_forged_choice_is_refused_naming_the_field(client, world, who):
    client.force_login(world["alice"])
    response = client.post(reverse("staff", args=[world["t"].slug]), {"user": world[who].pk, "role": "organizer"})
    html = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 200 and "Cette personne n'est pas de celles que vous pouvez nommer ici." in html
    assert not TournamentRole.objects.filter(tournament=world["t"], user=world[who]).exists()


def test_a_table_of_another_tournament_is_refused(client, world):
    other, f = make_tournament("IJKL", slug="ailleurs")
    table, = make_round(other, 1, [[f[x] for x in "IJKL"]])
    e = world["e"]
    make_round(world["t"], 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    client.force_login(world["alice"])
    response = client.post(reverse("staff", args=[world["t"].slug]),
                           {"user": world["marie"].pk, "role": "arbiter", "tables": [table.pk]})
    assert response.status_code == 200 and "tables" in response.context["form"].errors
    assert not TournamentRole.objects.filter(user=world["marie"]).exists()


def test_another_clubs_organizer_cannot_open_or_post(world):
    c = Client()
    c.force_login(world["bruno"])
    url = reverse("staff", args=[world["t"].slug])
    assert c.get(url).status_code in (403, 404)
    assert c.post(url, {"user": world["carole"].pk, "role": "organizer"}).status_code in (403, 404)
    assert not TournamentRole.objects.filter(tournament=world["t"]).exists()


def test_a_long_list_has_a_search(client, world):
    for i in range(9):
        ClubRoleFactory(club=world["a"], user=UserFactory(username=f"arb{i}", first_name=f"Arbitre {i}"),
                        role=ClubRole.Role.ARBITER)
    client.force_login(world["alice"])
    html = client.get(reverse("staff", args=[world["t"].slug])).content.decode()
    assert 'type="search" id="people-search"' in html and "js/people-filter.js" in html
    assert '<label for="people-search">Chercher un nom</label>' in html
