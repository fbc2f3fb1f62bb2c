"""Two clubs' organizers: each manages his club's tournaments only, on every page and endpoint; a comité's viewer
reads its clubs' results, never writes; a club's arbiter can be given a role in another club's tournament."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from tournaments.clubs import permissions as clubs
from tournaments.clubs.models import ClubRole, Grouping
from tournaments.event import permissions
from tournaments.event.models import Tournament, TournamentRole
from tournaments.event.setup import creation_club, role_assign

from ..factories import ClubFactory, ClubRoleFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs():
    """Club A and club B, each with its organizer, a private tournament in progress and a member."""
    a, b = ClubFactory(name="Tarot Club Lyon"), ClubFactory(name="Les Excuses de Brest")
    alice = ClubRoleFactory(club=a, user=UserFactory(username="alice")).user
    bruno = ClubRoleFactory(club=b, user=UserFactory(username="bruno")).user
    ta = TournamentFactory(club=a, is_public=False, name="Open de Lyon")
    tb = TournamentFactory(club=b, is_public=False, name="Coupe de Brest")
    EntryFactory(tournament=ta, player=PlayerFactory(name="Anne Lyonnaise", home_club=a))
    EntryFactory(tournament=tb, player=PlayerFactory(name="Bernard Brestois", home_club=b))
    return {"a": a, "b": b, "alice": alice, "bruno": bruno, "ta": ta, "tb": tb}


def test_a_clubs_organizer_is_organizer_of_each_of_its_tournaments_and_no_other(two_clubs):
    alice, ta, tb = two_clubs["alice"], two_clubs["ta"], two_clubs["tb"]
    assert permissions.roles_of(alice, ta) == {TournamentRole.Role.ORGANIZER, permissions.READER}
    assert permissions.roles_of(alice, tb) == frozenset()
    assert permissions.can_manage(alice, ta) and not permissions.can_manage(alice, tb)
    assert not permissions.can_view_tournament(alice, tb)  # private: not even seen
    assert list(permissions.visible_tournaments(alice)) == [ta]
    assert list(permissions.visible_players(alice).values_list("name", flat=True)) == ["Anne Lyonnaise"]
    assert list(permissions.visible_players(two_clubs["bruno"]).values_list("name", flat=True)) == [
        "Bernard Brestois"]


def test_a_player_created_for_another_club_is_not_listed_even_before_his_first_tournament(two_clubs):
    PlayerFactory(name="Nouveau Brestois", home_club=two_clubs["b"])
    PlayerFactory(name="Sans Club")
    names = set(permissions.visible_players(two_clubs["alice"]).values_list("name", flat=True))
    assert names == {"Anne Lyonnaise", "Sans Club"}


def _tournament_pages() -> list[str]:
    """Every page of the organizer's and the chief arbiter's that names a tournament by its slug alone."""
    names = []
    for module in ("tournaments.organizer.urls", "tournaments.desk.urls"):
        for pattern in get_resolver(module).url_patterns:
            if isinstance(pattern, URLPattern) and set(pattern.pattern.converters) == {"slug"}:
                names.append(pattern.name)
    return names


PAGES = _tournament_pages()


def test_the_pages_listed_are_the_tournaments_pages():
    assert {"tournament_detail", "players", "staff", "arrivals", "table_links", "chief_page"} <= set(PAGES)


@pytest.mark.parametrize("name", PAGES)
def test_every_tournament_page_is_closed_to_the_other_clubs_organizer(two_clubs, name):
    own, other = Client(), Client()
    own.force_login(two_clubs["alice"])
    other.force_login(two_clubs["bruno"])
    url = reverse(name, kwargs={"slug": two_clubs["ta"].slug})
    assert own.get(url).status_code in (200, 302, 405), url
    assert other.get(url).status_code in (403, 404, 405), url
    assert other.post(url, {}).status_code in (403, 404, 405), url


def test_the_other_clubs_organizer_cannot_touch_a_tournament_through_the_api(two_clubs):
    from rest_framework.test import APIClient

    ta = two_clubs["ta"]
    api = APIClient()
    api.force_authenticate(two_clubs["bruno"])
    assert [t["id"] for t in api.get("/api/tournaments/").json()["results"]] == [two_clubs["tb"].pk]
    assert api.get(f"/api/tournaments/{ta.pk}/").status_code == 404
    assert api.patch(f"/api/tournaments/{ta.pk}/", {"name": "Volé"}, format="json").status_code == 404
    assert api.get(f"/api/tournaments/{ta.pk}/registrations/").status_code == 404
    assert api.get("/api/players/").json()["results"][0]["name"] == "Bernard Brestois"
    assert Tournament.objects.get(pk=ta.pk).name == "Open de Lyon"
    api.force_authenticate(two_clubs["alice"])
    assert api.patch(f"/api/tournaments/{ta.pk}/", {"name": "Open de Lyon 2026"}, format="json").status_code == 200


def test_a_new_tournament_asks_which_of_his_clubs(two_clubs, client):
    alice, a, b = two_clubs["alice"], two_clubs["a"], two_clubs["b"]
    assert creation_club(alice, None) == a  # his only club
    with pytest.raises(Exception, match="Vous n'organisez pas ce club"):
        creation_club(alice, b.pk)
    second = ClubFactory(name="Tarot Club Villeurbanne")
    ClubRoleFactory(club=second, user=alice)
    clubs.forget_club_roles(alice)
    with pytest.raises(Exception, match="Choisissez le club"):
        creation_club(alice, None)
    client.force_login(alice)
    page = client.get(reverse("tournament_create")).content.decode()
    assert "Club organisateur" in page and "Villeurbanne" in page and "Brest" not in page
    answer = client.post(reverse("tournament_create"), {"name": "Open de Villeurbanne", "game": "tarot",
                                                        "format": "individual", "rounds_planned": 3,
                                                        "club": second.pk})
    assert answer.status_code == 302
    assert Tournament.objects.get(name="Open de Villeurbanne").club == second
    answer = client.post(reverse("tournament_create"), {"name": "Intrus", "game": "tarot", "format": "individual",
                                                        "rounds_planned": 3, "club": b.pk})
    assert answer.status_code == 200 and not Tournament.objects.filter(name="Intrus").exists()


def test_the_api_creates_a_tournament_in_the_organizers_club_only(two_clubs):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(two_clubs["alice"])
    made = api.post("/api/tournaments/", {"name": "Open API", "game": "tarot"}, format="json")
    assert made.status_code == 201 and made.json()["club"] == two_clubs["a"].pk
    refused = api.post("/api/tournaments/", {"name": "Intrus", "game": "tarot", "club": two_clubs["b"].pk},
                       format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "club"


def test_a_clubs_arbiter_can_arbitrate_another_clubs_tournament(two_clubs):
    """Inter-club events: club B's arbiter is given a role in club A's tournament, and only there."""
    carole = ClubRoleFactory(club=two_clubs["b"], user=UserFactory(username="carole"),
                             role=ClubRole.Role.ARBITER).user
    ta, tb = two_clubs["ta"], two_clubs["tb"]
    assert not permissions.is_staff_of(carole, tb)  # a club's arbiter has no role until he is given one
    role_assign(tournament=ta, user=carole, role=TournamentRole.Role.CHIEF_ARBITER)
    assert permissions.can_referee(carole, ta)
    assert not permissions.can_manage(carole, ta)
    assert not permissions.is_staff_of(carole, tb)


def test_a_comites_viewer_reads_its_clubs_results_and_writes_nothing(two_clubs):
    ligue = Grouping.objects.create(name="Bretagne", kind=Grouping.Kind.LIGUE)
    comite = Grouping.objects.create(name="Finistère", parent=ligue)
    b = two_clubs["b"]
    b.grouping = comite
    b.save()
    tb = two_clubs["tb"]
    dora, erwan = UserFactory(username="dora"), UserFactory(username="erwan")
    comite.viewers.add(dora)
    ligue.viewers.add(erwan)
    for reader in (dora, erwan):
        assert permissions.roles_of(reader, tb) == {permissions.READER}
        assert permissions.can_view_tournament(reader, tb)  # private, read by its comité and its ligue
        assert not permissions.can_manage(reader, tb) and not permissions.is_staff_of(reader, tb)
        assert not permissions.can_see_licences(reader, tb)
        assert not permissions.can_view_tournament(reader, two_clubs["ta"])  # another comité's club
        assert list(permissions.visible_tournaments(reader)) == [tb]
        assert clubs.reads_club_results(reader, b) and not clubs.reads_club_results(reader, two_clubs["a"])
    tb.status = Tournament.Status.DRAFT
    tb.save()
    assert not permissions.can_view_tournament(dora, tb)  # a draft is its staff's only


def test_the_helpers_for_models_owned_by_a_club(two_clubs):
    """managed_q / readable_q filter any model with a club (seasons reuse them): here, tournaments."""
    alice = two_clubs["alice"]
    assert list(Tournament.objects.filter(clubs.managed_q(alice, "club"))) == [two_clubs["ta"]]
    assert list(Tournament.objects.filter(clubs.readable_q(alice, "club"))) == [two_clubs["ta"]]
    assert not Tournament.objects.filter(clubs.readable_q(None, "club")).exists()


def test_a_clubs_organizer_gives_another_clubs_arbiter_a_role_on_the_staff_page(two_clubs):
    """Inter-club event through the page: Alice (club A) names Carole, club B's arbiter, chief arbiter of her
    tournament; Bruno (club B's organizer) cannot do the same in Alice's tournament."""
    carole = ClubRoleFactory(club=two_clubs["b"], user=UserFactory(username="carole"),
                             role=ClubRole.Role.ARBITER).user
    ta = two_clubs["ta"]
    url = reverse("staff", kwargs={"slug": ta.slug})
    refused = Client()
    refused.force_login(two_clubs["bruno"])
    assert refused.post(url, {"user": two_clubs["bruno"].pk, "role": "chief_arbiter"}).status_code in (403, 404)
    own = Client()
    own.force_login(two_clubs["alice"])
    assert own.post(url, {"user": carole.pk, "role": "chief_arbiter"}).status_code == 302  # tapped, not typed
    assert permissions.can_referee(carole, ta) and not permissions.can_referee(two_clubs["bruno"], ta)


def test_a_player_removed_from_a_clubs_tournament_stays_with_that_club_only(two_clubs):
    """The walk found it: a player registered in club B's tournament, then removed (his licence unknown to the
    register, so no home club), was listed with his licence to club A's organizer as « registered nowhere yet ».
    « Nowhere yet » is a player never registered anywhere; one removed stays with the tournaments that held him."""
    from tournaments.event.players import entry_remove

    removed = PlayerFactory(name="Sophie Martin", licence="7700123")
    entry = EntryFactory(tournament=two_clubs["tb"], player=removed)
    entry_remove(entry=entry, user=two_clubs["bruno"], reason="inscrite par erreur")
    assert not removed.entries.exists()
    assert "Sophie Martin" not in set(permissions.visible_players(two_clubs["alice"]).values_list("name", flat=True))
    assert "Sophie Martin" in set(permissions.visible_players(two_clubs["bruno"]).values_list("name", flat=True))
    api = Client()
    api.force_login(two_clubs["alice"])
    assert "7700123" not in api.get("/api/players/").content.decode()
