"""The printable ranking (« version imprimable ») at 390×844 and 1366×900 in French, with long names, a team event
and every tie-break shown (and the ranking page that links to it): a page a player can open on his phone is never wider
than the screen."""

from __future__ import annotations

import pytest

from scoring.ranking import MATCH_TIE_BREAKS
from tests.integration.builders import add_deal, end_match, make_round, make_tournament
from tournaments.standings import tasks as standings_tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900}))
NAMES = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre", "Anaïs Le Gall-Kerbrat",
         "Cœur Bœuf", "Élodie Saint-Exupéry", "Gaëtan Dupont-Aignan", "Zoé Lemaire", "Hugo Fabre"]

WIDEST = """() => [...document.querySelectorAll('main *')]
  .filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .slice(0, 5).map(el => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))"""


def tarot() -> object:
    teams = {"Les Rois de la Vallée de la Chevreuse": NAMES[0::2], "Excuse": NAMES[1::2]}
    t, e = make_tournament(NAMES, slug="imprimable", teams=teams, tie_breaks=["best_deal", "won_as_taker"])
    tables = make_round(t, 1, [[e[n] for n in NAMES[:4]], [e[n] for n in NAMES[4:]]])
    add_deal(tables[0], [150, -50, -50, -50], taker=0)
    add_deal(tables[1], [-120, 40, 40, 40], taker=0)
    return t


def ecarte() -> object:
    teams = {"Les Rois de la Vallée de la Chevreuse": NAMES[0::2], "Excuse": NAMES[1::2]}
    t, e = make_tournament(NAMES, game="ecarte", slug="imprimable-ecarte", teams=teams, tie_breaks=MATCH_TIE_BREAKS)
    tables = make_round(t, 1, [[e[NAMES[2 * k]], e[NAMES[2 * k + 1]]] for k in range(4)])
    for k, table in enumerate(tables):
        end_match(table, [5, k], 0)
    return t


@pytest.mark.parametrize("build", [tarot, ecarte])
def test_printable_ranking_fits_the_screen(chromium, live_server, screenshots, build):
    t = build()
    t.name = "Coupe de Tarot de Villeneuve-Saint-Georges"
    t.save()
    standings_tasks.ranking_refresh(t.pk)
    for label, viewport in VIEWPORTS:
        phone = label == "phone"
        context = chromium.new_context(viewport=viewport, locale="fr-FR", is_mobile=phone, has_touch=phone)
        context.set_default_timeout(30_000)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/p/{t.slug}/ranking/")  # the page that links to it, for comparison
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"] + 2, f"ranking {width}px wide at {label}: {page.evaluate(WIDEST)}"
            page.goto(f"{live_server.url}/p/{t.slug}/ranking/print/")
            assert NAMES[0] in page.locator("main").inner_text()
            page.screenshot(path=str(screenshots / f"ranking_print_{t.game}_{label}.png"), full_page=True)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"] + 2, f"{width}px wide at {label}: {page.evaluate(WIDEST)}"
        finally:
            context.close()
