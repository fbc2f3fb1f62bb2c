"""What a club's pages read: its tournaments, running, upcoming and past, as the visitor may see them; its members,
with the register's line of each licence for the staff (personal data: ``tournaments.clubs.permissions``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from tournaments.clubs.models import Club, Licence
from tournaments.common.collation import french_sorted
from tournaments.event import permissions
from tournaments.event.models import Player, Tournament


@dataclass
class ClubTournaments:
    running: list[Tournament]
    upcoming: list[Tournament]
    past: list[Tournament]


def club_tournaments(club: Club, user: Any) -> ClubTournaments:
    """The club's tournaments the visitor may read: those being played, those not started yet (soonest first,
    undated last), then the finished ones (latest first)."""
    qs = permissions.visible_tournaments(user, Tournament.objects.filter(club=club))
    rows = list(Tournament.objects.filter(pk__in=qs.values("pk"))
                .annotate(entry_count=Count("entries", filter=Q(entries__withdrawn=False))))
    status = Tournament.Status

    def soonest(t: Tournament) -> tuple[Any, ...]:
        return (t.date is None, t.date or t.created_at.date(), t.name)

    running = sorted((t for t in rows if t.status == status.RUNNING), key=soonest)
    upcoming = sorted((t for t in rows if t.status in (status.DRAFT, status.OPEN)), key=soonest)
    past = sorted((t for t in rows if t.status == status.FINISHED),
                  key=lambda t: (t.date or t.created_at.date(), t.name), reverse=True)
    return ClubTournaments(running, upcoming, past)


@dataclass
class Member:
    player: Player
    licence: Licence | None


def club_members(club: Club) -> list[Member]:
    """The club's members (never those made anonymous), in French order, each with his licence's line."""
    players = list(Player.objects.filter(home_club=club, anonymized_at__isnull=True))
    records = {lic.number: lic for lic in Licence.objects.filter(number__in=[p.licence for p in players if p.licence])}
    return [Member(p, records.get(p.licence)) for p in french_sorted(players, key=lambda p: p.name)]
