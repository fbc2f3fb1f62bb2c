"""The tap pages for people without a mouse or without sight (issue 19 item 5), in Debian's Chromium.

* axe-core (vendored, tests/browser/vendor/axe-4.14.1.min.js, MPL-2.0) finds no violation on the tap page of each
  game, card by card and in summary: a card button's accessible name holds its visible label (« R♠ · roi de
  pique »);
* one trick entered with the keyboard alone, at most 2 key presses per card: the focus stays on the pack after
  each card, the arrow keys move within it;
* L'Écarté's « Écart et reprise » shows the fields of the discarded and drawn cards at once;
* L'Impériale: a deal saved with no Point declared is reminded of it first.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.test_tap_entry import login, pick_cards, seat, table_for
from tests.tournaments.factories import UserFactory
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-4.14.1.min.js").read_text(encoding="utf-8")

@pytest.fixture
def arbiter(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


GAMES = [("triomphe", {}, 2), ("ecarte", {}, 2), ("imperiale", {"players": 2}, 2),
         ("vingt-quatre", {"honours": "figures", "target": 24}, 4), ("tarot", {}, 4)]
NAMES = ["Ana", "Bruno", "Chloé", "David"]


def axe_violations(page) -> list[str]:
    page.add_script_tag(content=AXE)
    # label-content-name-mismatch is one of axe's experimental rules: asked for by name
    found = page.evaluate("async () => (await axe.run(document, {rules: {'label-content-name-mismatch': "
                          "{enabled: true}}})).violations.map("
                          "v => v.id + ' ' + v.nodes.length + ' ' + v.nodes[0].target.join(' '))")
    return found


@pytest.mark.parametrize("game,options,players", GAMES)
def test_tap_pages_have_no_axe_violation(live_server, phone, arbiter, game, options, players):
    table = table_for(arbiter, game, options, NAMES[:players])
    page = phone
    login(page, live_server)
    for mode in ("", "?mode=summary"):
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/{mode}")
        page.locator("#deal-entry fieldset").first.wait_for()
        page.wait_for_timeout(300)
        assert axe_violations(page) == [], f"{game}{mode}"


def test_one_trick_by_keyboard_alone_in_two_presses_per_card(live_server, phone, arbiter):
    # La Triomphe at two (RULES.md §2): Bruno deals, Ana leads. Trick 1: R♠ then D♠ (the second card is the next
    # button of the pack once R♠ is gone from it).
    table = table_for(arbiter, "triomphe", {}, NAMES[:2])
    page = phone
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["9H"])
    page.locator("#net", has_text="Vérifié").wait_for()
    page.locator('#pack button[data-code="KS"]').focus()
    page.keyboard.press("Enter")  # R♠: 1 key
    page.locator("#trick .card", has_text="R♠").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    focused = page.evaluate("() => document.activeElement.closest('#pack') ? document.activeElement.dataset.code : ''")
    assert focused == "QS", f"the focus is not on the pack's next card but on {focused!r}"
    page.keyboard.press("ArrowRight")  # V♠, then back to D♠ with the arrow keys
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.code") == "QS"
    page.keyboard.press("Enter")  # D♠: 1 key (3 with the two arrows)
    page.locator("#trick-winner").wait_for()
    assert page.evaluate("() => !!document.activeElement.closest('#pack')")


def test_ecarte_exchange_fields_appear_at_once(live_server, phone, arbiter):
    table = table_for(arbiter, "ecarte", {}, NAMES[:2])
    page = phone
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    page.get_by_role("button", name=re.compile("Ajouter")).first.click()
    before = page.locator("[data-field]").count()
    page.locator(".list-entry .choice", has_text=re.compile("cart et reprise")).first.click()
    page.wait_for_timeout(200)
    assert page.locator("[data-field]").count() > before


def test_a_deal_without_a_point_is_reminded_first(live_server, phone, arbiter):
    table = table_for(arbiter, "imperiale", {"players": 2}, NAMES[:2])
    page = phone
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 1)
    page.click("#save")
    page.locator("#problems", has_text="Aucun point").wait_for()
    assert Deal.objects.count() == 0


@pytest.mark.parametrize("game,options,players,width", [
    ("imperiale", {"players": 2}, 2, 390), ("vingt-quatre", {"honours": "figures", "target": 24}, 4, 390),
    ("imperiale", {"players": 2}, 2, 1366)])
def test_the_points_value_typed_right_after_its_count_is_kept(live_server, chromium, arbiter, game, options,
                                                              players, width):
    # issue 19 item 5: the first value typed in the Point's « Valeur » right after « Nombre de cartes » was lost.
    # Typed at once (Playwright's key by key typing, no pause), then by the keyboard alone (Tab from the count).
    context = chromium.new_context(viewport={"width": width, "height": 844 if width < 500 else 900}, locale="fr-FR")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        table = table_for(arbiter, game, options, NAMES[:players])
        login(page, live_server)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
        box = page.locator('[data-field="announcements.point"]')
        box.locator("summary").click()  # « Déclarer : Le point »
        seat(page, "seat", 0, within='[data-field="announcements.point"]')
        count = box.get_by_label("Nombre de cartes")
        value = box.get_by_label(re.compile("Valeur"))
        count.press_sequentially("5")
        value.press_sequentially("48")
        page.wait_for_timeout(400)  # the form's redraw after a change, if any
        assert (box.get_by_label("Nombre de cartes").input_value(), box.get_by_label(re.compile("Valeur"))
                .input_value()) == ("5", "48")
        # by the keyboard alone: the count cleared and typed again, Tab, the value typed at once
        count = box.get_by_label("Nombre de cartes")
        count.fill("")
        count.focus()
        page.keyboard.type("4")
        page.keyboard.press("Tab")
        page.keyboard.press("Control+A")
        page.keyboard.type("39")
        page.wait_for_timeout(400)
        assert box.get_by_label(re.compile("Valeur")).input_value() == "39"
        # kept on the device too: a reload brings both back
        page.reload()
        box = page.locator('[data-field="announcements.point"]')
        if box.locator("details:not([open])").count():
            box.locator("summary").click()
        assert (box.get_by_label("Nombre de cartes").input_value(), box.get_by_label(re.compile("Valeur"))
                .input_value()) == ("4", "39")
    finally:
        context.close()


@pytest.mark.parametrize("game,options,players", GAMES)
def test_every_other_entry_page_has_no_axe_violation(live_server, phone, arbiter, game, options, players):
    """The entry pages test_tap_pages_have_no_axe_violation does not visit: the expert page, the deal's
    correction (card by card, and its form), the table's page and the deal's page at the desk; through the table's
    link (without an account) the link's home, its card-by-card page, its summary and its expert page."""
    from tests.tournaments.factories import role
    from tournaments.deals.record import deal_record
    from tournaments.event.models import Round
    from tournaments.links import service as links
    from tournaments.links.models import TablePolicy

    table = table_for(arbiter, game, options, NAMES[:players])
    tournament = table.round.tournament
    role(tournament, arbiter, "chief_arbiter")
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=tournament, tables_enter=True)
    summary = {"tarot": {"dealer": 0, "bid": {"taker": 1, "contract": "garde"},
                         "summary": {"oudlers": 2, "points": 49}},
               "triomphe": {"dealer": 1, "turn_up": "9H", "summary": {"tricks": [3, 2]}},
               "ecarte": {"dealer": 1, "turn_up": "9H", "exchanges": [{"seat": 0, "action": "play"}],
                          "summary": {"tricks": [3, 2]}},
               "imperiale": {"dealer": 1, "turn_up": "8H", "announcements": {"point": None},
                             "summary": {"tricks": [7, 5]}},
               "vingt-quatre": {"dealer": 0, "turn_up": "2C", "announcements": {"point": None},
                                "summary": {"tricks": [0, 12, 0, 0]}}}[game]
    deal = deal_record(table=table, record=summary, user=arbiter)
    page = phone
    login(page, live_server)
    visited = [f"/desk/tables/{table.pk}/deal/?mode=record", f"/desk/deals/{deal.pk}/correct/play/",
               f"/desk/deals/{deal.pk}/correct/", f"/desk/tables/{table.pk}/", f"/desk/deals/{deal.pk}/"]
    token = links.link_for_table(table=table).token
    visited += [f"/k/{token}/", f"/k/{token}/deal/", f"/k/{token}/deal/?mode=summary", f"/k/{token}/deal/?mode=record",
                f"/k/{token}/deals/1/"]
    for path in visited:
        response = page.goto(f"{live_server.url}{path}")
        assert response.status == 200 and "/accounts/login/" not in page.url, (path, response.status, page.url)
        page.wait_for_load_state()
        if page.locator("#deal-entry").count():
            page.locator("#deal-entry fieldset, #deal-entry textarea").first.wait_for()
        page.wait_for_timeout(300)
        assert axe_violations(page) == [], path


def test_a_tarot_trick_by_keyboard_alone_in_two_presses_per_card(live_server, phone, arbiter):
    # Tarot at four, the golden garde (tests/golden/tarot-garde-4p.json): David deals and takes. Trick 1, Ana leads:
    # 4♣ (« 4 » « T »), A♣ (« A » « T »), C♣ (« C » « T », the cavalier), the trump 2 (« 2 », then Enter: « 20 »
    # and « 21 » start with it). Trick 2, the Petit's owner … 7♦ 3♦ 10♦ 2♦: « 7K », « 3K », « 0K », « 2K ».
    # Each trick: 4 cards in 8 key presses at most, counted below.
    import json

    golden = json.loads((Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json").read_text())
    table = table_for(arbiter, "tarot", {"players": 4}, NAMES)
    page = phone
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 3)
    seat(page, "bid.taker", 3)
    page.locator('[data-field="bid.contract"] .choice', has_text="Garde").first.click()
    pick_cards(page, "discard", golden["discard"])
    page.locator("#net", has_text="Vérifié").wait_for()
    assert "« RC » roi de cœur" in page.locator("#pack-keys").inner_text()
    page.locator("#pack button").first.focus()
    keys = {"4C": ["4", "t"], "AC": ["a", "t"], "NC": ["c", "t"], "T2": ["2", "Enter"],
            "7D": ["7", "k"], "3D": ["3", "k"], "10D": ["0", "k"], "2D": ["2", "k"]}
    for n, trick in enumerate(golden["tricks"][:2], start=1):
        presses = 0
        for code in trick:
            for key in keys[code]:
                page.keyboard.press(key)
                presses += 1
            page.locator("#net", has_text="Vérifié").wait_for()
            assert page.evaluate("() => !!document.activeElement.closest('#pack')"), "the focus left the pack"
        assert presses <= 2 * len(trick), f"trick {n}: {presses} key presses for {len(trick)} cards"
        page.locator("#trick-winner").wait_for()
        # the draft, kept under the table's key and the arbiter's mark (``levee:deal:<table>:play:<mark>``)
        assert trick == page.evaluate(
            "() => JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.includes(':play')))).cards"
        )[4 * (n - 1):4 * n]
