"""The tap page's weight and the rules engine on the device (issue 22, item 4), in Debian's Chromium at phone size.

    LEVEE_ENV=development .venv/bin/python -m pytest -q -p no:cacheprovider -s bench/engine_page.py

Through a table's link (La Triomphe at two, the deal of tests/browser/test_tap_entry.py):

1. **Cold**: a new phone opens the tap page; bytes received over the network (Playwright's request sizes: headers
   and body of every response of the page or its service worker, not the service worker's answers to the page)
   until the server's first check, then for the engine's files that the page fetches once it is usable (for the
   service worker to keep). The test server sends them uncompressed (item 4 gives the compressed sizes).
2. **Warm**: the same phone reloads the page: bytes received again.
3. **Without network**: the network cut, the page reloaded from the service worker; the first card's check by
   Pyodide (start from the kept files + import of rules/ and scoring/ + the answer: time from the tap to the marks
   shown), then the next cards (the engine started), beside the server's answer to the same card online.
4. The bytes whitenoise would send for the engine's files once compressed (gzip -9, brotli when installed, as
   ``collectstatic`` stores them), from the files themselves.

Figures in docs/performance.md, "The rules engine on the device".
"""

from __future__ import annotations

import gzip
import json
import statistics
import time
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_tap_entry import TRIOMPHE_TRICKS, pick_cards, seat
from tests.conftest import chromium  # noqa: F401  (the session's browser)
from tests.tournaments.factories import TournamentFactory, seated_table
from tournaments.desk.engine import PYODIDE_FILES, engine_zip
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.django_db(transaction=True)]

PYODIDE = Path(__file__).resolve().parents[1] / "vendor" / "pyodide" / "node_modules" / "pyodide"
OUT = Path(__file__).resolve().parent / "out" / "engine_page.json"


class Wire:
    """Bytes received over the network by a phone (its pages and its service worker), answers of the service worker
    to the page apart (those bytes came over the network once, counted with the service worker's own request)."""

    def __init__(self, context) -> None:
        self.bytes = 0
        self.count = 0
        context.on("requestfinished", self._finished)

    def _finished(self, request) -> None:
        response = request.response()
        if response is None or response.from_service_worker:
            return
        sizes = request.sizes()
        self.bytes += sizes["responseBodySize"] + sizes["responseHeadersSize"]
        self.count += 1

    def take(self) -> tuple[int, int]:
        out = (self.bytes, self.count)
        self.bytes = self.count = 0
        return out


def _compressed() -> dict[str, int]:
    sizes = {"raw": 0, "gzip": 0}
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        brotli = None
    blobs = [(PYODIDE / name).read_bytes() for name in PYODIDE_FILES] + [engine_zip()[0]]
    for blob in blobs:
        sizes["raw"] += len(blob)
        sizes["gzip"] += len(gzip.compress(blob, 9))
        if brotli is not None:
            sizes["brotli"] = sizes.get("brotli", 0) + len(brotli.compress(blob))
    return sizes


def test_engine_page_weight_and_first_check(live_server, chromium):  # noqa: F811
    tournament = TournamentFactory(name="Banc", slug="banc-moteur", game="triomphe",
                                   options={"mode": "forcee", "target": 5})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=tournament, tables_enter=True)
    link = links.link_for_table(table=table)
    url = f"{live_server.url}/k/{link.token}/deal/"
    context = chromium.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    context.set_default_timeout(60_000)
    page = context.new_page()
    wire = Wire(context)
    out: dict[str, object] = {}
    try:
        started = time.perf_counter()
        page.goto(url)
        page.locator('#net[data-engine="server"]').wait_for()
        out["cold_usable_s"] = round(time.perf_counter() - started, 3)
        out["cold_page_bytes"], out["cold_page_requests"] = wire.take()
        page.wait_for_function("window.LeveeEngine.warm === true")
        page.wait_for_timeout(500)
        out["cold_engine_bytes"], out["cold_engine_requests"] = wire.take()
        page.reload()
        page.locator('#net[data-engine="server"]').wait_for()
        page.wait_for_function("window.LeveeEngine.warm === true")
        page.wait_for_timeout(500)
        out["warm_bytes"], out["warm_requests"] = wire.take()

        # the server's check, online, card by card (the reference)
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.locator('#net[data-engine="server"]').wait_for()
        server = []
        for code in [c for t in TRIOMPHE_TRICKS for c in t][:6]:
            t0 = time.perf_counter()
            page.locator(f'#pack button[data-code="{code}"]').click()
            page.locator('#net[data-engine="server"]').wait_for()
            server.append(time.perf_counter() - t0)
        page.click("#undo")
        for _ in range(5):
            page.click("#undo")
        page.locator('#net[data-engine="server"]').wait_for()

        # without network: the page from the service worker, the first check by Pyodide
        context.set_offline(True)
        page.reload()
        page.locator("#net.offline").wait_for()
        wire.take()
        device = []
        first = None
        for code in [c for t in TRIOMPHE_TRICKS for c in t][:6]:
            t0 = time.perf_counter()
            page.locator(f'#pack button[data-code="{code}"]').click()
            page.locator('#net[data-engine="device"]').wait_for()
            if first is None:
                first = time.perf_counter() - t0
            else:
                device.append(time.perf_counter() - t0)
        out["offline_bytes"] = wire.take()[0]
        out["first_check_offline_s"] = round(first or 0, 3)
        out["engine_boot_ms_in_worker"] = page.evaluate("window.LeveeEngine.bootMs")
        out["python_start_ms_in_worker"] = page.evaluate("window.LeveeEngine.pythonMs")
        out["next_checks_device_ms_median"] = round(statistics.median(device) * 1000, 1)
        out["checks_server_ms_median"] = round(statistics.median(server) * 1000, 1)
        out["engine_files"] = _compressed()
        out["rules_zip_bytes"] = len(engine_zip()[0])
    finally:
        context.close()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=2))
    print(json.dumps(out, indent=2))
