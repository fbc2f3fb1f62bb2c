"""A round's public results: a deal awaiting the visa shows its marks in brackets (a walk: they looked like counted
ones, and « Paul Martin 112, 280, −330, 284 — Total −50 » did not add up); an annulled deal shows none, a dash (a
later walk: its bracketed marks still read as its score). The rulings' row keeps its words whole on a phone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament

pytestmark = pytest.mark.django_db


def test_deals_that_do_not_count_are_bracketed_or_dashed_and_the_column_adds_up(client):
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug="crochets")
    (table,) = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")]])
    add_deal(table, [90, -30, -30, -30], taker=0)
    add_deal(table, [-120, 40, 40, 40], taker=0, status="annulled")
    add_deal(table, [240, -80, -80, -80], taker=0, status="pending")
    page = client.get(reverse("public-round", args=[t.slug, 1])).content.decode()
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = body.split("<tr>")[1:]  # (a status line is a <tr class="status-row"> inside its deal's chunk)
    first, annulled, pending = rows[0], rows[1], rows[2]
    assert "<td>90</td>" in first and "not-counted" not in first
    assert "120" not in annulled and "40" not in annulled and '<td class="not-counted">—</td>' in annulled
    assert '<td class="not-counted">(240)</td>' in pending
    foot = page.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    assert "<th>90</th>" in foot and "<th>-30</th>" in foot  # the total is the valid deal's alone
