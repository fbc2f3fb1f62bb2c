"""The organizer's season pages: a club's organizer creates a season and a championship, in French; another
club's organizer can neither see nor touch them; bad rules come back naming the field."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from tournaments.clubs.models import Club, ClubRole
from tournaments.event.models import Tournament
from tournaments.seasons import championships
from tournaments.seasons.models import Championship, Season

from .builders import season_of_three

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizers(django_user_model):
    s = season_of_three()
    other = Club.objects.create(name="Tarot Club d'Issy", slug="issy")
    mine = django_user_model.objects.create_user("vanves", password="x")
    theirs = django_user_model.objects.create_user("issy", password="x")
    ClubRole.objects.create(club=s["club"], user=mine, role=ClubRole.Role.ORGANIZER)
    ClubRole.objects.create(club=other, user=theirs, role=ClubRole.Role.ORGANIZER)
    return s, mine, theirs


def test_an_organizer_creates_a_season_and_a_championship(client, organizers, django_capture_on_commit_callbacks):
    s, mine, _theirs = organizers
    client.force_login(mine)
    assert 'href="/gestion/saisons/"' in client.get(reverse("home")).content.decode()  # from the organizer's home
    page = client.get(reverse("seasons"))
    assert page.status_code == 200 and "Nouvelle saison" in page.content.decode()
    response = client.post(reverse("seasons"), {"owner": f"club-{s['club'].pk}", "name": "Saison d'hiver",
                                                "starts_on": "2025-10-01", "ends_on": "2025-12-31",
                                                "is_public": "on"})
    season = Season.objects.get(name="Saison d'hiver")
    assert response.status_code == 302 and response["Location"] == reverse("season_detail", args=[season.slug])
    form = client.get(reverse("championship_create", args=[season.slug])).content.decode()
    assert "Tournoi T1 — 01/10/2025" in form and "Tournoi T3 — 01/12/2025" in form
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("championship_create", args=[season.slug]), {
            "name": "Coupe d'hiver", "tournaments": [t.pk for t in s["tournaments"]], "table_kind": "rank",
            "points": "10, 6, 4, 2", "beyond": "0", "bands": "", "best": "", "minimum": "0",
            "tie_break_1": "best_result", "tie_break_2": "", "tie_break_3": "", "categories": ["dames"]})
    assert response.status_code == 302
    champ = Championship.objects.get(name="Coupe d'hiver")
    assert champ.tie_breaks == ["best_result"] and champ.best is None
    # recomputed on commit: every result counts: Chloé 4 + 6 + 10 = 20, Ana 10 + 2 = 12, Bruno 4 + 10 = 14,
    # David 4 + 4 + 6 = 14, Émile 2 + 4 = 6; Bruno and David level on 14: best result 10 v 6 → Bruno 3rd
    snap = championships.latest_snapshot(champ.pk)
    names = {p.pk: n for n, p in s["players"].items()}
    assert [(ln.rank, names[ln.player_id]) for ln in snap.lines.order_by("position")] == [
        (1, "Chloé"), (2, "Bruno"), (3, "David"), (4, "Ana"), (5, "Émile")]


def test_bad_rules_name_their_field(client, organizers):
    s, mine, _theirs = organizers
    client.force_login(mine)
    url = reverse("championship_create", args=[s["season"].slug])
    response = client.post(url, {"name": "X", "table_kind": "rank", "points": "", "minimum": "0",
                                 "tie_break_1": "wins", "tie_break_2": "wins"})
    page = response.content.decode()
    assert response.status_code == 200 and "Donnez les points de la 1re place au moins" in page
    response = client.post(url, {"name": "X", "table_kind": "percent", "bands": "50:10, 20:5", "minimum": "0"})
    assert "Donnez des tranches croissantes" in response.content.decode()
    response = client.post(url, {"name": "X", "table_kind": "rank", "points": "dix", "minimum": "0"})
    assert "Des nombres entiers séparés par des virgules" in response.content.decode()
    other = Tournament.objects.create(name="Ailleurs", slug="ailleurs", game="tarot", date=date(2025, 10, 5))
    response = client.post(url, {"name": "X", "table_kind": "rank", "points": "3", "minimum": "0",
                                 "tournaments": [other.pk]})
    assert response.status_code == 200 and not Championship.objects.filter(name="X").exists()


def test_another_clubs_organizer_cannot_see_or_touch_the_season(client, organizers):
    s, _mine, theirs = organizers
    client.force_login(theirs)
    season, champ = s["season"], s["championship"]
    assert "Saison 2025-2026" not in client.get(reverse("seasons")).content.decode()
    assert client.get(reverse("season_detail", args=[season.slug])).status_code == 404
    assert client.get(reverse("championship_edit", args=[season.slug, champ.slug])).status_code == 404
    response = client.post(reverse("championship_edit", args=[season.slug, champ.slug]),
                           {"name": "Pris", "table_kind": "rank", "points": "1", "minimum": "0"})
    assert response.status_code == 404 and Championship.objects.get(pk=champ.pk).name == "Challenge du club"
    # he may not create a season for a club he does not run
    response = client.post(reverse("seasons"), {"owner": f"club-{s['club'].pk}", "name": "Volée",
                                                "starts_on": "2025-10-01", "ends_on": "2025-12-31"})
    assert response.status_code == 200 and not Season.objects.filter(name="Volée").exists()
    client.logout()
    assert client.get(reverse("seasons")).status_code == 302  # to the login page


def test_a_second_championship_of_the_same_name_in_a_season_is_refused_naming_the_field(client, organizers):
    """The walk of issue 23: a second « Challenge du jeudi » was saved, and the season's public page showed two
    links of that name to two different rankings."""
    s, mine, _theirs = organizers
    client.force_login(mine)
    rules = {"tournaments": [s["tournaments"][0].pk], "table_kind": "rank", "points": "10, 6, 4, 2", "beyond": "0",
             "bands": "", "best": "", "minimum": "0", "tie_break_1": "", "tie_break_2": "", "tie_break_3": ""}
    url = reverse("championship_create", args=[s["season"].slug])
    response = client.post(url, {**rules, "name": "challenge du club "})  # « Challenge du club » exists
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "Un championnat de cette saison porte déjà ce nom : choisissez-en un autre."]
    assert Championship.objects.filter(season=s["season"]).count() == 1
    # the championship itself keeps its name when it is saved again
    edit = reverse("championship_edit", args=[s["season"].slug, s["championship"].slug])
    assert client.post(edit, {**rules, "name": "Challenge du club"}).status_code == 302
