"""The raw SQL of the standings and of the public reads names its tables and columns from the models'
metadata (``Model._meta``, through ``tournaments.common.sql``), never as literals such as ``tournaments_deal``:
a renamed table or column follows the models."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.db import connection

from tournaments.common import sql
from tournaments.deals.models import Deal, ScoreRow
from tournaments.event.models import Entry, Round
from tournaments.links.models import DealSheet
from tournaments.standings import rankings
from tournaments.standings.models import RankingClock

ROOT = Path(__file__).resolve().parents[2] / "tournaments"
MODULES = [*sorted((ROOT / "standings").glob("*.py")), ROOT / "public" / "published.py", ROOT / "public" / "queries.py"]
# a table of the app (tournaments_deal); a statement's words (a bare foreign-key column next to one is caught too)
TABLE = re.compile(r"\btournaments_[a-z]+\b")
SQL_WORD = re.compile(r"\b(SELECT|FROM|JOIN|WHERE|INSERT|UPDATE|DELETE)\b")


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module (f-string parts included), with their line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_table_name_literal(path):
    found = [(line, text) for line, text in _strings(path) if TABLE.search(text)]
    assert found == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_bare_foreign_key_column_in_sql(path):
    found = [(line, text) for line, text in _strings(path)
             if SQL_WORD.search(text) and re.search(r"\b[a-z]+_id\b", text)]
    assert found == []


def test_the_module_scan_sees_a_literal():
    # the scan itself can fail: the statement the rankings used to carry is caught
    source = "Q = 'SELECT s.deal_id FROM tournaments_dealsheet s'\n"
    strings = [node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)]
    assert any(TABLE.search(text) for text in strings)
    assert any(SQL_WORD.search(text) and re.search(r"\b[a-z]+_id\b", text) for text in strings)


def test_rankings_sql_follows_the_metadata():
    vendor = connection.vendor
    totals = rankings._tarot_totals_sql(vendor)
    assert f"FROM {sql.table(Entry)} e" in totals
    assert f"FROM {sql.table(ScoreRow)}" in totals
    for name in ("entry", "points", "ruling", "tournament", "counts"):
        assert sql.column(ScoreRow, name) in totals
    confirmed = rankings._confirmed_deals_sql(vendor)
    assert sql.table(DealSheet) in confirmed and sql.table(Deal) in confirmed
    assert f"s.{sql.column(DealSheet, 'state')} = 'confirmed'" in confirmed
    assert rankings._rounds_sql(vendor).startswith(
        f"SELECT {sql.column(Round, 'id')}, {sql.column(Round, 'number')}, {sql.column(Round, 'released')} "
        f"FROM {sql.table(Round)} ")
    assert rankings._version_sql(vendor) == (f"SELECT {sql.quote('version')} FROM {sql.table(RankingClock)} "
                                             f"WHERE {sql.quote('tournament_id')} = %s")
