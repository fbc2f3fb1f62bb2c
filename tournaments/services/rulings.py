"""Rulings: the chief arbiter's decisions on incidents (renonce, misdeal, exposed card, slow play …).

A ruling adjusts points per entry and/or annuls a deal, with a reason (RULES.md §1.13: the FFT
*Code d'arbitrage* tables are not available, so no fixed penalty is invented: the arbiter
enters the adjustment). Adjustments that transfer points must sum to zero; only a ruling
marked as a penalty may take (or give) points without a counterpart. The adjustments become
score rows of the ruling, counted in rankings like deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from ..models import Deal, Ruling, ScoreRow, Table
from ..selectors import table_seats
from .deals import _after_commit, _user, deal_annul
from .errors import InvalidInput


def _adjustments(table: Table, adjustments: Mapping[Any, Any] | None) -> dict[int, int]:
    seated = {s.entry_id for s in table_seats(table)}
    out: dict[int, int] = {}
    for key, value in (adjustments or {}).items():
        path = f"adjustments.{key}"
        try:
            entry_id = int(key)
        except (TypeError, ValueError):
            raise InvalidInput(f"{key!r} is not an entry id", field=path) from None
        if entry_id not in seated:
            raise InvalidInput(f"entry {entry_id} is not seated at this table", field=path)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput("points are whole numbers", field=path)
        if value:
            out[entry_id] = out.get(entry_id, 0) + value
    return out


@transaction.atomic
def ruling_record(*, table: Table, kind: str, reason: str, user: Any, deal: Deal | None = None,
                  adjustments: Mapping[Any, int] | None = None, is_penalty: bool = False,
                  annuls_deal: bool = False) -> Ruling:
    """Record a ruling at a table: point adjustments (entry id → points) and/or an annulled deal."""
    if kind not in Ruling.Kind.values:
        raise InvalidInput(f"kind is one of {', '.join(Ruling.Kind.values)}", field="kind")
    if not reason or not str(reason).strip():
        raise InvalidInput("a ruling needs a reason", field="reason")
    if deal is not None and deal.table_id != table.pk:
        raise InvalidInput("the deal was played at another table", field="deal")
    if annuls_deal and deal is None:
        raise InvalidInput("name the deal to annul", field="deal")
    points = _adjustments(table, adjustments)
    total = sum(points.values())
    if total and not is_penalty:
        raise InvalidInput(f"adjustments transfer points and must sum to zero (they sum to {total}); "
                           f"mark the ruling as a penalty otherwise", field="adjustments")
    if not points and not annuls_deal:
        raise InvalidInput("a ruling adjusts points or annuls a deal", field="adjustments")
    ruling = Ruling(tournament_id=table.round.tournament_id, table=table, deal=deal, kind=kind,
                    adjustments={str(k): v for k, v in points.items()}, is_penalty=is_penalty,
                    annuls_deal=annuls_deal, reason=str(reason).strip(), created_by=_user(user))
    ruling._change_reason = ruling.reason  # type: ignore[attr-defined]
    ruling.save()
    ScoreRow.objects.bulk_create([
        ScoreRow(tournament_id=table.round.tournament_id, round_id=table.round_id, table=table, deal=deal,
                 ruling=ruling, entry_id=entry_id, points=value, counts=True)
        for entry_id, value in points.items()
    ])
    if annuls_deal and deal is not None:
        deal_annul(deal=deal, reason=f"décision d'arbitrage ({ruling.get_kind_display()}) : {ruling.reason}",
                   user=user)
    _after_commit(table.round.tournament_id)
    return ruling
