"""Le Vingt-quatre's honours, chosen once in the tournament's settings (A-V5: « au point » here), come preselected on
every entry of a deal: the desk's tap page card by card and its summary, and the table's link. The walk: « Honneurs
de cette donne » had nothing ticked, though the page sent the tournament's convention when left alone."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_tap_entry import arbiter, login, table_for
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["arbiter"]  # the fixture

NAMES = ["Zoé", "Guy", "Marie-Bernadette Delacroix-Montfort", "Jean-Édouard Lœwenbruck-Œhlenschläger"]


def _ticked(page) -> list[str]:
    box = page.locator('[data-field="honours"]')
    box.wait_for()
    return [label.inner_text() for label in box.locator("label.choice").all()
            if label.locator("input").is_checked()]


def test_the_tournaments_honours_are_preselected_on_every_entry(live_server, phone, arbiter):
    table = table_for(arbiter, "vingt-quatre", {"honours": "point", "target": 24}, NAMES)
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=table.round.tournament, tables_enter=True)
    link = links.link_for_table(table=table)
    page = phone
    login(page, live_server)
    for url in (f"/desk/tables/{table.pk}/deal/play/?mode=play", f"/desk/tables/{table.pk}/deal/play/?mode=summary",
                f"/k/{link.token}/deal/"):
        page.goto(live_server.url + url)
        assert _ticked(page) == ["Au point (as, 2, 3, 4, 5 d'atout)"], url
    # a tap on the other convention changes it for this deal, and a tap on it again keeps it (it is not emptied)
    figures = page.locator('[data-field="honours"] label.choice', has_text="Aux figures")
    figures.click()
    figures.click()
    assert _ticked(page) == ["Aux figures (9, 10, valet, dame, roi d'atout)"]
    assert re.search(r"/k/[^/]+/deal/$", page.url)
