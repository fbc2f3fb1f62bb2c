"""The arbiters' desk tap page could not be reloaded without network (a phone walk: a deal kept offline, the page
reloaded, Chromium's « ERR_INTERNET_DISCONNECTED »): no service worker controlled the desk's pages. Now the desk's
entry pages of a table have one (its scope: the table's entry pages), the page reloads offline from it, with the
deal kept on the device counted; online, the page comes from the server, never a stale copy."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_entry_desk import desk  # noqa: F401  (the fixture)
from tests.browser.test_table_links import _summary
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_tap_page_reloads_offline_with_its_kept_deal(live_server, phone, desk):  # noqa: F811
    page, table = phone, desk
    context = page.context
    url = f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary"
    page.goto(url)
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill("secret-pass")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/deal/play/"))
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=30_000)
    assert page.locator("main h1").inner_text().strip() == "Donne 1"
    context.set_offline(True)
    _summary(page, dealer=0, taker=1, contract="Garde", oudlers="2", points="50")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.locator("#offline-entry li.outbox-waiting").first.wait_for()
    page.reload()  # before: ERR_INTERNET_DISCONNECTED
    page.locator("#offline-entry li.outbox-waiting").first.wait_for()
    page.wait_for_function("document.querySelector('main h1').innerText.trim() === 'Donne 2'")
    assert "Donne 1 gardée sur cet appareil" in page.locator("#kept-here").inner_text()
    context.set_offline(False)
    page.evaluate("window.LeveeOffline.flush()")
    page.locator("#offline-entry li.outbox-sent").first.wait_for()
    assert list(Deal.objects.filter(table=table).values_list("number", flat=True)) == [1]
    # online, the page is the server's: the deal just saved is on its sheet, the heading the next deal's
    page.reload()
    assert page.locator("main h1").inner_text().strip() == "Donne 2"


def test_the_desk_expert_page_opened_first_reloads_offline(live_server, phone, desk):  # noqa: F811
    """The expert entry (the JSON record) did not register the desk's service worker: opened first, then reloaded
    without network, it was Chromium's error page. Now every entry page of the table registers it."""
    page, table = phone, desk
    url = f"{live_server.url}/desk/tables/{table.pk}/deal/?mode=record"
    page.goto(url)
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill("secret-pass")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/deal/"))
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=30_000)
    page.context.set_offline(True)
    page.reload()
    page.locator("#deal-form textarea[name=record]").wait_for()
    assert page.locator("main h1").inner_text().strip() == "Donne 1"
