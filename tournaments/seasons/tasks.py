"""The championships recomputed by the workers when a counted tournament publishes its ranking.

:func:`tournament_published` is the ``ranking_published`` port's subscriber (``tournaments/common/hooks.py``,
subscribed in ``apps.py``): for each championship the tournament counts in, it queues
:func:`championship_refresh` (Celery; in-process without a broker). The refresh ranks the championship from the
tournaments' latest published rankings and publishes a new snapshot only when something changed: it is idempotent,
so a message delivered twice, or two tournaments publishing at once, give the right ranking. A new snapshot is told
to the ``championship_published`` port (its PDF, CSVs and page rendered by the prints worker, ``tournaments.public``).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction

from tournaments.common import hooks
from tournaments.seasons import championships

log = logging.getLogger(__name__)


@shared_task(name="tournaments.championship_refresh", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def championship_refresh(championship_id: int) -> int | None:
    """Publish the championship's ranking if it changed; the version published, or None."""
    snapshot = championships.championship_publish(championship_id)
    if snapshot is None:
        return None
    hooks.championship_published(championship_id, snapshot.version)  # its documents rendered by the prints worker
    return snapshot.version


def championship_enqueue(championship_id: int) -> None:
    try:
        championship_refresh.delay(championship_id)
    except Exception:  # the tournament's ranking is published whatever happens here; the next publication retries
        log.exception("the championship %s could not be recomputed", championship_id)


def tournament_published(tournament_id: int, input_version: int) -> None:
    """The ``ranking_published`` subscriber: recompute every championship the tournament counts in."""
    for championship_id in championships.championships_counting(tournament_id):
        championship_enqueue(championship_id)


def championship_changed_on_commit(championship_id: int) -> None:
    """Call inside the transaction that changed a championship's rules or tournaments: recomputed on commit."""
    transaction.on_commit(lambda: championship_enqueue(championship_id))
