"""« Back » after a deal is saved opens the next deal clean (a phone walk: after a garde sans or a garde contre,
the browser's Back showed « Donne 3 » with deal 2's dealer, taker, contract and bouts still selected, and its
save was refused « choisissez le preneur et le contrat » while they looked chosen)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_table_links import _summary, _tournament
from tests.integration.builders import make_round
from tests.tournaments.factories import UserFactory, role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("contract", ["Garde sans le chien", "Garde"])
def test_back_after_a_save_shows_the_next_deal_clean(chromium, live_server, settings, contract):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    t, entries = _tournament(f"retour-{contract[-5:].strip().lower()}")
    (table,) = make_round(t, 1, [entries])
    chief = UserFactory(username="chef-retour")
    chief.set_password("pw-retour-1")
    chief.save()
    role(t, chief, "chief_arbiter")
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "chef-retour")
        page.fill("input[name=password]", "pw-retour-1")
        page.click("main button[type=submit]")
        page.wait_for_url("**/")
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary")
        _summary(page, dealer=1, taker=2, contract=contract, oudlers="2", points="50")
        page.get_by_role("button", name="Vérifier et enregistrer").click()
        page.wait_for_url("**/desk/deals/*/")
        page.go_back()
        page.locator('[data-field="bid.taker"]').wait_for()
        page.wait_for_timeout(500)
        assert page.locator("main h1").inner_text().strip() == "Donne 2"
        checked = page.evaluate("""() => Array.from(document.querySelectorAll(
            '[data-field="bid.taker"] input, [data-field="bid.contract"] input, [data-field="summary.oudlers"] input'))
            .filter(i => i.checked).map(i => i.closest('[data-field]').dataset.field)""")
        assert checked == [], checked
    finally:
        context.close()
