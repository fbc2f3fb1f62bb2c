"""The pages' confirmations and print buttons under production's Content-Security-Policy, in Chromium: a walk saw
« Abandonne » and « Révoquer » act at the first tap and « Imprimer les cartes » do nothing, because their inline
``onclick`` was refused by ``script-src 'self'`` (development only reports the policy, so no one saw it). The
policy the server sends as report-only is enforced here, as production sends it."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE
from tests.integration.builders import make_round, make_tournament
from tournaments.event.models import Entry
from tournaments.links.service import link_for_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Marie-Bernadette Delacroix-Montfort", "Œdipe Cœurdelion", "Anaïs Bœuf", "Bruno"]


def _enforced(route) -> None:
    """The page as production serves it: the report-only policy made the policy."""
    response = route.fetch()
    headers = dict(response.headers)
    policy = headers.pop("content-security-policy-report-only", None)
    if policy:
        headers["content-security-policy"] = policy
    route.fulfill(response=response, headers=headers)


def test_confirmations_ask_and_cards_print_under_the_enforced_policy(chromium, live_server, django_user_model):
    t, e = make_tournament(NAMES, slug="csp")
    table = make_round(t, 1, [[e[n] for n in NAMES]])[0]
    link_for_table(table=table)
    django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)
    context.route(re.compile(r".*"), _enforced)
    context.add_init_script("window.__printed = 0; window.print = () => { window.__printed += 1; };")
    page = context.new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    asked: list[str] = []
    answer = {"accept": False}

    def dialog(d) -> None:
        asked.append(d.message)
        d.accept() if answer["accept"] else d.dismiss()

    page.on("dialog", dialog)
    try:
        served = page.goto(f"{live_server.url}/accounts/login/")
        assert "script-src 'self'" in served.headers["content-security-policy"]
        page.fill("input[name=username]", "boss")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))

        # « Abandonne »: asked; refused → still in; accepted → withdrawn
        page.goto(f"{live_server.url}/t/csp/arrivals/")
        leave = page.locator("li.arrival", has_text="Œdipe").get_by_role("button", name=re.compile("abandonne"))
        leave.click()
        page.wait_for_timeout(500)
        assert asked and "Œdipe Cœurdelion abandonne le tournoi" in asked[-1]
        assert not Entry.objects.get(pk=e["Œdipe Cœurdelion"].pk).withdrawn
        answer["accept"] = True
        leave.click()
        page.wait_for_function("() => document.querySelector('li.arrival.is-out') !== null")
        assert Entry.objects.get(pk=e["Œdipe Cœurdelion"].pk).withdrawn

        # « Révoquer » a table's link: asked, refused → nothing revoked
        answer["accept"] = False
        count = len(asked)
        page.goto(f"{live_server.url}/t/csp/links/")
        page.get_by_role("button", name=re.compile("table 1")).first.click()
        page.wait_for_timeout(500)
        assert len(asked) == count + 1 and "révoquer" in asked[-1].lower(), asked
        assert page.url.endswith("/t/csp/links/")

        # « Imprimer les cartes »: the page prints
        for path in ("/t/csp/player-cards/", f"/t/csp/rounds/{table.round.number}/cards/"):
            page.goto(live_server.url + path)
            page.get_by_role("button", name=re.compile("Imprimer")).first.click()
            assert page.evaluate("window.__printed") == 1, path
        assert not refused, refused
    finally:
        context.close()
