"""Tarot on the generic tap pages, at 390×844 and 1366×900 in Debian's Chromium: the summary in a few taps
(called king, partner, poignée, petit au bout, chelem), the visa of a garde sans, card by card, and the
correction reached from « Corriger ». Every page screenshotted and checked for text that spills out.

Marks by hand (RULES.md §1.10-1.11, FFT), Tarot at five with a called king, Bruno takes, Chloé his partner:

* garde (×2), 2 bouts, 49 points: 41 needed, made by 8: (25 + 8) × 2 = 66; petit au bout to the attack 10 × 2
  = 20; Ana's simple poignée (20) goes to the side that wins the deal: S = 66 + 20 + 20 = 106. The taker
  scores 2S = 212, his partner S = 106, each of the three defenders −106.
* corrected to 39 points: fallen by 2: −(25 + 2) × 2 = −54; petit au bout still the attack's +20; the poignée
  to the defence −20: S = −54. The taker −108, his partner −54, each defender +54.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.test_tap_entry import choose, fits, login, pick_cards, play, seat, table_for
from tests.tournaments.factories import role
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIVE = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre", "Géraldine Chevalier",
        "Dominique Roux", "Émile"]
SIZES = {390: {"width": 390, "height": 844}, 1366: {"width": 1366, "height": 900}}


@pytest.fixture
def arbiter(transactional_db, settings):
    from tests.tournaments.factories import UserFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def _page(chromium, width):
    context = chromium.new_context(viewport=SIZES[width], locale="fr-FR", is_mobile=width < 500,
                                   has_touch=width < 500)
    context.set_default_timeout(30_000)
    return context, context.new_page()


def _summary(page, *, contract: str, points: str) -> None:
    """Bruno takes, Chloé's king of hearts called, Ana's simple poignée, 2 bouts, petit au bout to the attack."""
    seat(page, "dealer", 0)
    seat(page, "bid.taker", 1)
    choose(page, "bid.contract", contract)
    pick_cards(page, "bid.called", ["KH"])
    seat(page, "partner", 2)
    page.get_by_role("button", name=re.compile("Ajouter : Poignées")).click()
    seat(page, "seat", 0, within='[data-field="handfuls"]')
    choose(page, "size", "Simple")
    choose(page, "summary.oudlers", "2")
    page.get_by_label("Points du camp du preneur").fill(points)
    choose(page, "summary.petit_au_bout", "Le camp du preneur")


@pytest.mark.parametrize("width", [390, 1366])
def test_tarot_summary_by_taps_visa_and_correction_from_corriger(live_server, chromium, arbiter, screenshots,
                                                                 width):
    table = table_for(arbiter, "tarot", {"players": 5, "five": "called_king"}, FIVE)
    size = "phone" if width < 500 else "desktop"
    context, page = _page(chromium, width)

    def look(name: str) -> None:
        page.screenshot(path=str(screenshots / f"tarot_tap_{name}_{size}.png"), full_page=True)
        fits(page)

    try:
        login(page, live_server)
        # « Saisir une donne » leads to the tap page; its « Résumé » tab to the summary in a few taps
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        page.get_by_role("link", name=re.compile("Saisir une donne")).first.click()
        page.wait_for_url(re.compile(r"/deal/play/$"))
        page.locator("nav.tabs a", has_text="Résumé").click()
        page.wait_for_url(re.compile(r"/deal/play/\?mode=summary$"))
        page.locator('[data-field="summary.oudlers"]').wait_for()
        assert page.locator("#pack").count() == 0  # no cards to tap in a summary
        look("summary_empty")
        _summary(page, contract="Garde", points="49")
        look("summary_filled")
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        assert page.locator("#scores tbody td").all_inner_texts() == ["-106", "212", "106", "-106", "-106"]
        detail = page.locator("#deal-detail").inner_text()
        assert "Roi appelé" in detail and "roi de cœur" in detail and "Poignées" in detail
        look("deal")

        # a garde sans entered by a table arbiter waits for the chief arbiter's visa
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary")
        page.locator('[data-field="summary.oudlers"]').wait_for()
        _summary(page, contract="Garde sans le chien", points="49")
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        second = Deal.objects.order_by("-number").first()
        assert second.number == 2 and second.status == Deal.Status.PENDING
        assert "visa" in page.locator("main").inner_text()
        look("pending")

        # the chief arbiter corrects the first deal from « Corriger »: the summary as saved, 39 points now
        role(table.round.tournament, arbiter, "chief_arbiter")
        first = Deal.objects.get(number=1)
        page.goto(f"{live_server.url}/desk/deals/{first.pk}/")
        page.get_by_role("link", name=re.compile("Corriger")).first.click()
        page.wait_for_url(re.compile(r"/correct/play/$"))
        page.locator('[data-field="summary.oudlers"]').wait_for()
        points = page.get_by_label("Points du camp du preneur")
        assert points.input_value() == "49"
        assert page.locator('[data-field="partner"] input:checked').count() == 1
        assert page.locator('[data-field="handfuls"] .list-entry').count() == 1
        look("correction")
        points.fill("39")
        page.fill("#reason", "Points recomptés")
        page.click("#save")
        page.wait_for_url(re.compile(rf"/desk/deals/{first.pk}/$"))
        first.refresh_from_db()
        assert first.version == 2
        assert page.locator("#scores tbody td").all_inner_texts() == ["54", "-108", "-54", "54", "54"]
        look("corrected")
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_tarot_card_by_card_and_its_correction(live_server, chromium, arbiter, screenshots, width):
    """The garde of tests/golden/tarot-garde-4p.json (the rules' own golden deal): David deals and takes, 2 bouts,
    43 points, 41 needed: won by 2: each defender pays (25 + 2) × 2 = 54, the taker 3 × 54 = 162 (§1.11).
    Corrected by taps into a petite (×1): (25 + 2) × 1 = 27 each, the taker 81."""
    table = table_for(arbiter, "tarot", {"players": 4}, FIVE[:4])
    role(table.round.tournament, arbiter, "chief_arbiter")
    golden = json.loads((Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json").read_text())
    size = "phone" if width < 500 else "desktop"
    context, page = _page(chromium, width)

    def look(name: str) -> None:
        page.screenshot(path=str(screenshots / f"tarot_tap_{name}_{size}.png"), full_page=True)
        fits(page)

    try:
        login(page, live_server)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/")
        page.wait_for_url(re.compile(r"/deal/play/$"))
        seat(page, "dealer", 3)
        seat(page, "bid.taker", 3)
        choose(page, "bid.contract", "Garde")
        page.locator('[data-field="discard"]').wait_for()
        pick_cards(page, "discard", golden["discard"])
        look("cards_declared")
        play(page, golden["tricks"])
        look("cards_done")
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        assert page.locator("#scores tbody td").all_inner_texts() == ["-54", "-54", "-54", "162"]
        page.get_by_role("link", name=re.compile("Corriger")).first.click()
        page.wait_for_url(re.compile(r"/correct/play/$"))
        page.locator("#play-title", has_text="Tous les plis").wait_for()
        choose(page, "bid.contract", "Petite")
        page.locator("#net", has_text="Vérifié").wait_for()
        page.fill("#reason", "Petite, pas garde")
        look("cards_correction")
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        assert page.locator("#scores tbody td").all_inner_texts() == ["-27", "-27", "-27", "81"]
    finally:
        context.close()
