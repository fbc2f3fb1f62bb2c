"""Duplicate Tarot's REST API: setup, étuis import, artificial results, travellers once released — each with
the permissions of its page (organizer sets up, the referees import, the chief gives artificial results, anyone who
sees the tournament reads a released étui's traveller, no one an unreleased one)."""

from __future__ import annotations

import pytest

from scoring.etui import deal_etui
from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, role, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.duplicate.models import ArtificialResult, Etui
from tournaments.event.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=2, is_public=True)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    users = {n: UserFactory(username=n) for n in ("organizer", "chief", "arbiter", "outsider")}
    role(tournament, users["organizer"], "organizer")
    role(tournament, users["chief"], "chief_arbiter")
    role(tournament, users["arbiter"], "arbiter")
    return tournament, users


def _setup(api_client, tournament, **body):
    return api_client.put(f"/api/tournaments/{tournament.pk}/duplicate/",
                          {"boards_per_round": 2, "seed": "api", **body}, format="json")


def test_setup_is_the_organizers(api_client, event):
    tournament, users = event
    assert _setup(api_client, tournament).status_code in (401, 403)
    for name in ("outsider", "arbiter", "chief"):
        api_client.force_authenticate(users[name])
        assert _setup(api_client, tournament).status_code == 403, name
    api_client.force_authenticate(users["organizer"])
    done = _setup(api_client, tournament, tie_breaks=["tops"])
    assert done.status_code == 200, done.json()
    # 2 rounds × 2 étuis, 16 players → 4 tables a round
    assert done.json() | {} == {"tournament": tournament.pk, "boards_per_round": 2, "seed": "api",
                                "method": "matchpoints", "score": "mean", "short": "auto", "tie_breaks": ["tops"],
                                "etuis": 4, "known": 4}
    assert Table.objects.filter(round__tournament=tournament).count() == 8
    bad = _setup(api_client, tournament, boards_per_round=40)
    assert bad.status_code == 400 and bad.json()["field"] == "boards_per_round"
    bad = _setup(api_client, tournament, method="best")
    assert bad.status_code == 400 and bad.json()["field"] == "method"
    api_client.force_authenticate(users["arbiter"])
    assert api_client.get(f"/api/tournaments/{tournament.pk}/duplicate/").json()["etuis"] == 4
    api_client.force_authenticate(users["outsider"])
    assert api_client.get(f"/api/tournaments/{tournament.pk}/duplicate/").status_code == 403


def test_setup_again_keeps_the_rounds_played_and_is_refused_once_all_are(api_client, event):
    tournament, users = event
    api_client.force_authenticate(users["organizer"])
    _setup(api_client, tournament)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    deal_record(table=table, user=users["chief"], record=tarot_summary(taker=1, points=49, dealer=0))
    again = _setup(api_client, tournament)  # round 2 rebuilt, round 1 and its deal kept
    assert again.status_code == 200 and Table.objects.filter(pk=table.pk).exists()
    last = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    deal_record(table=last, user=users["chief"], record=tarot_summary(taker=1, points=49, dealer=0))
    again = _setup(api_client, tournament)
    assert again.status_code == 409 and again.json()["error"] == "round_started"


def test_etuis_import_is_the_referees(api_client, event):
    tournament, users = event
    api_client.force_authenticate(users["organizer"])
    _setup(api_client, tournament, seed="")
    url = f"/api/tournaments/{tournament.pk}/duplicate/etuis/import/"
    record = deal_etui("other", 1).as_json() | {"format": "levee.deal/1", "game": "tarot"}
    for name in ("outsider", "arbiter"):  # the page is the referees' (chief arbiter, organizer)
        api_client.force_authenticate(users[name])
        assert api_client.post(url, {"records": [record], "first": 3}, format="json").status_code == 403
    api_client.force_authenticate(users["chief"])
    done = api_client.post(url, {"records": [record], "first": 3}, format="json")
    assert done.status_code == 200 and done.json() == {"imported": [3]}
    assert Etui.objects.get(tournament=tournament, number=3).source == "imported"
    bad = api_client.post(url, {"records": [record | {"dog": ["EX"] * 6}], "first": 1}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "records[0].hands"
    missing = api_client.post(url, {"records": [record], "first": 9}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "records[0]"


def test_artificial_result_is_the_chiefs(api_client, event):
    tournament, users = event
    api_client.force_authenticate(users["organizer"])
    _setup(api_client, tournament)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    north = table.seats.get(position=0).entry_id
    url = f"/api/tables/{table.pk}/etuis/1/artificial/"
    body = {"entry": north, "kind": "plus", "reason": "carte exposée"}
    api_client.force_authenticate(users["arbiter"])
    assert api_client.post(url, body, format="json").status_code == 403
    api_client.force_authenticate(users["chief"])
    done = api_client.post(url, body, format="json")
    assert done.status_code == 200 and done.json() == {"etui": 1, "entry": north, "kind": "plus",
                                                       "reason": "carte exposée"}
    assert ArtificialResult.objects.get().kind == "plus"
    no_reason = api_client.post(url, body | {"reason": ""}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    wrong_etui = api_client.post(f"/api/tables/{table.pk}/etuis/5/artificial/", body, format="json")
    assert wrong_etui.status_code == 400 and wrong_etui.json()["field"] == "etui"
    removed = api_client.post(url, {"entry": north, "kind": ""}, format="json")
    assert removed.status_code == 200 and removed.json()["kind"] is None
    assert not ArtificialResult.objects.exists()


def test_travellers_only_once_the_round_is_released(api_client, event):
    tournament, users = event
    api_client.force_authenticate(users["organizer"])
    _setup(api_client, tournament)
    for number in (1, 3):  # tables 1 and 3 of round 1 start with étui 1, dealt by North
        table = Table.objects.get(round__tournament=tournament, round__number=1, number=number)
        deal_record(table=table, user=users["chief"], record=tarot_summary(taker=1, points=40 + number, dealer=0))
    api_client.force_authenticate(None)
    listing = f"/api/tournaments/{tournament.pk}/duplicate/etuis/"
    assert api_client.get(listing).json() == []
    assert api_client.get(f"{listing}1/").status_code == 404
    tournament.rounds.filter(number=1).update(released=True)
    assert api_client.get(listing).json() == [{"number": 1, "round": 1, "players": 4},
                                              {"number": 2, "round": 1, "players": 4}]
    trav = api_client.get(f"{listing}1/")
    assert trav.status_code == 200
    lines = trav.json()["lines"]
    assert sorted((ln["round"], ln["table"]) for ln in lines) == [(1, 1), (1, 3)]
    assert all(len(ln["names"]) == 4 and not ln["fouled"] for ln in lines)
    assert api_client.get(f"{listing}3/").status_code == 404  # round 2 not released
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert api_client.get(listing).status_code == 404
