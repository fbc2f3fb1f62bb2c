"""French writes a decimal comma: « 40,5 points », never « 40.5 », on every sentence an arbiter reads; the
English sentence and the verdict's params (for programs) keep the point."""

from hypothesis import given
from hypothesis import strategies as st

import scoring.tarot  # noqa: F401  (declares the Tarot summary sentences)
from rules.errors import Violation
from rules.messages import render
from scoring.summary import mismatch


def test_summary_points_out_of_range_reads_with_a_comma():
    v = Violation("summary_points_range", 0, params={"points": "95.5"})
    assert "95,5 points" in v.message("fr") and "95.5" not in v.message("fr")
    assert "95.5 points" in v.message("en")
    assert v.params["points"] == "95.5"  # the API's value is unchanged


def test_summary_mismatch_of_points_reads_with_a_comma():
    # the summary gives 40.5, the tricks 41: both values the French way
    v = mismatch(0, "points", "40.5", "41")
    fr = v.message("fr")
    assert "40,5 dans le résumé" in fr and "41 d'après les plis" in fr
    assert "40.5 in the summary" in v.message("en")


def test_whole_numbers_card_codes_and_words_are_left_alone():
    assert render("summary_points_range", {"points": "41"}).startswith("Le résumé donne 41 points")
    assert "2.5" not in render("summary_points_half", {"points": 2.5})
    assert "2,5" in render("summary_points_half", {"points": 2.5})


@given(st.integers(min_value=0, max_value=91), st.booleans())
def test_any_half_point_total(whole, half):
    text = f"{whole}.5" if half else str(whole)
    fr = render("summary_points_range", {"points": text}, "fr")
    assert (f"{whole},5" if half else f"{whole} points") in fr and "." not in fr.split(":")[0]
