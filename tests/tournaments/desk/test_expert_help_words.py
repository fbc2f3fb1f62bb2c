"""The expert entry's one line of help names what a deal says in the words of the table, from the game's own
description (the registry's entry form: « Retourne », « Talon », « Abandon du point »…), never the record's field
names (``turn_up``, ``announcements``, ``bid.contract``)."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table

pytestmark = pytest.mark.django_db

FIELD_NAMES = re.compile(r"turn_up|announcements|cartes_blanches|bid\.contract|handfuls|exchanges|garde_sans|"
                         r"\{seat|stopped|abandon \{")

CASES = [
    ("tarot", 4, {}, ["Enchères", "preneur", "contrat", "poignées", "chelem annoncé"]),
    ("triomphe", 2, {}, ["retourne", "talon (facultatif)", "abandon du point"]),
    ("imperiale", 2, {}, ["retourne", "cartes blanches", "impériales en main", "le point"]),
    ("ecarte", 2, {}, ["retourne", "roi d'atout annoncé"]),
    ("vingt-quatre", 4, {}, ["virade", "séquences", "le point"]),
]


def help_line(client, game: str, players: int, options: dict) -> str:
    tournament = TournamentFactory(game=game, options={"players": players, **options})
    table = seated_table(tournament, players=players)
    user = UserFactory(username=f"arbitre-{game}")
    role(tournament, user, "arbiter", [table])
    client.force_login(user)
    page = client.get(reverse("deal_enter", args=[table.pk]) + "?mode=record")
    assert page.status_code == 200
    html = page.content.decode()
    return htmllib.unescape(re.search(r'<p class="help small muted">(.*?)</p>', html, re.S).group(1))


@pytest.mark.parametrize(("game", "players", "options", "words"), CASES)
def test_the_expert_help_says_it_in_french(client, game, players, options, words):
    line = help_line(client, game, players, options)
    assert FIELD_NAMES.search(line) is None, line
    for word in words:
        assert word in line, (word, line)


def test_the_expert_help_in_english(client):
    client.cookies["django_language"] = "en"
    line = help_line(client, "triomphe", 2, {})
    assert FIELD_NAMES.search(line) is None, line
    assert "turn-up" in line.lower() and "Retourne" not in line, line


@pytest.mark.parametrize(("game", "players"), [("imperiale", 2), ("triomphe", 2), ("ecarte", 2)])
def test_the_piquet_games_card_help_has_no_tarot_card_and_no_english_code(client, game, players):
    """A phone walk read « CT ou C♣ (cavalier de trèfle)… atouts 1 à 21 ; Exc pour l'Excuse. Aussi KS 10H NC T21
    EX. » on L'Impériale's expert entry: no cavalier, trumps or Excuse in a piquet deck, and English codes. The card
    help comes from the game's own deck, in French."""
    line = help_line(client, game, players, {})
    assert "Tapez les cartes à la française : RC ou R♥ (roi de cœur), DK ou D♦ (dame de carreau)" in line, line
    for word in ("cavalier", "atouts 1 à 21", "Excuse", "KS", "10H", "T21", "Aussi"):
        assert word not in line, (word, line)


def test_the_tarot_card_help_keeps_its_cavalier_trumps_and_excuse(client):
    line = help_line(client, "tarot", 4, {})
    assert "CT ou C♣ (cavalier de trèfle)" in line and "atouts 1 à 21 ; Exc pour l'Excuse." in line, line
    assert "KS" not in line and "T21" not in line, line


def test_the_record_is_named_in_plain_french(client):
    tournament = TournamentFactory(game="imperiale", options={"players": 2})
    table = seated_table(tournament, players=2)
    user = UserFactory(username="arbitre-words")
    role(tournament, user, "arbiter", [table])
    client.force_login(user)
    html = htmllib.unescape(client.get(reverse("deal_enter", args=[table.pk]) + "?mode=record").content.decode())
    assert "La donne telle que l'enregistre Levée (format JSON)" in html
    assert "La donne en JSON" not in html and "l'API" not in html
