"""A deal kept on the desk's expert page without network and refused on its arrival: the tap page of the same
table said « Elle n'est pas perdue : elle reste sur cet appareil (« Donnes sur cet appareil », plus bas), à corriger
avec l'arbitre » — the arbiter reading it is the arbiter, the list below (the tap page's own) does not hold it, and
nothing opened it back. Now the sentence says where it is and what to do (« dans la page où elle a été saisie ;
reprenez-la là pour la corriger »), a link opens that page, and there the refused line has « Reprendre cette
donne », which puts the record back in the form (and takes the line out of the outbox)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import french_page, size_name
from tests.browser.test_entry_desk import desk  # noqa: F401  (the fixture)
from tests.browser.test_logout_shared_tablet import _login
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}],
                         ids=["phone", "desktop"])
def test_a_refused_expert_deal_is_said_where_it_is_and_opened_back_there(chromium, live_server, desk,  # noqa: F811
                                                                         screenshots, viewport):
    table = desk
    expert = f"{live_server.url}/desk/tables/{table.pk}/deal/?mode=record"
    with french_page(chromium, viewport) as page:
        context = page.context
        _login(page, expert, "arbitre")
        area = page.locator("#deal-form textarea[name=record]")
        area.wait_for()
        skeleton = area.input_value()  # the game's fields left empty: the rules refuse it
        context.route("**/deal/offline/", lambda route: route.abort())  # no network for the deal
        page.get_by_role("button", name="Vérifier et enregistrer").click()
        page.locator("#offline-entry li.outbox-waiting").first.wait_for()
        # the form is done with it (kept here, the form emptied for the next deal) before the network returns
        page.wait_for_function("document.querySelector('#offline-entry .offline-note').textContent.trim() !== ''")
        context.unroute("**/deal/offline/")
        page.wait_for_function("window.LeveeOffline.flush().then(() => window.LeveeOffline.items())"
                               ".then(items => items.some(i => i.state === 'refused'))")
        page.locator("#offline-entry li.outbox-refused").first.wait_for()

        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary")
        line = page.locator("#kept-here .kept-line").first
        line.wait_for()
        said = line.inner_text()
        assert said.startswith("Donne 1 refusée à son arrivée : "), said
        assert "à corriger avec l'arbitre" not in said and "plus bas" not in said, said
        assert ("dans la page où elle a été saisie ; reprenez-la là pour la corriger, puis enregistrez-la de "
                "nouveau.") in said, said
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(screenshots / f"refused_expert_on_tap_{size_name(viewport)}.png"),
                        full_page=True)
        line.get_by_role("link", name="Ouvrir la page où elle a été saisie").click()
        page.wait_for_url(expert)
        refused = page.locator("#offline-entry li.outbox-refused").first
        refused.wait_for()
        area.fill('{"changed": true}')  # something typed since: asked before it is replaced
        page.wait_for_timeout(300)
        page.once("dialog", lambda d: d.accept())
        refused.get_by_role("button", name="Reprendre cette donne").click()
        page.wait_for_function("!document.querySelector('#deal-form textarea[name=record]').value.includes('changed')")
        assert area.input_value() == skeleton
        page.wait_for_function("!document.querySelector('#offline-entry li.outbox-refused')")
        assert page.evaluate("window.LeveeOffline.items().then(items => items.length)") == 0
        assert not Deal.objects.filter(table=table).exists()
        page.screenshot(path=str(screenshots / f"refused_expert_reopened_{size_name(viewport)}.png"),
                        full_page=True)
