"""Deleting a season or a championship (a confirmation page saying what goes, then the deletion; the API's
DELETE), and a comité's season made and managed on the organizer's pages by the comité's managers. Two clubs'
organizers (and another comité's manager) can neither see nor touch each other's seasons, on the pages or the API.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from tournaments.clubs.models import Club, ClubRole, Grouping
from tournaments.event.models import Tournament
from tournaments.seasons import championships
from tournaments.seasons.models import Championship, ChampionshipSnapshot, Season
from tournaments.standings.models import RankingSnapshot

from .builders import season_of_three

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs(django_user_model):
    s = season_of_three()
    other = Club.objects.create(name="Tarot Club d'Issy", slug="issy")
    mine = django_user_model.objects.create_user("vanves", password="x")
    theirs = django_user_model.objects.create_user("issy", password="x")
    arbiter = django_user_model.objects.create_user("arbitre-vanves", password="x")
    ClubRole.objects.create(club=s["club"], user=mine, role=ClubRole.Role.ORGANIZER)
    ClubRole.objects.create(club=s["club"], user=arbiter, role=ClubRole.Role.ARBITER)
    ClubRole.objects.create(club=other, user=theirs, role=ClubRole.Role.ORGANIZER)
    s["other"] = other
    return s, mine, theirs, arbiter


# -- deleting on the organizer's pages -----------------------------------------------------------------------

def test_deleting_a_championship_asks_first_and_says_what_goes(client, two_clubs):
    s, mine, _theirs, _arbiter = two_clubs
    season, champ = s["season"], s["championship"]
    versions = ChampionshipSnapshot.objects.filter(championship=champ).count()
    assert versions >= 1  # published: the three tournaments each published once
    client.force_login(mine)
    form = client.get(reverse("championship_edit", args=[season.slug, champ.slug])).content.decode()
    url = reverse("championship_delete", args=[season.slug, champ.slug])
    assert f'href="{url}"' in form and "Supprimer ce championnat" in form
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and Championship.objects.filter(pk=champ.pk).exists()  # a GET deletes nothing
    assert "Supprimer le championnat « Challenge du club » ?" in text
    assert f"les classements publiés ({versions} versions)" in text or "le classement publié (1 version)" in text
    assert "Restent : les tournois, leurs résultats et leurs classements" in text
    assert "Annuler, garder" in text
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("season_detail", args=[season.slug])
    assert not Championship.objects.filter(pk=champ.pk).exists()
    assert not ChampionshipSnapshot.objects.filter(championship_id=champ.pk).exists()
    # the tournaments and their own rankings stay
    assert Tournament.objects.filter(club=s["club"]).count() == 3
    assert RankingSnapshot.objects.filter(tournament__in=s["tournaments"]).count() >= 3
    page = client.get(response["Location"]).content.decode()
    assert "Championnat « Challenge du club » supprimé" in page
    assert client.get(reverse("public-championship", args=[season.slug, champ.slug])).status_code == 404


def test_deleting_a_season_takes_its_championships_and_rankings(client, two_clubs):
    s, mine, _theirs, _arbiter = two_clubs
    season, champ = s["season"], s["championship"]
    client.force_login(mine)
    detail = client.get(reverse("season_detail", args=[season.slug])).content.decode()
    url = reverse("season_delete", args=[season.slug])
    assert f'href="{url}"' in detail
    text = client.get(url).content.decode()
    assert "Supprimer la saison « Saison 2025-2026 » ?" in text
    assert "son championnat : « Challenge du club »" in text
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("seasons")
    assert not Season.objects.filter(pk=season.pk).exists()
    assert not Championship.objects.filter(pk=champ.pk).exists()
    assert not ChampionshipSnapshot.objects.filter(championship_id=champ.pk).exists()
    assert Tournament.objects.filter(club=s["club"]).count() == 3
    assert "Saison « Saison 2025-2026 » supprimée, avec 1 championnat(s)" in client.get(
        reverse("seasons")).content.decode()


def test_another_clubs_organizer_cannot_delete(client, two_clubs):
    s, _mine, theirs, arbiter = two_clubs
    season, champ = s["season"], s["championship"]
    for user in (theirs, arbiter):  # another club's organizer; an arbiter of the club (not a manager)
        client.force_login(user)
        for url in (reverse("season_delete", args=[season.slug]),
                    reverse("championship_delete", args=[season.slug, champ.slug])):
            assert client.get(url).status_code == 404
            assert client.post(url).status_code == 404
    client.logout()
    assert client.post(reverse("season_delete", args=[season.slug])).status_code == 302  # to the login page
    assert Season.objects.filter(pk=season.pk).exists() and Championship.objects.filter(pk=champ.pk).exists()


# -- deleting through the API ----------------------------------------------------------------------------------

def test_api_deletes_for_the_managers_only(api_client, two_clubs):
    s, mine, theirs, arbiter = two_clubs
    season, champ = s["season"], s["championship"]
    versions = ChampionshipSnapshot.objects.filter(championship=champ).count()
    assert api_client.delete(f"/api/championships/{champ.pk}/").status_code == 401
    for user in (theirs, arbiter):
        api_client.force_authenticate(user)
        response = api_client.delete(f"/api/championships/{champ.pk}/")
        assert response.status_code == 403 and "gérez" in response.json()["detail"]
        assert api_client.delete(f"/api/seasons/{season.pk}/").status_code == 403
    assert Championship.objects.filter(pk=champ.pk).exists()
    api_client.force_authenticate(mine)
    assert api_client.get(f"/api/championships/{champ.pk}/").json()["tie_breaks"] == ["wins"]
    response = api_client.delete(f"/api/championships/{champ.pk}/")
    assert response.status_code == 200
    assert response.json() == {"deleted": "championship", "id": champ.pk, "championships": 1,
                               "snapshots": versions}
    assert api_client.get(f"/api/championships/{champ.pk}/ranking/").status_code == 404
    response = api_client.delete(f"/api/seasons/{season.pk}/")
    assert response.status_code == 200 and response.json()["championships"] == 0
    assert not Season.objects.filter(pk=season.pk).exists()


def test_api_a_private_season_of_another_club_is_a_404(api_client, two_clubs):
    s, _mine, theirs, _arbiter = two_clubs
    Season.objects.filter(pk=s["season"].pk).update(is_public=False)
    api_client.force_authenticate(theirs)
    assert api_client.get(f"/api/seasons/{s['season'].pk}/").status_code == 404
    assert api_client.delete(f"/api/seasons/{s['season'].pk}/").status_code == 404
    assert api_client.delete(f"/api/championships/{s['championship'].pk}/").status_code == 404
    assert Season.objects.filter(pk=s["season"].pk).exists()


# -- a comité's season ----------------------------------------------------------------------------------------

@pytest.fixture
def comite(two_clubs, django_user_model):
    s, mine, _theirs, _arbiter = two_clubs
    group = Grouping.objects.create(name="Hauts-de-Seine", kind=Grouping.Kind.COMITE)
    far = Grouping.objects.create(name="Yvelines", kind=Grouping.Kind.COMITE)
    Club.objects.filter(pk__in=[s["club"].pk, s["other"].pk]).update(grouping=group)
    outside = Club.objects.create(name="Club de Versailles", slug="versailles", grouping=far)
    Tournament.objects.create(name="Open de Versailles", slug="versailles-1", game="tarot",
                              date=date(2025, 11, 8), club=outside)
    Tournament.objects.create(name="Open d'Issy", slug="issy-1", game="tarot", date=date(2025, 11, 15),
                              club=s["other"])
    boss = django_user_model.objects.create_user("comite92", password="x")
    group.managers.add(boss)
    stranger = django_user_model.objects.create_user("comite78", password="x")
    far.managers.add(stranger)
    return s, group, boss, stranger, mine


def test_a_comites_manager_creates_and_manages_its_season(client, comite, django_capture_on_commit_callbacks):
    s, group, boss, _stranger, _mine = comite
    client.force_login(boss)
    assert 'href="/gestion/saisons/"' in client.get(reverse("home")).content.decode()
    page = client.get(reverse("seasons")).content.decode()
    assert "Comité Hauts-de-Seine" in page and "Nouvelle saison" in page
    response = client.post(reverse("seasons"), {"owner": f"comite-{group.pk}", "name": "Challenge 92",
                                                "starts_on": "2025-09-01", "ends_on": "2026-06-30",
                                                "is_public": "on"})
    season = Season.objects.get(name="Challenge 92")
    assert response.status_code == 302 and season.grouping_id == group.pk and season.club_id is None
    detail = client.get(reverse("season_detail", args=[season.slug])).content.decode()
    assert "Comité Hauts-de-Seine" in detail
    form = client.get(reverse("championship_create", args=[season.slug])).content.decode()
    # its clubs' tournaments count (Vanves's three and Issy's), not another comité's
    assert "Tournoi T1 — 01/10/2025" in form and "Open d&#x27;Issy — 15/11/2025" in form
    assert "Open de Versailles" not in form
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("championship_create", args=[season.slug]), {
            "name": "Coupe du comité", "tournaments": [t.pk for t in s["tournaments"]], "table_kind": "rank",
            "points": "10, 6, 4, 2", "beyond": "0", "bands": "", "best": "", "minimum": "0",
            "tie_break_1": "", "tie_break_2": "", "tie_break_3": "", "categories": []})
    assert response.status_code == 302
    champ = Championship.objects.get(name="Coupe du comité")
    assert championships.latest_snapshot(champ.pk) is not None
    assert client.post(reverse("championship_delete", args=[season.slug, champ.slug])).status_code == 302
    assert client.post(reverse("season_delete", args=[season.slug])).status_code == 302
    assert not Season.objects.filter(pk=season.pk).exists()


def test_a_comites_season_is_not_another_comites_nor_a_clubs(client, comite):
    _s, group, _boss, stranger, mine = comite
    season = Season.objects.create(name="Challenge 92", slug="challenge-92", grouping=group,
                                   starts_on=date(2025, 9, 1), ends_on=date(2026, 6, 30))
    for user in (stranger, mine):  # another comité's manager; an organizer of one of its clubs
        client.force_login(user)
        assert "Challenge 92" not in client.get(reverse("seasons")).content.decode()
        assert client.get(reverse("season_detail", args=[season.slug])).status_code == 404
        assert client.post(reverse("season_delete", args=[season.slug])).status_code == 404
        # nor create one for a comité he does not manage
        response = client.post(reverse("seasons"), {"owner": f"comite-{group.pk}", "name": "Pirate",
                                                    "starts_on": "2025-09-01", "ends_on": "2026-06-30"})
        assert response.status_code in (200, 403) and not Season.objects.filter(name="Pirate").exists()
    assert Season.objects.filter(pk=season.pk).exists()


def test_api_creates_a_comites_season_for_its_managers_only(api_client, comite):
    s, group, boss, stranger, mine = comite
    body = {"name": "Challenge 92", "starts_on": "2025-09-01", "ends_on": "2026-06-30", "grouping": group.pk}
    assert api_client.post("/api/seasons/", body, format="json").status_code == 401
    for user in (stranger, mine):
        api_client.force_authenticate(user)
        response = api_client.post("/api/seasons/", body, format="json")
        assert response.status_code == 403, response.json()
    api_client.force_authenticate(boss)
    response = api_client.post("/api/seasons/", body, format="json")
    assert response.status_code == 201
    assert response.json()["grouping"] == group.pk and response.json()["club"] is None
    # a club's season by its organizer; not both owners; not a club he does not run
    api_client.force_authenticate(mine)
    response = api_client.post("/api/seasons/", {**body, "grouping": None, "club": s["club"].pk}, format="json")
    assert response.status_code == 201
    response = api_client.post("/api/seasons/", {**body, "club": s["club"].pk}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "club"
    response = api_client.post("/api/seasons/", {**body, "grouping": None, "club": s["other"].pk}, format="json")
    assert response.status_code == 403
    response = api_client.post("/api/seasons/", {**body, "grouping": None, "club": s["club"].pk,
                                                 "ends_on": "2025-01-01"}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "ends_on"
