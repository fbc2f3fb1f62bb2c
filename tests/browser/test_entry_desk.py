"""End to end in a real browser: an arbiter enters a Tarot deal at the desk, is told what is wrong, fixes it,
and sees the marks.

Expected marks by hand (RULES.md §1.10-1.11): garde (×2), 2 bouts → 41 needed; 49 made → won by 8;
each defender −(25 + 8) × 2 = −66, the taker +198.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_tap_entry import choose, seat
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Open de Tarot", game="tarot", options={"players": 4})
    table = seated_table(tournament, players=4, names=["Ana", "Bruno", "Chloé", "David"])
    arbiter = UserFactory(username="arbitre")
    role(tournament, arbiter, "arbiter", [table])
    return table


def _checked(page, field: str) -> str:
    """The label of the choice tapped for a declaration."""
    return page.locator(f'[data-field="{field}"] > .choices > .choice:has(input:checked)').inner_text()


def test_arbiter_enters_a_deal_sees_the_violation_fixes_it_and_sees_the_score(live_server, phone, desk, screenshots):
    page = phone
    table = desk
    page.goto(f"{live_server.url}/desk/")
    # not logged in: the desk sends us to the login page, which comes back
    page.get_by_label("Identifiant").fill("arbitre")
    page.get_by_label("Mot de passe").fill("secret-pass")
    page.get_by_role("button", name="Connexion").click()
    page.wait_for_url(re.compile(r"/desk/$"))
    page.get_by_role("link", name=re.compile("Table 1")).click()
    page.get_by_role("link", name="Saisir une donne").click()
    page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/deal/play/$"))
    page.get_by_role("link", name="Résumé").click()
    page.locator('[data-field="summary.oudlers"]').wait_for()
    page.screenshot(path=str(screenshots / "entry_phone.png"), full_page=True)

    # the summary in a few taps, with a deliberate error: 95 points (the pack holds 91)
    seat(page, "dealer", 0)
    seat(page, "bid.taker", 1)
    choose(page, "bid.contract", "Garde")
    choose(page, "summary.oudlers", "2")
    page.get_by_label("Points du camp du preneur").fill("95")
    page.get_by_role("button", name="Vérifier et enregistrer").click()

    problems = page.locator("#problems")
    problems.wait_for()
    assert "91" in problems.inner_text()
    assert Deal.objects.count() == 0
    page.screenshot(path=str(screenshots / "entry_phone_violation.png"), full_page=False)
    # the deal is kept as typed, through a reload too (on the device)
    page.reload()
    assert page.get_by_label("Points du camp du preneur").input_value() == "95"
    assert _checked(page, "bid.taker") == "Bruno" and _checked(page, "summary.oudlers") == "2"

    page.get_by_label("Points du camp du preneur").fill("49")
    page.get_by_role("button", name="Vérifier et enregistrer").click()
    page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
    scores = page.locator("#scores")
    text = scores.inner_text()
    assert re.search(r"Ana\s+Bruno\s+Chloé\s+David", text)
    cells = scores.locator("tbody td").all_inner_texts()
    assert cells == ["-66", "198", "-66", "-66"]
    page.screenshot(path=str(screenshots / "deal_phone.png"), full_page=True)
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.VALID

    # the next deal: the way the last one was entered (the summary: a walk had to tap « Résumé » for every deal),
    # the dealer moved on by one seat (Bruno); card by card is one tap away
    page.get_by_role("link", name="Donne suivante").click()
    page.locator('[data-field="summary.oudlers"]').wait_for()
    assert _checked(page, "dealer") == "Bruno"
    page.get_by_role("link", name="Carte par carte").click()
    page.locator("#pack").wait_for()
    assert _checked(page, "dealer") == "Bruno"
    page.screenshot(path=str(screenshots / "entry_phone_tricks.png"), full_page=True)
