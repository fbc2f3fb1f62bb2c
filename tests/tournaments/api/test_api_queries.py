"""The deal POST's SQL budget: a regression (an N+1, a look-up added per request) shows as a failure here.

The hot path, with token auth and an Idempotency-Key (docs/performance.md, "API"): the token and user,
the table with its round, tournament and seats, the user's roles (with assigned tables), then in one
transaction the table lock and, after it, its read (next number, current status: a statement of its own, so
that it sees what the previous holder of the lock committed), the deal, its history row, its score rows,
the key with the first response, and the ranking clock (bumped, read). Transaction control statements
(BEGIN/COMMIT, or SAVEPOINT/RELEASE inside the test's transaction) are not counted, nor the read after
the commit that sees whether a ranking refresh is already waiting (on-commit callbacks do not run
inside the test's transaction).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from tests.tournaments.factories import tarot_full_deal, tarot_summary
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow

pytestmark = pytest.mark.django_db

#: statements that do work (transaction control statements excluded)
DEAL_POST_BUDGET = 10


def _work(queries) -> list[str]:
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(control)]


def _post(api_client, table, user, body, key):
    token = user.__dict__.get("_test_token") or Token.objects.get_or_create(user=user)[0].key
    user.__dict__["_test_token"] = token
    return api_client.post(f"/api/tables/{table.pk}/deals/", body, format="json",
                           HTTP_AUTHORIZATION=f"Token {token}", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("who", ["chief", "arbiter"])
def test_a_deal_post_stays_within_its_query_budget(api_client, tarot_table, staff, who):
    _post(api_client, tarot_table, staff[who], tarot_summary(), "warm-up")  # the ranking clock row exists now
    with CaptureQueriesContext(connection) as ctx:
        response = _post(api_client, tarot_table, staff[who], tarot_full_deal(3), f"key-{who}")
    assert response.status_code == 201, response.json()
    work = _work(ctx.captured_queries)
    assert len(work) <= DEAL_POST_BUDGET, "\n".join(sql[:120] for sql in work)
    assert Deal.objects.count() == 2 and ScoreRow.objects.count() == 8 and IdempotencyKey.objects.count() == 2
    history = Deal.objects.get(pk=response.json()["id"]).history.get()
    assert history.history_user == staff[who] and history.history_change_reason == "saisie"


def test_a_retry_is_answered_from_the_first_response_without_a_second_deal(api_client, tarot_table, staff):
    first = _post(api_client, tarot_table, staff["chief"], tarot_full_deal(5), "same")
    with CaptureQueriesContext(connection) as ctx:
        again = _post(api_client, tarot_table, staff["chief"], tarot_full_deal(5), "same")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and again.content == first.content  # the same bytes
    assert Deal.objects.count() == 1 and ScoreRow.objects.count() == 4
    assert len(_work(ctx.captured_queries)) <= DEAL_POST_BUDGET + 1


def test_a_retry_after_the_tournament_finished_still_gets_the_first_response(api_client, tarot_table, staff):
    from tournaments.event.models import Tournament

    first = _post(api_client, tarot_table, staff["chief"], tarot_summary(), "before-the-end")
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.FINISHED)
    again = _post(api_client, tarot_table, staff["chief"], tarot_summary(), "before-the-end")
    assert again.status_code == 201 and again.json() == first.json()
    other = _post(api_client, tarot_table, staff["chief"], tarot_summary(), "after-the-end")
    assert other.status_code == 409 and other.json()["error"] == "tournament_not_running"
