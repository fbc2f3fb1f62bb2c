"""A deal kept on the phone without network, then sent: the box at the top of the tap page said « Donne 1 gardée
sur cet appareil, faute de réseau… » long after the outbox had sent it (a walk: the table believed it still had to
wait). Now, once sent, the box says « Donne 1 envoyée. »; refused when it arrives (another phone saved deal 1
meanwhile), it says so plainly, and that the deal is not lost: it stays on the phone to be fixed.
At 390×844 and 1366×900, with a long name at the table; screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_table_links import _summary, _tournament
from tests.integration.builders import make_round
from tests.tournaments.factories import UserFactory, role, tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 900}


def _context(chromium, viewport):
    context = chromium.new_context(viewport=viewport, device_scale_factor=1, locale="fr-FR",
                                   is_mobile=viewport == PHONE, has_touch=viewport == PHONE, service_workers="block")
    context.set_default_timeout(30_000)
    return context


def _keep_one_offline(context, page, url):
    page.goto(url)
    context.set_offline(True)
    _summary(page, dealer=0, taker=2, contract="Garde", oudlers="2", points="50")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.wait_for_function("document.querySelectorAll('#offline-entry li.outbox-waiting').length === 1")
    assert "Donne 1 gardée sur cet appareil" in page.locator("#kept-here").inner_text()


@pytest.mark.parametrize("label, viewport", [("phone", PHONE), ("laptop", LAPTOP)])
def test_the_box_says_the_deal_was_sent(chromium, live_server, screenshots, label, viewport):
    t, entries = _tournament(f"gardee-puis-envoyee-{label}")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    context = _context(chromium, viewport)
    try:
        page = context.new_page()
        _keep_one_offline(context, page, f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.wait_for_function("document.querySelectorAll('#offline-entry li.outbox-sent').length === 1")
        box = page.locator("#kept-here")
        page.wait_for_function("!document.getElementById('kept-here').innerText.includes('gardée')")
        text = box.inner_text()
        assert "Donne 1 envoyée." in text, text
        assert "faute de réseau" not in text and "partira" not in text
        assert list(Deal.objects.filter(table=table).values_list("number", flat=True)) == [1]
        page.screenshot(path=str(screenshots / f"kept_box_sent_{label}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
    finally:
        context.close()


@pytest.mark.parametrize("label, viewport", [("phone", PHONE), ("laptop", LAPTOP)])
def test_the_box_says_plainly_the_deal_was_refused_and_kept(chromium, live_server, screenshots, label, viewport):
    t, entries = _tournament(f"gardee-puis-refusee-{label}")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    arbiter = UserFactory(username=f"arbitre-{label}")
    role(t, arbiter, "chief_arbiter")
    context = _context(chromium, viewport)
    try:
        page = context.new_page()
        _keep_one_offline(context, page, f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        # meanwhile the arbiter saved deal 1 of this table from his own device: the phone's deal 1 is refused
        deal_record(table=table, record=tarot_summary(dealer=0, taker=1, points=60), user=arbiter)
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.wait_for_function("document.querySelectorAll('#offline-entry li.outbox-refused').length === 1")
        page.wait_for_function("!document.getElementById('kept-here').innerText.includes('gardée')")
        text = page.locator("#kept-here").inner_text()
        assert "Donne 1 refusée" in text, text
        assert "La donne 1 de cette table a déjà été enregistrée" in text, text  # the server's reason
        assert "pas perdue" in text and "reste sur cet appareil" in text, text
        assert "envoyée" not in text
        assert list(Deal.objects.filter(table=table).values_list("number", flat=True)) == [1]
        page.screenshot(path=str(screenshots / f"kept_box_refused_{label}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
    finally:
        context.close()
