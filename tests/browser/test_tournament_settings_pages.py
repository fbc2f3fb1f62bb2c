"""The tournament's settings page and the « Ouvrir ces pages au public » tap on its page, at 390×844 and 1366×900
in Chromium with a long name: nothing spills, no page wider than the screen, axe-core clean; a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_table_link_cards import axe_clean
from tests.browser.test_tap_entry import fits, login
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_settings_and_the_public_tap_fit(live_server, chromium, screenshots, settings, viewport):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Coupe Marie-Bernadette Delacroix-Montfort de l'Œuvre des Cartes",
                                   game="tarot", options={"players": 4}, is_public=False, deals_per_round=4)
    seated_table(tournament, players=4)
    role(tournament, UserFactory(username="arbitre"), "organizer")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(live_server.url + reverse("tournament_detail", args=[tournament.slug]))
        page.locator("#make-public button").scroll_into_view_if_needed()
        fits(page)
        page.screenshot(path=str(screenshots / f"tournament-make-public-{size}.png"))
        page.click("#make-public button")
        page.wait_for_load_state()
        assert page.locator("#make-public").count() == 0
        tournament.refresh_from_db()
        assert tournament.is_public
        page.click("text=Réglages du tournoi")
        page.locator("#tournament-settings").wait_for()
        fits(page)
        axe_clean(page)
        page.screenshot(path=str(screenshots / f"tournament-settings-{size}.png"), full_page=True)
        page.fill("input[name=venue]", "Salle des fêtes de Saint-Rémy-en-Bouzemont-Saint-Genest-et-Isson")
        page.click("text=Enregistrer les réglages")
        page.wait_for_url(f"**{reverse('tournament_detail', args=[tournament.slug])}")
        assert "Saint-Rémy-en-Bouzemont" in page.locator(".tournament-day").inner_text()
        fits(page)
