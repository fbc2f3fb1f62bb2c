"""The desk's expert entry (the JSON record) kept offline: its outbox line said only the time (« 14:32 — en attente
du réseau »); it now says which deal it is and what it is, as the tap page's lines do (« Donne 1 · Marie-Bernadette
Delacroix-Montfort (preneur) · petite — en attente du réseau »), the next one « Donne 2 ». At 390×844 and 1366×900,
nothing wider than the screen."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import french_page, size_name
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table, tarot_summary
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_expert_outbox_says_which_deal(live_server, chromium, screenshots, settings, viewport):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Open de Tarot", game="tarot", options={"players": 4})
    table = seated_table(tournament, players=4, names=["Ana", "Bruno", LONG, "David"])
    arbiter = UserFactory(username="arbitre")
    arbiter.set_password("secret-pass")
    arbiter.save()
    role(tournament, arbiter, "arbiter", [table])
    with french_page(chromium, viewport) as page:
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/?mode=record")
        page.get_by_label("Identifiant").fill("arbitre")
        page.get_by_label("Mot de passe").fill("secret-pass")
        page.get_by_role("button", name="Connexion").click()
        page.wait_for_url(re.compile(rf"/desk/tables/{table.pk}/deal/"))
        page.locator("#deal-form textarea[name=record]").wait_for()
        head = json.loads(page.locator("#deal-form textarea[name=record]").input_value())
        page.context.set_offline(True)
        for dealer, taker, contract in ((0, 2, "petite"), (1, 0, "garde")):
            record = {**{k: head[k] for k in ("format", "game", "options", "players")},
                      **tarot_summary(dealer=dealer, taker=taker, contract=contract)}
            page.locator("#deal-form textarea[name=record]").fill(json.dumps(record, ensure_ascii=False))
            page.get_by_role("button", name="Vérifier et enregistrer").click()
            page.locator("#offline-entry li.outbox-waiting").nth(dealer).wait_for()
            # the form is the next deal's once it counted the deal kept (typing sooner would type into the old one)
            page.wait_for_function(f"document.querySelector('#deal-form input[name=after]').value === '{dealer + 1}'")
        lines = [t.strip() for t in page.locator("#offline-entry li").all_inner_texts()]
        assert lines == [f"Donne 1 · {LONG} (preneur) · petite — en attente du réseau",
                         "Donne 2 · Ana (preneur) · garde — en attente du réseau"], lines
        # the heading follows the deals kept (it stayed « Donne 1 »), and the page opened again while they still
        # wait (their sending refused by the network) counts them: « Donne 3 », the next deal after them
        assert page.locator("main h1").inner_text().strip() == "Donne 3"
        page.route("**/deal/offline/", lambda route: route.abort())
        page.context.set_offline(False)
        page.reload()
        page.wait_for_function("document.querySelector('main h1').innerText.trim() === 'Donne 3'")
        assert page.locator("#deal-form input[name=after]").input_value() == "2"
        assert Deal.objects.filter(table=table).count() == 0
        page.unroute("**/deal/offline/")
        page.locator("#offline-entry").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"expert_outbox_{size_name(viewport)}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 2
        page.evaluate("window.LeveeOffline.flush()")
        page.locator("#offline-entry li.outbox-sent").nth(1).wait_for()
    assert [(d.number, d.record["bid"]["taker"]) for d in Deal.objects.filter(table=table).order_by("number")] == \
        [(1, 2), (2, 0)]
