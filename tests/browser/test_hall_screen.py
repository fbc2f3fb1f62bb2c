"""The hall screen read from 5 m (issue 20): at 1920×1080 the ranking rows are at least 40 px high, the banners
in large print, nothing off the screen (« Page 1 / 1 » included), a team event's two tables too; the seating
sends a player on a bye to « exempt », not to a table that does not exist. Phone and laptop: no page wider than
the screen. Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.standings import tasks
from tournaments.standings.appeal import round_set_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HALL = {"width": 1920, "height": 1080}
NAMES = [f"{first} {last}" for first, last in zip(
    ["Marie-Bernadette", "Jean-Christophe", "Hélène", "Pierre-Emmanuel", "Odile", "Karim", "Zoé", "Anne",
     "Bruno", "Chloé", "David", "Élodie", "François", "Gaëlle", "Hugo", "Inès", "Joseph"],
    ["Delacroix-Montfort", "de La Tour-d'Auvergne", "Villeneuve", "Beaumarchais", "Martin", "Benali", "Petit",
     "Leroy", "Moreau", "Fournier", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau", "Vincent"],
    strict=True)]

OFF_SCREEN = """([w, h]) => [...document.querySelectorAll('main *')].filter(el => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && (r.bottom > h + 0.5 || r.right > w + 0.5 || r.left < -0.5 || r.top < -0.5);
}).map(el => el.tagName + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40))"""


def _event(teams: bool):
    team_of = {f"Équipe {k + 1}": NAMES[4 * k:4 * k + 4] for k in range(4)} if teams else None
    t, e = make_tournament(NAMES if not teams else NAMES[:16], slug="hall-teams" if teams else "hall", teams=team_of)
    t.name = "Grand Prix de Tarot de la Ville de Villeneuve-Saint-Georges"
    t.save()
    names = list(e)
    tables = make_round(t, 1, [[e[n] for n in names[4 * k:4 * k + 4]] for k in range(len(names) // 4)]
                        + ([[e[names[-1]]]] if len(names) % 4 else []))
    for k, table in enumerate(tables):
        if table.seats.count() == 4:
            s = 25 + 5 * k
            add_deal(table, [3 * s, -s, -s, -s], taker=0)
    round_set_status(round=tables[0].round, status="finished")  # its appeal banner
    # round 2 drawn: four tables of 4 and Marie-Bernadette on a bye (a table of one player)
    order = names[1:] + names[:1]
    make_round(t, 2, [[e[n] for n in order[4 * k:4 * k + 4]] for k in range(len(names) // 4)]
               + ([[e[order[-1]]]] if len(names) % 4 else []), released=False)
    tasks.ranking_refresh(t.pk)
    return t


@pytest.mark.parametrize("teams", [False, True], ids=["individual", "teams"])
def test_the_hall_screen_at_1920_by_1080(chromium, live_server, screenshots, teams):
    t = _event(teams)
    context = chromium.new_context(viewport=HALL, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/p/{t.slug}/screen/?every=120")
        page.screenshot(path=str(screenshots / f"hall_ranking_1920_{'teams' if teams else 'individual'}.png"))
        heights = page.eval_on_selector_all("table.big tr", "rows => rows.map(r => r.getBoundingClientRect().height)")
        assert len(heights) == (15 + 4 if teams else 15)
        assert min(heights) >= 40, heights
        banners = page.eval_on_selector_all(".fresh, .stale, .appeal",
                                            "els => els.filter(e => e.offsetParent).map(e => "
                                            "parseFloat(getComputedStyle(e).fontSize))")
        assert banners and min(banners) >= 28, banners
        assert page.evaluate(OFF_SCREEN, [HALL["width"], HALL["height"]]) == []
        assert page.evaluate("document.documentElement.scrollHeight") <= HALL["height"]
        page.goto(f"{live_server.url}/p/{t.slug}/screen/seating/?page=1&every=120")
        page.screenshot(path=str(screenshots / f"hall_seating_1920_{'teams' if teams else 'individual'}.png"))
        assert page.evaluate(OFF_SCREEN, [HALL["width"], HALL["height"]]) == []
        if not teams:
            bye = page.locator(".places li", has_text="Marie-Bernadette")  # alone at « table 5 »: a bye
            assert bye.locator(".where").inner_text() == "exempt"
            assert "table 5" not in page.content()
    finally:
        context.close()


def test_the_hall_screen_on_a_phone_and_a_laptop(chromium, live_server, screenshots):
    t = _event(False)
    for label, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900})):
        context = chromium.new_context(viewport=viewport, locale="fr-FR")
        page = context.new_page()
        try:
            for path in ("screen/", "screen/seating/"):
                page.goto(f"{live_server.url}/p/{t.slug}/{path}?every=120")
                page.screenshot(path=str(screenshots / f"hall_{path.strip('/').replace('/', '_')}_{label}.png"),
                                full_page=True)
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
        finally:
            context.close()
