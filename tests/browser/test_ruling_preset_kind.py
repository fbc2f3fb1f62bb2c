"""The chief's ruling form: a penalty from the rules that belongs to a kind checks it in the page (the phone walk
read « autre — Carte non prise … »: « Nature » stayed on « autre »). static/js/ruling-kind.js; the server files it
so anyway (tests/tournaments/deals/test_rulings_presets.py)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, french_page
from tests.tournaments.factories import TournamentFactory, UserFactory, seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_preset_checks_its_kind_unless_the_chief_chose_one(chromium, live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    chief = UserFactory(username="chef-nature", is_superuser=True)
    chief.set_password("pw-nature-1")
    chief.save()
    tournament = TournamentFactory(game="imperiale", options={"players": 2}, target=3)
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    with french_page(chromium, PHONE) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "chef-nature")
        page.fill("input[name=password]", "pw-nature-1")
        page.click("main button[type=submit]")
        page.wait_for_url("**/")
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/ruling/")
        checked = "() => (document.querySelector('input[name=kind]:checked') || {}).value"
        page.locator("#id_kind label", has_text="autre").click()
        page.locator("#id_penalty label", has_text="Carte non prise").click()
        assert page.evaluate(checked) == "renonce"
        page.locator("#id_penalty label", has_text="Maldonne").click()  # checked here: follows the preset
        assert page.evaluate(checked) == "misdeal"
        page.locator("#id_kind label", has_text="jeu lent").click()  # the chief's own choice: kept
        page.locator("#id_penalty label", has_text="Carte non prise").click()
        assert page.evaluate(checked) == "slow_play"
