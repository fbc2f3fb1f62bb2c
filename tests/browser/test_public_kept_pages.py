"""The pages that issue 22 put in the cache, seen at 390×844 and 1366×900 in French: a round's results in pages
of tables, the printable results, the ledger, and a PDF asked for before its worker made it (« Document en
préparation », which reloads itself into the PDF). Nothing wider than the screen. Screenshots in bench/out/."""

from __future__ import annotations

import time

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.public import tasks, views
from tournaments.standings import tasks as standings_tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900}))


def test_round_pages_and_a_pdf_in_preparation(chromium, live_server, screenshots, monkeypatch):
    monkeypatch.setattr(views, "TABLES_PER_PAGE", 10)
    names = [f"Marie-Bernadette Delacroix-Montfort {i:02d}" for i in range(64)]
    t, e = make_tournament(names, slug="coupe")
    t.name = "Coupe de Tarot de Villeneuve-Saint-Georges"
    t.save()
    tables = make_round(t, 1, [[e[n] for n in names[4 * k:4 * k + 4]] for k in range(16)])
    for k, table in enumerate(tables):
        s = 25 + 5 * k
        add_deal(table, [3 * s, -s, -s, -s], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    for label, viewport in VIEWPORTS:
        phone = label == "phone"
        context = chromium.new_context(viewport=viewport, locale="fr-FR", is_mobile=phone, has_touch=phone)
        context.set_default_timeout(30_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/p/coupe/rounds/1/")
            assert page.locator("h1").inner_text() == "Manche 1"
            assert "Tables 1 à 10 sur 16" in page.locator("nav.pager").inner_text()
            _fits(page, viewport["width"], f"kept-round-{label}.png", screenshots)
            page.get_by_role("link", name="tables suivantes").first.click()
            page.wait_for_url("**/rounds/1/?page=2")
            assert "Tables 11 à 16 sur 16" in page.locator("nav.pager").inner_text()
            text = page.locator("main").inner_text().replace("\xad", "")  # as shown (soft hyphens aside)
            assert "Delacroix-Montfort 40" in text and "Delacroix-Montfort 00" not in text
            page.goto(f"{live_server.url}/p/coupe/results/print/")
            _fits(page, viewport["width"], f"kept-results-print-{label}.png", screenshots)
            page.goto(f"{live_server.url}/p/coupe/ledger/")
            _fits(page, viewport["width"], f"kept-ledger-{label}.png", screenshots)
            # a PDF asked for before any worker made it: the round's results, then (laptop) its placement
            url = f"{live_server.url}/p/coupe/rounds/1/{'results' if phone else 'seating'}.pdf"
            response = page.goto(url)
            assert response.status == 202 and response.headers["retry-after"] == "3"
            assert page.locator("h1").inner_text() == "Document en préparation"
            assert "se recharge toute seule" in page.locator("[role=status]").inner_text()
            _fits(page, viewport["width"], f"kept-pdf-preparing-{label}.png", screenshots)
            tasks.run_pending()  # the worker's turn (a runner thread left by an earlier test may have taken it)
            for _ in range(60):
                ready = page.request.get(url)
                if ready.status != 202:
                    break
                time.sleep(0.25)
            assert ready.status == 200 and ready.body().startswith(b"%PDF")
        finally:
            context.close()


def _fits(page, width: int, shot: str, screenshots) -> None:
    page.screenshot(path=str(screenshots / shot), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width + 2, f"{page.url} is {wide}px wide at {width}px"
    assert page.evaluate("document.documentElement.lang") == "fr"
