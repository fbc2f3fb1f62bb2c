"""A duplicate ranking by mean percentage reads « 83,33 % », with its unit, on the public ranking page and on the
page its staff read (a walk saw « 83,33 » and wondered: points? marks?); the CSV keeps the bare number for the
spreadsheet, its header saying « (%) ». A ranking by sum of matchpoints has no unit."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tests.integration.builders import downloaded
from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, role, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.duplicate.models import DuplicateSetup
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Table
from tournaments.public import tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db


def _duplicate(*, public: bool = True, score: str = "mean"):
    """16 players, round 1 released with étui 1 played at tables 1 and 3 only (4 tables are due to play it):
    East (the taker, seat 1) makes a garde of 49 with 2 bouts at table 1 and fails with 36 at table 3.

    Each orientation compares 2 results out of E = 4 (Neuberg): the better one 2 matchpoints of top 2,
    ((2 + 1)·4 − 2) / 2 = 5 of top 6 → 83,33 %; the worse 0, ((0 + 1)·4 − 2) / 2 = 1 of 6 → 16,67 %. So the East
    of table 1 and the North, South and West of table 3 have 83,33 % (their one étui, their best too), the
    others who played 16,67 %."""
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=3, status="running",
                                   is_public=public)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="test")
    DuplicateSetup.objects.filter(tournament=tournament).update(score=score)
    chief = UserFactory(username="chief")
    for number, points in ((1, 49), (3, 36)):
        table = Table.objects.get(round__tournament=tournament, round__number=1, number=number)
        deal_record(table=table, user=chief, record=tarot_summary(taker=1, points=points, dealer=0))
    tournament.rounds.filter(number=1).update(released=True)
    standings_tasks.ranking_refresh(tournament.pk)
    tasks.run_pending()
    return tournament


def test_the_public_ranking_reads_percentages_with_their_unit():
    tournament = _duplicate()
    html = Client().get(reverse("public-ranking", args=[tournament.slug])).content.decode()
    assert html.count("<td>83,33\u00a0%</td>") == 4  # the result
    assert html.count('<td class="hide-narrow">83,33\u00a0%</td>') == 4  # the best étui
    assert html.count("<td>16,67\u00a0%</td>") == 4
    assert "<td>83,33</td>" not in html


def test_the_staff_read_a_private_duplicate_ranking_with_the_unit():
    tournament = _duplicate(public=False)
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    client = Client()
    assert client.get(reverse("public-ranking", args=[tournament.slug])).status_code == 404
    client.force_login(organizer)
    html = client.get(reverse("public-ranking", args=[tournament.slug])).content.decode()
    assert html.count("<td>83,33\u00a0%</td>") == 4 and html.count("<td>16,67\u00a0%</td>") == 4


def test_the_csv_keeps_bare_numbers_under_a_header_in_percent():
    tournament = _duplicate()
    raw = downloaded(Client().get, reverse("public-ranking-csv", args=[tournament.slug])).content
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][4:8] == ["Résultat (%)", "Étuis joués", "Meilleur étui (%)", "Tops"]
    results = [row[4] for row in rows[1:17]]
    assert results.count("83,33") == 4 and results.count("16,67") == 4
    # the figures bare (the « Explication » sentence says « 83,33 % de moyenne » in words)
    assert not any("%" in row[col] for row in rows[1:17] for col in (4, 6))


def test_a_sum_of_matchpoints_has_no_percent_sign():
    """Summed, the better result is 5 matchpoints (after Neuberg), the worse 1: no unit."""
    tournament = _duplicate(score="sum")
    html = Client().get(reverse("public-ranking", args=[tournament.slug])).content.decode()
    assert html.count("<td>5</td>") == 4 and html.count("<td>1</td>") == 4
    assert "%</td>" not in html
