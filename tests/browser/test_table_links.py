"""The table in the players' hands, in Chromium at phone size: a table enters a deal through its link without an
account, the four players confirm it on their own phones (four browser contexts, their player links) and the
live ranking moves; a player disputes the next deal and the chief arbiter sees the call; a revoked link is refused.
Screenshots at 390×844 and 1366×900 with a long name, in bench/out/.

Marks by hand (FFT): Bruno's garde, 2 bouts, 49 points (41 needed): (25 + 8) × 2 = 66 a defender, +198 the taker.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_tap_entry import choose, seat
from tests.integration.builders import make_round, make_tournament
from tournaments.deals.models import Deal
from tournaments.event.models import Player, Round
from tournaments.links import service as links
from tournaments.links.models import ArbiterCall, DealAnswer, TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
DESKTOP = {"width": 1366, "height": 900}


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 2, f"{page.url} is {scroll}px wide"


def _tournament(slug: str):
    """A running tournament of Marie-Bernadette Delacroix-Montfort (a long name), Bruno, Chloé and David."""
    t, e = make_tournament(["Marie", "Bruno", "Chloé", "David"], slug=slug)  # the licence holds the short name
    Player.objects.filter(pk=e["Marie"].player_id).update(name=LONG)
    return t, [e[name] for name in ("Marie", "Bruno", "Chloé", "David")]


def _summary(page, *, dealer: int, taker: int, contract: str, oudlers: str, points: str) -> None:
    """The Tarot summary tapped on the tap page (the arbiter's own page, through the table's link)."""
    seat(page, "dealer", dealer)
    seat(page, "bid.taker", taker)
    choose(page, "bid.contract", contract)
    choose(page, "summary.oudlers", oudlers)
    page.get_by_label("Points du camp du preneur").fill(points)


def _context(chromium, viewport=PHONE):
    context = chromium.new_context(viewport=viewport, device_scale_factor=1, locale="fr-FR",
                                   is_mobile=viewport == PHONE, has_touch=viewport == PHONE)
    context.set_default_timeout(30_000)
    return context


def _ranking_marks(page, live_server, slug: str) -> dict[str, str]:
    page.goto(f"{live_server.url}/p/{slug}/ranking/")
    rows = page.locator("#ranking tbody tr[data-entry]")
    return {rows.nth(i).locator("td").nth(1).inner_text().strip(): rows.nth(i).locator("td").nth(3).inner_text()
            .strip() for i in range(rows.count())}


def test_a_table_enters_its_players_confirm_one_disputes_and_a_revoked_link_is_refused(
        chromium, live_server, screenshots, django_user_model):
    t, entries = _tournament("tables")
    (table,) = make_round(t, 1, [entries])
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=t, tables_enter=True, unconfirmed_count=False)
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    link = links.link_for_table(table=table)
    player_links = [links.link_for_entry(entry=entry) for entry in entries]

    # the organizer prints the table cards (1366 wide) and the QR code is there
    desk = _context(chromium, DESKTOP)
    page = desk.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "boss")
    page.fill("input[name=password]", "pw-123456")
    page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/t/{t.slug}/rounds/1/cards/")
    assert page.locator("#card-1 svg").count() == 1 and LONG in page.locator("#card-1").inner_text()
    page.screenshot(path=str(screenshots / "table_cards_desktop.png"), full_page=True)
    fits(page, DESKTOP["width"])

    # the table's phone: no account, the link opens the table, the deal is entered on the arbiter's tap page
    table_phone = _context(chromium)
    tp = table_phone.new_page()
    tp.goto(f"{live_server.url}/k/{link.token}/")
    tp.screenshot(path=str(screenshots / "table_link_phone.png"), full_page=True)
    fits(tp, PHONE["width"])
    tp.get_by_role("link", name="Saisir une donne").click()
    tp.wait_for_url(re.compile(rf"/k/{link.token}/deal/$"))
    tp.locator("#pack").wait_for()  # card by card first, through the link's own URLs
    tp.locator("#net", has_text="Vérifié").wait_for()
    tp.get_by_role("link", name="Résumé").click()
    tp.wait_for_url(re.compile(rf"/k/{link.token}/deal/\?mode=summary$"))
    _summary(tp, dealer=0, taker=1, contract="Garde", oudlers="2", points="49")
    tp.screenshot(path=str(screenshots / "table_link_summary_phone.png"), full_page=True)
    fits(tp, PHONE["width"])
    tp.get_by_role("button", name="Vérifier et enregistrer").click()
    tp.wait_for_url(re.compile(rf"/k/{link.token}/deals/\d+/$"))
    deal = Deal.objects.get(table=table)
    assert deal.created_by is None
    assert tp.locator(".sheet-sum").inner_text().split()[-2:] == ["0", "✓"]
    tp.screenshot(path=str(screenshots / "table_link_deal_phone.png"), full_page=True)
    fits(tp, PHONE["width"])

    # not confirmed yet: nothing counts in the live ranking
    viewer = _context(chromium).new_page()
    assert set(_ranking_marks(viewer, live_server, t.slug).values()) == {"0"}

    # each player confirms on his own phone, through his own link
    for i, plink in enumerate(player_links):
        ctx = _context(chromium)
        pp = ctx.new_page()
        pp.goto(f"{live_server.url}/j/{plink.token}/")
        pp.get_by_role("button", name=re.compile(r"confirme la donne 1$")).click()
        pp.wait_for_load_state()
        if i == 0:
            pp.screenshot(path=str(screenshots / "player_link_phone.png"), full_page=True)
            fits(pp, PHONE["width"])
            assert pp.get_by_role("button", name=re.compile("Bruno")).count() == 0  # only his own answer
        ctx.close()
    assert DealAnswer.objects.filter(deal=deal, answer="confirmed").count() == 4
    marks = _ranking_marks(viewer, live_server, t.slug)
    assert (marks[LONG], marks["Bruno"], marks["Chloé"], marks["David"]) == ("-66", "198", "-66", "-66")

    # a second deal, disputed by Chloé at the table's phone: the chief arbiter sees the call
    tp.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
    _summary(tp, dealer=1, taker=2, contract="Petite", oudlers="1", points="40")
    tp.get_by_role("button", name="Vérifier et enregistrer").click()
    tp.wait_for_url(re.compile(rf"/k/{link.token}/deals/\d+/$"))
    tp.locator("summary", has_text="Chloé conteste la donne 2").click()
    tp.get_by_label(re.compile("Ce que Chloé conteste")).fill("Nous avions 41 points")
    tp.get_by_role("button", name="Envoyer la contestation").click()
    tp.wait_for_load_state()
    call = ArbiterCall.objects.get()
    assert call.reason == "dispute" and call.entry.player.name == "Chloé" and call.note == "Nous avions 41 points"
    page.goto(f"{live_server.url}/t/{t.slug}/arbiter/")
    assert "Chloé" in page.locator(f"#call-{call.pk}").inner_text()
    assert page.locator("#disputed li").count() == 1
    page.screenshot(path=str(screenshots / "chief_calls_desktop.png"), full_page=True)
    fits(page, DESKTOP["width"])
    page.get_by_role("button", name="Je m’en occupe").click()
    tp.goto(f"{live_server.url}/k/{link.token}/")
    assert "arrive" in tp.locator(f"#call-{call.pk}").inner_text()
    tp.screenshot(path=str(screenshots / "table_link_called_phone.png"), full_page=True)
    fits(tp, PHONE["width"])

    # the organizer revokes the card: the table's phone is refused at the next tap
    links.link_revoke(link=link, user=boss)
    response = tp.goto(f"{live_server.url}/k/{link.token}/")
    assert response.status == 410 and "plus valable" in tp.content()
    tp.screenshot(path=str(screenshots / "table_link_revoked_phone.png"), full_page=True)
    for ctx in (desk, table_phone, viewer.context):
        ctx.close()


def test_three_deals_entered_without_network_arrive_once_each(chromium, live_server, screenshots):
    t, entries = _tournament("hors-ligne")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    context = _context(chromium)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        # what is tapped survives a reload (kept on the device as it is tapped)
        seat(page, "bid.taker", 2)
        page.get_by_label("Points du camp du preneur").fill("57")
        page.reload()
        assert page.get_by_label("Points du camp du preneur").input_value() == "57"
        assert page.locator('[data-field="bid.taker"] > .choices > .choice').nth(2).locator("input").is_checked()
        context.set_offline(True)
        for i, (taker, points) in enumerate([(1, "49"), (2, "41"), (3, "60")], start=1):
            _summary(page, dealer=i - 1, taker=taker, contract="Garde", oudlers="2", points=points)
            page.get_by_role("button", name="Vérifier et enregistrer").click()
            page.locator("#offline-entry li.outbox-waiting").nth(i - 1).wait_for()
            assert page.get_by_label("Points du camp du preneur").input_value() == ""  # ready for the next deal
        assert Deal.objects.filter(table=table).count() == 0
        # a reload without network: the page comes from the service worker, the three deals from IndexedDB
        page.reload()
        page.locator("#offline-entry li.outbox-waiting").nth(2).wait_for()
        page.screenshot(path=str(screenshots / "offline_waiting_phone.png"), full_page=True)
        fits(page, PHONE["width"])
        context.set_offline(False)
        page.locator("#offline-entry li.outbox-sent").nth(2).wait_for()
        page.evaluate("window.LeveeOffline.flush()")  # sending again sends nothing twice
        assert page.locator("#offline-entry li.outbox-waiting").count() == 0
        page.screenshot(path=str(screenshots / "offline_sent_phone.png"), full_page=True)
        deals = list(Deal.objects.filter(table=table).order_by("number"))
        assert [d.number for d in deals] == [1, 2, 3]
        assert [d.record["bid"]["taker"] for d in deals] == [1, 2, 3]
    finally:
        context.close()
