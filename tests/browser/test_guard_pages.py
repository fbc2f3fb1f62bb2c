"""The pages of the walk's seams, at 390×844 with a long name (« Marie-Bernadette Delacroix-Montfort »): the round
page before its draw (no « Commencer la manche »), the publishing question over a contested deal and an unanswered
call, the publish message of a private tournament with its link, and a finished tournament's table link. Nothing
wider than the screen. Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import RoundFactory, TournamentFactory, UserFactory, role, seated_table, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.event.models import Seat, Tournament
from tournaments.links import service as sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ["Marie-Bernadette Delacroix-Montfort", "Anne Un", "Jean-Christophe Vandenberghe-Lefèvre", "Zoé Brûlé"]


def _login(page, url, next_path):
    page.goto(f"{url}/accounts/login/?next={next_path}")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "pw-orga-1")
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_url(f"**{next_path}")


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 391


def test_the_guard_pages_on_a_phone(phone, live_server, screenshots):
    t = TournamentFactory(game="tarot", options={"players": 4}, slug="garde-fous", is_public=False,
                          name="Open d'automne de l'Œil-de-Bœuf")
    user = UserFactory(username="orga")
    user.set_password("pw-orga-1")
    user.save()
    role(t, user, "organizer")
    role(t, user, "chief_arbiter")
    RoundFactory(tournament=t, number=2)
    _login(phone, live_server.url, f"/t/{t.slug}/rounds/2/")
    assert phone.locator("#start-after-draw").is_visible()
    assert phone.get_by_role("button", name="Commencer la manche").count() == 0
    _fits(phone)
    phone.screenshot(path=str(screenshots / "guards_round_before_draw_phone.png"), full_page=True)

    table = seated_table(t, names=LONG)
    deal_record(table=table, record=tarot_summary(), user=user)
    anne = Seat.objects.get(table=table, position=1).entry
    sheet.deal_answer(deal=table.deals.get(), entry=anne, answer="disputed", note="49 points, pas 51")
    phone.goto(f"{live_server.url}/t/{t.slug}/rounds/1/")
    phone.get_by_role("button", name="Publier").first.click()
    phone.wait_for_selector("#disputes")
    assert "1 donne contestée et 1 appel sans réponse" in phone.inner_text("#unfinished")
    _fits(phone)
    phone.screenshot(path=str(screenshots / "guards_publish_disputed_phone.png"), full_page=True)
    phone.get_by_role("button", name="Oui, publier la manche").click()
    phone.wait_for_url(f"**/t/{t.slug}/rounds/1/")
    assert "pas encore public" in phone.inner_text("body")
    assert phone.get_by_role("link", name="Le rendre public (réglage « Public »)").is_visible()
    _fits(phone)
    phone.screenshot(path=str(screenshots / "guards_publish_private_phone.png"), full_page=True)

    phone.goto(f"{live_server.url}/t/{t.slug}/arbiter/")
    assert "appel d'Anne Un" in phone.inner_text("#calls")
    phone.screenshot(path=str(screenshots / "guards_chief_elision_phone.png"), full_page=True)

    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    link = sheet.link_for_table(table=table)
    phone.goto(f"{live_server.url}/k/{link.token}/")
    assert "Le tournoi est terminé" in phone.inner_text("#why-not")
    assert phone.get_by_role("link", name="Saisir une donne").count() == 0
    _fits(phone)
    phone.screenshot(path=str(screenshots / "guards_link_finished_phone.png"), full_page=True)
