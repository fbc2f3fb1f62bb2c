"""Celery tasks: each takes an id, calls one service, is queued on commit and is idempotent.

:func:`ranking_refresh_on_commit` is what services call after changing a ranking input (a deal
entered or corrected, a ruling, a round released): it bumps the input version inside the caller's
transaction and, once that commits, queues :func:`ranking_refresh` unless a refresh is already
queued and not yet started, or running. With no broker configured (``CELERY_BROKER_URL`` unset) the task runs
in-process at commit.

The coalescing (a debounce): a refresh queued while one is waiting or running is not queued; the running refresh
holds the tournament's lease (:func:`tournaments.standings.rankings.ranking_lease_take`) and, in a worker, first
waits for the burst to end (the inputs quiet for ``RANKING_SETTLE_MS``, at most ``RANKING_SETTLE_MAX_MS``), then
publishes, then lets go of the lease only if nothing changed meanwhile — otherwise it runs once more. A burst of
entries gives one snapshot, or two when it outlasts the wait.

A worker killed mid-task loses nothing and is taken over within seconds: its lease (``REFRESH_LEASE``, 5 s,
renewed while it works) expires and every running worker checks the leases every second (:func:`_lease_watch`),
clears an expired one and queues the refresh again. The message is also acknowledged late (re-delivered when a
pool process dies; with the main process killed, Redis gives it back only after its visibility timeout), the
refresh recomputes from the database (same inputs, same snapshot), a worker that starts re-queues every
tournament whose published ranking is behind its inputs (:func:`_on_worker_ready`), and celery beat re-queues
them every minute (:func:`ranking_requeue_stale`).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from celery import shared_task
from celery.signals import worker_ready, worker_shutting_down
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from tournaments.common import hooks
from tournaments.standings import rankings
from tournaments.standings.models import RankingClock

log = logging.getLogger(__name__)


#: runs of one refresh task while entries keep coming; then it lets go and queues a new task (others get a turn)
MAX_RUNS = 5
#: how often every worker looks for a refresh whose worker died (an expired lease)
LEASE_WATCH_SECONDS = 1.0


@shared_task(bind=True, name="tournaments.ranking_refresh", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def ranking_refresh(self: Any, tournament_id: int) -> int | None:
    """Publish the tournament's ranking if its inputs changed; the last version published, or None.

    In a worker it waits for a burst of entries to end first; in-process (no broker, or called directly) it
    publishes at once, as a web request must not wait."""
    in_worker = not (self.request.called_directly or self.request.is_eager)
    return refresh_leased(tournament_id, settle=in_worker)


def _publish(tournament_id: int) -> int | None:
    snapshot = rankings.ranking_refresh(tournament_id=tournament_id)
    if snapshot is None:
        return None
    hooks.ranking_published(tournament_id, snapshot.input_version)  # the public pages render it (not here)
    return snapshot.input_version


def _settle(tournament_id: int, lease: Any) -> Any:
    """Wait, holding the lease, until the inputs stop changing (a burst of entries ends): quiet when the last change
    is ``RANKING_SETTLE_MS`` old, or when the version did not move while waiting for that; at most
    ``RANKING_SETTLE_MAX_MS``. The lease renewed for the publication, or None when it was lost."""
    quiet = settings.RANKING_SETTLE_MS / 1000
    give_up = time.monotonic() + settings.RANKING_SETTLE_MAX_MS / 1000
    seen = None
    while time.monotonic() < give_up:
        version, changed_at = (RankingClock.objects.filter(tournament_id=tournament_id)
                               .values_list("version", "changed_at").first() or (None, None))
        age = (timezone.now() - changed_at).total_seconds() if changed_at is not None else quiet
        if age >= quiet or version == seen:  # (the clocks of two machines may differ: then the version says)
            break
        seen = version
        time.sleep(min(quiet, max(quiet - age, 0.02)))  # until the last change is ``quiet`` old
        lease = rankings.ranking_lease_renew(tournament_id=tournament_id, lease=lease)
        if lease is None:
            return None
    return rankings.ranking_lease_renew(tournament_id=tournament_id, lease=lease)


def refresh_leased(tournament_id: int, *, settle: bool = False) -> int | None:
    """The refresh under the tournament's lease: at most one runs per tournament; it runs once more when entries
    arrived while it ran (they queued nothing, having seen it hold the lease). The last version published, or
    None; None at once when another refresh holds the lease (it ranks what this one would have)."""
    if not RankingClock.objects.filter(tournament_id=tournament_id).exists():
        return _publish(tournament_id)  # nothing ever changed: no clock to hold (the empty ranking)
    lease = rankings.ranking_lease_take(tournament_id=tournament_id)
    while lease is None:  # another refresh runs: it ranks what this one would have; its claim goes
        if rankings.ranking_claim_yield(tournament_id=tournament_id):
            return None
        lease = rankings.ranking_lease_take(tournament_id=tournament_id)  # let go (or expired) meanwhile
    latest = None
    try:
        for _run in range(MAX_RUNS):
            if settle:
                lease = _settle(tournament_id, lease)
                if lease is None:  # expired while waiting, and taken over
                    return latest
            latest = _publish(tournament_id) or latest
            published = rankings.published_version(tournament_id)
            if rankings.ranking_lease_release(tournament_id=tournament_id, lease=lease, published=published):
                return latest
            lease = rankings.ranking_lease_renew(tournament_id=tournament_id, lease=lease)
            if lease is None:
                return latest
        rankings.ranking_lease_drop(tournament_id=tournament_id, lease=lease)
        lease = None
        if settle:  # a worker: the rest as a new task, behind the others queued meanwhile
            ranking_enqueue(tournament_id)
        return latest
    except BaseException:
        if lease is not None:
            rankings.ranking_lease_drop(tournament_id=tournament_id, lease=lease)
        raise


def _refresh_waiting(tournament_id: int) -> bool:
    """Whether a refresh is queued and not started yet, or running (a plain read: it waits for no row lock).

    Read after the caller's commit: a task that starts later clears the claim and then ranks a state
    that includes the caller's change, and a running one releases its lease only once it has ranked the
    latest version, so skipping the claim loses nothing.
    """
    queued_at, lease_until = (RankingClock.objects.filter(tournament_id=tournament_id)
                              .values_list("queued_at", "lease_until").first() or (None, None))
    return rankings.ClockBump(0, queued_at, lease_until).refresh_waiting


def ranking_enqueue(tournament_id: int) -> bool:
    """Queue a refresh unless one is already waiting; False when coalesced or the broker is down.

    During a burst of entries a refresh is nearly always waiting: :func:`_refresh_waiting` sees it
    with a read, and only a change that finds none takes the claim (an UPDATE on the clock row,
    which waits for the entries being committed) and talks to the broker.
    """
    if _refresh_waiting(tournament_id) or not rankings.ranking_refresh_claim(tournament_id=tournament_id):
        return False
    try:
        ranking_refresh.delay(tournament_id)
    except Exception:
        # The entry is committed whatever happens here: broker unreachable, or (no broker: the refresh runs
        # in-process, at commit) the refresh itself failed. Answering an error now would tell the arbiter a
        # saved deal was lost, so: logged, the claim released (the next change queues a refresh again), and the
        # public pages say the ranking is not up to date.
        log.exception("the ranking refresh of tournament %s could not be queued or run", tournament_id)
        rankings.ranking_refresh_unclaim(tournament_id=tournament_id)
        return False
    return True


def ranking_refresh_on_commit(tournament_id: int) -> None:
    """Call inside the transaction that changed the ranking's inputs.

    When the clock says a refresh is already queued and not started (the usual case during a burst
    of entries), that refresh will rank this change (:attr:`rankings.ClockBump.refresh_waiting`), and
    nothing more is done; otherwise one is queued once the transaction commits.
    """
    if rankings.ranking_inputs_changed(tournament_id=tournament_id).refresh_waiting:
        return
    transaction.on_commit(lambda: ranking_enqueue(tournament_id))


@shared_task(name="tournaments.ranking_requeue_stale", ignore_result=True)
def ranking_requeue_stale() -> list[int]:
    """Queue a refresh for every tournament whose published ranking is behind its inputs and that has no
    refresh waiting; the ids queued.

    Celery beat runs it every minute (``CELERY_BEAT_SCHEDULE``): it catches what nothing else would, e.g. a
    message lost when the broker restarted after the last entry of the evening. A refresh already waiting
    (claimed less than :data:`rankings.QUEUE_STALE_AFTER` ago) is left alone; an older claim counts as lost.
    """
    return [tid for tid in rankings.stale_tournament_ids() if ranking_enqueue(tid)]


def ranking_lease_watch() -> list[int]:
    """Take over the refreshes whose worker died: every expired lease is cleared and its refresh queued again; the
    tournaments queued."""
    return [tid for tid in rankings.ranking_lease_break_expired() if ranking_enqueue(tid)]


_watch_stop = threading.Event()


def _lease_watch() -> None:
    """Every running worker, every ``LEASE_WATCH_SECONDS``: :func:`ranking_lease_watch` (a thread of the worker's
    main process, with its own database connection)."""
    while not _watch_stop.wait(LEASE_WATCH_SECONDS):
        try:
            ranking_lease_watch()
        except Exception:  # the database or the broker away for a moment: the next round tries again
            log.warning("ranking lease watch failed", exc_info=True)
            connection.close()
    connection.close()


@worker_ready.connect
def _on_worker_ready(**_kwargs) -> None:
    """A starting worker re-queues the refreshes a dead worker may have left unfinished."""
    try:
        for tournament_id in rankings.stale_tournament_ids():
            rankings.ranking_refresh_unclaim(tournament_id=tournament_id)
            ranking_enqueue(tournament_id)
    except Exception:  # never keep a worker from starting
        log.exception("ranking recovery at worker start failed")


@worker_ready.connect
def _start_lease_watch(**_kwargs) -> None:
    """A running worker watches the leases (:func:`_lease_watch`) until it shuts down."""
    _watch_stop.clear()
    threading.Thread(target=_lease_watch, name="ranking-lease-watch", daemon=True).start()


@worker_shutting_down.connect
def _on_worker_shutting_down(**_kwargs) -> None:
    _watch_stop.set()
