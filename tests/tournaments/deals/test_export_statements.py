"""A tournament's export (``/api/tournaments/{id}/export/``) reads its tables, seats, deals and rulings in a fixed
number of statements, whatever the number of tables (one statement per table and deal before: 10,000 at 1,000
players, minutes in a web request), and writes what the table-by-table path writes."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.deals import selectors
from tournaments.deals.models import Ruling
from tournaments.event.models import Table

pytestmark = pytest.mark.django_db


def _tarot(tables: int):
    names = [f"J{i:02d}" for i in range(4 * tables)]
    t, e = make_tournament(names, slug=f"tarot-{tables}")
    for number in (1, 2):
        for table in make_round(t, number, [[e[n] for n in names[i:i + 4]] for i in range(0, len(names), 4)]):
            add_deal(table, [60, -20, -20, -20], taker=0)
            add_deal(table, [-30, 10, 10, 10], taker=0)
    return t


def _statements(tournament) -> int:
    with CaptureQueriesContext(connection) as statements:
        selectors.tournament_export(tournament)
    return len(statements)


def test_the_exports_statements_do_not_grow_with_the_tables():
    small, large = _tarot(2), _tarot(5)
    assert _statements(small) == _statements(large)


def _one_by_one(tournament) -> list[dict]:
    """The export as the table-by-table path writes it (each table read afresh)."""
    out = []
    for table in Table.objects.filter(round__tournament=tournament).order_by("round__number", "number"):
        if table.deals.exists():
            out.append({"round": table.round.number, "table": table.number,
                        "record": selectors.table_match_record(Table.objects.get(pk=table.pk))})
    return out


def test_the_export_writes_what_each_table_writes_rulings_included():
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], game="ecarte", slug="ecarte")
    first, second = make_round(t, 1, [[e["Ana"], e["Bruno"]], [e["Chloé"], e["David"]]])
    add_deal(first, [1, 0])
    add_deal(first, [0, 2])
    add_deal(second, [2, 0])
    Ruling.objects.create(tournament=t, table=first, kind="other", reason="Carte exposée",
                          adjustments={str(e["Bruno"].pk): -1})
    Ruling.objects.create(tournament=t, table=second, kind="other", reason="Retirée", withdrawn_at="2026-01-01T00:00Z",
                          adjustments={str(e["David"].pk): -1})
    export = selectors.tournament_export(t)
    assert export["tables"] == _one_by_one(t)
    (adjustment,) = export["tables"][0]["record"]["adjustments"]
    assert adjustment["points"] == [0, -1] and adjustment["after"] == 1  # after both deals, Bruno loses a point
    assert "adjustments" not in export["tables"][1]["record"]  # the withdrawn ruling counts nowhere
