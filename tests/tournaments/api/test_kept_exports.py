"""The API's whole exports — a tournament's deals (``/api/tournaments/{id}/export/``) and a season
(``/api/seasons/{id}/export/``) — are never rendered in a web request (the developers' guide; issue 22): the first
request queues their render on the prints worker and answers 202 with ``Retry-After`` and a JSON body; the worker
writes the file once per state; a request serves the file with its ETag, its 304 and its gzip copy; a new state makes
a new file, and the older one is served meanwhile. The staff's export (every round) is a file of its own."""

from __future__ import annotations

import gzip
import json
import os

import pytest
from django.contrib.auth import get_user_model

from tests.integration.builders import add_deal, correct_deal, make_round, make_tournament
from tests.tournaments.seasons.builders import season_of_three
from tournaments.common import downloads, files
from tournaments.deals.models import Deal
from tournaments.event.models import TournamentRole
from tournaments.event.register import player_anonymize
from tournaments.operations import exports
from tournaments.public import tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """What was rendered (« tournament », « season »), wherever it ran."""
    seen: list[str] = []
    real_deals, real_season = exports.selectors.tournament_export, exports.season_file.season_document

    def deals(*args, **kwargs):
        seen.append("tournament")
        return real_deals(*args, **kwargs)

    def season(*args, **kwargs):
        seen.append("season")
        return real_season(*args, **kwargs)

    monkeypatch.setattr(exports.selectors, "tournament_export", deals)
    monkeypatch.setattr(exports.season_file, "season_document", season)
    return seen


@pytest.fixture
def day():
    """Round 1 released (Ana +90 at table 1), round 2 played and not released (Ana −60 there)."""
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug="export")
    (first,) = make_round(t, 1, [[e["Ana"], e["Bruno"], e["Chloé"], e["David"]]])
    (second,) = make_round(t, 2, [[e["Ana"], e["Bruno"], e["Chloé"], e["David"]]], released=False)
    add_deal(first, [90, -30, -30, -30], taker=0)
    add_deal(second, [-60, 20, 20, 20], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()  # what the publication queued: each test runs what it needs
    return t


def test_the_first_request_queues_the_render_and_answers_202_in_json(api_client, day, renders):
    url = f"/api/tournaments/{day.pk}/export/"
    first = api_client.get(url)
    assert first.status_code == 202 and first["Retry-After"] == "3"
    assert first.json()["retry_after"] == 3 and "L'export des donnes" in first.json()["detail"]
    assert renders == []  # nothing rendered in the request
    assert [name for name, _ in tasks.pending()] == [exports.TASK]
    assert api_client.get(url).status_code == 202 and len(tasks.pending()) == 1  # a retry: not queued twice
    tasks.run_pending()
    assert renders == ["tournament"]
    served = api_client.get(url)
    assert served.status_code == 200 and served["Content-Type"].startswith("application/json")
    document = json.loads(_body(served))
    # the public export: the released round only (round 2 is the staff's until it is released)
    assert [(t["round"], t["table"]) for t in document["tables"]] == [(1, 1)]
    assert renders == ["tournament"]  # served from the file
    again = api_client.get(url, HTTP_IF_NONE_MATCH=served["ETag"])
    assert again.status_code == 304
    zipped = api_client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip" and json.loads(gzip.decompress(_body(zipped))) == document


def test_the_staff_export_holds_every_round_and_is_a_file_of_its_own(api_client, day):
    url = f"/api/tournaments/{day.pk}/export/"
    api_client.get(url)
    tasks.run_pending()
    public = api_client.get(url)
    arbiter = get_user_model().objects.create_user("arbitre", password="x")
    TournamentRole.objects.create(tournament=day, user=arbiter, role=TournamentRole.Role.ARBITER)
    api_client.force_authenticate(arbiter)
    assert api_client.get(url).status_code == 202  # not the public file
    tasks.run_pending()
    staff = api_client.get(url)
    assert staff.status_code == 200 and staff["ETag"] != public["ETag"]
    assert staff["Cache-Control"] == "private, no-cache" and public["Cache-Control"] == "public, no-cache"
    assert [(t["round"], t["table"]) for t in json.loads(_body(staff))["tables"]] == [(1, 1), (2, 1)]


def test_a_new_state_makes_a_new_file_and_the_older_is_served_meanwhile(api_client, day, renders):
    url = f"/api/tournaments/{day.pk}/export/"
    api_client.get(url)
    tasks.run_pending()
    before = api_client.get(url)
    deal = Deal.objects.get(table__round__number=1)
    correct_deal(deal, [150, -50, -50, -50])  # the writer calls the one hook: the clock moves
    standings_tasks.ranking_refresh(day.pk)
    tasks.forget()
    # the newer state's file is not written yet: just after the change the caller is told to come back (202,
    # Retry-After); past FRESH_WAIT (a long render) the older file is served meanwhile, with its ETag
    waiting = api_client.get(url)
    assert waiting.status_code == 202 and waiting["Retry-After"]
    claim = next(files.root().glob(f"{day.pk}/export-json*--any.claim"))
    stamp = claim.stat().st_mtime - downloads.FRESH_WAIT
    os.utime(claim, (stamp, stamp))
    meanwhile = api_client.get(url)
    assert meanwhile.status_code == 200 and meanwhile["ETag"] == before["ETag"]
    assert [name for name, _ in tasks.pending()] == [exports.TASK]
    tasks.run_pending()
    after = api_client.get(url)
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    folder = files.root() / str(day.pk)
    assert len(list(folder.glob("export-json--*.json"))) == 1  # the older file removed once the newer is written
    assert renders == ["tournament", "tournament"]


def test_publication_renders_both_exports_in_the_quiet_pass(api_client, day, renders):
    add_deal(day.rounds.get(number=1).tables.get(), [-45, 15, 15, 15], taker=0)
    standings_tasks.ranking_refresh(day.pk)
    tasks.run_pending()  # the pages now, then the quiet pass: PDFs, downloads and the exports
    assert renders == ["tournament", "tournament"]  # the public export and the staff's
    assert api_client.get(f"/api/tournaments/{day.pk}/export/").status_code == 200
    assert tasks.pending() == []


def test_a_season_export_is_kept_made_anew_by_a_publication_and_forgotten_with_a_name(
        client, renders, django_capture_on_commit_callbacks):
    s = season_of_three()
    tasks.forget()
    url = f"/api/seasons/{s['season'].pk}/export/"
    assert client.get(url).status_code == 202 and renders == []
    tasks.run_pending()
    first = client.get(url)
    assert first.status_code == 200 and renders == ["season"]
    document = json.loads(_body(first))
    assert document["format"] == "levee.season/1" and len(document["people"]) == 5
    # a counted tournament corrected: its ranking, then the championship, publish again; the season's export with it
    t3 = s["tournaments"][2]
    correct_deal(Deal.objects.get(table__round__tournament=t3), [60, -60, 20, -20])
    standings_tasks.ranking_refresh(t3.pk)
    tasks.run_pending()
    assert renders.count("season") == 2  # queued by the championship's publication, not by a reader
    second = client.get(url)
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    # a player made anonymous: his old name leaves the kept file at once (the new state renders it again)
    chloe = s["players"]["Chloé"]
    with django_capture_on_commit_callbacks(execute=True):
        player_anonymize(player=chloe)
    kept = list((files.root() / exports.season_folder(s["season"].pk)).glob("*.json"))
    assert all("Chloé" not in p.read_text() for p in kept)
    tasks.run_pending()
    third = client.get(url)
    assert third.status_code == 200 and "Chloé" not in _body(third).decode()
