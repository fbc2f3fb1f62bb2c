"""The season pages in Chromium at 390 px and 1366 px: a championship's ranking (general and a category, « pourquoi
ce rang » opened), a player's page across events with his statistics and his chart, the organizer's championship
form. On every page: nothing wider than the screen, no text spilling out of a button, no axe-core violation.
Screenshots in /tmp/seasons-*.png."""

from __future__ import annotations

import pytest

from tests.browser.test_tap_a11y import axe_violations
from tests.tournaments.seasons.builders import season_of_three
from tournaments.clubs.models import ClubRole
from tournaments.public import seasons

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desk": (1366, 900)}
SPILLS = """() => [...document.querySelectorAll('button, .btn, .big-link, .cats a, h1, label, td a, summary')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim().slice(0, 40))"""


def check(page, name: str, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=f"/tmp/seasons-{name}-{size}.png", full_page=True)
    assert width <= WIDTHS[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(SPILLS) == [], f"{name}: text spills out at {size}"
    assert axe_violations(page) == [], f"{name} at {size}"


def test_season_pages_fit_and_are_accessible(chromium, live_server, django_user_model, settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = season_of_three()
    s["players"]["Bruno"].name = "Marie-Bernadette Delacroix-Montfort"  # a long name on the pages
    s["players"]["Bruno"].save()
    boss = django_user_model.objects.create_user("orga-s", password="pw-123456")
    ClubRole.objects.create(club=s["club"], user=boss, role=ClubRole.Role.ORGANIZER)
    champ_url = f"{live_server.url}/saisons/saison-2025/challenge/"
    for size, (w, h) in WIDTHS.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.goto(f"{live_server.url}/saisons/saison-2025/")
        assert page.locator("h1").inner_text() == "Saison 2025-2026"
        check(page, "season", size)
        page.goto(champ_url)
        page.locator("summary", has_text="Pourquoi ce rang").first.click()
        assert page.locator("details[open] p.explain").first.inner_text().startswith("Rang 1 sur 5 : 16 points")
        check(page, "championship", size)
        page.goto(champ_url + "?categorie=dames")
        check(page, "championship-dames", size)
        with monkeypatch.context() as m:  # a long ranking comes in pages: its pager at the foot of the table
            m.setattr(seasons, "LINES_PER_PAGE", 2)
            m.setattr(seasons, "LINES_PER_PART", 2)  # and its PDF in parts, each a link
            page.goto(champ_url + "?page=2")
            assert page.locator("nav.pager span").inner_text() == "Lignes 3 à 4 sur 5"
            assert page.get_by_role("link", name="Imprimer (PDF), partie 3").count() == 1
            check(page, "championship-page-2", size)
            page.get_by_role("link", name="Suivants").click()
            page.wait_for_url(champ_url + "?page=3")
            assert page.locator("nav.pager span").inner_text() == "Lignes 5 à 5 sur 5"
        page.goto(f"{live_server.url}/joueurs/{s['players']['Ana'].pk}/")
        assert page.locator("svg.chart").count() == 1
        assert "2 prises, 1 réussie (50 %)" in page.content()
        check(page, "player", size)
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "orga-s")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/gestion/saisons/saison-2025/championnats/challenge/")
        check(page, "championship-form", size)
        context.close()
