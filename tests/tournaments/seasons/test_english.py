"""The club's, the season's, the championship's and the player's public pages in English (the « EN » switch): no
French word of the page's own (the club's, season's, tournaments' and players' names are data, left as typed)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from .builders import NAMES, season_of_three

pytestmark = pytest.mark.django_db

#: the data of the season (builders.py): names as their owners typed them
DATA = ("Tarot Club de Vanves", "Saison 2025-2026", "Challenge du club", "Tournoi T1", "Tournoi T2", "Tournoi T3",
        "Vanves", *NAMES)
#: words of the French pages that must not be on the English ones
FRENCH = ("saison", "saisons", "championnat", "championnats", "tournoi", "tournois", "membre", "membres", "joueur",
          "joueurs", "classement", "classé", "classés", "pourquoi ce rang", "donne", "donnes", "barème", "sur",
          "résultats", "départages", "aucun", "aucune", "général", "catégories", "imprimer", "tableur", "publiée",
          "jeunes", "dames", "rangs", "statistiques", "prise", "réussie", "non disponible", "à venir", "passés")


def _english() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _french_words(html: str) -> list[str]:
    """The French words left in a page once its links, style and data are taken out."""
    text = re.sub(r"<style.*?</style>", " ", html, flags=re.S)
    text = re.sub(r'href="[^"]*"', " ", text)
    for value in sorted(DATA, key=len, reverse=True):
        text = text.replace(value, " ")
    text = text.casefold()
    return [word for word in FRENCH if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    assert response.headers["Content-Language"] == "en"
    return response.content.decode()


def test_the_club_page_in_english():
    s = season_of_three()
    page = _get(_english(), reverse("public-club", args=[s["club"].slug]))
    assert "Past tournaments" in page and "5 members" in page and "4 players" in page
    assert _french_words(page) == []


def test_the_season_page_in_english():
    season_of_three()
    page = _get(_english(), reverse("public-season", args=["saison-2025"]))
    assert "Championships" in page and "Tournaments of the season" in page and "1 September 2025" in page
    assert _french_words(page) == []


def test_the_championship_ranking_in_english():
    season_of_three()
    client = _english()
    url = reverse("public-championship", args=["saison-2025", "challenge"])
    page = _get(client, url)
    # best 2, minimum 2, points 10, 6, 4, 2 then 0, tie-break « wins » (builders.py)
    assert "Points by place: 10, 6, 4, 2 points for the first places, then 0." in page
    assert "The 2 best results count." in page and "Tie-breaks announced: wins." in page
    assert "Overall ranking" in page and "Why this rank" in page and "Rank 1 of" in page
    assert _french_words(page) == []
    juniors = _get(client, url + "?categorie=jeunes")  # Ana, born 2010: under 18 on 1 September 2025
    assert "Ranking Juniors" in juniors
    assert _french_words(juniors) == []
    # the French page is still French, and kept apart from the English one in the cache
    french = Client().get(url).content.decode()
    assert "Classement général" in french and "Pourquoi ce rang" in french


def test_the_players_page_in_english():
    s = season_of_three()
    ana = s["players"]["Ana"]
    url = reverse("public-player-history", args=[ana.pk])
    page = _get(_english(), url)
    # T1 1st of 4, T3 4th of 4; the championship: 3rd of 5 (test_public_pages.py)
    assert "Tournaments played" in page and "1 of 4" in page and "4 of 4" in page and "rank 3 of 5" in page
    assert "Statistics of the deals" in page and "Tarot — 2 deals" in page
    assert _french_words(page) == []
    french = Client().get(url).content.decode()
    assert "Statistiques des donnes" in french and "3e sur 5" in french


#: words of the organizer's French club and season pages (« Dames », « Série » are the licence's own words)
ORGANIZER_FRENCH = ("saison", "saisons", "championnat", "championnats", "tournois", "membre", "membres", "joueurs",
                    "classement", "aucun", "aucune", "nouveau", "nouvelle", "enregistrer", "barème", "départage",
                    "départages", "données", "personnel", "lecture seule", "modifier", "tranches", "meilleurs")


def test_the_organizers_club_and_season_pages_in_english(django_user_model):
    season_of_three()
    client = _english()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "pw"))
    pages = {reverse("clubs"): "My clubs", reverse("club", args=["vanves"]): "5 members",
             reverse("seasons"): "Seasons and championships", reverse("season_detail", args=["saison-2025"]):
             "See the public ranking", reverse("championship_create", args=["saison-2025"]): "Save the championship",
             reverse("championship_edit", args=["saison-2025", "challenge"]): "Tie-breaks, announced beforehand"}
    for url, english in pages.items():
        page = _get(client, url)
        assert english in page, url
        text = re.sub(r'(href|action|value|hx-\w+)="[^"]*"', " ", page)
        for value in sorted(DATA, key=len, reverse=True):
            text = text.replace(value, " ")
        left = [w for w in ORGANIZER_FRENCH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text.casefold())]
        assert left == [], (url, left)
    # a refusal of the championship's rules, in English: « a, b » is no points table (service.py, the form)
    refused = client.post(reverse("championship_create", args=["saison-2025"]),
                          {"name": "X", "table_kind": "rank", "points": "a, b", "minimum": "0"}).content.decode()
    assert "Whole numbers separated by commas" in refused
