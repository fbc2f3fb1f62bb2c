"""Ranking metrics as people read them: whole marks, or duplicate percentages with two decimals and their unit."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format

from scoring import ranking as pure
from scoring import snapshots
from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot


def metric_text(value: Any) -> str:
    """A metric of a ranking line as shown: « — » when absent, two decimals for a fraction."""
    value = rankings.metric_value(value)
    if value is None:
        return "—"
    if isinstance(value, Fraction) and value.denominator != 1:  # duplicate percentages: two decimals
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return number_format(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), 2)
    return str(value)


def percent_text(value: Any) -> str:
    """A duplicate percentage as shown (« 53,25 % », a no-break space before the sign: never « % » alone on a
    line of a narrow cell), « — » when absent."""
    return "—" if value is None else f"{metric_text(value)}\u00a0%"


def percent_columns(snapshot: RankingSnapshot, unit: str = rankings.Unit.ENTRY) -> frozenset[str]:
    """The columns of a published ranking (its entries' or its teams' lines) that are percentages: a duplicate's
    result by mean percentage and its best étui (:func:`scoring.snapshots.percent_metrics`)."""
    if unit == rankings.Unit.TEAM:
        kind = pure.TEAM_KINDS.get(snapshot.kind, pure.TEAM_KINDS[pure.MATCHES_KIND])
        options = snapshot.team_options
    else:
        kind, options = snapshot.kind, snapshot.options
    return snapshots.percent_metrics(kind, dict(rankings.decode(options or [])))
