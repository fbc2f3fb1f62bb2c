"""L'Impériale's public round page on a phone (390×844) with long names: the jetons beside the impériales, and a
game left unfinished when the round was ended said « Partie (non terminée) ».

Deals: the golden record ``tests/golden/imperiale-protected-retourne-and-end.json`` (worked by hand in
``tests/scoring/test_imperiale_golden.py``). Table 1 plays its first two deals and is left unfinished: deal 1 Ana
0 impériale 0 jeton, Bruno 1 impériale 1 jeton; deal 2 Ana 3 impériales (capote: Bruno's jetons erased) 0 jeton,
Bruno 0 and 0 jeton. Table 2's game ended (its players' result stands)."""

from __future__ import annotations

import pytest

from tests.browser.test_tap_entry import fits
from tests.integration.builders import make_round, make_tournament
from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Table
from tournaments.event.setup import round_release
from tournaments.standings import tasks
from tournaments.standings.appeal import round_set_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANA, BRUNO = "Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre"
NAMES = [ANA, BRUNO, "Clémence L'Écuyer", "Œdipe Cœurdelion"]


def test_impériale_round_page_jetons_and_a_game_not_finished(live_server, phone, screenshots):
    t, e = make_tournament(NAMES, game="imperiale", slug="imp-round-phone")
    t.target = 5
    t.save(update_fields=["target"])
    one, two = make_round(t, 1, [[e[ANA], e[BRUNO]], [e[NAMES[2]], e[NAMES[3]]]])
    for f in golden_deals("imperiale-protected-retourne-and-end.json", 2):
        deal_record(table=one, record=own(f), user=None)
    Table.objects.filter(pk=two.pk).update(match_ended=True, match_winner=0, match_totals=[5, 2])
    rnd = Round.objects.get(tournament=t, number=1)
    round_set_status(round=rnd, status="finished", confirm_unfinished=True)
    round_release(round=rnd, confirm_unfinished=True)
    tasks.ranking_refresh(t.pk)
    page = phone
    page.goto(f"{live_server.url}/p/{t.slug}/rounds/1/")
    table = page.locator("section.table-result").first
    text = table.inner_text()
    assert "1 jeton" in text and "Jetons" in text and "Partie (non terminée)" in text, text
    assert "en cours" not in text
    page.screenshot(path=str(screenshots / "imperiale_round_jetons_phone.png"), full_page=True)
    fits(page)
    page.goto(f"{live_server.url}/p/{t.slug}/ranking/")
    assert "—" not in page.locator("table").first.inner_text()
    page.screenshot(path=str(screenshots / "imperiale_ranking_unfinished_phone.png"), full_page=True)
