"""Penalty presets (scoring.penalties): amounts and who gets them, written by hand from RULES.md
§2.6 rules 20–21 and A-R9 (Triomphe), §4.5 rules IV and X and A-I10 (Impériale), §1.13 rules 38/40 and
A-T10 (Tarot: none), §3.5 (Écarté: none), §5 (Vingt-quatre: none)."""

from __future__ import annotations

import pytest

from scoring import penalties
from scoring.penalties import adjustments, preset, presets_for


def test_the_presets_of_each_game():
    assert [p.code for p in presets_for("triomphe")] == [
        "triomphe_misdeal", "triomphe_out_of_turn", "triomphe_failed_to_take", "triomphe_failed_to_trump"]
    assert [p.code for p in presets_for("imperiale")] == ["imperiale_misdeal", "imperiale_failed_to_take"]
    # A-T10: no fixed Tarot penalty is invented; Écarté laws 42–43 fix no amount; Vingt-quatre has no rule
    assert presets_for("tarot") == ()
    assert presets_for("ecarte") == ()
    assert presets_for("vingt-quatre") == ()
    assert set(penalties.GAMES_WITHOUT_PRESETS) == {"tarot", "ecarte", "vingt-quatre"}
    # what the chief does, in his words: no reference, no note on the texts at hand
    assert penalties.GAMES_WITHOUT_PRESETS["tarot"][0] == "Vous saisissez les marques de chacun, avec le motif de " \
        "votre décision."
    # AUJ rule VI loses the game: not an amount, listed for the arbiter's decision
    assert penalties.NOT_PRESETS["imperiale"][0][0].startswith("AUJ-IMP règle VI")


def test_every_preset_names_its_rule_and_has_both_labels():
    for p in penalties.PRESETS:
        assert p.label_fr and p.label_en and p.rule and p.offender_fr and p.offender_en
        assert p.amount == 1  # every amount the texts fix here is one point / one impériale
    assert preset("triomphe_failed_to_trump").rule == "ADP-TRI, RULES.md §2.6 rule 21 (décision A-R9)"
    assert preset("imperiale_misdeal").rule.startswith("AUJ-IMP règle IV")
    assert preset("imperiale_failed_to_take").rule.startswith("AUJ-IMP règle X")
    assert preset("nope") is None


# -- Triomphe misdeal (§2.6 rule 20): « the dealer loses one of his points if he has any, otherwise the
#    opponents score one » --------------------------------------------------------------------------

def test_triomphe_misdeal_dealer_with_a_point_loses_it():
    got = adjustments(preset("triomphe_misdeal"), offender="A", seats=["A", "B"], totals={"A": 3, "B": 1})
    assert got.points == {"A": -1} and got.is_penalty and got.branch == "lose"


def test_triomphe_misdeal_dealer_without_a_point_the_opponent_scores_one():
    got = adjustments(preset("triomphe_misdeal"), offender="A", seats=["A", "B"], totals={"A": 0, "B": 2})
    assert got.points == {"B": 1} and got.is_penalty and got.branch == "opponents_score"
    # no totals at all (first deal): nobody has a point yet
    assert adjustments(preset("triomphe_misdeal"), offender="B", seats=["A", "B"]).points == {"A": 1}
    # a negative score (a failed vole, rule 13) is not a point to lose
    assert adjustments(preset("triomphe_misdeal"), offender="A", seats=["A", "B"],
                       totals={"A": -2}).points == {"B": 1}


def test_triomphe_misdeal_by_teams_concerns_the_parties():
    teams = [["A", "C"], ["B", "D"]]
    seats = ["A", "B", "C", "D"]
    lose = adjustments(preset("triomphe_misdeal"), offender="C", seats=seats, totals={"A": 1, "C": 1},
                       parties=teams)
    assert lose.points == {"A": -1, "C": -1}
    score = adjustments(preset("triomphe_misdeal"), offender="C", seats=seats, totals={}, parties=teams)
    assert score.points == {"B": 1, "D": 1}


def test_triomphe_misdeal_at_three_each_opponent_scores_one():
    got = adjustments(preset("triomphe_misdeal"), offender="B", seats=["A", "B", "C"], totals={"A": 2})
    assert got.points == {"A": 1, "C": 1}


@pytest.mark.parametrize("code", ["triomphe_out_of_turn", "triomphe_failed_to_take", "triomphe_failed_to_trump"])
def test_triomphe_minus_one_to_the_offender_even_without_a_point(code):
    # §2.6 rule 21: −1; §2.4 rule 13: scores can be negative
    assert adjustments(preset(code), offender="B", seats=["A", "B"], totals={"B": 0}).points == {"B": -1}
    got = adjustments(preset(code), offender="B", seats=["A", "B"], totals={"B": 4})
    assert got.points == {"B": -1} and got.is_penalty


# -- Impériale (§4.5 IV and X, A-I10): loses one impériale (a fiche = 1 in the score rows); none to lose →
#    each opponent scores one ---------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["imperiale_misdeal", "imperiale_failed_to_take"])
def test_imperiale_loses_one_imperiale_or_the_opponents_score_it(code):
    assert adjustments(preset(code), offender=7, seats=[7, 8], totals={7: 2, 8: 0}).points == {7: -1}
    assert adjustments(preset(code), offender=7, seats=[7, 8], totals={7: 0, 8: 3}).points == {8: 1}
    assert adjustments(preset(code), offender=7, seats=[7, 8, 9], totals={}).points == {8: 1, 9: 1}


def test_offender_must_be_at_the_table():
    with pytest.raises(ValueError):
        adjustments(preset("triomphe_out_of_turn"), offender="Z", seats=["A", "B"])


def test_no_imperiale_preset_when_the_match_scoring_takes_the_penalty_itself():
    """With ``penalty_imperiale`` (A-I10) the deal's own scoring applies AUJ rules IV and X: no double penalty."""
    assert [p.code for p in penalties.presets_for("imperiale", {"penalty_imperiale": False})] == [
        "imperiale_misdeal", "imperiale_failed_to_take"]
    assert penalties.presets_for("imperiale", {"penalty_imperiale": True}) == ()
    assert penalties.presets_for("triomphe", {"penalty_imperiale": True}) == penalties.presets_for("triomphe")
