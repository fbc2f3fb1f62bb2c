"""The pages of a duplicate tournament say étuis and percentages where the table and the public look: a table's
private link (the étui to play next, the étui of each deal, the percentage after a deal), the seating with each
seat's orientation, the round page without a manual seating, the versions entered through a link, a player's
public page and the round results (a QA walk of a fresh clone)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import EntryFactory, TournamentFactory, tarot_summary
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Table
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """16 players, 4 tables of 4, 2 étuis a round: table 2 of round 1 plays étui 2, then étui 1 (relay)."""
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=2, status="running",
                                   is_public=True)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="test")
    return tournament


def _table(tournament, round_no, number):
    return Table.objects.get(round__tournament=tournament, round__number=round_no, number=number)


def _text(html: str) -> str:
    """The page's words, tags dropped and spaces folded (a no-break space is a space)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("\xa0", " ").replace("&nbsp;", " "))


def _h1(html: str) -> str:
    return _text(html.split("<h1", 1)[1].split(">", 1)[1].split("</h1>", 1)[0]).strip()


def test_a_table_link_names_the_etui_to_play_and_the_etui_of_each_deal(event, client):
    # the walk: the link's page said nothing of étuis; after saving, « Donne 1 » only, no percentage
    table = _table(event, 1, 2)
    TablePolicy.objects.create(tournament=event, tables_enter=True)
    link = sheet.link_for_table(table=table)
    home = client.get(reverse("link_home", args=[link.token])).content.decode()
    assert "À suivre : étui 2, donné par Est." in _text(home)
    assert "/desk/" not in home.split('id="dup-next"', 1)[1].split("</section>", 1)[0]  # no staff page offered
    expert = client.get(reverse("link_enter", args=[link.token]) + "?mode=record").content.decode()
    assert _h1(expert) == "Étui 2 · Donne 1"
    saved = client.post(reverse("link_enter", args=[link.token]),
                        {"mode": "record", "record": json.dumps(tarot_summary(dealer=1)), "after": "0"})
    assert saved.status_code == 302
    page = client.get(saved["Location"]).content.decode()
    assert _h1(page).startswith("Étui 2 · Donne 1")
    words = _text(page)
    assert "Étui 2 — 1 table pour l’instant" in words  # the first table on étui 2: alone, 50 % each
    assert words.count("50 %") == 4
    home = _text(client.get(reverse("link_home", args=[link.token])).content.decode())
    assert "À suivre : étui 1, donné par Nord." in home
    assert "Étui 2 · Donne 1" in home  # the deal to confirm names its étui
