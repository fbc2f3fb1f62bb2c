"""An Impériale tournament's pages in the game's words, in Chromium at 390×844 and 1366×900 with a long name: the
new-tournament form's « Objectif d'une partie » with its unit and the game's own value, the tournament's page
« partie en 2 impériales », the links page offering 1 or 2 players to confirm and saying how to get the links."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission

from tests.browser.conftest import PHONE, french_page, size_name
from tests.browser.test_table_links import DESKTOP, LONG, fits
from tests.tournaments.factories import TournamentFactory
from tournaments.event.models import Round, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_imperiale_tournament_in_its_own_words(chromium, live_server, screenshots, django_user_model, viewport):
    boss = django_user_model.objects.create_user("orga", password="pw-123456")
    boss.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = TournamentFactory(name=f"Coupe de l'Impériale d'Automne — {LONG}", game="imperiale", options={}, target=2,
                          slug=f"imp-{viewport['width']}")
    TournamentRole.objects.create(tournament=t, user=boss, role="organizer")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "orga")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))

        page.goto(f"{live_server.url}/new/")
        page.click("label:has(input[name=game][value=imperiale])")
        target = page.locator(".conv[data-field=target]")
        assert target.is_visible()
        assert "autres jeux" not in target.inner_text()
        notes = [n for n in target.locator(".conv p.help").all() if n.is_visible()]
        assert [n.inner_text() for n in notes] == ["En impériales. Vide : la valeur du jeu, 5 impériales."]
        target.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"imperiale_new_{size}.png"), full_page=True)
        fits(page, viewport["width"])

        page.goto(f"{live_server.url}/t/{t.slug}/")
        assert "partie en 2 impériales" in page.locator("main").inner_text()
        page.screenshot(path=str(screenshots / f"imperiale_detail_{size}.png"), full_page=True)
        fits(page, viewport["width"])

        page.goto(f"{live_server.url}/t/{t.slug}/links/")
        options = page.locator("select[name=confirmations_needed] option").all_inner_texts()
        assert options == ["tous les joueurs de la table", "1", "2"]
        assert "Tirez la manche 1" in page.locator("#no-links").inner_text()
        page.screenshot(path=str(screenshots / f"imperiale_links_{size}.png"), full_page=True)
        fits(page, viewport["width"])
        # round 1 drawn: the way to its table cards, where each table gets its link
        Round.objects.create(tournament=t, number=1)
        page.reload()
        page.locator("#no-links").get_by_role("link", name="cartes de table de la manche 1").click()
        page.wait_for_url(re.compile(rf"/t/{t.slug}/rounds/1/cards/$"))
