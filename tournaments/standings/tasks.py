"""Celery tasks: each takes an id, calls one service, is queued on commit and is idempotent.

:func:`ranking_refresh_on_commit` is what services call after changing a ranking input (a deal
entered or corrected, a ruling, a round released): it bumps the input version inside the caller's
transaction and, once that commits, queues :func:`ranking_refresh` unless a refresh is already
queued and not yet started — a burst of entries gives one recomputation, which ranks the latest
state. With no broker configured (``CELERY_BROKER_URL`` unset) the task runs in-process at commit.

A worker killed mid-task loses nothing: the message is acknowledged late and re-delivered, the
refresh recomputes from the database (same inputs, same snapshot), a worker that starts re-queues
every tournament whose published ranking is behind its inputs (:func:`_on_worker_ready`), and
celery beat re-queues them every minute (:func:`ranking_requeue_stale`).
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import transaction
from django.utils import timezone

from tournaments.common import hooks
from tournaments.standings import rankings
from tournaments.standings.models import RankingClock

log = logging.getLogger(__name__)


@shared_task(name="tournaments.ranking_refresh", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def ranking_refresh(tournament_id: int) -> int | None:
    """Publish the tournament's ranking if its inputs changed; the version published, or None."""
    snapshot = rankings.ranking_refresh(tournament_id=tournament_id)
    if snapshot is None:
        return None
    hooks.ranking_published(tournament_id, snapshot.input_version)  # the public pages render it (not here)
    return snapshot.input_version


def _refresh_waiting(tournament_id: int) -> bool:
    """Whether a refresh is queued and not started yet (a plain read: it waits for no row lock).

    Read after the caller's commit: a task that starts later clears the claim and then ranks a state
    that includes the caller's change, so skipping the claim loses nothing.
    """
    queued_at = (RankingClock.objects.filter(tournament_id=tournament_id)
                 .values_list("queued_at", flat=True).first())
    return queued_at is not None and queued_at >= timezone.now() - rankings.QUEUE_STALE_AFTER


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


@worker_ready.connect
def _on_worker_ready(**_kwargs) -> None:
    """A starting worker re-queues the refreshes a dead worker may have left unfinished."""
    try:
        for tournament_id in rankings.stale_tournament_ids():
            rankings.ranking_refresh_unclaim(tournament_id=tournament_id)
            ranking_enqueue(tournament_id)
    except Exception:  # never keep a worker from starting
        log.exception("ranking recovery at worker start failed")
