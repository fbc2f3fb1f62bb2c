"""The championships recomputed by the workers when a counted tournament publishes its ranking.

:func:`tournament_published` is the ``ranking_published`` port's subscriber (``tournaments/common/hooks.py``,
subscribed in ``apps.py``): for each championship the tournament counts in, it queues
:func:`championship_refresh` (Celery; in-process without a broker), once per settle window in a worker (the first
publication of the window queues it to start after the window; it reads the tournaments' rankings then). The
refresh ranks the championship from the tournaments' latest published rankings and publishes a new snapshot only
when something changed: it is idempotent, so a message delivered twice, or two tournaments publishing at once, give
the right ranking. A new snapshot is told to the ``championship_published`` port (its PDF, CSVs and page rendered by
the prints worker, ``tournaments.public``).
"""

from __future__ import annotations

import logging
from functools import partial

from celery import current_app, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from tournaments.common import hooks
from tournaments.seasons import championships
from tournaments.seasons.models import Championship, ChampionshipLine

log = logging.getLogger(__name__)


@shared_task(name="tournaments.championship_refresh", acks_late=True, reject_on_worker_lost=True,
             ignore_result=True)
def championship_refresh(championship_id: int, force: bool = False) -> int | None:
    """Publish the championship's ranking if it changed (``force``: in any case); the version published, or None."""
    snapshot = championships.championship_publish(championship_id, force=force)
    if snapshot is None:
        return None
    hooks.championship_published(championship_id, snapshot.version)  # its documents rendered by the prints worker
    return snapshot.version


def championship_enqueue(championship_id: int, force: bool = False, *, countdown: int = 0) -> None:
    try:
        championship_refresh.apply_async((championship_id, force), countdown=countdown or None)
    except Exception:  # the tournament's ranking is published whatever happens here; the next publication retries
        log.exception("the championship %s could not be recomputed", championship_id)


#: seconds a refresh queued after a settle window starts after that window ends, at the least: a publication the
#: window let go by (it was shorter by this margin, even with two machines' clocks a little apart) is ranked by it
SETTLE_MARGIN = 1


def _settle_window_taken(championship_id: int, seconds: int) -> bool:
    """Whether this publication opens the championship's settle window (then it queues the refresh that ranks every
    publication of the window). The cache down: True (a refresh more, never one fewer)."""
    try:
        return bool(cache.add(f"levee:championship-settle:{championship_id}", 1, timeout=seconds))
    except Exception:
        log.warning("the championship %s's settle window could not be read: refreshed anyway", championship_id)
        return True


def tournament_published(tournament_id: int, input_version: int) -> None:
    """The ``ranking_published`` subscriber: recompute every championship the tournament counts in.

    In a worker the refresh runs ``CHAMPIONSHIP_SETTLE_SECONDS`` (+ :data:`SETTLE_MARGIN`) later, once for every
    publication of that window: a 10,000-player event publishes its ranking every second or so during play, and
    ranking its championship each time (0.8 – 2.5 s) kept the rankings' worker busy: each deal's own ranking waited
    about 1.5 s behind one (docs/performance.md). The refresh reads the tournaments' rankings when it runs, so the
    publications it was not queued for are in it. Without a broker it runs at once."""
    settle = settings.CHAMPIONSHIP_SETTLE_SECONDS
    at_once = settle <= 0 or current_app.conf.task_always_eager
    for championship_id in championships.championships_counting(tournament_id):
        if at_once:
            championship_enqueue(championship_id)
        elif _settle_window_taken(championship_id, settle):
            championship_enqueue(championship_id, countdown=settle + SETTLE_MARGIN)


def championship_changed_on_commit(championship_id: int) -> None:
    """Call inside the transaction that changed a championship's rules or tournaments: recomputed on commit."""
    transaction.on_commit(lambda: championship_enqueue(championship_id))


def player_anonymized(player_id: int, old_name: str, new_name: str) -> None:
    """The ``player_anonymized`` port's subscriber: every championship that ranks him (or counts a tournament he
    played) publishes a new version once the anonymisation commits. Its inputs hold ids, not names (the digest is
    unchanged), but what its documents show changed: the new version renders them again under his new name."""
    champs = set(Championship.objects.filter(tournaments__entries__player_id=player_id).values_list("pk", flat=True))
    champs |= set(ChampionshipLine.objects.filter(player_id=player_id).values_list("snapshot__championship_id",
                                                                                   flat=True))
    for championship_id in sorted(champs):
        transaction.on_commit(partial(championship_enqueue, championship_id, force=True))


def tournament_finished_changed(tournament_id: int) -> None:
    """The ``tournament_finished_changed`` port's subscriber: every championship counting the tournament publishes
    a new version once the change commits. Its ranking may be the same (the digest unchanged); what it says
    changed: « provisoire » while a counted tournament is not finished, and its documents are rendered again."""
    for championship_id in championships.championships_counting(tournament_id):
        transaction.on_commit(partial(championship_enqueue, championship_id, force=True))
