"""La Triomphe par équipes, round 1 drawn but not begun: the settings page still offers the partners, says that the
change clears the drawn tables, and the tournament's page then says to draw the round again; at 390×844 and
1366×900 with a long name, a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import fits, login
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.event.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_partners_change_after_the_draw_before_the_round(live_server, chromium, screenshots, viewport, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = UserFactory(username="arbitre")
    tournament = TournamentFactory(name=f"Triomphe de {LONG}", game="triomphe", options={"players": 4},
                                   status=Tournament.Status.OPEN, rounds_planned=3, format="teams")
    seated_table(tournament, players=4, names=[LONG, "Jean-Christophe Vandenberghe-Lefèvre", "Paul", "Zoé"])
    role(tournament, organizer, "organizer")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(live_server.url + reverse("tournament_settings", args=[tournament.slug]))
        fits(page)
        assert "changer le jeu par équipes les efface" in page.locator("main").inner_text()
        page.screenshot(path=str(screenshots / f"settings-partners-{size}.png"), full_page=True)
        page.check('input[name="partners"]')
        page.click("main button[type=submit]")
        page.wait_for_url(f"**{reverse('tournament_detail', args=[tournament.slug])}")
        fits(page)
        assert "les tables de la manche 1 sont effacées, tirez-la de nouveau" in page.locator("main").inner_text()
        page.screenshot(path=str(screenshots / f"settings-partners-saved-{size}.png"), full_page=True)
