"""Irregular deals of L'Impériale and Le Vingt-quatre through the REST API: created with ``?irregular=true``, ruled
on at ``/api/deals/{id}/ruling/`` by the chief (never by the table's arbiter), withdrawn, and the ranking after.
The deals and their marks by hand: ``tests/tournaments/deals/test_irregular_imperiale.py`` and
``test_irregular_vingt_quatre.py`` (their docstrings)."""

from __future__ import annotations

import pytest

from tests.tournaments.deals import test_irregular_imperiale as imp
from tests.tournaments.deals import test_irregular_vingt_quatre as v24
from tournaments.deals.models import Deal, Ruling
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db

imp_table = imp.table
v24_table = v24.table


def create(api_client, table, fields):
    api_client.force_authenticate(imp.user("arbitre"))
    url = f"/api/tables/{table.pk}/deals/"
    refused = api_client.post(url, fields, format="json")
    assert refused.status_code == 400 and not Deal.objects.filter(table=table).exists()
    created = api_client.post(url + "?irregular=true", fields, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["status"] == "irregular" and body["counts"] is False
    return body


def ranking(api_client, table) -> list[tuple[int, str, object]]:
    tournament = table.round.tournament
    type(table.round).objects.filter(pk=table.round_id).update(released=True)  # the public ranking's rounds
    tasks.ranking_refresh(tournament.pk)
    body = api_client.get(f"/api/tournaments/{tournament.pk}/ranking/").json()
    return [(ln["rank"], ln["name"], ln["metrics"].get("match_points")) for ln in body["lines"]]


def table_match(api_client, table):
    body = api_client.get(f"/api/tables/{table.pk}/").json()
    return body["match_totals"], body["match_ended"], body["match_winner"]


def test_impériale_penalty_through_the_api(api_client, imp_table):
    deal = create(api_client, imp_table, imp.FAILED_TO_TAKE)
    assert [v["rule"] for v in deal["verdict"]["violations"]] == ["must_follow_higher"]
    url = f"/api/deals/{deal['id']}/ruling/"
    ids = imp.entries(imp_table)
    # the table's arbiter cannot rule
    denied = api_client.post(url, {"decision": "penalty", "penalty": "imperiale_failed_to_take",
                                   "offender": ids["Bruno"]}, format="json")
    assert denied.status_code == 403 and not Ruling.objects.exists()
    api_client.force_authenticate(imp.user("chef"))
    before = ranking(api_client, imp_table)
    assert before == [(1, "Ana", 0), (1, "Bruno", 0)]  # the match is not over: no result, no match point
    bad = api_client.post(url, {"decision": "penalty", "penalty": "triomphe_failed_to_trump",
                                "offender": ids["Bruno"]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "penalty"
    no_offender = api_client.post(url, {"decision": "penalty", "penalty": "imperiale_failed_to_take"}, format="json")
    assert no_offender.status_code == 400 and no_offender.json()["field"] == "offender"
    # AUJ rule X, A-I10: Bruno has no impériale to lose, Ana scores one — the match of one impériale is hers
    ok = api_client.post(url, {"decision": "penalty", "penalty": "imperiale_failed_to_take", "offender": ids["Bruno"],
                               "reason": "n'a pas pris le 10 de pique"}, format="json")
    assert ok.status_code == 201, ok.json()
    ruling = ok.json()
    assert ruling["adjustments"] == {str(ids["Ana"]): 1} and ruling["is_penalty"] is True
    assert ruling["decision"] == "penalty" and ruling["penalty_rule"] == "AUJ-IMP règle X (RULES.md §4.5, A-I10)"
    assert ruling["created_by"] == imp.user("chef").pk and ruling["deal"] == deal["id"]
    assert table_match(api_client, imp_table) == ([1, 0], True, 0)
    assert ranking(api_client, imp_table) == [(1, "Ana", 2), (2, "Bruno", 0)]  # a match won: 2 match points
    assert api_client.post(url, {"decision": "annul"}, format="json").status_code == 409
    # withdrawn: the impériale leaves the match
    withdrawn = api_client.post(f"/api/rulings/{ruling['id']}/withdraw/", {"reason": "appel accepté"}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn"] is True
    assert withdrawn.json()["withdrawn_by_name"] == "chef" and withdrawn.json()["withdraw_reason"] == "appel accepté"
    assert table_match(api_client, imp_table) == (None, False, None)


def test_impériale_as_played_through_the_api_joins_the_match(api_client, imp_table):
    deal = create(api_client, imp_table, imp.RENONCE)
    api_client.force_authenticate(imp.user("chef"))
    ok = api_client.post(f"/api/deals/{deal['id']}/ruling/", {"decision": "as_played"}, format="json")
    assert ok.status_code == 201, ok.json()
    assert ok.json()["decision"] == "as_played" and ok.json()["adjustments"] == {}
    body = api_client.get(f"/api/deals/{deal['id']}/").json()
    assert body["status"] == "valid" and body["counts"] is True
    # Ana's 4 jetons stay: the next deal's 2 make her impériale (the module's docstring)
    api_client.force_authenticate(imp.user("arbitre"))
    assert api_client.post(f"/api/tables/{imp_table.pk}/deals/", imp.NEXT_DEAL, format="json").status_code == 201
    assert table_match(api_client, imp_table) == ([1, 0], True, 0)


def test_vingt_quatre_through_the_api(api_client, v24_table):
    deal = create(api_client, v24_table, v24.RENONCE)
    url = f"/api/deals/{deal['id']}/ruling/"
    ids = v24.entries(v24_table)
    assert api_client.post(url, {"decision": "as_played"}, format="json").status_code == 403
    api_client.force_authenticate(imp.user("chef"))
    # no penalty at Le Vingt-quatre: its text gives none
    bad = api_client.post(url, {"decision": "penalty", "penalty": "imperiale_failed_to_take",
                                "offender": ids["David"]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "decision"
    no_reason = api_client.post(url, {"decision": "adjustment", "adjustments": {str(ids["Bruno"]): 6}}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    ok = api_client.post(url, {"decision": "adjustment", "adjustments": {str(ids["Bruno"]): 6},
                               "reason": "renonce de David : son Point ne compte pas"}, format="json")
    assert ok.status_code == 201, ok.json()
    assert ok.json()["adjustments"] == {str(ids["Bruno"]): 6} and ok.json()["decision"] == "adjustment"
    assert table_match(api_client, v24_table) == ([0, 6, 0, 0], True, 1)
    # Bruno won the match (2 match points, scoring.ranking.MatchPoints), the three others lost it (0)
    assert ranking(api_client, v24_table) == [(1, "Bruno", 2), (2, "Ana", 0), (2, "Chloé", 0), (2, "David", 0)]
    listed = api_client.get(f"/api/tournaments/{v24_table.round.tournament.pk}/rulings/").json()
    assert [r["reason"] for r in listed["results"]] == [
        "Marques fixées par l'arbitre — renonce de David : son Point ne compte pas"]


def test_the_schema_says_a_deal_may_be_irregular_and_a_ruling_names_its_decision(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    status = components["DealOut"]["properties"]["status"]
    statuses = components[status["$ref"].rsplit("/", 1)[1]]["enum"] if "$ref" in status else status["enum"]
    assert "irregular" in statuses
    assert "decision" in components["RulingOut"]["properties"]
