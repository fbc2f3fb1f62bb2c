"""The Expert tab (the deal's JSON record) saves a deal « as played » when the arbiter says so: a phone walk found
that « La saisir quand même (elle sera signalée) » posted the form again without the button pressed — the offline
outbox's script built the fields without the submitter — so the same refusal came back and nothing was saved. On
the desk and through a table's link, in Chromium at 390×844 (tests/golden/tarot-revoke.json: a renonce)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.test_tap_entry import fits, login
from tests.tournaments.factories import TournamentFactory, UserFactory, own_fields, role, seated_table
from tournaments.deals.models import Deal
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REVOKE = Path(__file__).resolve().parents[1] / "golden" / "tarot-revoke.json"


@pytest.mark.parametrize("route", ["desk", "link"])
def test_the_expert_tab_saves_a_deal_as_played(live_server, phone, screenshots, settings, route):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Coupe de tarot", game="tarot", options={"players": 4})
    table = seated_table(tournament, players=4, names=["Ana", "Bruno", "Chloé", "David"])
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.RUNNING)
    if route == "desk":
        role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
        login(phone, live_server)
        url = reverse("deal_enter", args=[table.pk]) + "?mode=record"
    else:
        TablePolicy.objects.create(tournament=tournament, tables_enter=True)
        url = f"/k/{links.link_for_table(table=table).token}/deal/?mode=record"
    phone.goto(live_server.url + url)
    phone.fill("textarea[name=record]", json.dumps(own_fields(json.loads(REVOKE.read_text()))))
    phone.locator("#deal-form button[type=submit]:not([name=irregular])").first.click()
    anyway = phone.locator("button[name=irregular][value='1']")
    anyway.wait_for()
    assert Deal.objects.filter(table=table).count() == 0  # refused: nothing saved yet
    fits(phone)
    phone.screenshot(path=str(screenshots / f"expert-irregular-offered-{route}.png"), full_page=True)
    anyway.click()
    phone.wait_for_url(re.compile(r"/deals?/\d+/$"))
    deal = Deal.objects.get(table=table)
    assert deal.status == Deal.Status.IRREGULAR
    assert "irrégulière" in phone.locator("main").inner_text()
