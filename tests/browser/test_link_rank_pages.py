"""A player whose match is still in play when the round is published, at 390×844 and 1366×900 in Debian's
Chromium, with a long name: the public ranking shows him « — » with the words of a match in play, and his own link
says the same (a walk read « 5e sur 8 (ex aequo) » on the link where the public ranking said « — »); the pages fit
the screen; a screenshot of each.

L'Impériale, the golden record ``imperiale-protected-retourne-and-end.json`` (RULES.md §4, worked by hand in
``tests/scoring/test_imperiale_golden.py``): at table 1 Ana wins the game in three deals (2 match points, Bruno 0);
at table 2 one deal only: Chloé and Marie-Bernadette's match is still in play (no result)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import fits
from tests.integration.builders import make_round, make_tournament
from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own
from tests.tournaments.factories import UserFactory
from tournaments.deals.record import deal_record
from tournaments.links import service as links
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
IN_PLAY = "Partie en cours : classé après ceux qui ont un résultat."


@pytest.fixture
def in_play(transactional_db):
    chief = UserFactory(username="chef")
    t, e = make_tournament(["Ana", "Bruno", "Chloé", LONG], game="imperiale", slug="en-cours")
    t.target = 5
    t.save(update_fields=["target"])
    first, second = make_round(t, 1, [[e["Ana"], e["Bruno"]], [e["Chloé"], e[LONG]]])
    deals = golden_deals("imperiale-protected-retourne-and-end.json", 3)
    for f in deals:
        deal_record(table=first, record=own(f), user=chief)
    deal_record(table=second, record=own(deals[0]), user=chief)
    tasks.ranking_refresh(t.pk)
    return t, e


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_match_in_play_reads_the_same_on_the_ranking_and_the_link(live_server, chromium, in_play, screenshots,
                                                                     viewport):
    t, e = in_play
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        page.goto(live_server.url + reverse("public-ranking", args=[t.slug]))
        row = page.locator(f'tr[data-entry="{e[LONG].pk}"]')
        assert row.locator("td").first.inner_text().strip() == "—"
        row.locator("summary").click()
        assert IN_PLAY in row.inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"linkrank-ranking-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("player_home", args=[links.link_for_entry(entry=e[LONG]).token]))
        rank = page.locator("#my-rank").inner_text()
        assert "—" in rank and IN_PLAY in rank and "sur" not in rank, rank
        fits(page)
        page.screenshot(path=str(screenshots / f"linkrank-link-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("player_home", args=[links.link_for_entry(entry=e["Bruno"]).token]))
        assert "2e sur 4 · Points de match\xa0: 0" in page.locator("#my-rank").inner_text()
