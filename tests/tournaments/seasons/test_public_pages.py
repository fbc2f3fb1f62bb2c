"""The public season pages: the championship's ranking (cached, 304), its categories, its CSV and PDF; a player's
page across events, public and private (through his player link)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.links import service as links
from tournaments.public import runner

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def test_championship_page_shows_the_ranking_with_why_and_answers_304(client):
    season_of_three()
    url = reverse("public-championship", args=["saison-2025", "challenge"])
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    # Chloé 16, Bruno 14, Ana 12, David 10, Émile 6 (tests/tournaments/seasons/test_championships.py)
    table = page.split("<tbody>")[1].split("</tbody>")[0]
    assert table.index("Chloé") < table.index("Bruno") < table.index("Ana") < table.index("David")
    assert "Pourquoi ce rang" in page and "Les 2 meilleurs résultats sur 3 comptent" in page
    assert "Barème par place : 10, 6, 4, 2 points pour les premières places, puis 0." in page
    etag = response["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    dames = client.get(url + "?categorie=dames").content.decode()
    rows = dames.split("<tbody>")[1].split("</tbody>")[0]
    assert "Classement Dames" in dames and "Chloé" in rows and "Ana" in rows and "Bruno" not in rows
    assert client.get(url + "?categorie=inconnue").status_code == 404


def test_championship_csv_is_french(client):
    season_of_three()
    response = client.get(reverse("public-championship-csv", args=["saison-2025", "challenge"]))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffRang;Ex aequo;Joueur;Club;Points;victoires;résultats retenus;tournois joués;")
    # Chloé: 16 points, 1 win among the results kept (T3), 2 kept, 3 played
    assert "1;non;Chloé;Tarot Club de Vanves;16;1;2;3;" in text


def test_championship_pdf_is_rendered_by_a_worker(client, settings, tmp_path):
    settings.LEVEE_PDF_ROOT = str(tmp_path)
    settings.LEVEE_RENDER_IN = "manual"
    season_of_three()
    runner.forget()  # the tournaments' own pages, queued at their publication
    url = reverse("public-championship-pdf", args=["saison-2025", "challenge"])
    first = client.get(url)
    assert first.status_code == 202 and "Document en préparation" in first.content.decode()
    assert [name for name, _args in runner.pending()] == ["tournaments.championship_render_pdf"]
    runner.run_pending()
    ready = client.get(url)
    assert ready.status_code == 200 and ready["Content-Type"] == "application/pdf"
    assert b"".join(ready.streaming_content).startswith(b"%PDF")


def test_player_page_public_and_private(client):
    s = season_of_three()
    ana = s["players"]["Ana"]
    page = client.get(reverse("public-player-history", args=[ana.pk])).content.decode()
    # T1 1st of 4 (+90), T3 4th of 4 (−60); the championship: 3rd of 5 with 12 points
    assert "1 sur 4" in page and "4 sur 4" in page and "<svg" in page
    assert "Challenge du club" in page and "3e sur 5" in page
    assert "Licence" not in page  # personal data: the private part only
    # statistics: Ana took a garde in T1 (made, with the petit au bout) and in T3 (fallen); the deals are
    # summaries: the tricks are not available
    stats = page.split("Statistiques des donnes")[1]
    assert "Tarot — 2 donnes" in stats
    assert "2 prise(s), 1 réussie(s) (50 %)" in stats
    assert "Petits au bout gagnés</th><td>1</td>" in stats
    assert '<td class="na">non disponible</td>' in stats
    entry = ana.entries.get(tournament=s["tournaments"][0])
    link = links.link_for_entry(entry=entry)
    private = client.get(reverse("player-history-private", args=[link.token]))
    assert private.status_code == 200 and "Licence : L-Ana" in private.content.decode()
    assert private["Cache-Control"] == "private, no-store"
    assert client.get(reverse("player-history-private", args=["inconnu"])).status_code == 404


def test_the_season_page_is_public(client):
    season_of_three()
    response = client.get("/saisons/saison-2025/")  # by its address: no organizer's page may shadow it
    page = response.content.decode()
    assert response.status_code == 200 and "Challenge du club" in page and "Tournoi T2" in page
    assert reverse("public-season", args=["saison-2025"]) == "/saisons/saison-2025/"


def test_a_players_page_writes_its_dates_in_french():
    """The walk of issue 23: the tournaments played were dated « 8 Oct 2026 », « 5 Nov 2026 » on a French page."""
    from django.test import Client
    s = season_of_three()
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(
        reverse("public-player-history", args=[s["players"]["Ana"].pk])).content.decode()
    assert "1 octobre 2025" in page and "1 décembre 2025" in page  # T1 and T3
    assert "Oct 2025" not in page and "Dec 2025" not in page and "Déc 2025" not in page


def test_the_championships_column_headers_are_capitalised_like_the_others(client):
    """The walk of issue 23: « Rang, Joueur, Club, Points, victoires, résultats retenus, tournois joués »."""
    season_of_three()
    page = client.get(reverse("public-championship", args=["saison-2025", "challenge"])).content.decode()
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert ">Victoires</th>" in head and ">Résultats retenus</th>" in head and ">Tournois joués</th>" in head
