"""Steps shared by the irregular-deal browser tests (issue 19 item 1): a renonce tapped and confirmed on the tap
page, the deal saved as irregular, the chief's ruling from his page, the table's marks and the public ranking read
back, axe-core on every page visited."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def axe_clean(page) -> None:
    """axe-core finds no violation on the page (WCAG 2.1 A and AA, best practices, and the experimental
    label-content-name-mismatch: a control's name holds its visible text)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: npm ci --prefix tests/browser/axe")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations'], "
                           "rules: {'label-content-name-mismatch': {enabled: true}}})")
    bad = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]]
    assert not bad, f"{page.url}: {bad}"


def enter_hands(page, hands: list[list[str]]) -> None:
    """The deal reconstituted: each seat's cards tapped into « Les mains »."""
    page.locator("#hands summary").click()
    for position, hand in enumerate(hands):
        page.locator("#hands .seat-tabs button").nth(position).click()
        for code in hand:
            page.locator(f'#hands .pack button[data-code="{code}"]').click()


def tap(page, code: str) -> None:
    page.locator(f'#pack button[data-code="{code}"]').click()


def tap_renonce(page, code: str) -> str:
    """Tap a forbidden card, read the confirmation and take « La saisir quand même »: the confirmation's text."""
    tap(page, code)
    confirm = page.locator("#confirm")
    confirm.wait_for()
    text = confirm.inner_text()
    page.get_by_role("button", name=re.compile("La saisir quand même")).click()
    page.locator("#play-problems").wait_for()
    return text


def tap_all(page, codes: list[str]) -> list[tuple[str, str]]:
    """Tap cards in play order; a card the page marks forbidden is confirmed (« La saisir quand même »):
    the (card, confirmation's text) of each one confirmed."""
    confirmed = []
    for code in codes:
        tap(page, code)
        # the page asks the arbiter to confirm a forbidden card, or checks the card played with the server
        page.wait_for_function("() => document.getElementById('confirm') || "
                               "/Vérifié/.test(document.getElementById('net').textContent)")
        if page.locator("#confirm").count():
            text = page.locator("#confirm").inner_text()
            page.get_by_role("button", name=re.compile("La saisir quand même")).click()
            page.locator("#confirm").wait_for(state="detached")
            page.locator("#net", has_text="Vérifié").wait_for()
            confirmed.append((code, text))
    return confirmed


def save_irregular(page) -> str:
    """Save the deal with its renonce: the deal's page, which says it is irregular and the arbiter called."""
    page.click("#save")
    page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
    return page.locator("main").inner_text()


def chief_rules(page, live_server, slug: str, deal_pk: int, decision: str, *, reason: str = "",
                marks: dict[int, int] | None = None, penalty: str = "", offender: int | None = None) -> str:
    """On the chief's page, the ruling on one irregular deal, by the words he reads: the page's message after."""
    page.goto(f"{live_server.url}/t/{slug}/arbiter/")
    card = page.locator(f"#irregular-{deal_pk}")
    card.wait_for()
    axe_clean(page)
    card.locator(f'input[name="decision"][value="{decision}"]').check()
    if penalty:
        card.locator('select[name="penalty"]').select_option(penalty)
    if offender is not None:
        card.locator('select[name="offender"]').select_option(str(offender))
    for entry_id, points in (marks or {}).items():
        card.locator(f'input[name="points_{entry_id}"]').fill(str(points))
    if reason:
        card.locator('textarea[name="reason"]').fill(reason)
    card.get_by_role("button", name="Enregistrer la décision").click()
    page.wait_for_load_state()
    page.locator(".messages, [role=status], .msg, [role=alert]").first.wait_for()
    return page.locator("main").inner_text()


def ranking_rows(page, live_server, slug: str) -> list[dict[str, str]]:
    """The public ranking's lines, each a mapping of the column's heading to the cell's text."""
    page.goto(f"{live_server.url}/p/{slug}/ranking/")
    page.locator("#ranking").wait_for()
    axe_clean(page)
    grid = page.locator("#ranking table.grid").last
    heads = [h.strip() for h in grid.locator("thead th").all_inner_texts()]
    rows = grid.locator("tbody tr")
    return [dict(zip(heads, (c.strip() for c in rows.nth(i).locator("td").all_inner_texts()), strict=False))
            for i in range(rows.count())]


def sheet_lines(page, live_server, table_pk: int) -> list[list[str]]:
    """The table's score sheet on the desk: each line's cells (the deals, the rulings, the total)."""
    page.goto(f"{live_server.url}/desk/tables/{table_pk}/")
    axe_clean(page)
    rows = page.locator("main table tbody tr, main table tfoot tr")
    return [[c.strip() for c in rows.nth(i).locator("th, td").all_inner_texts()] for i in range(rows.count())]
