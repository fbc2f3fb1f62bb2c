"""Championship points in words: rounded half up from the exact fraction (a walk read 77/8 as « 9,62 »: the
float's rounding, half to even), no trailing zero, a decimal comma in French."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.championship import points_text


@pytest.mark.parametrize(("value", "fr", "en"), [
    (Fraction(77, 8), "9,63", "9.63"),  # 9.625: half up
    (Fraction(1, 3), "0,33", "0.33"),
    (Fraction(5, 2), "2,5", "2.5"),  # no trailing zero
    (Fraction(1000001, 1000000), "1", "1"),  # 1.00: neither « 1, » nor « 1. »
    (Fraction(-77, 8), "-9,63", "-9.63"),  # (half away from zero)
    (12, "12", "12"),
])
def test_points_text(value, fr, en):
    assert points_text(value, "fr") == fr and points_text(value, "en") == en
