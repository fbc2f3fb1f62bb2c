"""The organizer publishes a Triomphe round with matches in play: the page asks first (« 3 parties ne sont
pas terminées : publier la manche quand même ? »), at 390×844 and 1366×900, nothing wider than the screen; « Oui »
publishes.
Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.event.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_publishing_unfinished_matches_asks_first(chromium, live_server, screenshots):
    t = TournamentFactory(game="triomphe", options={"mode": "forcee", "target": 5}, slug="tri-confirm")
    for number in (1, 2, 3):
        seated_table(t, players=2, number=number)
    user = UserFactory(username="orga")
    user.set_password("pw-orga-1")
    user.save()
    role(t, user, "organizer")
    for label, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900})):
        context = chromium.new_context(viewport=viewport, locale="fr-FR")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/accounts/login/?next=/t/{t.slug}/rounds/1/")
            page.fill("input[name=username]", "orga")
            page.fill("input[name=password]", "pw-orga-1")
            page.locator("form button[type=submit], form input[type=submit]").last.click()
            page.wait_for_url(f"**/t/{t.slug}/rounds/1/")
            page.get_by_role("button", name="Publier").first.click()
            page.wait_for_selector("#unfinished")
            assert "3 parties ne sont pas terminées : publier la manche quand même ?" in page.inner_text("#unfinished")
            page.screenshot(path=str(screenshots / f"round_confirm_{label}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            if label == "laptop":
                page.get_by_role("button", name="Oui, publier la manche").click()
                page.wait_for_url(f"**/t/{t.slug}/rounds/1/")
                assert Round.objects.get(tournament=t, number=1).released
        finally:
            context.close()
