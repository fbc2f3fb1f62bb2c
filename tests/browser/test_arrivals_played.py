"""The arrivals page after a round was played, in Chromium at 390×844 and 1366×900 with long names: everyone who
played is there (✓, « a joué à la manche 1 »), and « Abandonne » stands in the same column at every row (the walk's
116c.png: beside a short name, under a long one)."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import PHONE, french_page, size_name
from tests.browser.test_table_links import DESKTOP, fits
from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.event.models import Entry, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anaïs Bœuf", "Hélène Étienne", "Jean-Baptiste de La Tour d'Auvergne-Lauraguais", "Bruno",
         "Marie-Bernadette Delacroix-Montfort", "Chloé", "David", "Élodie"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_after_a_round_everyone_is_there_and_the_leave_buttons_line_up(chromium, live_server, screenshots,
                                                                       django_user_model, viewport):
    t, e = make_tournament(NAMES, slug=f"arrivees-{viewport['width']}")
    Entry.objects.filter(pk=e["Élodie"].pk).update(withdrawn=True)
    tables = make_round(t, 1, [[e[n] for n in NAMES[:4]], [e[n] for n in NAMES[4:7]]])
    for table in tables:
        add_deal(table, [20, -10, -10, 0][:table.seats.count()] if table.seats.count() == 4 else [20, -10, -10])
    Round.objects.filter(tournament=t).update(status=Round.Status.FINISHED)
    django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    with french_page(chromium, viewport) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "boss")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/$"))
        page.goto(f"{live_server.url}/t/{t.slug}/arrivals/")
        assert page.locator("#count").inner_text() == "7 joueurs arrivés sur 7"
        assert page.locator(".arrival-state", has_text="pas encore là").count() == 0
        assert page.locator(".arrival-state", has_text="a joué à la manche 1").count() == 7
        boxes = [b.bounding_box() for b in page.locator(".arrival-leave .btn", has_text="Abandonne").all()]
        assert len(boxes) == 7 and len({round(box["x"]) for box in boxes}) == 1, f"« Abandonne » at {boxes}"
        # beside the name, never under it
        for row in page.locator("li.arrival").all():
            tap, leave = row.locator(".arrival-tap").bounding_box(), row.locator(".arrival-leave .btn").bounding_box()
            assert leave["x"] >= tap["x"] + tap["width"] and leave["y"] < tap["y"] + tap["height"]
        page.screenshot(path=str(screenshots / f"arrivals_played_{size_name(viewport)}.png"), full_page=True)
        fits(page, viewport["width"])
