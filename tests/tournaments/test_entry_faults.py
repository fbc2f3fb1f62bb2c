"""Faults of the deal entry on the real PostgreSQL: retries, parallel entries, a transaction aborted anywhere.

Each test here failed before its fix (issue « A service a club can trust on the day », defects 1 and 2):

* a deal sent a third time with the same Idempotency-Key left the connection holding the name of a
  statement the server never prepared, and every later entry on it failed (« prepared statement
  "_pg3_N" does not exist »);
* two entries at one table at the same moment collided on the deal number (an IntegrityError, a 500):
  the transaction that waited for the table's lock still read the old last number;
* with a deal quota, the refusals of entries that had waited were IntegrityErrors, not ``table_full``.

They run outside the test's transaction (``transaction=True``), the way requests do, with the
settings' server-side binding and prepared statements (``levee/settings``).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from psycopg.pq import TransactionStatus

from tests.tournaments.factories import tarot_full_deal, tarot_summary
from tests.tournaments.threads import run_together
from tournaments.common.errors import DealRejected, IdempotencyMismatch
from tournaments.deals import selectors
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks and prepared statements: PostgreSQL"),
]


@pytest.fixture(autouse=True)
def _broker(monkeypatch):
    """Rankings queued to a broker as in production (not recomputed in-process after each entry): the
    connection then runs the statements of the entry alone, as a gunicorn worker's does."""
    from tournaments.standings import tasks

    monkeypatch.setattr(tasks.ranking_refresh.app.conf, "task_always_eager", False)
    monkeypatch.setattr(tasks.ranking_refresh, "delay", lambda *args, **kwargs: None)


def _enter(table, record, user, key=None):
    return deal_record(table=selectors.table_for_entry(table.pk), record=record, user=user,
                                idempotency_key=key)


def _idle() -> bool:
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


# -- defect 1: a retried key and the connection's prepared statements ---------------------------------

def test_server_side_prepared_statements_are_on(tarot_table):
    """The tests below are only meaningful with the production settings' prepared statements."""
    options = connection.settings_dict.get("OPTIONS", {})
    assert options.get("server_side_binding") is True and options.get("prepare_threshold") == 2


@pytest.mark.parametrize("retries", [3, 5])
def test_a_key_retried_again_and_again_leaves_the_connection_usable(tarot_table, staff, retries):
    user = staff["arbiter"]
    connection.close()  # a fresh connection, as a gunicorn worker's: no statement run (or prepared) yet
    first = _enter(tarot_table, tarot_summary(), user, key="retry-me")
    for _ in range(retries):
        again = _enter(tarot_table, tarot_summary(), user, key="retry-me")
        assert again.idempotent_replay and again.pk == first.pk
        assert _idle()
    # then unrelated entries on the same connection, each statement now run often enough to be prepared
    numbers = [_enter(tarot_table, tarot_summary(points=41 + i), user, key=f"new-{i}").number for i in range(8)]
    assert numbers == list(range(2, 10))
    assert Deal.objects.count() == 9 and ScoreRow.objects.count() == 36
    assert IdempotencyKey.objects.count() == 9


def test_a_mismatched_key_then_new_entries(tarot_table, staff):
    user = staff["arbiter"]
    _enter(tarot_table, tarot_summary(), user, key="k")
    for points in (60, 61, 62):
        with pytest.raises(IdempotencyMismatch):
            _enter(tarot_table, tarot_summary(points=points), user, key="k")
    assert [_enter(tarot_table, tarot_full_deal(s), staff["chief"]).number for s in (1, 2, 3)] == [2, 3, 4]


def _statements_of_one_entry(table, user) -> list[str]:
    """The statements an entry runs up to its COMMIT (what follows it, queueing the ranking, is another story)."""
    with CaptureQueriesContext(connection) as seen:
        _enter(table, tarot_summary(points=55), user, key="count-me")
    statements = [q["sql"] for q in seen.captured_queries if q["sql"] != "BEGIN"]  # Django logs it, runs it apart
    bump = next(i for i, q in enumerate(statements) if q.startswith('INSERT INTO "tournaments_rankingclock"'))
    return statements[:bump + 1]


def test_an_entry_aborted_at_each_statement_saves_nothing_and_the_next_one_works(tarot_table, staff):
    """Make each statement of the entry's transaction fail in turn (Django's ``execute_wrapper``): nothing is
    saved, the connection is left idle and usable, and the next entry with the same key is saved whole."""
    from django.db import OperationalError

    user = staff["arbiter"]
    statements = _statements_of_one_entry(tarot_table, user)
    assert len(statements) >= 7  # the table read, the lock, its read, deal, history, score rows, key, clock
    Deal.objects.all().delete()
    IdempotencyKey.objects.all().delete()
    Deal.history.all().delete()
    for k in range(len(statements)):
        seen = {"n": 0}

        def fail_kth(execute, sql, params, many, context, _k=k, _seen=seen):
            i = _seen["n"]
            _seen["n"] += 1
            if i == _k:
                raise OperationalError(f"injected failure at statement {_k}")
            return execute(sql, params, many, context)

        with connection.execute_wrapper(fail_kth), pytest.raises(OperationalError, match="injected failure"):
            _enter(tarot_table, tarot_summary(points=55), user, key=f"abort-{k}")
        assert _idle(), k
        assert not Deal.objects.exists() and not ScoreRow.objects.exists(), k
        assert not IdempotencyKey.objects.exists() and Deal.history.count() == 0, k
    deal = _enter(tarot_table, tarot_summary(points=55), user, key="abort-0")
    assert deal.number == 1 and not deal.idempotent_replay
    assert ScoreRow.objects.filter(deal=deal).count() == 4


# -- defect 2: parallel entries at one table ----------------------------------------------------------

@pytest.mark.parametrize("clients", [2, 8])
def test_parallel_entries_at_one_table_are_numbered_one_to_n(tarot_table, staff, clients):
    users = [staff["arbiter"], staff["chief"], staff["organizer"]]
    calls = [(lambda i=i: _enter(tarot_table, tarot_summary(points=41 + i), users[i % 3], key=f"p-{i}"))
             for i in range(clients)]
    results = run_together(*calls)
    errors = [r for r in results if isinstance(r, Exception)]
    assert not errors, errors
    assert sorted(d.number for d in results) == list(range(1, clients + 1))
    assert sorted(Deal.objects.values_list("number", flat=True)) == list(range(1, clients + 1))
    assert ScoreRow.objects.count() == 4 * clients


def test_parallel_entries_beyond_the_quota_are_refused_as_table_full(tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=3)
    calls = [(lambda i=i: _enter(tarot_table, tarot_summary(points=41 + i), staff["chief"])) for i in range(8)]
    results = run_together(*calls)
    saved = [r for r in results if isinstance(r, Deal)]
    refused = [r for r in results if not isinstance(r, Deal)]
    assert len(saved) == 3 and len(refused) == 5
    for r in refused:
        assert isinstance(r, DealRejected), r
        assert [v.rule for v in r.violations] == ["table_full"]
    assert sorted(Deal.objects.values_list("number", flat=True)) == [1, 2, 3]


def test_through_the_api_a_key_sent_four_times_then_forty_entries(tarot_table, staff, api_client):
    """The report's sequence, through the API on one connection: every answer is a 201, nothing is lost."""
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=staff["chief"])
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/tables/{tarot_table.pk}/deals/"
    connection.close()  # a fresh connection, as a gunicorn worker's: no statement run (or prepared) yet
    same = [api_client.post(url, tarot_full_deal(7), format="json", HTTP_IDEMPOTENCY_KEY="same").status_code
            for _ in range(4)]
    later = [api_client.post(url, tarot_full_deal(100 + i), format="json", HTTP_IDEMPOTENCY_KEY=f"k{i}").status_code
             for i in range(40)]
    assert same == [201, 201, 201, 201]
    assert later == [201] * 40
    assert sorted(Deal.objects.values_list("number", flat=True)) == list(range(1, 42))


# -- defect 7: the desk's form sent twice at once -----------------------------------------------------------

def test_the_desk_form_double_submitted_at_once_saves_one_deal(tarot_table, staff):
    """The desk's tap page saves with its deal's key: two sends at once (a double tap) make one deal."""
    from django.test import Client

    from tests.tournaments.factories import tap_save, tarot_summary

    clients = [Client(), Client()]
    for c in clients:
        c.force_login(staff["arbiter"])
    answers = run_together(*[lambda c=c: tap_save(c, tarot_table, tarot_summary(), key="0f6c3c2e-double-tap")
                             for c in clients])
    assert [a.status_code for a in answers] == [201, 201], answers  # the replay answers as the first did
    assert answers[0].json()["url"] == answers[1].json()["url"]
    assert Deal.objects.filter(table=tarot_table).count() == 1 and ScoreRow.objects.count() == 4
