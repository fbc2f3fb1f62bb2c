"""Ranking metrics as people read them: whole marks, or duplicate percentages with two decimals."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format

from tournaments.standings import rankings


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
    """A duplicate percentage as shown (« 53,25 % »), « — » when absent."""
    return "—" if value is None else f"{metric_text(value)} %"
