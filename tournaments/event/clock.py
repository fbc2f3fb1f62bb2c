"""The round clock of the hall screen: the organizer starts, pauses and resets it; the time left is
``round_minutes`` minus the seconds run (``Round.clock_elapsed`` plus the run since ``clock_started_at``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.errors import InvalidInput
from tournaments.event.models import Round

ACTIONS = ("start", "pause", "reset")


@dataclass(frozen=True)
class Clock:
    total: int
    """Seconds a round lasts."""
    elapsed: int
    running: bool

    @property
    def remaining(self) -> int:
        """Seconds left; negative once the time is up (the screen then counts the overtime)."""
        return self.total - self.elapsed

    @property
    def display(self) -> str:
        """« 59:07 », « 90:00 », « -02:10 » after time; hours only from 100 minutes (« 2:00:00 »)."""
        left = self.remaining
        sign = "-" if left < 0 else ""
        left = abs(left)
        if left >= 6000:
            hours, rest = divmod(left, 3600)
            return f"{sign}{hours}:{rest // 60:02d}:{rest % 60:02d}"
        return f"{sign}{left // 60:02d}:{left % 60:02d}"


def clock_of(round: Round, now: dt.datetime | None = None) -> Clock:
    elapsed = round.clock_elapsed
    if round.clock_started_at is not None:
        elapsed += max(int(((now or timezone.now()) - round.clock_started_at).total_seconds()), 0)
    return Clock(total=round.tournament.round_minutes * 60, elapsed=elapsed, running=round.clock_started_at is not None)


@transaction.atomic
def round_clock(*, round: Round, action: str, now: dt.datetime | None = None) -> Clock:
    """Start (or resume), pause or reset the clock of ``round``; a second start or pause changes nothing."""
    if action not in ACTIONS:
        raise InvalidInput(_("Action inconnue pour l'horloge : « démarrer », « pause » ou « remettre à zéro »."),
                           field="action")
    round = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    now = now or timezone.now()
    if action == "start" and round.clock_started_at is None:
        round.clock_started_at = now
    elif action == "pause" and round.clock_started_at is not None:
        round.clock_elapsed = clock_of(round, now).elapsed
        round.clock_started_at = None
    elif action == "reset":
        round.clock_elapsed, round.clock_started_at = 0, None
    round.save(update_fields=["clock_elapsed", "clock_started_at"])
    return clock_of(round, now)
