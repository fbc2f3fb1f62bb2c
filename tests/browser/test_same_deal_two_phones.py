"""Two phones at one table (a phone walk: the table's link and the arbiter both entered « Donne 1 »; both were
saved, the second as « Donne 2 », and the ranking counted both). Now the second phone is told, nothing saved,
what it entered kept; tapped again it is the next deal. Deals kept on a phone without network, one after the
other, are all saved when the network returns (each follows the one before it)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_table_links import _summary, _tournament
from tests.integration.builders import make_round
from tournaments.deals.models import Deal
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(chromium):
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR", is_mobile=True,
                                   has_touch=True, service_workers="block")
    context.set_default_timeout(30_000)
    return context


def test_the_same_deal_from_two_phones_is_saved_once(chromium, live_server, screenshots):
    t, entries = _tournament("deux-telephones")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    url = f"{live_server.url}/k/{link.token}/deal/?mode=summary"
    first, second = _phone(chromium), _phone(chromium)
    try:
        a, b = first.new_page(), second.new_page()
        for page in (a, b):
            page.goto(url)
            _summary(page, dealer=0, taker=1, contract="Garde", oudlers="2", points="50")
        a.get_by_role("button", name="Vérifier et enregistrer").click()
        a.wait_for_url(f"**/k/{link.token}/deals/1/")
        b.get_by_role("button", name="Vérifier et enregistrer").click()
        problems = b.locator("#problems")
        problems.wait_for()
        text = problems.inner_text()
        assert "Non enregistrée" in text and "enfreint une règle" not in text, text
        assert "La donne 1 de cette table a déjà été enregistrée" in text and "elle sera la donne 2" in text, text
        assert "Tout ce que vous avez saisi reste sur cet appareil." in text
        b.screenshot(path=str(screenshots / "same_deal_two_phones_refused_phone.png"), full_page=True)
        assert Deal.objects.filter(table=table).count() == 1
        assert b.get_by_label("Points du camp du preneur").input_value() == "50"  # what it entered is kept
        # sent again it is deal 2: the heading says so, and deal 2's dealer (the next seat) is chosen and named
        # (a walk saved it with deal 1's dealer)
        assert b.locator("main h1").inner_text().strip() == "Donne 2"
        assert b.locator('[data-field="dealer"] > .choices > .choice input').nth(1).is_checked()
        assert "Le donneur de la donne 2 est Bruno" in text
        b.get_by_role("button", name="Vérifier et enregistrer").click()  # it was another deal: saved as the next
        b.wait_for_url(f"**/k/{link.token}/deals/2/")
        assert list(Deal.objects.filter(table=table).values_list("number", flat=True).order_by("number")) == [1, 2]
        assert Deal.objects.get(table=table, number=2).record["dealer"] == 1
    finally:
        first.close()
        second.close()


def test_deals_kept_without_network_one_after_the_other_are_all_saved(chromium, live_server, screenshots):
    t, entries = _tournament("hors-reseau-suite")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    context = _phone(chromium)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        context.set_offline(True)
        for dealer, points in ((0, "50"), (1, "60")):
            _summary(page, dealer=dealer, taker=2, contract="Garde", oudlers="2", points=points)
            page.get_by_role("button", name="Vérifier et enregistrer").click()
            page.wait_for_function(f"document.querySelectorAll('#offline-entry li.outbox-waiting').length === "
                                   f"{dealer + 1}")
            # said at the top, and the page is the next deal's, dealt by the next seat (a walk entered the same
            # deal again: the page showed the same « Donne 1 », empty, the note far below the cards)
            kept = page.locator("#kept-here")
            assert f"Donne {dealer + 1} gardée sur cet appareil" in kept.inner_text()
            assert f"la donne {dealer + 2}" in kept.inner_text()
            assert page.locator("main h1").inner_text().strip() == f"Donne {dealer + 2}"
            assert page.locator('[data-field="dealer"] > .choices > .choice input').nth(dealer + 1).is_checked()
            if dealer == 0:
                page.screenshot(path=str(screenshots / "outbox_deal_kept_phone.png"))
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.wait_for_function("document.querySelectorAll('#offline-entry li.outbox-sent').length === 2")
        assert not page.locator("#offline-entry li.outbox-refused").count()
        assert list(Deal.objects.filter(table=table).values_list("number", flat=True).order_by("number")) == [1, 2]
        page.screenshot(path=str(screenshots / "outbox_two_deals_sent_phone.png"), full_page=True)
    finally:
        context.close()
