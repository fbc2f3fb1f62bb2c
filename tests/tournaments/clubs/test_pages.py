"""A club's pages and endpoints: the public sees names and clubs only; the club's staff see its members'
personal data; a comité's viewer reads, names only; another club's organizer sees nothing (404) and touches
nothing (403/404) — on the club's pages, the REST endpoints, and the register's pages of a player."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.clubs.models import ClubRole, Grouping, Licence
from tournaments.event.models import Player, Tournament

from ..factories import ClubFactory, ClubRoleFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    a = ClubFactory(name="Tarot Club Lyon", city="Lyon", federation_number="69001")
    b = ClubFactory(name="Les Excuses de Brest", city="Brest", federation_number="29001")
    alice = ClubRoleFactory(club=a, user=UserFactory(username="alice")).user
    arthur = ClubRoleFactory(club=a, user=UserFactory(username="arthur"), role=ClubRole.Role.ARBITER).user
    bruno = ClubRoleFactory(club=b, user=UserFactory(username="bruno")).user
    comite = Grouping.objects.create(name="Rhône")
    a.grouping = comite
    a.save()
    dora = UserFactory(username="dora")
    comite.viewers.add(dora)
    public = TournamentFactory(club=a, name="Open de Lyon", status=Tournament.Status.FINISHED,
                               date=dt.date(2026, 10, 4))
    upcoming = TournamentFactory(club=a, name="Coupe d'hiver", status=Tournament.Status.OPEN,
                                 date=dt.date(2026, 12, 13))
    private = TournamentFactory(club=a, name="Entraînement du mardi", is_public=False)
    TournamentFactory(club=a, name="Brouillon de printemps", is_public=False, status=Tournament.Status.DRAFT)
    anne = PlayerFactory(name="Anne Morel", licence="6900001", home_club=a, birth_date=dt.date(1980, 2, 3))
    Licence.objects.create(number="6900001", last_name="MOREL", first_name="Anne", category="S2",
                           valid_until=dt.date(2026, 8, 31))
    entry = EntryFactory(tournament=public, player=anne)
    return {"a": a, "b": b, "alice": alice, "arthur": arthur, "bruno": bruno, "dora": dora, "public": public,
            "upcoming": upcoming, "private": private, "anne": anne, "entry": entry}


def _as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_public_page_shows_names_and_tournaments_never_personal_data(world):
    page = _as(None).get(reverse("public-club", args=[world["a"].slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Tarot Club Lyon" in html and "Lyon" in html and "Anne Morel" in html
    assert "Open de Lyon" in html and "Coupe d&#x27;hiver" in html
    assert "Entraînement du mardi" not in html  # a private tournament
    assert "6900001" not in html and "1980" not in html and "S2" not in html
    # the same for a logged-in organizer of the club: the public page stays public
    assert "6900001" not in _as(world["alice"]).get(reverse("public-club", args=[world["a"].slug])).content.decode()
    assert _as(None).get("/c/nulle-part/").status_code == 404


def test_upcoming_and_past_tournaments_are_told_apart(world):
    html = _as(None).get(reverse("public-club", args=[world["a"].slug])).content.decode()
    upcoming, past = html.index("Tournois à venir"), html.index("Tournois passés")
    assert upcoming < html.index("Coupe d&#x27;hiver") < past < html.index("Open de Lyon")


def test_a_running_tournament_is_listed_first_as_running_not_upcoming(world):
    """A walk found the club's tournament being played listed under « Tournois à venir »."""
    TournamentFactory(club=world["a"], name="Grand Prix de la Saône", status=Tournament.Status.RUNNING,
                      date=dt.date(2026, 11, 22))
    html = _as(None).get(reverse("public-club", args=[world["a"].slug])).content.decode()
    running, upcoming, past = (html.index("Tournois en cours"), html.index("Tournois à venir"),
                               html.index("Tournois passés"))
    assert running < html.index("Grand Prix de la Saône") < upcoming < html.index("Coupe d&#x27;hiver") < past
    assert html.count("Grand Prix de la Saône") == 1


def test_the_running_section_is_left_out_when_nothing_is_played(world):
    html = _as(None).get(reverse("public-club", args=[world["a"].slug])).content.decode()
    assert "Tournois en cours" not in html


def test_the_staff_page_tells_running_tournaments_apart_too(world):
    TournamentFactory(club=world["a"], name="Grand Prix de la Saône", status=Tournament.Status.RUNNING)
    html = _as(world["alice"]).get(reverse("club", args=[world["a"].slug])).content.decode()
    running, upcoming = html.index("Tournois en cours"), html.index("Tournois à venir")
    assert running < html.index("Grand Prix de la Saône") < upcoming < html.index("Coupe d&#x27;hiver")
    assert html.count("Grand Prix de la Saône") == 1


@pytest.mark.parametrize("who, status, personal", [
    ("alice", 200, True), ("arthur", 200, True), ("dora", 200, False), ("bruno", 404, False)])
def test_the_staff_page_of_a_club(world, who, status, personal):
    page = _as(world[who]).get(reverse("club", args=[world["a"].slug]))
    assert page.status_code == status
    if status == 200:
        html = page.content.decode()
        assert "Anne Morel" in html
        assert ("6900001" in html) is personal and ("03/02/1980" in html) is personal
        assert ("expirée le 31/08/2026" in html) is personal
        assert "Entraînement du mardi" in html  # private: read by the club's staff and its comité
        assert ("Brouillon de printemps" in html) is (who == "alice")  # a draft: its organizers only
        assert ("lecture seule" in html) is not personal


def test_the_staff_page_asks_an_anonymous_visitor_to_log_in(world):
    answer = _as(None).get(reverse("club", args=[world["a"].slug]))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_my_clubs(world):
    html = _as(world["dora"]).get(reverse("clubs")).content.decode()
    assert "Clubs de mon comité" in html and "Tarot Club Lyon" in html and "Brest" not in html
    html = _as(world["bruno"]).get(reverse("clubs")).content.decode()
    assert "Les Excuses de Brest" in html and "Tarot Club Lyon" not in html


def test_the_api_reads_a_clubs_members_by_role(world):
    api = APIClient()
    a, b = world["a"].pk, world["b"].pk
    assert api.get(f"/api/clubs/{a}/members/").status_code in (401, 403)
    api.force_authenticate(world["alice"])
    assert api.get(f"/api/clubs/{b}/members/").status_code == 404
    members = api.get(f"/api/clubs/{a}/members/").json()
    assert members == [{"id": world["anne"].pk, "name": "Anne Morel", "licence": "6900001",
                        "birth_date": "1980-02-03", "category": "S2", "valid_until": "2026-08-31", "expired": True}]
    api.force_authenticate(world["arthur"])  # the club's arbiter: its staff too
    assert api.get(f"/api/clubs/{a}/members/").json()[0]["licence"] == "6900001"
    api.force_authenticate(world["dora"])  # the comité: names only
    assert api.get(f"/api/clubs/{a}/members/").json() == [{"id": world["anne"].pk, "name": "Anne Morel"}]
    assert api.get(f"/api/clubs/{b}/members/").status_code == 404  # another comité's club
    api.force_authenticate(world["bruno"])
    assert api.get(f"/api/clubs/{a}/members/").status_code == 404
    assert api.get(f"/api/clubs/{b}/members/").json() == []
    assert api.post(f"/api/clubs/{b}/members/", {}).status_code == 405  # read-only


def test_the_register_actions_on_a_player_are_the_tournaments_organizers_only(world):
    slug, entry = world["public"].slug, world["entry"].pk
    for name in ("records_merge", "player_anonymize", "player_edit"):
        url = reverse(name, args=[slug, entry])
        assert _as(world["bruno"]).post(url, {}).status_code == 403, name
        assert _as(world["dora"]).post(url, {}).status_code == 403, name
    assert Player.objects.get(pk=world["anne"].pk).anonymized_at is None
    answer = _as(world["alice"]).post(reverse("player_anonymize", args=[slug, entry]), {"reason": "courriel"})
    assert answer.status_code == 302
    assert Player.objects.get(pk=world["anne"].pk).name.startswith("Joueur anonyme")


def test_the_player_page_offers_a_likely_duplicate_for_merging(world):
    anne = world["anne"]
    twin = PlayerFactory(name="ANNE MOREL", licence="", birth_date=anne.birth_date)
    EntryFactory(tournament=world["upcoming"], player=twin)
    client = _as(world["alice"])
    html = client.get(reverse("player_edit", args=[world["public"].slug, world["entry"].pk])).content.decode()
    assert "Doublon probable" in html and "ANNE MOREL" in html and "Licence 6900001 expirée le 31/08/2026." in html
    answer = client.post(reverse("records_merge", args=[world["public"].slug, world["entry"].pk]),
                         {"other": twin.pk, "keep": "this", "reason": "même personne"})
    assert answer.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert set(anne.entries.values_list("tournament__name", flat=True)) == {"Open de Lyon", "Coupe d'hiver"}


def test_registration_flags_an_expired_licence_and_refuses_a_taken_one(world):
    client = _as(world["alice"])
    url = reverse("players", args=[world["upcoming"].slug])
    answer = client.post(url, {"action": "add", "name": "Anne Morel", "licence": "6900001"}, follow=True)
    assert "Licence 6900001 expirée le 31/08/2026." in answer.content.decode()
    assert "Inscription d&#x27;Anne Morel enregistrée." in answer.content.decode()  # (a walk: « de Anne »)
    assert "licence expirée" in client.get(url).content.decode()
    answer = client.post(url, {"action": "add", "name": "Paul Martin", "licence": "6900001"})
    assert answer.status_code == 200 and "La licence 6900001 est celle d&#x27;Anne Morel" in answer.content.decode()
    assert not Player.objects.filter(name="Paul Martin").exists()


def test_check_in_shows_an_expired_licence(world):
    EntryFactory(tournament=world["upcoming"], player=world["anne"])
    html = _as(world["alice"]).get(reverse("arrivals", args=[world["upcoming"].slug])).content.decode()
    assert "Licence 6900001 expirée le 31/08/2026." in html


def test_the_licence_file_page_is_the_federations_staff_only(world):
    url = reverse("licences_import")
    assert _as(world["alice"]).get(url).status_code == 403
    clerk = UserFactory(username="federation")
    clerk.user_permissions.add(Permission.objects.get(codename="change_licence"))
    client = _as(clerk)
    assert client.get(url).status_code == 200
    data = "licence;nom;prénom;club;validité\n6900002;MARTIN;Paul;Tarot Club Lyon;31/08/2027\n".encode("cp1252")
    html = client.post(url, {"file": SimpleUploadedFile("l.csv", data)}).content.decode()
    assert "(rien n'est encore enregistré)" in html.replace("&#x27;", "'") and "licences ajoutées : 1" in html
    assert not Licence.objects.filter(number="6900002").exists()
    saved = client.post(url, {"file": SimpleUploadedFile("l.csv", data), "confirm": "on"})
    assert Licence.objects.get(number="6900002").club == world["a"]
    # the walk of issue 23: after saving, « Enregistrer les changements » stayed ticked and the next file chosen
    # would have been saved without its report read first
    assert not saved.context["form"]["confirm"].value()
    assert 'name="confirm"' in saved.content.decode() and " checked" not in saved.content.decode().split(
        'name="confirm"')[1].split(">")[0]


def test_a_refusal_outside_a_tournament_does_not_speak_of_a_tournament(client, world):
    """The walk of issue 23: a club's organizer opening the licence file's import (the federation's) read « Votre
    compte ne peut pas faire cela dans ce tournoi » on a page of no tournament."""
    client.force_login(world["alice"])
    page = client.get(reverse("licences_import"))
    text = page.content.decode()
    assert page.status_code == 403 and "Action non autorisée" in text
    assert "dans ce tournoi" not in text
    assert "Votre compte ne peut pas ouvrir cette page. Demandez ce droit à votre club ou à votre fédération" in text
    # within a tournament, the tournament's words stay
    other = TournamentFactory(club=world["b"], is_public=True)
    assert "dans ce tournoi" in client.get(reverse("players", args=[other.slug])).content.decode()
