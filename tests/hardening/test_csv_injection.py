"""Public CSV exports neutralise spreadsheet formulas (OWASP): names and clubs are text, numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, downloaded, make_round, make_tournament
from tournaments.common.csv_safe import safe_cell
from tournaments.event.models import Player
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db

EVIL = ["=HYPERLINK(\"http://x\",\"a\")", "+cmd|' /C calc'!A0", "@SUM(A1:A9)", "-2+3"]


def test_safe_cell_prefixes_formula_starts_only():
    assert [safe_cell(v) for v in ["=1+1", "+x", "-x", "@x", "\tx", "\rx"]] == [
        "'=1+1", "'+x", "'-x", "'@x", "'\tx", "'\rx"]
    assert [safe_cell(v) for v in ["Ana", "", -25, 12.5, "-25", "+3", "1,5"]] == ["Ana", "", -25, 12.5, "-25", "+3",
                                                                                     "1,5"]


def test_ranking_and_results_csv_write_no_formula(client):
    t, e = make_tournament(EVIL, slug="evil")
    Player.objects.filter(pk=e[EVIL[0]].player_id).update(club="=1+cmd")
    (table,) = make_round(t, 1, [[e[x] for x in EVIL]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    tasks.ranking_refresh(t.pk)
    for name in ("public-ranking-csv", "public-results-csv"):
        text = downloaded(client.get, reverse(name, args=[t.slug])).content.decode("utf-8-sig")
        delimiter = ";" if ";" in text.splitlines()[0] else ","
        cells = [c for row in csv.reader(io.StringIO(text), delimiter=delimiter) for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")], name
        assert not [c for c in cells if c.startswith("-") and not c.lstrip("-").isdigit()], name
        assert "'" + EVIL[0] in cells and "-25" in cells, name
    ranking = downloaded(client.get, reverse("public-ranking-csv", args=[t.slug])).content.decode("utf-8-sig")
    assert "'=1+cmd" in ranking
