"""A player made anonymous (``tournaments.event.register.player_anonymize``): the records of the deals he played
keep the players' names as the table signed them, so his name is replaced there, and in their history, by his
anonymous name. Subscribed to ``hooks.player_anonymized`` in ``apps.py``."""

from __future__ import annotations

from typing import Any

from tournaments.deals.models import Deal
from tournaments.event.models import Seat


def _renamed(record: Any, position: int, old: str, new: str) -> Any:
    """The record with the name at ``position`` (as written, or told apart by a club or a number) renamed."""
    if not isinstance(record, dict) or not isinstance(record.get("players"), list):
        return None
    names = list(record["players"])
    if position >= len(names) or not isinstance(names[position], str) or not names[position].startswith(old):
        return None
    names[position] = new
    return {**record, "players": names}


def records_renamed(player_id: int, old_name: str, new_name: str) -> None:
    """Write ``new_name`` for the player in the records of the deals played at his seats, and their history."""
    seats = Seat.objects.filter(entry__player_id=player_id).values_list("table_id", "position")
    for table_id, position in seats:
        for model in (Deal, Deal.history.model):  # type: ignore[attr-defined]
            for pk, record in model.objects.filter(table_id=table_id).values_list("pk", "record"):
                changed = _renamed(record, position, old_name, new_name)
                if changed is not None:
                    model.objects.filter(pk=pk).update(record=changed)
