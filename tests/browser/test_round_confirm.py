"""The organizer publishes a Triomphe round with matches in play: the page asks first (« 3 parties ne sont
pas terminées : publier la manche quand même ? »), at 390×844 and 1366×900, nothing wider than the screen; « Oui »
publishes.
Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.browser.test_table_link_cards import axe_clean
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


def test_ending_a_round_with_a_deal_awaiting_the_visa_asks_first(chromium, live_server, screenshots):
    """A Tarot round: table 1 short of its 2 deals, table 2's garde contre entered by the table arbiter still awaits
    the chief arbiter's visa. « Terminer » names both on one page (« Table 2 : donne 2 »), with a link to the visa;
    « Oui » ends the round. Long names at the tables."""
    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record

    t = TournamentFactory(game="tarot", options={"players": 4}, deals_per_round=2, slug="tarot-visa")
    long = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre", "Anaïs Le Gall-Kerbrat",
            "Cœur Bœuf"]
    tables = [seated_table(t, players=4, number=n, names=[f"{name} {n}" for name in long]) for n in (1, 2)]
    user = UserFactory(username="orga")
    user.set_password("pw-orga-1")
    user.save()
    role(t, user, "organizer")
    arbiter = UserFactory(username="arbitre")
    role(t, arbiter, "arbiter", tables)
    deal_record(table=tables[0], record=tarot_summary(dealer=0), user=arbiter)
    deal_record(table=tables[1], record=tarot_summary(dealer=0), user=arbiter)
    deal_record(table=tables[1], record=tarot_summary(dealer=1, contract="garde_contre"), user=arbiter)
    Round.objects.filter(tournament=t, number=1).update(status="running")
    for label, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1366, "height": 900})):
        context = chromium.new_context(viewport=viewport, locale="fr-FR")
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/accounts/login/?next=/t/{t.slug}/rounds/1/")
            page.fill("input[name=username]", "orga")
            page.fill("input[name=password]", "pw-orga-1")
            page.locator("form button[type=submit], form input[type=submit]").last.click()
            page.wait_for_url(f"**/t/{t.slug}/rounds/1/")
            page.get_by_role("button", name="Terminer la manche").click()
            page.wait_for_selector("#unfinished")
            text = page.inner_text("#unfinished")
            assert ("1 table n'a pas joué toutes ses donnes ; 1 donne attend le visa de l'arbitre principal : "
                    "terminer la manche quand même ?") in text, text
            assert "Table 1 : 1 donne sur 2" in text and "Table 2 : donne 2" in text
            assert page.get_by_role("link", name="Viser la donne").get_attribute("href") == f"/t/{t.slug}/arbiter/"
            page.screenshot(path=str(screenshots / f"round_confirm_visa_{label}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1
            axe_clean(page)
            if label == "laptop":
                page.get_by_role("button", name="Oui, terminer la manche").click()
                page.wait_for_url(f"**/t/{t.slug}/rounds/1/")
                assert Round.objects.get(tournament=t, number=1).status == "finished"
        finally:
            context.close()
