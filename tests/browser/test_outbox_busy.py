"""The outbox (static/js/offline-entry.js) when the server answers but is busy: a 503 with Retry-After (the database
restarting) or a 429 is not « Pas de réseau ». The note says the server is busy and when it tries again, nothing is
sent before the time the server asked for, then the deal is sent once (issue 21 item 4)."""

from __future__ import annotations

import time

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_table_links import _summary, _tournament
from tests.integration.builders import make_round
from tournaments.deals.models import Deal
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("status", [503, 429])
def test_a_busy_server_is_said_busy_and_retried_after_its_retry_after(chromium, live_server, screenshots, status):
    t, entries = _tournament(f"occupe-{status}")
    (table,) = make_round(t, 1, [entries])
    TablePolicy.objects.create(tournament=t, tables_enter=True)
    link = links.link_for_table(table=table)
    # the service worker would fetch the page's requests itself, out of page.route's reach
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR", is_mobile=True,
                                   has_touch=True, service_workers="block")
    context.set_default_timeout(30_000)
    page = context.new_page()
    tries: list[tuple[float, int]] = []

    def busy_once(route) -> None:
        if route.request.method != "POST":
            route.continue_()
        elif not tries:
            tries.append((time.monotonic(), status))
            route.fulfill(status=status, headers={"Retry-After": "3"}, content_type="application/json",
                          body='{"error": "unavailable", "field": "$", "message": "…"}')
        else:
            tries.append((time.monotonic(), 0))
            route.continue_()

    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/?mode=summary")
        _summary(page, dealer=0, taker=1, contract="Garde", oudlers="2", points="49")
        context.set_offline(True)  # the deal goes to the outbox, as when the network is gone …
        page.get_by_role("button", name="Vérifier et enregistrer").click()
        page.locator("#offline-entry li.outbox-waiting").wait_for()
        page.route(f"**/k/{link.token}/deal/offline/**", busy_once)
        context.set_offline(False)  # … then the network is back, and the server answers busy
        page.evaluate("window.LeveeOffline.flush()")
        note = page.locator("#offline-entry .offline-note")
        page.wait_for_function("document.querySelector('#offline-entry .offline-note').textContent"
                               ".startsWith('Serveur occupé')")
        text = note.inner_text()
        assert text.startswith("Serveur occupé — nouvel essai dans ") and text.endswith(" s"), text
        assert int(text.split("dans ")[1].split()[0]) in (1, 2, 3)
        assert "Pas de réseau" not in page.locator("#offline-entry").inner_text()
        assert "en attente du serveur" in page.locator("#offline-entry li.outbox-waiting").inner_text()
        page.screenshot(path=str(screenshots / f"outbox_busy_{status}_phone.png"), full_page=True)
        page.evaluate("window.LeveeOffline.flush()")  # a flush asked for meanwhile waits for the Retry-After too
        page.locator("#offline-entry li.outbox-sent").wait_for(timeout=15_000)
        assert [code for _at, code in tries] == [status, 0]  # one busy answer, then one sending that went through
        waited = tries[1][0] - tries[0][0]
        assert 2.5 <= waited <= 6, f"the next try came {waited:.1f} s after a Retry-After of 3 s"
        assert "Serveur occupé" not in note.inner_text()
        assert Deal.objects.filter(table=table).count() == 1
    finally:
        context.close()
