"""The public ranking of a bigger event, at 390×844 and 1366×900, with long names: the top of the ranking in
pages, « ma place » found by a name search and from the player's page, the hall screen. Nothing wider than the
screen, no text spilling out of a button or link; the 10-second polling swaps nothing while the ranking is the
same (an opened « pourquoi ? » stays open) and shows a new deal by itself. Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRSTS = ["Marie-Bernadette", "Jean-Christophe", "Hélène-Éléonore", "Pierre-Emmanuel"]
LASTS = ["Delacroix-Montfort", "de La Tour-d'Auvergne", "Villeneuve-Saint-Georges", "Beaumarchais-Lefebvre"]

SPILL = """() => [...document.querySelectorAll('button, a.pager-link, a.my-place, nav.pager span')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""


def check(page, width: int, shot: str, screenshots) -> None:
    page.screenshot(path=str(screenshots / shot), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width + 2, f"{page.url} is {wide}px wide at {width}px"
    assert page.evaluate(SPILL) == [], page.url


def test_big_public_ranking_on_a_phone_and_a_laptop(chromium, live_server, screenshots):
    names = [f"{FIRSTS[i % 4]} {LASTS[(i // 4) % 4]} {i:02d}" for i in range(64)]
    t, short = make_tournament([f"p{i:02d}" for i in range(64)], slug="grand-prix")  # licences stay short
    e = {}
    for i, name in enumerate(names):
        entry = short[f"p{i:02d}"]
        entry.player.name = name
        entry.player.save(update_fields=["name"])
        e[name] = entry
    t.name = "Grand Prix de Tarot de la Ville de Villeneuve-Saint-Georges"
    t.save()
    tables = make_round(t, 1, [[e[n] for n in names[4 * k:4 * k + 4]] for k in range(16)])
    for k, table in enumerate(tables):
        s = 25 + 5 * k
        add_deal(table, [3 * s, -s, -s, -s], taker=0)
    tasks.ranking_refresh(t.pk)
    for label, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900})):
        phone = label == "phone"
        context = chromium.new_context(viewport=viewport, locale="fr-FR", is_mobile=phone, has_touch=phone)
        context.set_default_timeout(30_000)
        page = context.new_page()
        try:
            base = f"{live_server.url}/p/{t.slug}"
            page.goto(f"{base}/ranking/?every=1")
            rows = page.locator("#ranking table.grid tbody tr")
            assert rows.count() == 50 and "Lignes 1 à 50 sur 64" in page.locator("nav.pager").inner_text()
            check(page, viewport["width"], f"public_big_ranking_{label}.png", screenshots)
            # the polling swaps nothing while the ranking stays the same: an opened explanation stays open
            page.locator("#ranking details").first.locator("summary").click()
            page.wait_for_timeout(2500)
            assert page.locator("#ranking details[open]").count() == 1

            # « ma place » by name, without accents or capitals
            page.fill("#find-q", "helene beaumarchais 62")
            page.click("form.find button")
            page.wait_for_selector("section.found")
            page.locator("section.found a").first.click()
            page.wait_for_selector("#me")
            assert "Hélène-Éléonore Beaumarchais-Lefebvre 62" in page.locator("#me").inner_text()
            check(page, viewport["width"], f"public_big_my_place_{label}.png", screenshots)
            page.click("#me a.pager-link")
            page.wait_for_selector("tr[aria-current]")
            assert "62" in page.locator("tr[aria-current]").inner_text()
            check(page, viewport["width"], f"public_big_page2_{label}.png", screenshots)

            # the player's page leads to his place
            page.goto(f"{base}/players/{e[names[5]].pk}/")
            check(page, viewport["width"], f"public_big_player_{label}.png", screenshots)
            page.click("a.my-place")
            page.wait_for_selector("#me")
            assert names[5] in page.locator("#me").inner_text()

            page.goto(f"{base}/screen/")
            check(page, viewport["width"], f"public_big_screen_{label}.png", screenshots)
        finally:
            context.close()

    # a new deal reaches an open page by itself
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/p/{t.slug}/ranking/?every=1")
        version = page.locator("#ranking").get_attribute("data-version")
        add_deal(tables[0], [-300, 900, -300, -300], taker=1)  # names[1]: -25 + 900, first
        tasks.ranking_refresh(t.pk)
        page.wait_for_function(f"document.querySelector('#ranking').dataset.version !== '{version}'")
        first = page.locator("#ranking table.grid tbody tr").first
        assert names[1] in first.inner_text() and "875" in first.inner_text()
    finally:
        context.close()
