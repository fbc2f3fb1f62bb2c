"""The network cut on a tap page already open (issue: the engine needed about 10 s after the cut, cards unchecked
meanwhile), in Debian's Chromium at phone size.

    LEVEE_ENV=development .venv/bin/python -m pytest -q -p no:cacheprovider -s bench/engine_cut.py

Through a table's link (La Triomphe at two): the page opened online, the engine's files kept by the service worker;
the page left idle as a table leaves it between two deals (until the engine has started in the background, at most
60 s: a page without the background start just waits); the network cut, no reload; the dealer, the retourne and
the first card tapped at once; the time from the cut to the device's first check shown. Figures in
docs/performance.md, "The rules engine on the device".
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_tap_entry import TRIOMPHE_TRICKS, pick_cards, seat
from tests.conftest import chromium  # noqa: F401  (the session's browser)
from tests.tournaments.factories import TournamentFactory, seated_table
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parent / "out" / "engine_cut.json"


def test_the_first_check_after_a_network_cut(live_server, chromium):  # noqa: F811
    tournament = TournamentFactory(name="Banc", slug="banc-coupure", game="triomphe",
                                   options={"mode": "forcee", "target": 5})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=tournament, tables_enter=True)
    link = links.link_for_table(table=table)
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    context.set_default_timeout(120_000)
    page = context.new_page()
    out: dict[str, object] = {}
    try:
        page.goto(f"{live_server.url}/k/{link.token}/deal/")
        page.locator('#net[data-engine="server"]').wait_for()
        page.wait_for_function("window.LeveeEngine.warm === true")
        background = page.evaluate("'warmStartedAt' in window.LeveeEngine")
        if background:
            page.wait_for_function("window.LeveeEngine.bootMs !== null", timeout=60_000)
        out["engine_started_in_background"] = background
        out["boot_ms_in_worker"] = page.evaluate("window.LeveeEngine.bootMs")
        t0 = time.perf_counter()
        context.set_offline(True)
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.locator(f'#pack button[data-code="{TRIOMPHE_TRICKS[0][0]}"]').click()
        page.locator('#net[data-engine="device"]').wait_for()
        out["cut_to_first_check_s"] = round(time.perf_counter() - t0, 3)
        out["boot_ms_in_worker_after"] = page.evaluate("window.LeveeEngine.bootMs")
    finally:
        context.close()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=2))
    print(json.dumps(out, indent=2))
