"""The table's private link, card by card, in Chromium without an account (issue 19, items 2, 4 and 6):

* a Tarot deal and a Triomphe deal tapped card by card on ``/k/<token>/deal/``, saved, read on the link's deal
  page; every tab and link of a link's page stays under ``/k/<token>/`` (no staff URL, no database id); the
  « Expert » tab opens through the link, never the login form;
* a player confirms on his own link after reading the deal in words (contract, bouts, points); another disputes
  with a reason that the chief arbiter reads;
* the chief's page keeps an answer being written when its lists refresh (33 s later the text is still there and
  a new deal shows in the progress list);
* axe-core: no violation on the link's pages, the player's page and the chief's page; screenshots at 390×844 and
  1366×900 with a long name.

Marks by hand:
* Tarot (tests/golden/tarot-garde-4p.json, RULES.md §1.10-1.11): David deals and takes a garde, 2 bouts, 43
  points, 41 needed: won by 2: each defender pays (25 + 2) × 2 = 54, the taker receives 3 × 54 = 162.
* La Triomphe forcée (RULES.md §2.1, §2.4, the deal of tests/browser/test_tap_entry.py): Ana 3 tricks of 5: the
  point, 1; no vole: 1 and 0.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_tap_entry import TRIOMPHE_TRICKS, choose, fits, pick_cards, play, seat
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import ArbiterCall, DealAnswer, TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1366, "height": 900}
LONG = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre", "Géraldine Chevalier",
        "Dominique Roux"]
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json"
#: what a link's page may point at beside its own pages: the home page, the language switch, the login, files
SITE = ("/static/", "/i18n/", "/accounts/login/")


def axe_clean(page) -> None:
    """axe-core finds no violation on the page (WCAG 2.1 A and AA, and best practices)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: npm ci --prefix tests/browser/axe")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]]
    assert not bad, f"{page.url}: {bad}"


def stays_on_link(page, token: str) -> None:
    """Every link, form and tab of the page stays on the link's own pages."""
    targets = page.evaluate("""() => [...document.querySelectorAll('a[href], form[action]')]
        .map(e => e.getAttribute('href') ?? e.getAttribute('action'))""")
    own = [t for t in targets if t and not t.startswith(("#", *SITE)) and t != "/"]
    assert own and all(t.startswith((f"/k/{token}/", "?")) or t == "" for t in own), (page.url, own)
    assert "/desk/" not in page.content()


def _context(chromium, viewport=PHONE):
    context = chromium.new_context(viewport=viewport, device_scale_factor=1, locale="fr-FR",
                                   is_mobile=viewport == PHONE, has_touch=viewport == PHONE, bypass_csp=True)
    context.set_default_timeout(30_000)
    return context


def _table(game: str, options: dict, names: list[str], slug: str):
    tournament = TournamentFactory(name=f"Coupe de {game}", slug=slug, game=game, options=options)
    table = seated_table(tournament, players=len(names), names=names)
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=tournament, tables_enter=True)
    return table


@pytest.mark.parametrize("width", [390, 1366])
def test_a_tarot_deal_card_by_card_through_the_link_then_signed_by_the_players(
        live_server, chromium, screenshots, width, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table = _table("tarot", {"players": 4}, LONG, f"lien-tarot-{width}")
    tournament = table.round.tournament
    link = links.link_for_table(table=table)
    golden = json.loads(GOLDEN.read_text())
    size = "phone" if width < 500 else "desktop"
    viewport = PHONE if width < 500 else DESKTOP
    context = _context(chromium, viewport)
    page = context.new_page()

    def look(name: str) -> None:
        page.screenshot(path=str(screenshots / f"link_cards_{name}_{size}.png"), full_page=True)
        fits(page)

    try:
        page.goto(f"{live_server.url}/k/{link.token}/")
        stays_on_link(page, link.token)
        axe_clean(page)
        page.get_by_role("link", name="Saisir une donne").click()
        page.wait_for_url(re.compile(rf"/k/{link.token}/deal/$"))
        page.locator("#pack").wait_for()  # card by card, without an account
        stays_on_link(page, link.token)
        # the Expert tab: the link's own page, never the login form
        page.get_by_role("link", name="Expert").click()
        page.wait_for_url(re.compile(rf"/k/{link.token}/deal/\?mode=record$"))
        assert page.locator("input[name=password]").count() == 0
        stays_on_link(page, link.token)
        axe_clean(page)
        page.get_by_role("link", name="Carte par carte").click()
        page.wait_for_url(re.compile(rf"/k/{link.token}/deal/\?mode=play$"))
        seat(page, "dealer", 3)
        seat(page, "bid.taker", 3)
        choose(page, "bid.contract", "Garde")
        page.locator('[data-field="discard"]').wait_for()
        pick_cards(page, "discard", golden["discard"])
        look("tarot_declared")
        play(page, golden["tricks"])
        look("tarot_played")
        page.click("#save")
        page.wait_for_url(re.compile(rf"/k/{link.token}/deals/1/$"))
        deal = Deal.objects.get(table=table)
        assert deal.created_by is None and deal.record["tricks"]
        marks = [m.strip() for m in page.locator(".sheet-line .mark").all_inner_texts()]
        assert marks == ["-54", "-54", "-54", "162"]
        words = page.locator(".deal-words").inner_text()
        assert "Garde" in words and "43" in words and LONG[3] in words
        stays_on_link(page, link.token)
        axe_clean(page)
        look("tarot_deal")

        # Ana reads the deal on her own link (the contract and the points), then confirms it
        ana = links.link_for_entry(entry=table.seats.get(position=0).entry)
        player = context.new_page()
        player.goto(f"{live_server.url}/j/{ana.token}/")
        deal_words = player.locator(".player-deal .deal-words").first
        assert "Garde" in deal_words.inner_text() and "43" in deal_words.inner_text()
        axe_clean(player)
        player.screenshot(path=str(screenshots / f"link_cards_player_{size}.png"), full_page=True)
        fits(player)
        player.get_by_role("button", name=re.compile(r"confirme la donne 1$")).click()
        player.wait_for_load_state()
        assert DealAnswer.objects.filter(deal=deal, answer="confirmed").count() == 1

        # Chloé disputes at the table's phone, with a reason the chief reads
        page.goto(f"{live_server.url}/k/{link.token}/deals/1/")
        page.locator("summary", has_text="Géraldine Chevalier conteste la donne 1").click()
        page.get_by_label(re.compile("Ce que Géraldine Chevalier conteste")).fill("Le petit était à nous")
        axe_clean(page)
        page.get_by_role("button", name="Envoyer la contestation").click()
        page.wait_for_url(re.compile(rf"/k/{link.token}/deals/1/$"))
        call = ArbiterCall.objects.get()
        assert (call.reason, call.note) == ("dispute", "Le petit était à nous")

        # the chief's page: the answer being written survives the lists' refresh
        chief = UserFactory(username="chef")
        chief.set_password("secret-pass")
        chief.save()
        role(tournament, chief, "chief_arbiter")
        boss = _context(chromium, viewport)
        cp = boss.new_page()
        cp.clock.install()
        cp.goto(f"{live_server.url}/accounts/login/")
        cp.fill("input[name=username]", "chef")
        cp.fill("input[name=password]", "secret-pass")
        cp.click("main button[type=submit]")
        cp.wait_for_load_state()
        cp.goto(f"{live_server.url}/t/{tournament.slug}/arbiter/")
        assert "Le petit était à nous" in cp.locator(f"#call-{call.pk}").inner_text()
        assert cp.locator('meta[http-equiv="refresh"]').count() == 0
        axe_clean(cp)
        cp.screenshot(path=str(screenshots / f"link_cards_chief_{size}.png"), full_page=True)
        fits(cp)
        before = cp.locator("#progress").inner_text()
        assert re.search(r"\b1(/\d+)? donne", before), before
        cp.locator(f"#resolve-{call.pk} summary").click()
        cp.locator(f"#answer-{call.pk}").fill("J'arrive à la table")
        cp.evaluate("document.querySelector('#calls').dataset.kept = 'yes'")  # gone if the list were replaced
        Deal.objects.filter(pk=deal.pk).update(status=Deal.Status.ANNULLED)  # the progress list changes meanwhile
        with cp.expect_response(re.compile(r"/arbiter/$")):
            cp.clock.run_for(33_000)
        cp.wait_for_function("(before) => document.querySelector('#progress').innerText !== before", arg=before)
        assert re.search(r"\b0(/\d+)? donne", cp.locator("#progress").inner_text())
        assert cp.locator(f"#answer-{call.pk}").input_value() == "J'arrive à la table"
        assert cp.evaluate("document.querySelector('#calls').dataset.kept") == "yes"
        cp.get_by_label("rien à changer").first.check()
        cp.get_by_role("button", name="Clore l’appel").or_(cp.locator(f"#resolve-{call.pk} button")).first.click()
        cp.wait_for_load_state()
        call.refresh_from_db()
        assert (call.state, call.answer) == ("resolved", "J'arrive à la table")
        boss.close()
    finally:
        context.close()


def test_a_triomphe_deal_card_by_card_through_the_link(live_server, chromium, screenshots):
    table = _table("triomphe", {"mode": "forcee", "target": 5}, LONG[:2], "lien-triomphe")
    link = links.link_for_table(table=table)
    context = _context(chromium)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/")
        page.locator("#pack").wait_for()
        stays_on_link(page, link.token)
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        play(page, TRIOMPHE_TRICKS)
        page.screenshot(path=str(screenshots / "link_cards_triomphe_phone.png"), full_page=True)
        fits(page)
        page.click("#save")
        page.wait_for_url(re.compile(rf"/k/{link.token}/deals/1/$"))
        marks = [m.strip() for m in page.locator(".sheet-line .mark").all_inner_texts()]
        assert marks == ["1", "0"]
        assert Deal.objects.get(table=table).created_by is None
        stays_on_link(page, link.token)
        axe_clean(page)
        page.screenshot(path=str(screenshots / "link_cards_triomphe_deal_phone.png"), full_page=True)
        fits(page)
        # the call page of a correction request stays on the link too
        page.get_by_role("link", name=re.compile("corriger cette donne")).click()
        page.wait_for_url(re.compile(rf"/k/{link.token}/call/\?deal=1$"))
        stays_on_link(page, link.token)
        axe_clean(page)
    finally:
        context.close()
