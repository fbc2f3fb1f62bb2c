"""Forfeits and absences at a table (the chief arbiter or the organizer records them).

A *forfait* at a match table gives the match to the side left present (``rankings.match_results``);
an *absence* says who did not play at the table this round (they score nothing for it; a match
table then has no result). One record per table: recording again replaces it, cancelling removes
it. Each change bumps the ranking's inputs in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common import hooks
from tournaments.common.errors import InvalidInput
from tournaments.common.users import acting_user
from tournaments.deals.models import Forfeit
from tournaments.deals.selectors import table_seats
from tournaments.event.models import Table


def _absent_ids(table: Table, absent: Iterable[Any]) -> list[int]:
    seated = [s.entry_id for s in table_seats(table)]
    out: list[int] = []
    for i, value in enumerate(absent or ()):
        try:
            entry_id = int(value)
        except (TypeError, ValueError):
            raise InvalidInput(_("%(value)s is not an entry id") % {"value": repr(value)},
                               field=f"absent[{i}]") from None
        if entry_id not in seated:
            raise InvalidInput(_("entry %(entry)s is not seated at this table") % {"entry": entry_id},
                               field=f"absent[{i}]")
        if entry_id not in out:
            out.append(entry_id)
    if not out:
        raise InvalidInput(_("name at least one absent player"), field="absent")
    return out


@transaction.atomic
def forfeit_record(*, table: Table, kind: str, absent: Iterable[Any], user: Any, reason: str = "") -> Forfeit:
    """Record (or replace) the forfeit or absence of ``absent`` (entry ids seated here) at ``table``."""
    tournament = table.round.tournament
    if kind not in Forfeit.Kind.values:
        raise InvalidInput(_("kind is one of %(values)s") % {"values": ", ".join(Forfeit.Kind.values)}, field="kind")
    seats = table_seats(table)
    if len(seats) < 2:
        raise InvalidInput(_("a table with a single seat is a bye: there is no match to forfeit"), field="table")
    if kind == Forfeit.Kind.FORFEIT and not tournament.is_match_game:
        raise InvalidInput(_("a Tarot table plays no match that could be won by forfeit: record an absence"),
                           field="kind")
    ids = _absent_ids(table, absent)
    forfeit, _created = Forfeit.objects.update_or_create(
        table=table, defaults={"tournament": tournament, "kind": kind, "reason": str(reason or "").strip(),
                               "created_by": acting_user(user)})
    forfeit.absent.set(ids)
    hooks.scores_changed(tournament.pk)
    return forfeit


@transaction.atomic
def forfeit_cancel(*, table: Table, user: Any) -> bool:
    """Remove the table's forfeit or absence; False when there was none."""
    deleted, _counts = Forfeit.objects.filter(table=table).delete()
    if deleted:
        hooks.scores_changed(table.round.tournament_id)
    return bool(deleted)
