"""Correcting a saved Triomphe deal on the tap page, on a phone (390×844) in Debian's Chromium.

La Triomphe at two, forcée (RULES.md §2.1, §2.4), order R D V As 10 9 8 7, hearts trump (retourne 9♥); Bruno
deals, Ana leads. Saved: 1 R♠/7♠ Ana; 2 7♦/R♦ Bruno; 3 8♣/D♣ Ana; 4 8♠/D♠ Bruno; 5 V♣/7♣ Bruno: Bruno 3 tricks
of 5, the point: 0 and 1. Corrected: at trick 5 Ana trumped with the 7♥ instead of following with the 7♣: the
trick is hers, Ana 3 tricks of 5, the point hers: 1 and 0.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_tap_entry import LONG, fits, login, table_for
from tests.tournaments.factories import role
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVED = {"dealer": 1, "turn_up": "9H",
         "tricks": [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["8S", "QS"], ["JC", "7C"]]}


@pytest.fixture
def chief(transactional_db, settings):
    from tests.tournaments.factories import UserFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def test_triomphe_deal_corrected_by_undoing_its_last_card(live_server, chromium, chief, screenshots):
    table = table_for(chief, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
    role(table.round.tournament, chief, "chief_arbiter")
    deal = deal_record(table=table, record=SAVED, user=chief)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    # the draft of the new deal, kept under the table's key and the arbiter's mark
    draft_of = "prefix => localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith(prefix)))"
    try:
        login(page, live_server)
        # a new deal being typed at the same table: its draft must survive the correction
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
        page.locator('[data-field="dealer"] > .choices > .choice').nth(0).click()
        draft = page.evaluate(draft_of, f"levee:deal:{table.pk}:play:")
        assert draft and '"dealer":0' in draft

        page.goto(f"{live_server.url}/desk/deals/{deal.pk}/")
        page.get_by_role("link", name=re.compile("Corriger")).first.click()
        page.wait_for_url(re.compile(r"/correct/play/$"))
        # pre-filled from the record: every trick entered, the last one shown with its winner
        page.locator("#play-title", has_text="Tous les plis").wait_for()
        page.locator("#net", has_text="Vérifié").wait_for()
        assert "remporté par " + LONG[1] in page.locator("#trick-winner").inner_text()
        assert page.locator('[data-field="dealer"] input:checked').count() == 1
        page.reload()  # nothing changed yet: no « restored » notice
        page.locator("#net", has_text="Vérifié").wait_for()
        assert page.get_by_text("Correction en cours retrouvée").count() == 0
        page.screenshot(path=str(screenshots / "correct_triomphe_phone.png"), full_page=True)
        fits(page)

        page.click("#undo")
        page.locator("#play-title", has_text="Pli 5 sur 5").wait_for()
        page.locator('#pack button[data-code="7H"]').click()
        page.locator("#play-title", has_text="Tous les plis").wait_for()
        page.locator("#net", has_text="Vérifié").wait_for()
        assert "remporté par " + LONG[0] in page.locator("#trick-winner").inner_text()
        # the reason is asked before anything is sent
        page.click("#save")
        page.locator("#problems", has_text="Indiquez le motif").wait_for()
        assert Deal.objects.get(pk=deal.pk).version == 1
        page.fill("#reason", "Atout au pli 5 mal relevé")
        # a reload loses nothing: the correction and its reason come back from the device
        page.reload()
        page.locator("#net", has_text="Vérifié").wait_for()
        assert page.get_by_text("Correction en cours retrouvée sur cet appareil.").is_visible()
        assert "remporté par " + LONG[0] in page.locator("#trick-winner").inner_text()
        assert page.input_value("#reason") == "Atout au pli 5 mal relevé"
        page.screenshot(path=str(screenshots / "correct_triomphe_phone_ready.png"), full_page=True)
        fits(page)
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        assert page.locator("#scores tbody td").all_inner_texts() == ["1", "0"]
        body = page.locator("main").inner_text()
        assert "Atout au pli 5 mal relevé" in body and "Version 2" in body
        # the new deal's draft was left alone
        assert page.evaluate(draft_of, f"levee:deal:{table.pk}:play:") == draft

        # the correction page at desktop width
        wide = chromium.new_context(viewport={"width": 1366, "height": 900}, locale="fr-FR",
                                    storage_state=context.storage_state())
        desk = wide.new_page()
        desk.goto(f"{live_server.url}/desk/deals/{deal.pk}/correct/")
        desk.locator("#net", has_text="Vérifié").wait_for()
        desk.screenshot(path=str(screenshots / "correct_triomphe_desktop.png"), full_page=True)
        fits(desk)
        wide.close()
    finally:
        context.close()
