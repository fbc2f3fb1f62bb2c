"""The API contract: 201s, 400s naming the field / trick / seat / card, 409s, idempotency, no partial saves,
versions, export/import, the stateless arbitrate endpoint and the OpenAPI schema."""

from __future__ import annotations

import pytest

from tests.integration.builders import downloaded
from tests.tournaments.factories import tarot_full_deal, tarot_illegal_deal, tarot_summary
from tournaments.deals.models import Deal, ScoreRow

pytestmark = pytest.mark.django_db


def deals_url(table):
    return f"/api/tables/{table.pk}/deals/"


def test_create_deal_and_read_it(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    response = api_client.post(deals_url(tarot_table), tarot_summary(), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["number"] == 1 and body["version"] == 1 and body["status"] == "valid"
    assert [s["points"] for s in body["scores"]] == [-66, 198, -66, -66]
    assert response["ETag"] == '"1"'
    listed = api_client.get(deals_url(tarot_table)).json()
    assert [d["id"] for d in listed] == [body["id"]]
    detail = api_client.get(f"/api/deals/{body['id']}/").json()
    assert detail["record"]["players"] == ["Ana", "Bruno", "Chloé", "David"]


def test_illegal_deal_is_a_400_naming_trick_seat_card(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    fields, trick, seat, card = tarot_illegal_deal(11)
    response = api_client.post(deals_url(tarot_table), fields, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "illegal"
    first = body["violations"][0]
    assert (first["trick"], first["seat"], first["card"]) == (trick, seat, card)
    assert first["rule"] and first["message"]
    assert Deal.objects.count() == 0 and ScoreRow.objects.count() == 0
    english = api_client.post(deals_url(tarot_table) + "?lang=en", fields, format="json").json()
    assert english["violations"][0]["message"].startswith(f"Trick {trick + 1}")


@pytest.mark.parametrize(("body", "field"), [
    ({"dealer": "north"}, "dealer"),
    ({**tarot_summary(), "hands": "KS"}, "hands"),
    ({**tarot_summary(), "players": ["X", "Y", "Z", "W"]}, "players"),
    ([1, 2, 3], "$"),
])
def test_malformed_deal_is_a_400_naming_the_field(api_client, tarot_table, staff, body, field):
    api_client.force_authenticate(staff["arbiter"])
    response = api_client.post(deals_url(tarot_table), body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == field and response.json()["error"] == "malformed"
    assert Deal.objects.count() == 0


def test_bad_card_code_names_its_place(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    fields = tarot_full_deal(4)
    fields["tricks"][2][1] = "ZZ"
    response = api_client.post(deals_url(tarot_table), fields, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "tricks[2][1]"


def test_invalid_json_is_a_400(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    response = api_client.post(deals_url(tarot_table), "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["field"] == "$"


def test_idempotency_key_never_creates_a_second_deal(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    first = api_client.post(deals_url(tarot_table), tarot_summary(), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    second = api_client.post(deals_url(tarot_table), tarot_summary(), format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json() and second["Idempotent-Replayed"] == "true"
    assert Deal.objects.count() == 1
    other = api_client.post(deals_url(tarot_table), tarot_summary(points=60), format="json",
                            HTTP_IDEMPOTENCY_KEY="abc")
    assert other.status_code == 422 and other.json()["field"] == "Idempotency-Key"
    assert Deal.objects.count() == 1


def test_correction_with_if_match_and_409_when_stale(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    deal = api_client.post(deals_url(tarot_table), tarot_summary(), format="json").json()
    api_client.force_authenticate(staff["chief"])
    url = f"/api/deals/{deal['id']}/"
    ok = api_client.put(url, {"record": tarot_summary(points=51), "reason": "recompté"}, format="json",
                        HTTP_IF_MATCH='"1"')
    assert ok.status_code == 200 and ok.json()["version"] == 2 and ok["ETag"] == '"2"'
    stale = api_client.put(url, {"record": tarot_summary(points=60), "reason": "autre", "version": 1}, format="json")
    assert stale.status_code == 409
    assert stale.json()["current_version"] == 2 and stale.json()["error"] == "stale_version"
    missing = api_client.put(url, {"record": tarot_summary(points=60), "reason": "autre"}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "version"
    no_reason = api_client.put(url, {"record": tarot_summary(points=60), "version": 2}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    versions = api_client.get(url + "versions/").json()
    assert [v["version"] for v in versions] == [2, 1]
    assert versions[0]["reason"] == "recompté" and versions[0]["user"] == "chief"
    assert versions[1]["user"] == "arbiter"


def test_rejected_correction_changes_nothing(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["chief"])
    deal = api_client.post(deals_url(tarot_table), tarot_full_deal(2), format="json").json()
    fields, _trick, seat, _card = tarot_illegal_deal(21)
    response = api_client.put(f"/api/deals/{deal['id']}/", {"record": fields, "reason": "x", "version": 1},
                              format="json")
    assert response.status_code == 400 and response.json()["violations"][0]["seat"] == seat
    assert Deal.objects.get().version == 1 and Deal.history.count() == 1


def test_annul_and_approve(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    pending = api_client.post(deals_url(tarot_table), tarot_summary(contract="garde_contre"), format="json").json()
    assert pending["status"] == "pending" and pending["counts"] is False
    assert api_client.post(f"/api/deals/{pending['id']}/approve/").status_code == 403
    api_client.force_authenticate(staff["chief"])
    approved = api_client.post(f"/api/deals/{pending['id']}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "valid"
    annulled = api_client.post(f"/api/deals/{pending['id']}/annul/", {"reason": "maldonne"}, format="json")
    assert annulled.status_code == 200 and annulled.json()["status"] == "annulled"
    assert annulled.json()["version"] == 2


def test_rulings(api_client, tarot_table, staff):
    t = tarot_table.round.tournament
    a, b = tarot_table.seats.order_by("position").values_list("entry_id", flat=True)[:2]
    api_client.force_authenticate(staff["chief"])
    url = f"/api/tournaments/{t.pk}/rulings/"
    bad = api_client.post(url, {"table": tarot_table.pk, "kind": "renonce", "reason": "r",
                                "adjustments": {str(a): -10, str(b): 5}}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "adjustments"
    ok = api_client.post(url, {"table": tarot_table.pk, "kind": "renonce", "reason": "r",
                               "adjustments": {str(a): -10, str(b): 10}}, format="json")
    assert ok.status_code == 201
    unknown_kind = api_client.post(url, {"table": tarot_table.pk, "kind": "cheating", "reason": "r"}, format="json")
    assert unknown_kind.status_code == 400 and unknown_kind.json()["field"] == "kind"
    assert len(api_client.get(url).json()["results"]) == 1


def test_export_and_import_a_table(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["chief"])
    for seed in (1, 2):
        assert api_client.post(deals_url(tarot_table), tarot_full_deal(seed), format="json").status_code == 201
    record = api_client.get(f"/api/tables/{tarot_table.pk}/export/").json()
    assert record["format"] == "levee.match/1" and len(record["deals"]) == 2
    assert record["players"] == ["Ana", "Bruno", "Chloé", "David"]
    verdict = api_client.post("/api/arbitrate/", record, format="json").json()
    assert verdict["legal"] is True and sum(verdict["totals"]) == 0
    other = tarot_table.round.tables.get(number=2)  # created by the staff fixture, no seats
    from tournaments.event.models import Seat

    for seat in tarot_table.seats.all():
        Seat.objects.create(table=other, position=seat.position, entry=seat.entry)
    imported = api_client.post(f"/api/tables/{other.pk}/import/", record, format="json")
    assert imported.status_code == 201 and len(imported.json()) == 2
    broken = {**record, "deals": [record["deals"][0], {**record["deals"][1], "dealer": 12}]}
    failed = api_client.post(f"/api/tables/{other.pk}/import/", broken, format="json")
    assert failed.status_code == 400 and failed.json()["field"] == "deals[1].dealer"
    assert Deal.objects.filter(table=other).count() == 2  # all or nothing
    export = downloaded(api_client.get, f"/api/tournaments/{tarot_table.round.tournament_id}/export/").json()
    assert len(export["tables"]) == 2


def test_arbitrate_is_stateless(api_client):
    record = {"format": "levee.deal/1", "game": "tarot", "options": {"players": 4},
              "players": ["Ana", "Bruno", "Chloé", "David"], **tarot_summary()}
    response = api_client.post("/api/arbitrate/", record, format="json")
    assert response.status_code == 200 and response.json()["totals"] == [-66, 198, -66, -66]
    malformed = api_client.post("/api/arbitrate/", {**record, "format": "pbn"}, format="json")
    assert malformed.status_code == 400 and malformed.json()["field"] == "format"
    assert "message" in malformed.json()
    assert Deal.objects.count() == 0


def test_players_csv_endpoint(api_client, tarot_table, staff):
    t = tarot_table.round.tournament
    api_client.force_authenticate(staff["organizer"])
    url = f"/api/tournaments/{t.pk}/players.csv"
    bad = api_client.post(url, "name,club,licence\nZoé,Lyon,1\n,Lyon,2\n", content_type="text/csv")
    assert bad.status_code == 400 and bad.json()["errors"][0]["line"] == 3
    good = api_client.post(url, "name,club,licence\nZoé,Lyon,1\nYann,Lyon,2\n", content_type="text/csv")
    assert good.status_code == 201 and len(good.json()["registered"]) == 2
    assert api_client.post(url, {"csv": "name\nXavier\n"}, format="json").status_code == 201
    again = api_client.post(url, "name,club,licence\nZoé,Lyon,1\nYANN,,\n", content_type="text/csv")
    assert again.status_code == 201 and again.json()["registered"] == []
    assert again.json()["already_registered"] == ["Zoé", "Yann"]
    assert t.entries.filter(player__name__iexact="Yann").count() == 1


def test_setup_through_the_api(api_client, staff):
    from django.contrib.auth.models import Permission

    user = staff["outsider"]
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    api_client.force_authenticate(user)
    t = api_client.post("/api/tournaments/", {"name": "Coupe", "game": "ecarte", "target": 5}, format="json")
    assert t.status_code == 201, t.json()
    tid = t.json()["id"]
    entries = [api_client.post(f"/api/tournaments/{tid}/registrations/", {"name": n}, format="json").json()["id"]
               for n in ("A", "B", "C", "D")]
    rnd = api_client.post(f"/api/tournaments/{tid}/rounds/", {"tables": [entries[:2], entries[2:]]}, format="json")
    assert rnd.status_code == 201 and len(rnd.json()["tables"]) == 2
    bad = api_client.post(f"/api/rounds/{rnd.json()['id']}/seating/", {"tables": [[entries[0], 0]]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "tables[0][1]"
    wrong = api_client.post(f"/api/tournaments/{tid}/status/", {"status": "finished"}, format="json")
    assert wrong.status_code == 409
    bad_game = api_client.post("/api/tournaments/", {"name": "X", "game": "belote"}, format="json")
    assert bad_game.status_code == 400 and bad_game.json()["field"] == "game"


def test_schema_and_docs(api_client):
    schema = api_client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/tables/{id}/deals/" in schema.content
    assert api_client.get("/api/docs/").status_code == 200
