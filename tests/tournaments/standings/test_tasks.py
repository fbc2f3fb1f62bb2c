"""The refresh task: queued on commit, coalesced, idempotent, and honest when no worker runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.integration.builders import add_deal, make_round, make_tournament, named_lines
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingClock, RankingSnapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    """Stand in for the broker: record what would be queued, run nothing (no worker)."""
    calls: list[int] = []
    monkeypatch.setattr(tasks.ranking_refresh, "delay", lambda tid: calls.append(tid))
    return calls


def four(slug="q"):
    t, e = make_tournament("ABCD", slug=slug)
    (table,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    return t, table


def test_a_burst_of_entries_is_one_recomputation(queued, django_capture_on_commit_callbacks):
    t, table = four()
    tasks.ranking_refresh(t.pk)  # the setup's own changes, published
    queued.clear()
    for _ in range(10):  # ten deals, each in its own committed transaction
        with django_capture_on_commit_callbacks(execute=True):
            add_deal(table, [75, -25, -25, -25], taker=0)
    assert queued == [t.pk], "ten entries while no refresh has started queue one task"
    status = rankings.ranking_status(t)
    assert not status.up_to_date
    published = tasks.ranking_refresh(t.pk)  # the worker picks the one message
    assert published == status.version
    assert RankingSnapshot.objects.filter(tournament=t).count() == 2
    line = rankings.snapshot_lines(RankingSnapshot.objects.get(input_version=published))[0]
    assert rankings.metrics_dict(line)["marks"] == 750
    assert tasks.ranking_refresh(t.pk) is None  # a duplicate message finds nothing to do
    assert RankingSnapshot.objects.filter(tournament=t).count() == 2
    assert rankings.ranking_status(t).up_to_date


def test_an_entry_after_the_task_started_queues_again(queued, django_capture_on_commit_callbacks):
    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    n = len(queued)
    tasks.ranking_refresh(t.pk)  # started: the claim is consumed
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    assert len(queued) == n + 1


def test_a_lost_claim_is_queued_again_after_a_while(queued, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    RankingClock.objects.filter(tournament=t).update(
        queued_at=timezone.now() - rankings.QUEUE_STALE_AFTER - timedelta(seconds=1))
    n = len(queued)
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    assert len(queued) == n + 1


def test_no_worker_means_saved_but_not_up_to_date(queued, django_capture_on_commit_callbacks):
    t, table = four()
    tasks.ranking_refresh(t.pk)
    assert rankings.ranking_status(t).up_to_date
    with django_capture_on_commit_callbacks(execute=True):
        deal = add_deal(table, [75, -25, -25, -25], taker=0)
    assert deal.pk and deal.score_rows.count() == 4
    status = rankings.ranking_status(t)
    assert not status.up_to_date and status.snapshot.input_version < status.version


def test_a_task_seeing_a_newer_snapshot_exits(queued, django_capture_on_commit_callbacks):
    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    first = tasks.ranking_refresh(t.pk)
    assert first is not None
    # a stale duplicate of an older message, or a second worker: nothing new to rank
    assert tasks.ranking_refresh(t.pk) is None
    assert rankings.ranking_publish(tournament_id=t.pk) is None


def test_broker_down_keeps_the_entry_and_releases_the_claim(monkeypatch, django_capture_on_commit_callbacks):
    def refuse(_tid):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.ranking_refresh, "delay", refuse)
    monkeypatch.setattr(tasks.ranking_refresh.app.conf, "task_always_eager", False)
    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        deal = add_deal(table, [75, -25, -25, -25], taker=0)
    assert deal.score_rows.count() == 4
    assert RankingClock.objects.get(tournament=t).queued_at is None
    assert not rankings.ranking_status(t).up_to_date


def test_eager_mode_publishes_at_commit(django_capture_on_commit_callbacks):
    """No broker configured (the embedded default): the refresh runs in-process at commit."""
    assert tasks.ranking_refresh.app.conf.task_always_eager
    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    status = rankings.ranking_status(t)
    assert status.up_to_date and status.snapshot is not None
    assert rankings.metrics_dict(rankings.snapshot_lines(status.snapshot)[0])["marks"] == 75


def test_a_starting_worker_requeues_stale_rankings(queued):
    t, table = four()
    add_deal(table, [75, -25, -25, -25], taker=0)  # never committed → never queued
    fresh, _ = four("fresh")
    tasks.ranking_refresh(fresh.pk)
    RankingClock.objects.filter(tournament=t).update(queued_at="2020-01-01T00:00:00Z")  # a dead worker's claim
    queued.clear()
    tasks._on_worker_ready()
    assert queued == [t.pk]


def test_beat_requeues_a_ranking_whose_message_was_lost(queued, monkeypatch, django_capture_on_commit_callbacks):
    """The broker lost the message after the last entry: nothing else would ever queue that tournament again."""
    from datetime import timedelta

    from django.utils import timezone

    t, table = four()
    up_to_date, _ = four("up-to-date")
    tasks.ranking_refresh(up_to_date.pk)
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [75, -25, -25, -25], taker=0)
    assert queued[-1] == t.pk
    queued.clear()
    # the message is waiting (claimed just now): beat leaves it alone
    assert tasks.ranking_requeue_stale() == [] and queued == []
    # the message was lost: its claim grows old, beat queues the tournament again (once)
    RankingClock.objects.filter(tournament=t).update(
        queued_at=timezone.now() - rankings.QUEUE_STALE_AFTER - timedelta(seconds=1))
    assert tasks.ranking_requeue_stale() == [t.pk] and queued == [t.pk]
    assert tasks.ranking_requeue_stale() == []  # claimed again: not twice
    tasks.ranking_refresh(t.pk)  # the worker runs it
    assert rankings.ranking_status(t).up_to_date
    assert tasks.ranking_requeue_stale() == []


def test_beat_schedule_names_the_requeue_task(settings):
    from levee.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["ranking-requeue-stale"]
    assert entry["task"] == tasks.ranking_requeue_stale.name and entry["schedule"] <= 60
    assert tasks.ranking_requeue_stale.name in app.tasks


def test_a_failing_in_process_refresh_never_turns_a_saved_entry_into_an_error(monkeypatch,
                                                                                django_capture_on_commit_callbacks):
    """No broker (the embedded default): the refresh runs at commit; if it fails, the deal is still saved and
    the request answered, the claim is released and the ranking said not up to date; the next change retries."""
    assert tasks.ranking_refresh.app.conf.task_always_eager

    def broken(*, tournament_id):
        raise RuntimeError("ranking bug")

    monkeypatch.setattr(rankings, "ranking_refresh", broken)
    t, table = four()
    with django_capture_on_commit_callbacks(execute=True):
        deal = add_deal(table, [75, -25, -25, -25], taker=0)  # no exception reaches the caller
    assert deal.score_rows.count() == 4
    assert RankingClock.objects.get(tournament=t).queued_at is None
    assert not rankings.ranking_status(t).up_to_date
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        add_deal(table, [-25, 75, -25, -25], taker=1)
    assert rankings.ranking_status(t).up_to_date


def test_a_change_while_a_refresh_runs_queues_nothing_and_the_refresh_runs_once_more(
        queued, monkeypatch, django_capture_on_commit_callbacks):
    """The debounce: a refresh holds the lease; a deal saved while it computes sees the lease and queues nothing;
    the refresh finds the version moved when it lets go, and publishes once more (2 snapshots, the last one
    ranking both deals: A 90 − 60 = 30, B −30 + 180 = 150)."""
    t, table = four()
    real = rankings.ranking_refresh
    entered = []

    def refresh_with_an_entry_meanwhile(**kwargs):
        snapshot = real(**kwargs)
        if not entered:  # a deal committed while the first run computed
            with django_capture_on_commit_callbacks(execute=True):
                entered.append(add_deal(table, [-60, 180, -60, -60], taker=1))
        return snapshot

    add_deal(table, [90, -30, -30, -30], taker=0)
    queued.clear()
    monkeypatch.setattr(rankings, "ranking_refresh", refresh_with_an_entry_meanwhile)
    tasks.ranking_refresh(t.pk)
    assert queued == []  # the change during the run queued no task
    snaps = list(RankingSnapshot.objects.filter(tournament=t).order_by("input_version"))
    clock = RankingClock.objects.get(tournament=t)
    assert snaps[-1].input_version == clock.version and clock.lease_until is None
    marks = {name: rankings.metrics_dict(ln)["marks"] for name, ln in named_lines(snaps[-1])}
    assert (marks["A"], marks["B"]) == (30, 150)


def test_a_refresh_finding_the_lease_held_leaves_it_to_its_holder(queued):
    t, table = four()
    add_deal(table, [90, -30, -30, -30], taker=0)
    lease = rankings.ranking_lease_take(tournament_id=t.pk)
    assert lease is not None and rankings.ranking_lease_take(tournament_id=t.pk) is None
    RankingClock.objects.filter(tournament=t).update(queued_at=timezone.now())  # a duplicate's claim (beat's)
    assert tasks.ranking_refresh(t.pk) is None and not RankingSnapshot.objects.filter(tournament=t).exists()
    # its claim is gone, so that a change after the holder lets go queues a refresh again
    assert RankingClock.objects.get(tournament=t).queued_at is None
    # its worker died: once the lease expires the watch clears it and queues the refresh again
    RankingClock.objects.filter(tournament=t).update(lease_until=timezone.now() - timedelta(seconds=1))
    queued.clear()
    assert tasks.ranking_lease_watch() == [t.pk] and queued == [t.pk]
    assert RankingClock.objects.get(tournament=t).lease_until is None
