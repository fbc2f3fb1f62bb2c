"""The chief's ruling form on the deal that ended an Impériale match, at 390×844 and 1366×900 with long names (the
phone walk's B1 and W1: « L'ajustement 1 vient après la fin de la partie » on a renonce called on that deal).
docs/deal-record.md, "A fault in the deal that ended the match". Figures by hand: see
``tests/tournaments/desk/test_ruling_imperiale_end_page.py`` (target 4: [2,4] → Œdipe −1 before the last deal's
marks → [2,3], the match goes on)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, french_page, size_name
from tests.tournaments.desk.test_ruling_imperiale_end_page import MB, OE, ended_table
from tests.tournaments.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 900}


def login(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "chef-fin")
    page.fill("input[name=password]", "pw-fin-1")
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def no_spill(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page spills sideways: {width}px"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_chief_rules_on_the_deal_that_ended_the_match(chromium, live_server, settings, screenshots, viewport):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    chief = UserFactory(username="chef-fin", is_superuser=True)
    chief.set_password("pw-fin-1")
    chief.save()
    size = size_name(viewport)
    table, deals = ended_table(f"imp-fin-{size}", chief)
    late, _ = ended_table(f"imp-tard-{size}", chief)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/ruling/?deal={deals[2].pk}")
        assert "Une faute commise dans la donne qui a fini la partie" in page.locator("#ending-deal-note").inner_text()
        page.locator("label", has_text="Carte non prise").click()
        page.locator("#id_offender label", has_text=OE).click()
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-form-{size}.png"), full_page=True)
        page.locator("main form button[type=submit]").last.click()
        page.wait_for_url("**/desk/deals/*/")
        text = page.locator("main").inner_text()
        assert f"Décision enregistrée : {OE} -1." in page.content() or f"{OE} -1" in text
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-recorded-{size}.png"), full_page=True)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        assert MB in page.locator("main").inner_text()
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-table-{size}.png"), full_page=True)
        # typed points with no deal named after the end: refused, in the table's words
        page.goto(f"{live_server.url}/desk/tables/{late.pk}/ruling/")
        page.locator("label", has_text="aucune").first.click()
        page.locator("#id_kind label").first.click()
        page.locator("input[name^=adj_]").first.fill("1")
        page.locator("input[name=is_penalty]").check()
        page.fill("textarea[name=reason]", "retard")
        page.locator("main form button[type=submit]").last.click()
        problems = page.locator("#problems").inner_text()
        assert "La partie était déjà finie" in problems and "rendez la décision sur cette donne" in problems
        assert "ajustement" not in problems.lower()
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-refused-{size}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_penalty_that_ends_the_match_before_the_deal_s_marks(chromium, live_server, settings, screenshots,
                                                             viewport):
    # target 2: D2 gives Œdipe 1; D1 mirrored gives Marie-Bernadette her capote (2): she wins. She failed to take in
    # that deal with no impériale before it: Œdipe scores one at the fault, reaching 2 — the match ends there and
    # the deal's marks come after the end
    from tests.scoring import test_imperiale as imp

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    chief = UserFactory(username="chef-fin", is_superuser=True)
    chief.set_password("pw-fin-1")
    chief.save()
    size = size_name(viewport)
    table, deals = ended_table(f"imp-faute-{size}", chief, target=2, fields=[imp.d2(), imp.d1(dealer=1)],
                               winner=0)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/ruling/?deal={deals[1].pk}")
        page.locator("label", has_text="Carte non prise").click()
        page.locator("#id_offender label", has_text=MB).click()
        page.locator("main form button[type=submit]").last.click()
        page.wait_for_url("**/desk/deals/*/")
        assert f"Décision enregistrée : {OE} +1." in page.locator("main").inner_text()
        assert "La partie s'est terminée à la pénalité" in page.locator("#ended-at-fault").inner_text()
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-ended-at-fault-{size}.png"), full_page=True)
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        no_spill(page)
        page.screenshot(path=str(screenshots / f"ruling-ending-deal-ended-at-fault-table-{size}.png"),
                        full_page=True)
