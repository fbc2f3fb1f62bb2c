"""A match game's public player page says the number his rank is made of, with its unit.

The walk: « Total : 1 · rang 4 » on an Impériale player's page, the total in impériales while the rank comes from
match points (he had 2). The deals are the golden record ``imperiale-protected-retourne-and-end.json`` (RULES.md
§4, worked by hand in ``tests/scoring/test_imperiale_golden.py``): Ana wins the game 5 impériales to 3 (0 + 3 + 2
against 1 + 0 + 2); a match won is worth 2 match points, a match lost 0 (``scoring/ranking.py``).
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own, table_for
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.deals.record import deal_record
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db


def heading(page: str) -> str:
    """The line under the player's name, tags stripped."""
    line = page.split("</h1>")[1].split("</p>")[0]
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", "", line))).strip()


def test_the_impériale_player_s_rank_is_said_with_his_match_points(client, chief):
    table = table_for("imperiale", ["Ana", "Bruno"], {}, 5, "pubimp")
    for f in golden_deals("imperiale-protected-retourne-and-end.json", 3):
        deal_record(table=table, record=own(f), user=chief)
    tournament = table.round.tournament
    tasks.ranking_refresh(tournament.pk)
    seats = {s.entry.player.name: s.entry for s in table.seats.select_related("entry__player")}
    ana = client.get(reverse("public-player", args=[tournament.slug, seats["Ana"].pk])).content.decode()
    assert heading(ana) == "Points de match : 2 · rang 1 · impériales : 5"
    bruno = client.get(reverse("public-player", args=[tournament.slug, seats["Bruno"].pk])).content.decode()
    assert heading(bruno) == "Points de match : 0 · rang 2 · impériales : 3"
    assert '<text x="2" y="12" font-size="11">impériales</text>' in bruno  # the chart's total named by its unit
    client.cookies["django_language"] = "en"
    english = client.get(reverse("public-player", args=[tournament.slug, seats["Ana"].pk])).content.decode()
    assert heading(english) == "Match points: 2 · rank 1 · impériales: 5"
