"""A tablet shared at the venue: « Déconnexion » left the desk's kept pages behind (a seam an earlier walk found).
Arbiter A typed offline on the desk's tap page (a deal kept in the outbox, the next deal started) and on the expert
page (a draft), logged out; arbiter B, signing in on the same browser, got A's deal in his page's outbox list and
his outbox sent it under B's name, A's half-typed deal and draft on his forms, and the copies of A's pages in the
service worker's cache. Now what the desk keeps on the device is A's alone (an opaque mark of his account on the
page): logging out with a deal not saved on the server says so first (send it, keep it for me, stay), the desk's
cached pages go, B sees nothing of A's, and A signing in again is told of his deal and gets it sent, his drafts
back."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE, french_page, size_name
from tests.browser.test_entry_desk import desk  # noqa: F401  (the fixture)
from tests.browser.test_table_links import _summary
from tests.browser.test_tap_entry import seat
from tests.tournaments.factories import UserFactory, role
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DRAFT = '{"dealer": 1, "note": "brouillon de A"}'


def _login(page, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Identifiant").fill(username)
    page.get_by_label("Mot de passe").fill("secret-pass")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_load_state()


def _desk_caches(page) -> list[str]:
    return page.evaluate("caches.keys().then(keys => keys.filter(k => k.startsWith('levee-desk-')))")


def test_the_next_arbiter_sees_nothing_of_the_last_ones_kept_pages_and_he_gets_his_deal_back(
        live_server, phone, desk, screenshots):  # noqa: F811
    page, table = phone, desk
    other = UserFactory(username="arbitre-b")
    role(table.round.tournament, other, "arbiter", [table])  # B enters the deals of the same table
    context = page.context
    play = f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary"
    expert = f"{live_server.url}/desk/tables/{table.pk}/deal/?mode=record"

    # A: a deal kept offline on the tap page and the next one started, then a draft on the expert page
    _login(page, play, "arbitre")
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=30_000)
    context.set_offline(True)
    _summary(page, dealer=0, taker=1, contract="Garde", oudlers="2", points="50")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.locator("#offline-entry li.outbox-waiting").first.wait_for()
    seat(page, "bid.taker", 2)  # the next deal begun: Chloé takes
    assert _desk_caches(page), "the desk's pages are kept for offline use"
    page.goto(expert)  # from the service worker's copy
    page.locator("#deal-form textarea[name=record]").fill(DRAFT)
    page.wait_for_timeout(300)  # the draft is written on « input »
    # the network back for the pages, not yet for the deal (it must still be waiting when A logs out)
    context.route("**/deal/offline/", lambda route: route.abort())
    context.set_offline(False)

    # A logs out: told first that a deal of his is not saved yet; he keeps it for himself
    page.get_by_role("button", name="Déconnexion").click()
    dialog = page.get_by_role("dialog", name="Donnes pas encore envoyées")
    dialog.wait_for()
    assert "1 donne gardée sur cet appareil n’est pas encore enregistrée." in dialog.inner_text()
    page.screenshot(path=str(screenshots / "logout_kept_dialog_phone.png"), full_page=True)
    dialog.get_by_role("button", name="Les garder pour moi et me déconnecter").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("link", name="Connexion").count() == 1
    assert _desk_caches(page) == []  # the copies of A's pages are gone

    # B on the same browser: nothing of A's, and A's deal is not sent under B's name
    _login(page, play, "arbitre-b")
    page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/deal/play/"))
    page.locator('[data-field="bid.taker"]').wait_for()
    page.wait_for_timeout(500)  # the outbox read and sent, if it were
    assert page.locator("main h1").inner_text().strip() == "Donne 1"
    assert page.locator("#offline-entry li").count() == 0
    assert page.locator("#kept-here").count() == 0 or page.locator("#kept-here").inner_text().strip() == ""
    assert page.locator('[data-field="bid.taker"] .choice input:checked').count() == 0
    assert "reprise" not in page.locator("main").inner_text()
    assert page.evaluate("window.LeveeOffline.items().then(items => items.length)") == 0
    assert not Deal.objects.filter(table=table).exists()
    page.goto(expert)
    page.locator("#deal-form textarea[name=record]").wait_for()
    page.wait_for_timeout(300)
    assert "brouillon de A" not in page.locator("#deal-form textarea[name=record]").input_value()
    page.screenshot(path=str(screenshots / "logout_next_arbiter_expert_phone.png"), full_page=True)
    # B has nothing kept: he logs out at once
    page.get_by_role("button", name="Déconnexion").click()
    page.wait_for_url(f"{live_server.url}/")

    # A again: told of his deal waiting here, it is sent from his table's page, his drafts are back
    context.unroute("**/deal/offline/")
    _login(page, f"{live_server.url}/desk/", "arbitre")
    note = page.locator("#kept-waiting")
    note.wait_for()
    assert "1 donne gardée sur cet appareil n’est pas encore enregistrée." in note.inner_text()
    page.screenshot(path=str(screenshots / "logout_kept_back_phone.png"), full_page=True)
    note.get_by_role("link", name="Ouvrir sa table pour l’envoyer").click()
    page.locator("#offline-entry li.outbox-sent").first.wait_for()
    deal = Deal.objects.get(table=table)
    assert deal.number == 1 and deal.created_by.username == "arbitre"
    page.goto(play)  # the next deal he had begun, in the summary he typed it in
    page.locator('[data-field="bid.taker"]').wait_for()
    assert page.locator('[data-field="bid.taker"] .choice').nth(2).locator("input").is_checked()
    page.goto(expert)
    page.wait_for_function("document.querySelector('#deal-form textarea[name=record]').value"
                           ".includes('brouillon de A')")


def test_logging_out_with_a_deal_not_sent_offers_to_send_it_first(live_server, phone, desk):  # noqa: F811
    page, table = phone, desk
    context = page.context
    play = f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary"
    _login(page, play, "arbitre")
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=30_000)
    context.set_offline(True)
    _summary(page, dealer=0, taker=1, contract="Garde", oudlers="2", points="50")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.locator("#offline-entry li.outbox-waiting").first.wait_for()
    context.route("**/deal/offline/", lambda route: route.abort())
    context.set_offline(False)
    page.get_by_role("button", name="Déconnexion").click()
    dialog = page.get_by_role("dialog", name="Donnes pas encore envoyées")
    dialog.get_by_role("button", name="Rester connecté").click()
    assert not dialog.is_visible()
    context.unroute("**/deal/offline/")
    page.get_by_role("button", name="Déconnexion").click()
    dialog.get_by_role("link", name="Les envoyer d’abord").click()
    page.locator("#offline-entry li.outbox-sent").first.wait_for()
    assert Deal.objects.filter(table=table, number=1).exists()
    # sent: logging out asks nothing more
    page.get_by_role("button", name="Déconnexion").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("link", name="Connexion").count() == 1


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1366, "height": 900}], ids=["phone", "desktop"])
def test_the_logout_dialog_and_the_note_fit_with_a_long_name(chromium, live_server, desk, screenshots,  # noqa: F811
                                                              viewport):
    """The dialog and the note at 390 and 1366 px, a long user name in the bar; named controls."""
    table = desk
    long_user = UserFactory(username="Marie-Bernadette Delacroix-Montfort")
    role(table.round.tournament, long_user, "arbiter", [table])
    with french_page(chromium, viewport) as page:
        _login(page, f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary",
               "Marie-Bernadette Delacroix-Montfort")
        page.locator('[data-field="bid.taker"]').wait_for()
        page.evaluate("window.LeveeOffline.enqueue('/nowhere/', [['after', '0']], null, {title: 'Donne 1'})")
        page.goto(f"{live_server.url}/desk/")
        note = page.locator("#kept-waiting")
        note.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(screenshots / f"logout_kept_note_{size_name(viewport)}.png"), full_page=True)
        page.get_by_role("button", name="Déconnexion").click()
        dialog = page.get_by_role("dialog", name="Donnes pas encore envoyées")
        dialog.wait_for()
        box = dialog.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        for name in ("Les garder pour moi et me déconnecter", "Rester connecté"):
            assert dialog.get_by_role("button", name=name).is_visible()
        page.screenshot(path=str(screenshots / f"logout_kept_dialog_{size_name(viewport)}.png"), full_page=True)
        page.keyboard.press("Escape")  # the keyboard closes it: still signed in
        assert not dialog.is_visible()
        assert page.get_by_role("button", name="Déconnexion").is_visible()
