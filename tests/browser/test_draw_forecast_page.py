"""The round's page tells the organizer the tables the draw will make before he draws (Tarot at 5, 11 players:
« 11 joueurs : 1 table de 5, 2 tables de 3. »), and why none can be made with what to do (Tarot at 4, 5 players),
at 390×844 and 1366×900 with a long name; a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import fits, login
from tests.integration.builders import make_tournament
from tests.tournaments.factories import UserFactory, role
from tournaments.event.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_tables_of_the_draw_are_said_before_it(live_server, chromium, screenshots, viewport, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = UserFactory(username="arbitre")
    five, _ = make_tournament([LONG] + [f"Joueur {i:02}" for i in range(10)], slug="tarot-cinq")
    five.name, five.options = f"Tournoi de Tarot à cinq de {LONG}", {"players": 5, "five": "called_king"}
    five.save()
    four, _ = make_tournament([f"{LONG} {i}" for i in range(5)], slug="tarot-quatre")
    four.options = {"players": 4}
    four.save()
    for t in (five, four):
        Round.objects.create(tournament=t, number=1)
        role(t, organizer, "organizer")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        for t, said, name in ((five, "11 joueurs : 1 table de 5, 2 tables de 3.", "tables"),
                              (four, "Impossible de placer 5 joueurs à des tables de 3 ou 4 joueurs. Pour tirer les "
                                     "tables : inscrivez ou retirez des joueurs", "refused")):
            page.goto(live_server.url + reverse("round_detail", args=[t.slug, 1]))
            fits(page)
            assert said in page.locator("#draw-plan").inner_text()
            page.locator("#draw").scroll_into_view_if_needed()
            page.screenshot(path=str(screenshots / f"draw-plan-{name}-{size}.png"), full_page=True)
