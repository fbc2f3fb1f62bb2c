"""The links page offers « Joueurs qui doivent confirmer une donne » up to the tournament's largest table (the game
registry's table sizes under its « Joueurs par table »), refuses more in French, and says how to get the table
links when there are none yet."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory
from tournaments.links import service
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db


def _choices(page: str) -> list[str]:
    select = re.search(r'<select name="confirmations_needed".*?</select>', page, re.S)
    assert select, page
    return re.findall(r'<option value="(\d*)"', select.group(0))


@pytest.fixture
def boss(client):
    client.force_login(UserFactory(username="boss", is_superuser=True, is_staff=True))
    return client


@pytest.mark.parametrize(("game", "options", "most"), [
    ("imperiale", {}, 2), ("ecarte", {}, 2), ("ecarte", {"players": 4}, 4), ("tarot", {"players": 4}, 4),
    ("tarot", {"players": 5}, 5), ("triomphe", {"players": 5}, 6)])
def test_the_choices_stop_at_the_largest_table(boss, game, options, most):
    tournament = TournamentFactory(game=game, options=options)
    page = boss.get(reverse("table_links", args=[tournament.slug])).content.decode()
    assert _choices(page) == ["", *[str(n) for n in range(1, most + 1)]]


def test_more_than_the_table_holds_is_refused_in_french(boss):
    tournament = TournamentFactory(game="imperiale", options={})
    response = boss.post(reverse("table_links", args=[tournament.slug]),
                         {"confirmations_needed": "3", "appeal_minutes": "15"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 422
    assert not TablePolicy.objects.filter(tournament=tournament, confirmations_needed=3).exists()
    text = html.unescape(response.content.decode())
    assert "3" not in _choices(response.content.decode())
    # the service itself says why, in the table's words
    with pytest.raises(Exception) as refused:
        service.policy_set(tournament=tournament, tables_enter=False, confirmations_needed=3,
                           unconfirmed_count=False, appeal_minutes=15)
    assert "2 joueurs" in refused.value.text("fr") and "Impériale" in refused.value.text("fr")
    assert "Au plus 2 : une table de ce tournoi compte au plus 2 joueurs." in text


def test_no_link_yet_says_how_to_get_them(boss):
    tournament = TournamentFactory(game="tarot", options={"players": 4})
    page = html.unescape(boss.get(reverse("table_links", args=[tournament.slug])).content.decode())
    assert "Tirez la manche 1" in page and "page du tournoi" in page
