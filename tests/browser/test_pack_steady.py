"""The cards under the arbiter's finger do not move when the server answers.

After each card the page asks the server where the play stands, and draws the table again with its answer (the
seat to play, the trick's winner). If that answer moves the pack, a tap given just before it lands on another card,
on the « Annuler » button or on nothing: the deal is entered wrong, or a card is lost. Seen in CI on a loaded
machine: the 72 cards of a Tarot deal tapped quickly, one tap lost, the deal never « Tous les plis ».

The server's answers are held here until the pack has been measured, then let through: every card still in the
pack, and « Annuler », must be where they were, on a phone at 390 px with the longest names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.test_tap_entry import LONG, arbiter, choose, fits, login, pick_cards, seat, table_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["arbiter"]  # the fixture

BOXES_JS = """() => {
  const out = {};
  for (const b of document.querySelectorAll('#pack button[data-code], #undo')) {
    const r = b.getBoundingClientRect();
    out[b.dataset.code || b.id] = [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
  }
  return out;
}"""


GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json"


def phone_page(chromium, *, touch: bool = True):
    """A phone's browser at 390 × 844 (a touch screen unless ``touch`` is false: then the mouse is pressed)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=touch,
                                   has_touch=touch)
    context.set_default_timeout(30_000)
    return context, context.new_page()


def garde_declared(page, live_server, table) -> None:
    """The rules' golden garde on the tap page: David deals and takes a garde (the écart still to tap)."""
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 3)
    seat(page, "bid.taker", 3)
    choose(page, "bid.contract", "Garde")
    page.locator('[data-field="discard"]').wait_for()


def until_held(page, held: list) -> None:
    """Wait until the page's question to the server (sent at the tap) is held."""
    for _ in range(1000):
        if held:
            return
        page.wait_for_timeout(10)
    raise AssertionError("the page did not ask the server")


def test_pack_stays_put_when_the_server_answers(live_server, chromium, arbiter, screenshots):
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    golden = json.loads(GOLDEN.read_text())
    context, page = phone_page(chromium)
    held: list = []
    try:
        garde_declared(page, live_server, table)
        page.locator("#net", has_text="Vérifié").wait_for()
        page.route(re.compile(r"/deal/play/state/$"), lambda route: held.append(route))

        # the écart tapped: until the server has answered, the pack (which still shows the six cards) waits
        pick_cards(page, "discard", golden["discard"])
        until_held(page, held)
        page.wait_for_timeout(200)  # the page asks 120 ms after the last change: every question is held by now
        assert page.locator("#pack button").first.is_disabled()
        assert page.locator("#net").inner_text() == "Vérification…"
        while held:
            held.pop().continue_()
        page.locator("#net", has_text="Vérifié").wait_for()
        assert page.locator("#pack button").first.is_enabled()
        shown = set(page.evaluate("() => [...document.querySelectorAll('#pack button')].map(b => b.dataset.code)"))
        assert not shown & set(golden["discard"]), "the écart is not offered"
        assert len(shown) == 72

        # then each card: the server's answer (the seat to play, the trick's winner) moves nothing
        moved = []
        for number, trick in enumerate(golden["tricks"], start=1):
            for code in trick:
                page.locator(f'#pack button[data-code="{code}"]').click()
                until_held(page, held)
                before = page.evaluate(BOXES_JS)
                while held:
                    held.pop().continue_()
                page.locator("#net", has_text="Vérifié").wait_for()
                after = page.evaluate(BOXES_JS)
                shifted = {k: (before[k], after[k]) for k in before.keys() & after.keys() if before[k] != after[k]}
                if shifted:
                    moved.append((number, code, dict(list(shifted.items())[:3])))
            if number == 2:  # « Pli 2 remporté par Jean-Christophe Vandenberghe-Lefèvre »: two lines at most
                assert "Vandenberghe" in page.locator("#trick-winner").inner_text()
                page.screenshot(path=str(screenshots / "tap_trick_won_long_name_phone.png"))
                fits(page)
        page.locator("#play-title", has_text="Tous les plis").wait_for()
        assert not moved, f"{len(moved)} taps of 72 followed by a pack that moved, first: {moved[:3]}"
    finally:
        context.close()


def test_with_the_hands_the_pack_waits_for_the_seat_to_play(live_server, chromium, arbiter):
    """La Triomphe with both hands entered (tests/browser/test_tap_entry.py's deal): the pack is the hand of the
    seat to play. After a card, until the server says whose turn it is, the pack shows no other cards: it is the
    last hand less that card, greyed and inert; then exactly the next seat's hand, and nothing was lost."""
    from tests.browser.irregular_steps import enter_hands
    from tests.browser.test_tap_entry import TRIOMPHE_TRICKS

    hands = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]  # Ana's, Bruno's: as played
    order = [code for trick in TRIOMPHE_TRICKS for code in trick]
    table = table_for(arbiter, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
    context, page = phone_page(chromium)
    held: list = []
    shown_js = "() => [...document.querySelectorAll('#pack button')].map(b => [b.dataset.code, b.disabled])"
    try:
        login(page, live_server)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        enter_hands(page, hands)
        page.locator("#net", has_text="Vérifié").wait_for()
        page.route(re.compile(r"/deal/play/state/$"), lambda route: held.append(route))
        left = {0: set(hands[0]), 1: set(hands[1])}
        for at, code in enumerate(order):
            player = 0 if code in hands[0] else 1
            page.locator(f'#pack button[data-code="{code}"]').click()
            left[player].discard(code)
            if at == len(order) - 1:
                break
            until_held(page, held)
            waiting = page.evaluate(shown_js)
            assert all(disabled for _, disabled in waiting), (code, waiting)
            assert {c for c, _ in waiting} <= left[player], (code, waiting)
            while held:
                held.pop().continue_()
            page.locator("#net", has_text="Vérifié").wait_for()
            after = page.evaluate(shown_js)
            following = 0 if order[at + 1] in hands[0] else 1
            assert {c for c, _ in after} == left[following], (code, after)
            assert not any(disabled for _, disabled in after)
        while held:
            held.pop().continue_()
        page.locator("#play-title", has_text="Tous les plis").wait_for()
    finally:
        context.close()


def test_a_tap_held_down_while_the_server_answers_is_not_lost(live_server, chromium, arbiter):
    """The finger is down on a card when the server's answer to the card before arrives, and lifts after it: the
    card is played (the page drawn again keeps the pack's buttons, only their marks change). Seen in CI: a Tarot
    tap lost this way, the deal one card short, never « Tous les plis »."""
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    golden = json.loads(GOLDEN.read_text())
    context, page = phone_page(chromium, touch=False)
    held: list = []
    try:
        garde_declared(page, live_server, table)
        pick_cards(page, "discard", golden["discard"])
        page.locator("#net", has_text="Vérifié").wait_for()
        page.route(re.compile(r"/deal/play/state/$"), lambda route: held.append(route))
        first, second = golden["tricks"][0][:2]
        page.locator(f'#pack button[data-code="{first}"]').click()
        until_held(page, held)
        box = page.locator(f'#pack button[data-code="{second}"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.evaluate("() => { document.getElementById('undo').keptMark = 'kept'; }")
        page.mouse.down()
        while held:
            held.pop().continue_()
        page.locator("#net", has_text="Vérifié").wait_for()
        # « Annuler » unchanged by the answer: the same button (a press on it is not lost either)
        assert page.evaluate("() => document.getElementById('undo').keptMark") == "kept"
        page.mouse.up()
        page.locator(f'#pack button[data-code="{second}"]').wait_for(state="detached")
        assert page.locator("#trick li:not(.empty)").count() == 2
    finally:
        page.unroute(re.compile(r"/deal/play/state/$"))
        context.close()
