"""The rules engine on the device (issue 22, item 4), in Chromium at phone size through a table's link.

The tap page is opened online: the server answers each card (« Vérifié par le serveur ») and, once the page is
usable, the page fetches Pyodide and the zip of rules/ and scoring/ for the table's service worker to keep. Then
the network is cut and a whole deal is tapped card by card: every answer comes from Pyodide on the device
(« vérifié sur l'appareil »), and after every card the forbidden cards marked, the reason given, the seat to play
and, at the end, the deal's score are compared with what the server's own function says of the same cards
(:func:`scoring.tap.play_state`, run here by CPython). Back online, the deal is saved and the server's verdict
gives the same marks.

Marks by hand:
* La Triomphe forcée (RULES.md §2.1, §2.4; the deal of tests/browser/test_tap_entry.py): Ana 3 tricks of 5: the
  point, 1; no vole: 1 and 0.
* Tarot (tests/golden/tarot-garde-4p.json, RULES.md §1.10-1.11): David deals and takes a garde, 2 bouts, 43 points,
  41 needed: won by 2: each defender pays (25 + 2) × 2 = 54, the taker receives 3 × 54 = 162.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring.tap import play_state
from tests.browser.conftest import PHONE
from tests.browser.test_table_link_cards import axe_clean
from tests.browser.test_tap_entry import TRIOMPHE_TRICKS, choose, fits, pick_cards, seat
from tests.tournaments.factories import TournamentFactory, seated_table
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PYODIDE = Path(__file__).resolve().parents[2] / "vendor" / "pyodide" / "node_modules" / "pyodide" / "pyodide.asm.wasm"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json"
NAMES = ["Ana", "Bruno", "Chloé", "David"]
#: Triomphe's hands as dealt (the deal of TRIOMPHE_TRICKS): Bruno's diamonds and clubs are forbidden on a spade lead
TRIOMPHE_HANDS = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]


@pytest.fixture(autouse=True)
def _pyodide_installed():
    if not PYODIDE.exists():
        pytest.fail(f"{PYODIDE} is missing: npm ci --prefix vendor/pyodide (make install)")


def _table(game: str, options: dict, names: list[str], slug: str):
    tournament = TournamentFactory(name=f"Coupe de {game}", slug=slug, game=game, options=options)
    table = seated_table(tournament, players=len(names), names=names)
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=tournament, tables_enter=True)
    return table


def _online_then_warm(chromium, live_server, token: str):
    """The tap page opened online: answered by the server, then the engine's files kept by the service worker."""
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/k/{token}/deal/")
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.locator('#net[data-engine="server"]').wait_for()
    assert page.locator("#net").inner_text() == "Vérifié par le serveur"
    for _ in range(600):  # polled from here: page.wait_for_function evaluates a string, which the CSP refuses
        if page.evaluate("() => !!(window.LeveeEngine && window.LeveeEngine.warm === true)"):
            break
        page.wait_for_timeout(100)
    else:
        pytest.fail("the engine's files were not fetched for the service worker within 60 s")
    kept = page.evaluate("""async () => {
        const names = (await caches.keys()).filter(k => k.startsWith('levee-engine-'));
        const cache = await caches.open(names[0]);
        return (await cache.keys()).map(r => new URL(r.url).pathname);
    }""")
    assert any(p.endswith("pyodide.asm.wasm") for p in kept) and any("/engine/rules-" in p for p in kept), kept
    return context, page


def _cut(context) -> list[str]:
    """The network cut; the list fills with every request that still reached the network (none must)."""
    reached: list[str] = []

    def seen(request) -> None:
        response = request.response()
        if response is not None and not response.from_service_worker:
            reached.append(request.url)

    context.set_offline(True)
    context.on("requestfinished", seen)
    return reached


def _shown(page) -> dict:
    """What the page shows once the device has answered: the seat to play, the forbidden cards and their reason."""
    try:
        page.locator('#net[data-engine="device"]').wait_for(timeout=120_000)
    except Exception:
        pytest.fail(f"the engine on the device did not answer: {page.evaluate('window.LeveeEngine.error')}")
    assert "vérifié sur l'appareil" in page.locator("#net").inner_text()
    forbidden = sorted(page.locator("#pack button.forbidden").evaluate_all("bs => bs.map(b => b.dataset.code)"))
    note = page.locator("#forbid-note")
    return {"to_play": page.locator("#to-play strong").inner_text() if page.locator("#to-play").count() else None,
            "forbidden": forbidden, "note": note.inner_text() if note.count() else None}


def _expected(head: dict, fields: dict, cards: list[str], match) -> dict:
    """The server's verdict on the same cards: :func:`scoring.tap.play_state`, as the state view answers."""
    answer = play_state({**head, **fields}, cards, "fr", match)
    forbidden = sorted(f["card"] for f in answer["forbidden"])
    reason = answer["forbidden_note"] if answer["forbidden"] else None
    return {"to_play": None if answer["over"] else head["players"][answer["seat"]], "forbidden": forbidden,
            "note": f"Cartes marquées ⚠ interdites. {reason}" if reason else None, "answer": answer}


def _tap_and_compare(page, head, fields, tricks, match) -> dict:
    """Tap every card; after each (and before the first) the page's marks equal the server's verdict."""
    cards: list[str] = []
    compared = 0
    expected = _expected(head, fields, cards, match)
    for trick in tricks:
        for code in trick:
            shown = _shown(page)
            want = {k: v for k, v in expected.items() if k != "answer"}
            assert shown == want, (cards, shown, want)
            compared += 1
            page.locator(f'#pack button[data-code="{code}"]').click()
            cards.append(code)
            expected = _expected(head, fields, cards, match)
    shown = _shown(page)
    assert shown["to_play"] is None and shown["forbidden"] == []
    answer = expected["answer"]
    assert answer["over"] and answer["score"]["scores"] is not None
    page.locator("#deal-score").wait_for()
    points = [int(p.replace("+", "").replace("−", "-")) for p in page.locator("#deal-score .points").all_inner_texts()]
    assert points == answer["score"]["scores"]
    return {"compared": compared + 1, "scores": points}


def _save_online(page, context, token: str) -> None:
    context.set_offline(False)
    page.locator('#net[data-engine="server"]').wait_for(timeout=30_000)
    page.click("#save")
    page.wait_for_url(re.compile(rf"/k/{token}/deals/1/$"))


def test_a_triomphe_deal_checked_on_the_device_without_network(live_server, chromium, screenshots):
    table = _table("triomphe", {"mode": "forcee", "target": 5}, NAMES[:2], "moteur-triomphe")
    link = links.link_for_table(table=table)
    context, page = _online_then_warm(chromium, live_server, link.token)
    try:
        reached = _cut(context)
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.locator("#hands summary").click()
        for position, hand in enumerate(TRIOMPHE_HANDS):
            page.locator("#hands .seat-tabs button").nth(position).click()
            for code in hand:
                page.locator(f'#hands .pack button[data-code="{code}"]').click()
        page.locator("#hands summary").click()
        fields = {"dealer": 1, "turn_up": "9H", "hands": TRIOMPHE_HANDS}
        done = _tap_and_compare(page, selectors.record_head(table), fields, TRIOMPHE_TRICKS,
                                selectors.match_so_far(table))
        assert done == {"compared": 11, "scores": [1, 0]}  # 10 cards, each checked before and once after the last
        assert page.locator("#trick-winner").inner_text() == "Pli 5 remporté par Bruno."  # 7♣ then V♣: Bruno
        assert reached == []
        page.screenshot(path=str(screenshots / "engine_offline_triomphe_phone.png"), full_page=True)
        fits(page)
        axe_clean(page)
        _save_online(page, context, link.token)
        deal = Deal.objects.get(table=table)
        assert deal.verdict["deals"][0]["scores"] == [1, 0]
    finally:
        context.close()


def test_a_tarot_deal_checked_on_the_device_without_network(live_server, chromium, screenshots, settings):
    # production's Content-Security-Policy enforced, not only reported: the service worker registers from a file and
    # the engine compiles its WebAssembly ('wasm-unsafe-eval')
    settings.CONTENT_SECURITY_POLICY = settings.CONTENT_SECURITY_POLICY_REPORT_ONLY
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = None
    golden = json.loads(GOLDEN.read_text())
    table = _table("tarot", {"players": 4}, NAMES, "moteur-tarot")
    link = links.link_for_table(table=table)
    context, page = _online_then_warm(chromium, live_server, link.token)
    try:
        policy = page.request.get(f"{live_server.url}/k/{link.token}/deal/").headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval'" in policy
        reached = _cut(context)
        seat(page, "dealer", 3)
        seat(page, "bid.taker", 3)
        choose(page, "bid.contract", "Garde")
        page.locator('[data-field="discard"]').wait_for()
        pick_cards(page, "discard", golden["discard"])
        fields = {"dealer": 3, "bid": {"taker": 3, "contract": "garde"}, "discard": golden["discard"]}
        done = _tap_and_compare(page, selectors.record_head(table), fields, golden["tricks"], None)
        assert done == {"compared": 73, "scores": [-54, -54, -54, 162]}
        assert reached == []
        page.screenshot(path=str(screenshots / "engine_offline_tarot_phone.png"), full_page=True)
        _save_online(page, context, link.token)
        deal = Deal.objects.get(table=table)
        assert deal.verdict["deals"][0]["scores"] == [-54, -54, -54, 162]
    finally:
        context.close()


def test_the_engine_is_started_online_so_that_a_cut_finds_it_ready(live_server, chromium):
    """A walk: after the network dropped, about 10 s of « Hors ligne : toute carte non jouée peut être saisie »,
    cards unchecked, before « vérifié sur l'appareil » (Pyodide starting only at the cut). Now the engine starts in
    the background once its files are kept and the page is idle, online: the cut finds it ready, the first card
    tapped is checked by the device at once (not in Pyodide's start: several seconds here)."""
    table = _table("triomphe", {"mode": "forcee", "target": 5}, NAMES[:2], "moteur-pret")
    link = links.link_for_table(table=table)
    context, page = _online_then_warm(chromium, live_server, link.token)
    try:
        for _ in range(900):  # online, nothing asked of the engine: started in the background all the same
            if page.evaluate("() => window.LeveeEngine.bootMs !== null"):
                break
            page.wait_for_timeout(100)
        else:
            pytest.fail(f"the engine did not start while online: {page.evaluate('window.LeveeEngine.error')}")
        boot = page.evaluate("window.LeveeEngine.bootMs")
        reached = _cut(context)
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.locator(f'#pack button[data-code="{TRIOMPHE_TRICKS[0][0]}"]').click()
        page.locator('#net[data-engine="device"]').wait_for(timeout=5_000)  # not the engine's start again
        assert page.evaluate("window.LeveeEngine.bootMs") == boot  # the same engine, started once
        assert reached == []
    finally:
        context.close()
