"""Public pages and exports: released rounds only, the published ranking, the not-up-to-date notice."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, downloaded, make_round, make_tournament
from tournaments.public import queries
from tournaments.public.chart import running_total_svg
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    t, e = make_tournament("ABCD", slug="pub")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [75, -25, -25, -25], taker=0)
    add_deal(t1, [30, -90, 30, 30], taker=1)
    (u1,) = make_round(t, 2, [[e[x] for x in "ABCD"]], released=False)
    add_deal(u1, [-999, 333, 333, 333], taker=0)
    tasks.ranking_refresh(t.pk)
    return t, e


def test_ranking_page_shows_the_snapshot_and_explains(client, tournament):
    t, _ = tournament
    html = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    # A 75+30 = 105, C and D 5 each (shared 2nd), B -115
    assert 'data-up-to-date="yes"' in html
    assert html.index(">A<") < html.index(">C<") < html.index(">B<")
    assert "105" in html and "Rang 2 sur 4 : 5 points au total." in html and "Rang partagé avec D" in html
    assert "-999" not in html and 'hx-trigger="every 10s"' in html


def test_ranking_partial_for_htmx_and_stale_notice(client, tournament):
    t, _e = tournament
    t1 = t.rounds.get(number=1).tables.get()
    add_deal(t1, [-25, 75, -25, -25], taker=1)  # saved, not yet ranked (no commit → no refresh)
    response = client.get(reverse("public-ranking", args=[t.slug]) + "?every=2", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="ranking"') and 'hx-trigger="every 2s"' in html
    assert 'data-up-to-date="no"' in html and "pas à jour" in html


def test_unreleased_round_is_not_public(client, tournament):
    t, _ = tournament
    assert client.get(reverse("public-round", args=[t.slug, 2])).status_code == 404
    html = client.get(reverse("public-round", args=[t.slug, 1])).content.decode()
    assert "Table 1" in html and "105" in html


def test_private_tournament_is_hidden(client):
    t, _ = make_tournament("ABCD", slug="priv", public=False)
    assert client.get(reverse("public-home", args=[t.slug])).status_code == 404


def test_csv_exports(client, tournament):
    t, _ = tournament
    # as a French spreadsheet reads it: a byte-order mark, then cells between « ; »
    raw = downloaded(client.get, reverse("public-ranking-csv", args=[t.slug])).content
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:5] == ["Rang", "Ex aequo", "Joueur", "Club", "Total"]
    assert [r[:3] for r in rows[1:5]] == [["1", "non", "A"], ["2", "oui", "C"], ["2", "oui", "D"], ["4", "non", "B"]]
    assert not any("empreinte" in cell.lower() for row in rows for cell in row)
    text = downloaded(client.get, reverse("public-results-csv", args=[t.slug])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0] == ["Manche", "Table", "Donne", "État", "Place", "Joueur", "Points", "Points non comptés"]
    assert len(rows) == 1 + 8 and ["1", "1", "2", "valide", "2", "B", "-90", ""] in rows
    assert not any(r[0] == "2" for r in rows[1:])


def test_player_page_history_and_chart(client, tournament):
    t, e = tournament
    html = client.get(reverse("public-player", args=[t.slug, e["B"].pk])).content.decode()
    assert "<svg" in html and "polyline" in html
    assert "-115" in html and "rang 4" in html


def test_home_screen_and_prints(client, tournament):
    t, _ = tournament
    for name in ("public-home", "public-screen", "public-ranking-print", "public-results-print"):
        response = client.get(reverse(name, args=[t.slug]))
        assert response.status_code == 200, name
    assert 'http-equiv="refresh"' in client.get(reverse("public-screen", args=[t.slug])).content.decode()


def test_score_sheets_need_the_staff(client, tournament, django_user_model):
    t, _ = tournament
    url = reverse("public-score-sheets", args=[t.slug, 1])
    assert client.get(url).status_code == 302
    boss = django_user_model.objects.create_superuser("boss", "b@example.org", "pw-123456")
    client.force_login(boss)
    html = client.get(url).content.decode()
    assert "table 1" in html and html.count('class="sheet"') == 1


def test_running_total_chart_points():
    svg = str(running_total_svg([10, -30, 5], breaks=[2]))
    # totals 0, 10, -20, -15: four points, the extremes labelled
    assert svg.count(",") >= 4 and ">10<" in svg and ">-20<" in svg and "stroke-dasharray" in svg


def test_players_who_have_not_played_are_listed_last_without_a_rank(client):
    t, e = make_tournament("ABCDEFGH", slug="notyet")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])   # E F G H are not seated yet (0 marks, no deal)
    add_deal(t1, [30, 0, 0, -30], taker=0)               # A 30, B C 0, D -30
    tasks.ranking_refresh(t.pk)
    rows = queries.ranking(t).rows
    # without the rule, E..H would be « 2= » with B and C (0 marks); D would be 8th
    assert [(r.name, r.rank, r.shared) for r in rows] == [
        ("A", 1, False), ("B", 2, True), ("C", 2, True), ("D", 4, False),
        ("E", "—", False), ("F", "—", False), ("G", "—", False), ("H", "—", False)]
    assert rows[4].explain.startswith("Pas encore joué")
    html = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    assert ">5<" not in html and "<td>—</td>" in html


def test_players_level_are_listed_as_french_sorts_their_names():
    t, e = make_tournament(["Zoé", "Karim", "Élodie", "Anne"], slug="tied")
    (t1,) = make_round(t, 1, [[e[x] for x in ("Zoé", "Karim", "Élodie", "Anne")]])
    add_deal(t1, [0, 0, 0, 0], taker=0)
    tasks.ranking_refresh(t.pk)
    assert [(r.name, r.rank, r.shared) for r in queries.ranking(t).rows] == [
        ("Anne", 1, True), ("Élodie", 1, True), ("Karim", 1, True), ("Zoé", 1, True)]
