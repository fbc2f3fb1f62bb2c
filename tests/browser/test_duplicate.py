"""Duplicate Tarot from the demo in Chromium: a table enters its result on an étui and sees its percentage
(only on the étuis it has played); once the round is released the travellers are public; the hall screen
ranks by percentage. Screenshots at 390×844 and 1366×900 (long names), nothing wider than the screen."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from tests.browser.test_tap_entry import choose, seat
from tournaments.duplicate.models import DuplicateTable, Etui
from tournaments.event.models import Round, Table, Tournament
from tournaments.event.setup import round_release
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1366, "height": 900}
NAMES_FR = ("Nord", "Est", "Sud", "Ouest")


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 2, f"{page.url} is {scroll}px wide"


def test_duplicate_entry_percentage_and_travellers(chromium, phone, live_server, screenshots):
    call_command("seed_demo", stdout=StringIO(), stderr=StringIO())
    tournament = Tournament.objects.get(slug="demo-tarot-duplicate")
    assert tournament.entries.count() == 16 and tournament.rounds.count() == 3
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    board = DuplicateTable.objects.get(table=table).boards[2]  # two étuis played, the third comes
    etui = Etui.objects.get(tournament=tournament, number=board)
    page = phone

    # the table arbiter: the table page says which étui comes next and who deals it
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill("levee-demo")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/$"))
    assert f"étui {board}, donné par {NAMES_FR[etui.dealer]}" in page.locator("#dup-next").inner_text()
    page.screenshot(path=str(screenshots / "duplicate_table_phone.png"), full_page=True)
    fits(page, 390)

    # the étuis page before the entry: the étui to come shows nothing of the other tables
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/etuis/")
    assert "Pas encore joué" in page.locator(f"#etui-{board}").inner_text()
    assert page.locator(f"#etui-{board} table").count() == 0

    # the result, entered as in free deals (summary), with the étui's dealer
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/?mode=summary")
    dealer = page.locator('[data-field="dealer"] > .choices > .choice').nth(etui.dealer).locator("input")
    assert dealer.is_checked()  # the étui's dealer, ready
    seat(page, "bid.taker", 1)
    choose(page, "bid.contract", "Garde")
    choose(page, "summary.oudlers", "2")
    page.get_by_label("Points du camp du preneur").fill("58")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
    result = page.locator(".dup-result")
    assert f"Étui {board}" in result.inner_text()
    assert re.search(r"\d+(,\d\d)?\u00a0%", result.inner_text())  # a no-break space before the sign
    assert "faussé" not in result.inner_text()
    page.screenshot(path=str(screenshots / "duplicate_result_phone.png"), full_page=True)
    fits(page, 390)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/etuis/")
    mine = page.locator(f"#etui-{board}")
    assert "Joueur" not in mine.inner_text() and "%" in mine.inner_text()
    page.screenshot(path=str(screenshots / "duplicate_etuis_phone.png"), full_page=True)
    fits(page, 390)

    # the travellers of round 2 are not public until the round is released
    assert page.goto(f"{live_server.url}/p/{tournament.slug}/etuis/{board}/").status == 404
    round_release(round=Round.objects.get(tournament=tournament, number=2))
    tasks.ranking_refresh(tournament.pk)
    page.goto(f"{live_server.url}/p/{tournament.slug}/etuis/")
    page.get_by_role("link", name=f"Étui {board}", exact=True).click()
    page.wait_for_url(re.compile(rf"/etuis/{board}/$"))
    text = page.locator("main").inner_text()
    assert "Marie-Bernadette Delacroix-Montfort" in text or "Table 1" in text
    page.screenshot(path=str(screenshots / "duplicate_traveller_phone.png"), full_page=True)
    fits(page, 390)

    # the ranking by percentage reads « 83,33 % », with its unit (a walk saw « 83,33 » alone)
    page.goto(f"{live_server.url}/p/{tournament.slug}/ranking/")
    first = page.locator("#ranking tbody tr[data-entry]").first.locator("td").nth(3).inner_text()
    assert re.fullmatch(r"\d+(,\d\d)?\u00a0%", first.strip()), first
    page.screenshot(path=str(screenshots / "duplicate_ranking_phone.png"), full_page=True)
    fits(page, 390)

    # the hall screen ranks by percentage; the wide pages with the long names
    wide = chromium.new_context(viewport=WIDE, locale="fr-FR").new_page()
    wide.goto(f"{live_server.url}/p/{tournament.slug}/ranking/")
    assert re.search(r"\d+,\d\d\u00a0%", wide.locator("#ranking").inner_text())
    wide.screenshot(path=str(screenshots / "duplicate_ranking_wide.png"), full_page=True)
    fits(wide, 1366)
    wide.goto(f"{live_server.url}/p/{tournament.slug}/screen/")
    assert re.search(r"\d+,\d\d\u00a0%", wide.locator("main").inner_text())
    wide.screenshot(path=str(screenshots / "duplicate_screen_wide.png"), full_page=True)
    fits(wide, 1366)
    wide.goto(f"{live_server.url}/p/{tournament.slug}/etuis/{board}/")
    wide.screenshot(path=str(screenshots / "duplicate_traveller_wide.png"), full_page=True)
    fits(wide, 1366)
    wide.context.close()
