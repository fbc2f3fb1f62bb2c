"""Long names on the tap page's seat buttons (issue 19): « Marie-Bernadette Delacroix-Montfort » and « Jean-Christophe
Vandenberghe-Lefèvre » wrap at their spaces and hyphens, never in the middle of a word, and never spill out of the
button, at 390×844 and 1366×900 in Debian's Chromium."""

from __future__ import annotations

import pytest

from tests.browser.test_tap_entry import LONG, fits, login, table_for
from tests.tournaments.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: each word of a seat button's text (cut at spaces and hyphens) lies on one line, and the text within the button
WORDS_JS = """(selector) => {
  const bad = [];
  for (const box of document.querySelectorAll(selector)) {
    const outer = box.getBoundingClientRect();
    if (outer.width === 0 || !box.checkVisibility({visibilityProperty: true})) continue;  // not shown
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const re = /[^\\s\\-‐]+[\\-‐]?/g;
      let m;
      while ((m = re.exec(text))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const tops = new Set(rects.map(r => Math.round(r.top)));
        const where = `${box.tagName.toLowerCase()} «${box.innerText.slice(0, 40)}» ${Math.round(outer.width)}px`;
        if (tops.size > 1) bad.push(`«${m[0]}» cut in ${where}`);
        for (const r of rects) {
          if (r.right > outer.right + 1 || r.left < outer.left - 1)
            bad.push(`«${m[0]}» spills out of ${box.tagName.toLowerCase()} «${box.innerText.slice(0, 40)}»`);
        }
      }
    }
  }
  return bad;
}"""

SEAT_BUTTONS = ".choices.seats .choice span, .seat-tabs button"


@pytest.fixture
def arbiter(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_long_names_wrap_at_their_hyphens_on_the_seat_buttons(live_server, chromium, arbiter, screenshots,
                                                               viewport):
    context = chromium.new_context(viewport=viewport, locale="fr-FR")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        size = "phone" if viewport["width"] < 500 else "desktop"
        for game, options in (("tarot", {"players": 4}), ("vingt-quatre", {"honours": "figures", "target": 24})):
            table = table_for(arbiter, game, options, LONG)
            if page.url == "about:blank":
                login(page, live_server)
            page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
            page.locator("#net").wait_for()
            page.locator("#hands summary").click()
            assert page.locator(SEAT_BUTTONS).count() >= 8
            page.screenshot(path=str(screenshots / f"long_names_{game}_{size}.png"), full_page=True)
            page.locator('[data-field="dealer"]').screenshot(
                path=str(screenshots / f"long_names_{game}_dealer_{size}.png"))
            bad = page.evaluate(WORDS_JS, SEAT_BUTTONS)
            assert not bad, bad[:6]
            fits(page)
    finally:
        context.close()
