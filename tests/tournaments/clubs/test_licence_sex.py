"""The « sexe » (M/F) or « civilité » (M./Mme) of the federation's licence file: read into the register with the
report of what changed; the « dames » category of a championship reads it, falling back on the licence's
category when the file gave none; a personal datum (GDPR): the staff's only, never on a public page or endpoint."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import championship as pure
from tests.integration.builders import downloaded
from tests.tournaments.seasons.builders import season_of_three
from tournaments.clubs.models import ClubRole, Grouping, Licence
from tournaments.event import register
from tournaments.seasons import championships

from ..factories import ClubFactory, ClubRoleFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 26)


def test_the_sexe_column_is_read_with_its_report():
    Licence.objects.create(number="2900001", last_name="MORVAN", first_name="Maïwenn")
    text = ("N° licence;Nom;Prénom;Sexe;Validité\r\n"
            "2900001;MORVAN;Maïwenn;F;31/08/2027\r\n"   # known, sex given now: reported (— → F)
            "2900002;KERBRAT;Yann;M;31/08/2027\r\n"     # new with its sex: reported
            "2900003;ROPARS;Anne;;31/08/2027\r\n"       # new, no sex: nothing to report
            "2900004;CALVEZ;Loïc;X;31/08/2027\r\n")     # unreadable: refused with its line and column
    report = register.licences_import(text=text.encode("cp1252"), today=TODAY)
    assert [(r["licence"], r["before"], r["sex"]) for r in report.sex_changed] == [
        ("2900001", "", "F"), ("2900002", "", "M")]
    assert [(e["line"], e["field"]) for e in report.errors] == [(5, "sexe")]
    assert "« X » n'est ni un sexe ni une civilité" in report.errors[0]["message"]
    assert dict(Licence.objects.values_list("number", "sex")) == {"2900001": "F", "2900002": "M", "2900003": ""}
    assert report.summary().endswith(" Sexe renseigné ou changé : 2.")


@pytest.mark.parametrize(("header", "cells", "expected"), [
    ("Civilité", ("Mme", "M.", "Mlle", "Madame", "Monsieur"), ("F", "M", "F", "F", "M")),
    ("Sexe", ("F", "H", "Féminin", "masculin", "f"), ("F", "M", "F", "M", "F")),
    ("Genre", ("Femme", "Homme", "F", "M", ""), ("F", "M", "F", "M", "")),
])
def test_the_civilite_and_other_spellings(header, cells, expected):
    lines = "".join(f"29000{i};NOM{i};Prénom;{cell}\n" for i, cell in enumerate(cells))
    report = register.licences_import(text=f"licence;nom;prénom;{header}\n{lines}", today=TODAY)
    assert report.errors == [] and report.ignored == []
    assert [Licence.objects.get(number=f"29000{i}").sex for i in range(len(cells))] == list(expected)


def test_a_file_without_the_column_keeps_the_sex_known_and_says_nothing_of_it():
    Licence.objects.create(number="2900001", last_name="MORVAN", first_name="Maïwenn", sex="F")
    report = register.licences_import(text="licence;nom;prénom\n2900001;MORVAN;Maïwenn\n", today=TODAY)
    assert Licence.objects.get(number="2900001").sex == "F"
    assert report.sex_changed == [] and "Sexe" not in report.summary()
    # a later file says otherwise: changed and reported (F → M)
    report = register.licences_import(text="licence;nom;sexe\n2900001;MORVAN;M\n", today=TODAY)
    assert [(r["before"], r["sex"]) for r in report.sex_changed] == [("F", "M")]


def test_dames_reads_the_sex_and_falls_back_on_the_category():
    """season_of_three (points 10, 6, 4, 2, best 2, minimum 2): Chloé 16 (1st), Bruno 14, Ana 12, David 10,
    Émile 6. The licences' categories: Ana and Chloé « Dames ». The file now says Ana is « M » (the category
    was wrong) and Émile (série 3) « F »; Chloé has no sex in the file: her category counts. Dames: Chloé 16
    (1st), Émile 6 (2nd); Ana is not one."""
    s = season_of_three()
    Licence.objects.filter(number="L-Ana").update(sex="M")
    Licence.objects.filter(number="L-Émile").update(sex="F")
    snap = championships.snapshot_ranking(championships.latest_snapshot(s["championship"].pk))
    cats = {c.code: c for c in championships.categories(s["championship"], [p.pk for p in s["players"].values()])}
    names = {p.pk: n for n, p in s["players"].items()}
    assert [(ln.rank, names[ln.entry]) for ln in pure.category_lines(snap, cats["dames"].members)] == [
        (1, "Chloé"), (2, "Émile")]
    # the séries do not read the sex: Émile stays in série 3
    assert [names[p] for p in cats["serie-3"].members] == ["Émile"]


def test_the_sex_is_for_the_staff_only(client):
    s = season_of_three()
    Licence.objects.filter(number="L-Chloé").update(sex="F")
    club = s["club"]
    organizer = ClubRoleFactory(club=club, user=UserFactory(username="orga-sexe")).user
    arbiter = ClubRoleFactory(club=club, user=UserFactory(username="arbitre-sexe"), role=ClubRole.Role.ARBITER).user
    other = ClubRoleFactory(club=ClubFactory(name="Issy"), user=UserFactory(username="issy-sexe")).user
    reader = UserFactory(username="comite-sexe")
    comite = Grouping.objects.create(name="Hauts-de-Seine")
    comite.viewers.add(reader)
    club.grouping = comite
    club.save()
    staff_page = reverse("club", args=[club.slug])
    for user in (organizer, arbiter):
        c = Client()
        c.force_login(user)
        html = c.get(staff_page).content.decode()
        assert "<th class=\"wide-only\">Sexe</th>" in html
    c = Client()
    c.force_login(reader)  # a comité's viewer: names only
    html = c.get(staff_page).content.decode()
    assert "Sexe" not in html and "Chloé" in html
    c.force_login(other)
    assert c.get(staff_page).status_code == 404
    # the public pages and endpoints never say it
    champ = s["championship"]
    public = [reverse("public-club", args=[club.slug]), f"/saisons/{s['season'].slug}/{champ.slug}/?categorie=dames",
              f"/joueurs/{s['players']['Chloé'].pk}/"]
    for url in public:
        response = Client().get(url)
        assert response.status_code == 200, url
        assert "Sexe" not in response.content.decode() and "sexe" not in response.content.decode()
    api = APIClient()
    for url in (f"/api/championships/{champ.pk}/ranking/?categorie=dames",
                f"/api/people/{s['players']['Chloé'].pk}/history/", f"/api/seasons/{s['season'].pk}/export/",
                f"/api/clubs/{club.pk}/members/"):
        response = downloaded(api.get, url)  # the season's export: a kept file
        assert response.status_code in (200, 401, 403, 404), url
        assert '"sex"' not in response.content.decode() and '"sexe"' not in response.content.decode(), url


def test_the_import_page_reports_the_sex(client, django_user_model):
    from django.contrib.auth.models import Permission
    from django.core.files.uploadedfile import SimpleUploadedFile

    user = django_user_model.objects.create_user("federation", password="x")
    user.user_permissions.add(Permission.objects.get(codename="change_licence"))
    client.force_login(user)
    PlayerFactory(name="Marie-Bernadette Delacroix-Montfort", licence="9200001")
    data = "licence;nom;prénom;civilité\n9200001;DELACROIX-MONTFORT;Marie-Bernadette;Mme\n".encode()
    response = client.post(reverse("licences_import"), {
        "file": SimpleUploadedFile("licences.csv", data, content_type="text/csv"), "confirm": "on"})
    html = response.content.decode()
    assert "1 sexe renseigné ou changé" in html and "9200001 Marie-Bernadette DELACROIX-MONTFORT : — → F" in html
