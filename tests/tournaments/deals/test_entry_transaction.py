"""The deal entry's transaction on PostgreSQL (``record.deal_record``).

These tests run outside the test's own transaction (``transaction=True``), as requests do, and check
what the entry guarantees: all or nothing, the connection left idle, the same rows as the ORM would
write, a retry recognised, the ranking queued after the commit and never before.
"""

from __future__ import annotations

import pytest
from django.db import connection
from psycopg.pq import TransactionStatus

from tests.tournaments.factories import tarot_full_deal, tarot_illegal_deal, tarot_summary
from tournaments.common.errors import DealRejected, IdempotencyMismatch, StateConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Tournament
from tournaments.standings import tasks
from tournaments.standings.models import RankingClock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks: PostgreSQL"),
]


def _idle() -> bool:
    return connection.connection.info.transaction_status == TransactionStatus.IDLE


def _enter(table, record, user, key=None):
    return deal_record(table=selectors.table_for_entry(table.pk), record=record, user=user,
                                idempotency_key=key)


def test_a_deal_is_saved_whole(tarot_table, staff):
    clock_before = RankingClock.objects.filter(tournament_id=tarot_table.round.tournament_id).first()
    deal = _enter(tarot_table, tarot_full_deal(3), staff["chief"], key="k-1")
    assert _idle()
    stored = Deal.objects.get(pk=deal.pk)
    assert stored.number == 1 and stored.version == 1 and stored.record == deal.record
    rows = dict(ScoreRow.objects.filter(deal=stored).values_list("entry_id", "points"))
    assert len(rows) == 4 and sum(rows.values()) == 0
    assert rows == deal.__dict__["_levee_scores"]
    assert [h.history_type for h in stored.history.all()] == ["+"]
    key = IdempotencyKey.objects.get(key="k-1")
    assert key.deal_id == deal.pk and key.response == deal.idempotent_response
    clock = RankingClock.objects.get(tournament_id=tarot_table.round.tournament_id)
    assert clock.version == (clock_before.version if clock_before else 0) + 1
    # numbering goes on, and the ORM's own inserts do not collide with the plain SQL's
    second = _enter(tarot_table, tarot_summary(points=60), staff["chief"])
    assert second.number == 2 and second.pk > deal.pk
    twin = Deal.objects.create(table=tarot_table, number=99, record=deal.record, verdict=deal.verdict, version=1)
    assert twin.pk > second.pk


def test_a_rejected_deal_saves_nothing_and_leaves_the_connection_idle(tarot_table, staff):
    record, _trick, _seat, _card = tarot_illegal_deal(5)
    with pytest.raises(DealRejected):
        _enter(tarot_table, record, staff["chief"], key="k-bad")
    assert _idle()
    assert not Deal.objects.exists() and not ScoreRow.objects.exists() and not IdempotencyKey.objects.exists()
    assert Deal.history.count() == 0
    assert _enter(tarot_table, tarot_summary(), staff["chief"]).number == 1  # the connection still works


def test_a_finished_tournament_refuses_under_the_lock(tarot_table, staff):
    table = selectors.table_for_entry(tarot_table.pk)  # read while running
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.FINISHED)
    with pytest.raises(StateConflict) as caught:
        deal_record(table=table, record=tarot_summary(), user=staff["chief"])
    assert caught.value.code == "tournament_not_running"
    assert _idle() and not Deal.objects.exists()


def test_the_table_full_is_refused_and_nothing_written(tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=1)
    _enter(tarot_table, tarot_summary(), staff["chief"])
    with pytest.raises(DealRejected):
        _enter(tarot_table, tarot_summary(points=70), staff["chief"])
    assert _idle() and Deal.objects.count() == 1 and ScoreRow.objects.count() == 4


def test_a_retry_is_answered_from_the_first_response(tarot_table, staff):
    first = _enter(tarot_table, tarot_summary(), staff["arbiter"], key="retry")
    again = _enter(tarot_table, tarot_summary(), staff["arbiter"], key="retry")
    assert _idle()
    assert again.idempotent_replay and again.pk == first.pk
    assert again.idempotent_response == first.idempotent_response
    assert Deal.objects.count() == 1 and ScoreRow.objects.count() == 4 and Deal.history.count() == 1
    # the same key for another deal: refused, the failed insert rolled back the whole entry
    with pytest.raises(IdempotencyMismatch):
        _enter(tarot_table, tarot_summary(points=70), staff["arbiter"], key="retry")
    assert _idle() and Deal.objects.count() == 1 and ScoreRow.objects.count() == 4 and Deal.history.count() == 1


def test_the_ranking_is_queued_after_the_commit(tarot_table, staff, monkeypatch):
    seen = []

    def enqueue(tournament_id):
        # after the commit: no transaction open, and the deal is there for the worker to read
        seen.append((tournament_id, _idle(), Deal.objects.count()))
        return True

    monkeypatch.setattr(tasks, "ranking_enqueue", enqueue)
    RankingClock.objects.filter(tournament_id=tarot_table.round.tournament_id).update(queued_at=None)
    _enter(tarot_table, tarot_summary(), staff["chief"])
    assert seen == [(tarot_table.round.tournament_id, True, 1)]


def test_no_refresh_queued_when_one_is_waiting(tarot_table, staff, monkeypatch):
    from django.utils import timezone

    _enter(tarot_table, tarot_summary(), staff["chief"])  # creates the clock
    RankingClock.objects.filter(tournament_id=tarot_table.round.tournament_id).update(queued_at=timezone.now())
    seen = []
    monkeypatch.setattr(tasks, "ranking_enqueue", seen.append)
    _enter(tarot_table, tarot_summary(points=60), staff["chief"])
    assert seen == []


def test_nothing_runs_after_a_rolled_back_entry(tarot_table, staff, monkeypatch):
    seen = []
    monkeypatch.setattr(tasks, "ranking_enqueue", seen.append)
    _enter(tarot_table, tarot_summary(), staff["arbiter"], key="once")
    seen.clear()
    with pytest.raises(IdempotencyMismatch):
        _enter(tarot_table, tarot_summary(points=70), staff["arbiter"], key="once")
    assert seen == []


def test_inside_an_atomic_block_it_is_a_savepoint(tarot_table, staff):
    from django.db import transaction

    with transaction.atomic():
        _enter(tarot_table, tarot_summary(), staff["chief"])
    assert Deal.objects.count() == 1
