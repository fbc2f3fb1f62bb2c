"""The staff page's accounts and the error pages at phone and desk widths (Chromium): an organizer creates an
arbiter's account with a long name and reads the password to hand over; the 404 and lockout pages are French, with
a way back, and nothing is wider than the screen. Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1366, "height": 900}
LONG = "Marie-Bernadette Delacroix-Montfort"


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 2, f"{page.url} is {scroll}px wide"
    spilled = page.evaluate("""() => [...document.querySelectorAll('.btn, button, .choice span')].filter(
        b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())""")
    assert spilled == [], f"text spills out of {spilled}"


def test_staff_accounts_and_error_pages(phone, chromium, live_server, screenshots):
    organizer = UserFactory(username="organisatrice", password="pw-123456")
    tournament = TournamentFactory(slug="open-de-lyon", name="Open de Lyon")
    seated_table(tournament)
    role(tournament, organizer, "organizer")
    role(tournament, UserFactory(username="arbitre-chevronne", first_name=LONG), "arbiter")
    desk = chromium.new_context(viewport=DESK, locale="fr-FR").new_page()
    for page, width, tag in ((phone, 390, "phone"), (desk, 1366, "desk")):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "organisatrice")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.goto(f"{live_server.url}/t/open-de-lyon/staff/")
        fits(page, width)
        page.screenshot(path=str(screenshots / f"staff-accounts-{tag}.png"), full_page=True)
        form = page.locator("form[action$='/staff/accounts/new/']")
        form.locator("input[name=username]").fill(f"arbitre-table-1-{tag}")
        form.locator("input[name=name]").fill(LONG)
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == "Compte créé"
        assert len(page.locator(".credentials code").nth(1).inner_text()) == 14
        fits(page, width)
        page.screenshot(path=str(screenshots / f"staff-account-done-{tag}.png"), full_page=True)
        page.goto(f"{live_server.url}/t/nulle-part/")
        assert "Page introuvable" in page.content() and page.locator("a[href='/']").count() >= 1
        fits(page, width)
        page.screenshot(path=str(screenshots / f"error-404-{tag}.png"), full_page=True)
    desk.context.close()
