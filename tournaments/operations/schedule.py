"""When a backup is due on its own: at the end of every round, and every ``LEVEE_BACKUP_EVERY_MINUTES`` while a
tournament is running. Celery beat asks every few minutes (:func:`tournaments.operations.tasks.backup_if_due`);
on the embedded default, ``manage.py backup --watch`` (which ``make run`` starts beside the server) does.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from tournaments.deals.models import Deal
from tournaments.event.models import Tournament
from tournaments.links.models import RoundClosing
from tournaments.operations.backup import Backup, backup_create, backup_latest


def backup_due(now: datetime | None = None) -> str | None:
    """Why a backup should be taken now (``first``, ``round_end``, ``hourly``), or None."""
    now = now or timezone.now()
    last = backup_latest()
    if last is None:
        return "first" if Deal.objects.exists() or Tournament.objects.exists() else None
    if RoundClosing.objects.filter(finished_at__gt=last.taken_at).exists():
        return "round_end"
    every = timedelta(minutes=settings.LEVEE_BACKUP_EVERY_MINUTES)
    if now - last.taken_at >= every and Tournament.objects.filter(status=Tournament.Status.RUNNING).exists():
        return "hourly"
    return None


def backup_if_due(now: datetime | None = None) -> Backup | None:
    """Take a backup if one is due; the backup taken, or None."""
    reason = backup_due(now)
    return backup_create(reason=reason) if reason else None
