"""A player's own link says his rank in the published ranking, the number it is made of, and leads to the public
ranking at his line (a walk found only « Mon parcours » there).

The deals are the golden record ``imperiale-protected-retourne-and-end.json`` (RULES.md §4, worked by hand in
``tests/scoring/test_imperiale_golden.py``): Ana wins the game 5 impériales to 3; a match won is worth 2 match
points, a match lost 0 (``scoring/ranking.py``): Ana 1st of 2 with 2, Bruno 2nd with 0.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own, table_for
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.deals.record import deal_record
from tournaments.links import service
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db


def rank_panel(page: str) -> str:
    part = page.split('id="my-rank"')[1].split("</p>")[0]
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", part.split(">", 1)[1]))).strip()


def played(chief):
    table = table_for("imperiale", ["Ana", "Bruno"], {}, 5, "linkrank")
    for f in golden_deals("imperiale-protected-retourne-and-end.json", 3):
        deal_record(table=table, record=own(f), user=chief)
    seats = {s.entry.player.name: s.entry for s in table.seats.select_related("entry__player")}
    return table.round.tournament, seats


def test_the_player_s_link_says_his_rank_and_leads_to_the_ranking(client, chief):
    tournament, seats = played(chief)
    token = service.link_for_entry(entry=seats["Bruno"]).token
    page = client.get(reverse("player_home", args=[token])).content.decode()
    assert 'id="my-rank"' not in page  # no ranking published yet: nothing said
    tasks.ranking_refresh(tournament.pk)
    page = client.get(reverse("player_home", args=[token])).content.decode()
    assert rank_panel(page) == "Classement 2e sur 2 · Points de match : 0 Ma place au classement"
    mine = reverse("public-ranking", args=[tournament.slug]) + f"?me={seats['Bruno'].pk}#me"
    assert f'href="{mine}"' in page
    ana = client.get(reverse("player_home", args=[service.link_for_entry(entry=seats["Ana"]).token])).content.decode()
    assert rank_panel(ana).startswith("Classement 1er sur 2 · Points de match : 2")
    # polled from a phone: the ranking's part is one small statement once its lines are kept in the process
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("player_home", args=[token]))
    assert len([q for q in queries.captured_queries if "tournaments_rankingsnapshot" in q["sql"]]) == 1


def test_a_private_tournament_s_rank_is_said_without_a_link(client, chief):
    tournament, seats = played(chief)
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    tasks.ranking_refresh(tournament.pk)
    page = client.get(reverse("player_home", args=[service.link_for_entry(entry=seats["Ana"]).token])).content.decode()
    assert rank_panel(page) == "Classement 1er sur 2 · Points de match : 2"
    assert "public-ranking" not in page and f"/p/{tournament.slug}/" not in page
