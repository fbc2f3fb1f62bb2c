"""The public ranking page updates by itself (htmx polling) after a deal is entered."""

from __future__ import annotations

import pytest

from tests.integration.builders import make_round, make_tournament
from tests.integration.test_real_worker import petite_made
from tournaments.deals.record import deal_record
from tournaments.standings import rankings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_public_ranking_updates_after_a_deal(chromium, live_server, django_user_model):
    t, e = make_tournament("ABCD", slug="direct")  # no broker: the refresh runs at commit, in-process
    (table,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    deal_record(table=table, record=petite_made(0), user=boss)  # A +75, the others -25
    assert rankings.ranking_status(t).up_to_date

    context = chromium.new_context(locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{live_server.url}/p/{t.slug}/ranking/?every=1")
        first = page.locator("#ranking tbody tr").first
        assert first.locator("td").nth(1).inner_text().strip() == "A"
        assert first.locator("td").nth(3).inner_text().strip() == "75"
        version = page.locator("#ranking").get_attribute("data-version")

        # a second deal, no reload: B takes and makes a petite → A and B 50, C and D -50
        deal_record(table=table, record=petite_made(1), user=boss)
        page.wait_for_function(f"document.querySelector('#ranking').dataset.version !== '{version}'")
        rows = page.locator("#ranking tbody tr")
        got = [(rows.nth(i).locator("td").nth(0).inner_text().strip(),
                rows.nth(i).locator("td").nth(1).inner_text().strip(),
                rows.nth(i).locator("td").nth(3).inner_text().strip()) for i in range(4)]
        assert got == [("1=", "A", "50"), ("1=", "B", "50"), ("3=", "C", "-50"), ("3=", "D", "-50")]
        assert page.locator("[data-up-to-date=yes]").count() == 1
    finally:
        context.close()
