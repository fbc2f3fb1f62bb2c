"""The REST API covers the table (issue 19, item 7): links (list, revoke, renew) for the organizer, the players'
confirmations and disputes through their own links, the calls (open through the table's link; list, take,
resolve for the chief arbiter) — each with the permissions of its page.

Marks by hand (FFT): Bruno's garde, 2 bouts, 49 points (41 needed): (25 + 8) × 2 = 66 per defender, +198 the taker.
"""

from __future__ import annotations

import pytest

from tests.tournaments.factories import tarot_summary
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Seat, Tournament
from tournaments.links import service as sheet
from tournaments.links.models import ArbiterCall, DealAnswer, DealSheet, PrivateLink

pytestmark = pytest.mark.django_db


def _entries(table):
    return [s.entry for s in Seat.objects.filter(table=table).select_related("entry__player").order_by("position")]


def test_links_list_revoke_and_renew_for_the_organizer_only(api_client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    table_link = sheet.link_for_table(table=tarot_table)
    player_link = sheet.link_for_entry(entry=_entries(tarot_table)[0])
    url = f"/api/tournaments/{tournament.pk}/links/"
    assert api_client.get(url).status_code in (401, 403)
    for who in ("chief", "arbiter", "outsider"):
        api_client.force_authenticate(staff[who])
        assert api_client.get(url).status_code == 403, who
        assert api_client.post(f"/api/links/{table_link.pk}/revoke/", {}, format="json").status_code == 403, who
        assert api_client.post(f"/api/links/{table_link.pk}/renew/").status_code == 403, who
    api_client.force_authenticate(staff["organizer"])
    listed = api_client.get(url).json()["results"]
    assert [(x["kind"], x["round"], x["table_number"], x["player"]) for x in listed] == [
        ("table", 1, tarot_table.number, None), ("player", None, None, "Ana")]
    assert listed[0]["url"].endswith(f"/k/{table_link.token}/") and listed[0]["live"] is True
    assert api_client.get(url + "?kind=chair").json()["field"] == "kind"
    # revoke without successor, then renew: a new live link for the same table
    body = api_client.post(f"/api/links/{table_link.pk}/revoke/", {"renew": False}, format="json").json()
    assert body["revoked"]["live"] is False and body["new"] is None
    assert api_client.post(f"/api/links/{table_link.pk}/revoke/", {}, format="json").status_code == 409
    renewed = api_client.post(f"/api/links/{table_link.pk}/renew/")
    assert renewed.status_code == 201
    new = PrivateLink.objects.get(table=tarot_table, revoked_at__isnull=True)
    assert renewed.json()["new"]["token"] == new.token != table_link.token
    # renewing a live player link revokes it
    body = api_client.post(f"/api/links/{player_link.pk}/renew/").json()
    assert body["revoked"]["live"] is False and body["new"]["player"] == "Ana"
    assert [x["live"] for x in api_client.get(url + "?kind=player").json()["results"]] == [False, True]


def test_players_confirm_and_dispute_through_their_links(api_client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    table_link = sheet.link_for_table(table=tarot_table)
    ana_link = sheet.link_for_entry(entry=_entries(tarot_table)[0])
    sheets = api_client.get(f"/api/k/{table_link.token}/deals/").json()
    assert [line["points"] for line in sheets[0]["lines"]] == [-66, 198, -66, -66]
    assert "Bruno" in sheets[0]["headline"] and sheets[0]["sum"] == 0 and sheets[0]["state"] == "entered"
    assert any("49" in value for _label, value in sheets[0]["words"])
    # Ana's own link answers for Ana only, at her tables
    mine = api_client.get(f"/api/j/{ana_link.token}/deals/").json()
    assert [(x["round"], x["number"]) for x in mine] == [(1, 1)]
    answer = api_client.post(f"/api/j/{ana_link.token}/rounds/1/deals/1/answer/", {"answer": "confirmed"},
                             format="json")
    assert answer.status_code == 201 and answer.json()["confirmed"] == 1
    assert api_client.post(f"/api/j/{ana_link.token}/rounds/2/deals/1/answer/", {"answer": "confirmed"},
                           format="json").status_code == 404
    # the table's link answers for its seats; a dispute without a reason is refused, naming the field
    url = f"/api/k/{table_link.token}/deals/1/answer/"
    refused = api_client.post(url, {"seat": 2, "answer": "disputed"}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "note"
    assert api_client.post(url, {"seat": 7, "answer": "confirmed"}, format="json").json()["field"] == "seat"
    disputed = api_client.post(url, {"seat": 2, "answer": "disputed", "note": "51 points, pas 49"}, format="json")
    assert disputed.status_code == 201 and disputed.json()["state"] == "disputed"
    call = ArbiterCall.objects.get()
    assert (call.reason, call.note, call.entry.player.name) == ("dispute", "51 points, pas 49", "Chloé")
    # the staff read the answers; a player link is no account
    answers_url = f"/api/deals/{deal.pk}/answers/"
    assert api_client.get(answers_url).status_code in (401, 403, 404)
    api_client.force_authenticate(staff["outsider"])
    assert api_client.get(answers_url).status_code == 404  # the round is not released: not even visible
    api_client.force_authenticate(staff["chief"])
    rows = api_client.get(answers_url).json()
    assert [(r["player"], r["answer"], r["through"]) for r in rows] == [
        ("Ana", "confirmed", "player_link"), ("Chloé", "disputed", "table_link")]
    # revoked: 410; unknown: 404; a player's token on a table's URL: 404
    sheet.link_revoke(link=table_link, user=staff["organizer"])
    api_client.force_authenticate(None)
    assert api_client.post(url, {"seat": 0, "answer": "confirmed"}, format="json").status_code == 410
    assert api_client.get("/api/k/nothing-here/deals/").status_code == 404
    assert api_client.get(f"/api/k/{ana_link.token}/deals/").status_code == 404


def test_no_dispute_through_the_api_once_finished_and_official(api_client, tarot_table):
    deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    Round.objects.filter(pk=tarot_table.round_id).update(status=Round.Status.FINISHED)
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.FINISHED)
    response = api_client.post(f"/api/k/{link.token}/deals/1/answer/",
                               {"seat": 1, "answer": "disputed", "note": "trop tard"}, format="json")
    assert response.status_code == 409 and response.json()["error"] == "dispute_closed"
    assert not DealAnswer.objects.exists() and not ArbiterCall.objects.exists()


def test_calls_open_by_the_link_taken_and_resolved_by_the_chief(api_client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    opened = api_client.post(f"/api/k/{link.token}/calls/", {"reason": "renonce", "deal": 1, "note": "pli 5"},
                             format="json")
    assert opened.status_code == 201 and opened.json()["deal_number"] == 1
    again = api_client.post(f"/api/k/{link.token}/calls/", {"reason": "renonce", "deal": 1}, format="json")
    assert again.status_code == 200 and again.json()["id"] == opened.json()["id"]
    assert api_client.post(f"/api/k/{link.token}/calls/", {"reason": "boom"}, format="json").json()["field"] \
        == "reason"
    assert api_client.post(f"/api/k/{link.token}/calls/", {"reason": "other", "deal": 9},
                           format="json").json()["field"] == "deal"
    call_id = opened.json()["id"]
    tournament = tarot_table.round.tournament
    for who in ("arbiter", "outsider"):
        api_client.force_authenticate(staff[who])
        assert api_client.get(f"/api/tournaments/{tournament.pk}/calls/").status_code == 403, who
        assert api_client.post(f"/api/calls/{call_id}/take/").status_code == 403, who
        assert api_client.post(f"/api/calls/{call_id}/resolve/", {"outcome": "nothing", "answer": "ok"},
                               format="json").status_code == 403, who
    api_client.force_authenticate(staff["chief"])
    listed = api_client.get(f"/api/tournaments/{tournament.pk}/calls/?state=open").json()["results"]
    assert [(c["id"], c["reason"], c["note"]) for c in listed] == [(call_id, "renonce", "pli 5")]
    taken = api_client.post(f"/api/calls/{call_id}/take/").json()
    assert (taken["state"], taken["taken_by"]) == ("taken", "chief")
    refused = api_client.post(f"/api/calls/{call_id}/resolve/", {"outcome": "ruling", "answer": ""}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "answer"
    done = api_client.post(f"/api/calls/{call_id}/resolve/", {"outcome": "nothing", "answer": "Carte fournie."},
                           format="json")
    assert done.status_code == 200 and done.json()["state"] == "resolved"
    assert api_client.post(f"/api/calls/{call_id}/take/").status_code == 409
    assert api_client.post(f"/api/calls/{call_id}/resolve/", {"outcome": "nothing", "answer": "encore"},
                           format="json").status_code == 409
    assert DealSheet.objects.filter(deal=deal, state="disputed").count() == 0
