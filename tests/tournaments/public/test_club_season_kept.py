"""A club's page and a season's page are rendered once per state and kept (issue 22: every page a spectator can
open is cheap): the second reader gets the same bytes without a render, a conditional request a 304, and the page
is marked public (the proxy in front keeps it a second); whatever the page shows changing — a member's name, a new
tournament, a championship — makes it anew at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.event.models import Player, Tournament
from tournaments.public import clubs, seasons
from tournaments.seasons.models import Championship, Season

from ..factories import ClubFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The templates rendered by the club's and the season's views."""
    seen: list[str] = []

    def counting(module):
        real = module.render_to_string

        def render(template, *args, **kwargs):
            seen.append(template)
            return real(template, *args, **kwargs)

        monkeypatch.setattr(module, "render_to_string", render)

    counting(clubs)
    counting(seasons)
    return seen


@pytest.fixture
def club():
    club = ClubFactory(name="Tarot Club Lyon", city="Lyon", slug="lyon")
    PlayerFactory(name="Marie-Bernadette Delacroix-Montfort", home_club=club)
    PlayerFactory(name="Zoé Abel", home_club=club)
    TournamentFactory(club=club, name="Open de Lyon", status=Tournament.Status.FINISHED, date=dt.date(2026, 10, 4))
    return club


def test_the_club_page_is_rendered_once_per_state(club, renders):
    url = reverse("public-club", args=[club.slug])
    first = Client().get(url)
    assert first.status_code == 200 and renders == ["public/club.html"]
    assert first["Cache-Control"] == "public, no-cache"
    # members in French order, whatever their ids
    html = first.content.decode()
    assert html.index("Marie-Bernadette Delacroix-Montfort") < html.index("Zoé Abel")
    second = Client().get(url)
    assert second.content == first.content and renders == ["public/club.html"]  # not rendered again
    assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # a member's name corrected: the page anew, at once
    Player.objects.filter(name="Zoé Abel").update(name="Zoé Abel-Martin")
    third = Client().get(url)
    assert "Zoé Abel-Martin" in third.content.decode() and third["ETag"] != first["ETag"]
    # a tournament announced
    TournamentFactory(club=club, name="Coupe d'hiver", status=Tournament.Status.OPEN, date=dt.date(2026, 12, 13))
    assert "Coupe d&#x27;hiver" in Client().get(url).content.decode()
    assert renders == ["public/club.html"] * 3
    # English is a page of its own
    english = Client()
    english.cookies["django_language"] = "en"
    page = english.get(url)
    assert "2 members" in page.content.decode() and "2 membres" in Client().get(url).content.decode()


def test_the_season_page_is_rendered_once_per_state(club, renders):
    season = Season.objects.create(name="Saison 2026-2027", slug="saison-2026", club=club,
                                   starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2027, 6, 30))
    url = reverse("public-season", args=[season.slug])
    first = Client().get(url)
    assert first.status_code == 200 and renders == ["public/season.html"]
    assert first["Cache-Control"] == "public, no-cache" and "Tarot Club Lyon" in first.content.decode()
    assert Client().get(url).content == first.content and renders == ["public/season.html"]
    assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    champ = Championship.objects.create(season=season, name="Challenge du club", slug="challenge")
    champ.tournaments.add(Tournament.objects.get(name="Open de Lyon"))
    second = Client().get(url).content.decode()
    assert "Challenge du club" in second and "Open de Lyon" in second
    assert renders == ["public/season.html"] * 2
