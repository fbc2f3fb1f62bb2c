"""A deal typed offline was lost after an offline reload (a phone walk on a table's link): deal 2 kept on the
phone without network, the page reloaded still offline came back to « Donne 2 », the next deal was typed as deal 2
again, and when the network returned the phone's own first deal made its second one « a deal already saved from
another device »: refused, the form empty, the deal gone. Now the reloaded page counts the deals waiting in this
device's outbox (« Donne 4 », the kept box listing them, the next dealer moved on), each outbox line says which
deal it is (« Donne 2 · Bruno (preneur) · garde — en attente du réseau »), the deals kept one after another are
sent in order, each after the one before it, and a deal refused nevertheless stays on the device and can be opened
back into the page to be fixed and sent."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_table_links import _context, _summary, _tournament
from tests.integration.builders import make_round
from tests.tournaments.factories import UserFactory, role, tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVE = "Vérifier et enregistrer"


def _heading(page) -> str:
    return page.locator("main h1").inner_text().strip()


def _dealer(page) -> int:
    return page.locator('[data-field="dealer"] > .choices > .choice input').evaluate_all(
        "inputs => inputs.findIndex(i => i.checked)")


def _setup(slug: str):
    t, entries = _tournament(slug)
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    arbiter = UserFactory(username=f"arbitre-{slug}")
    role(t, arbiter, "chief_arbiter")
    deal_record(table=table, record=tarot_summary(dealer=0, taker=0, points=60), user=arbiter)  # deal 1, online
    return table, links.link_for_table(table=table), arbiter


def test_a_deal_kept_offline_survives_an_offline_reload_and_both_arrive_in_order(chromium, live_server, screenshots):
    table, link, _ = _setup("recharge-hors-ligne")
    context = _context(chromium)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("!!navigator.serviceWorker.controller")
        assert _heading(page) == "Donne 2"
        context.set_offline(True)
        _summary(page, dealer=1, taker=1, contract="Garde", oudlers="2", points="50")
        page.get_by_role("button", name=SAVE).click()
        page.locator("#offline-entry li.outbox-waiting").first.wait_for()
        assert "Vous saisissez maintenant la donne 3" in page.locator("#kept-here").inner_text()
        # the reload, still offline: the page counts the deal waiting on this device
        page.reload()
        page.locator("#offline-entry li.outbox-waiting").first.wait_for()
        page.wait_for_function("document.querySelector('main h1').innerText.trim() === 'Donne 3'")
        assert "Donne 2 gardée sur cet appareil" in page.locator("#kept-here").inner_text()
        line = page.locator("#offline-entry li.outbox-waiting").first.inner_text()
        assert "Donne 2 · Bruno (preneur) · garde — en attente du réseau" in line, line
        assert _dealer(page) == 2  # the next seat deals, as when the deal was kept
        _summary(page, dealer=2, taker=2, contract="Petite", oudlers="2", points="60")
        page.get_by_role("button", name=SAVE).click()
        page.locator("#offline-entry li.outbox-waiting").nth(1).wait_for()
        assert _heading(page) == "Donne 4"
        lines = page.locator("#offline-entry li.outbox-waiting").all_inner_texts()
        assert "Donne 3 · Chloé (preneur) · petite" in lines[1], lines
        page.screenshot(path=str(screenshots / "offline_reload_two_kept_phone.png"), full_page=True)
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.locator("#offline-entry li.outbox-sent").nth(1).wait_for()
        assert page.locator("#offline-entry li.outbox-refused").count() == 0
        deals = list(Deal.objects.filter(table=table).order_by("number"))
        assert [(d.number, d.record["bid"]["taker"]) for d in deals] == [(1, 0), (2, 1), (3, 2)]
        page.wait_for_function("!document.getElementById('kept-here').innerText.includes('gardée')")
        text = page.locator("#kept-here").inner_text()
        assert "Donne 2 envoyée." in text and "Donne 3 envoyée." in text, text
        assert _heading(page) == "Donne 4"
    finally:
        context.close()


def test_a_kept_deal_refused_stays_and_opens_back_into_the_page(chromium, live_server, screenshots):
    table, link, arbiter = _setup("refusee-reprise")
    context = _context(chromium, PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        page.wait_for_function("!!navigator.serviceWorker.controller")
        context.set_offline(True)
        _summary(page, dealer=1, taker=3, contract="Garde", oudlers="2", points="50")
        page.get_by_role("button", name=SAVE).click()
        page.locator("#offline-entry li.outbox-waiting").first.wait_for()
        assert _heading(page) == "Donne 3"
        # meanwhile the arbiter saves deal 2 from his own device: the phone's deal 2 is refused when it arrives
        deal_record(table=table, record=tarot_summary(dealer=1, taker=1, points=60), user=arbiter)
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.locator("#offline-entry li.outbox-refused").first.wait_for()
        # the server's reasons read as sentences (they were joined by « ; »: « … la donne 3. ; Le donneur … »)
        refused = page.locator("#offline-entry li.outbox-refused").first.inner_text()
        assert ". ;" not in refused and "elle sera la donne 3. Le donneur de la donne 3 est" in refused, refused
        # the heading follows: deal 2 is the table's, the page enters deal 3
        page.wait_for_function("document.querySelector('main h1').innerText.trim() === 'Donne 3'")
        # reloaded, the refused deal is still there, and opens back into the page with its values
        page.reload()
        reopen = page.get_by_role("button", name="Reprendre cette donne")
        reopen.wait_for()
        # the sentence beside the button says what the button does (it said « à corriger avec l'arbitre »)
        said = page.locator("#kept-here .kept-line.msg-error").inner_text()
        assert said.startswith("Donne 2 refusée à son arrivée : ") and "à corriger avec l'arbitre" not in said, said
        assert "Elle n'est pas perdue : elle reste sur cet appareil. Reprenez-la pour la corriger, puis " \
               "enregistrez-la de nouveau." in said, said
        page.screenshot(path=str(screenshots / "kept_refused_reopen_phone.png"), full_page=True)
        reopen.click()
        # the deal opens back once the outbox let it go (asynchronous): waited for, not read at once (a race)
        expect(page.get_by_label("Points du camp du preneur")).to_have_value("50")
        assert page.locator('[data-field="bid.taker"] > .choices > .choice').nth(3).locator("input").is_checked()
        page.get_by_role("button", name=SAVE).click()
        page.wait_for_url(f"**/k/{link.token}/deals/3/")
        deals = list(Deal.objects.filter(table=table).order_by("number"))
        assert [(d.number, d.record["bid"]["taker"]) for d in deals] == [(1, 0), (2, 1), (3, 3)]
    finally:
        context.close()


def test_two_deals_kept_with_the_same_after_are_sent_one_after_the_other(chromium, live_server):
    """An outbox holding two deals of this device that both knew the table at deal 1 (a page that forgot the
    first, as the reload did): the second is sent after the first, not refused as « another device's »."""
    table, link, _ = _setup("meme-after")
    context = _context(chromium)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        context.set_offline(True)
        _summary(page, dealer=1, taker=1, contract="Garde", oudlers="2", points="50")
        page.get_by_role("button", name=SAVE).click()
        page.locator("#offline-entry li.outbox-waiting").first.wait_for()
        page.evaluate("""async () => {
          const [first] = (await window.LeveeOffline.items()).filter((i) => i.state === "waiting");
          const fields = first.fields.map(([k, v]) => k === "record"
            ? [k, JSON.stringify(Object.assign(JSON.parse(v),
                                               {dealer: 2, bid: {taker: 3, contract: "garde", called: null}}))]
            : [k, v]);
          await new Promise((r) => setTimeout(r, 5));
          await window.LeveeOffline.enqueue(first.url_post, fields, null, {});
        }""")
        page.locator("#offline-entry li.outbox-waiting").nth(1).wait_for()
        afters = page.evaluate("""async () => (await window.LeveeOffline.items())
          .map((i) => i.fields.find(([k]) => k === "after")[1])""")
        assert afters == ["1", "1"]
        context.set_offline(False)
        page.evaluate("window.LeveeOffline.flush()")
        page.wait_for_function("document.querySelectorAll('#offline-entry li.outbox-waiting').length === 0")
        assert page.locator("#offline-entry li.outbox-refused").count() == 0
        deals = list(Deal.objects.filter(table=table).order_by("number"))
        assert [(d.number, d.record["bid"]["taker"]) for d in deals] == [(1, 0), (2, 1), (3, 3)]
    finally:
        context.close()
