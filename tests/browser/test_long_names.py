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


#: the names of the walk: a space and hyphens to break at, and words too long for a phone's column
WALK = ["Marie-Bernadette Delacroix-Montfort", "François de La Rochefoucauld-Liancourt",
        "Jean-Édouard Lœwenbruck-Œhlenschläger", "Maximilien Robespierre"]

#: each word of a name (cut at spaces and hyphens) on one line, unless it cannot fit a line of its own: then broken
#: between syllables only (at a soft hyphen, a hyphen shown), never at any letter (« Rochefouca|uld »)
BREAKS_JS = """(selector) => {
  const bad = [];
  for (const box of document.querySelectorAll(selector)) {
    if (box.getBoundingClientRect().width === 0) continue;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent, re = /[^\\s\\-]+-?/g;
      let m;
      while ((m = re.exec(text))) {
        const tops = [];
        for (let i = 0; i < m[0].length; i++) {
          const r = document.createRange();
          r.setStart(node, m.index + i); r.setEnd(node, m.index + i + 1);
          const rects = [...r.getClientRects()].filter(x => x.width > 0);  // a letter after a break: two, the last
          tops.push(rects.length ? Math.round(rects[rects.length - 1].top) : null);
        }
        const word = m[0].replace(/\\u00ad/g, '');
        let last = null;
        for (let i = 0; i < tops.length; i++) {
          if (tops[i] === null) continue;
          if (last !== null && tops[i] > last + 2) {
            let j = i - 1; while (j >= 0 && tops[j] === null && m[0][j] !== '\\u00ad') j--;
            if (m[0][j] !== '\\u00ad') bad.push(`«${word}» cut at a letter in «${box.innerText.slice(0, 50)}»`);
            const holder = node.parentElement;
            const probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap'; probe.textContent = word;
            holder.appendChild(probe);
            const need = probe.getBoundingClientRect().width;
            probe.remove();
            const cs = getComputedStyle(box);
            const room = box.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
            if (need <= room + 0.5)
              bad.push(`«${word}» (${need.toFixed(0)}px) cut though its column holds ${room.toFixed(0)}px`);
          }
          last = tops[i];
        }
      }
    }
  }
  return bad;
}"""

#: a score table whose columns do not all fit the screen (it scrolls sideways, hiding the last players)
HIDDEN_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => `${e.scrollWidth}>${e.clientWidth}`)"""


def test_the_walks_long_names_on_the_score_sheets_and_the_public_results(live_server, chromium, arbiter,
                                                                         screenshots):
    """The walk at 390×844: the table page's columns read « Mari / Fran / Herv / Maxi », the deal's page « Marie-B. /
    Françoi. / Maximil. » (its last column hidden), the public results « Rochefouca|uld-Liancourt ». Now the first
    names whole where they fit, a readable short form otherwise (« M.-B. », « Franç. »), four columns in sight;
    the public names break at their spaces and hyphens, inside a word only between syllables when it cannot fit."""
    from django.urls import reverse

    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record
    from tournaments.event.models import Round
    from tournaments.standings import tasks

    table = table_for(arbiter, "tarot", {"players": 4}, WALK)
    deal = deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    Round.objects.filter(pk=table.round_id).update(released=True)
    tasks.ranking_refresh(table.round.tournament_id)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        login(page, live_server)
        page.goto(live_server.url + reverse("table_detail", args=[table.pk]))
        heads = page.locator("#scoresheet thead th .narrow-only").all_inner_texts()
        assert heads == ["M.-B.", "Franç.", "J.-É.", "Maxim."]
        assert page.evaluate(HIDDEN_JS, "#scoresheet") == [] and page.evaluate(HIDDEN_JS, ".scroll") == []
        fits(page)
        page.screenshot(path=str(screenshots / "long_names_table_phone.png"), full_page=True)
        page.goto(live_server.url + reverse("deal_detail", args=[deal.pk]))
        assert page.evaluate(HIDDEN_JS, "#scores .scroll") == []
        fits(page)
        page.screenshot(path=str(screenshots / "long_names_deal_phone.png"), full_page=True)
        page.goto(live_server.url + reverse("public-round", args=[table.round.tournament.slug, 1]))
        assert page.locator("table.marks th.name").count() == 4
        bad = page.evaluate(BREAKS_JS, "table.marks th.name")
        assert not bad, bad[:6]
        assert page.evaluate(HIDDEN_JS, ".table-result .scroll") == []
        fits(page)
        page.screenshot(path=str(screenshots / "long_names_public_round_phone.png"), full_page=True)
    finally:
        context.close()
