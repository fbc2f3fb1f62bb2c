"""Arbiters' adjustment events in the match race (Levée's ``adjustments`` of ``levee.match/1``, RULES.md §1.13
rule 40). Every expected figure is worked by hand from the rule texts (comments show the arithmetic)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import MalformedRecord
from rules.replay import replay
from scoring.verdict import judge
from tests.scoring import test_ecarte_scoring as ec
from tests.scoring import test_imperiale as imp
from tests.scoring import test_triomphe_scoring as tri
from tests.scoring import test_vingt_quatre as vq


def record(game: str, deals: list[dict[str, Any]], adjustments: list[dict[str, Any]], names: list[str],
           **options: Any) -> dict[str, Any]:
    return {"format": "levee.match/1", "game": game, "players": names, "options": options, "deals": deals,
            "adjustments": adjustments}


def rules_of(verdict) -> list[str]:
    return [v.rule for v in verdict.violations]


# -- reading ------------------------------------------------------------------------------------------------

def test_the_record_reads_adjustments_and_names_the_faulty_field() -> None:
    data = record("triomphe", [tri.deal(tri.POINT_0)], [{"after": 0, "points": [1, 0], "rule": "§2.6 rule 20"}],
                  tri.P2)
    assert replay(data).record.adjustments[0].points == (1, 0)
    for bad, field in (({"after": 1, "points": [1, 0]}, "adjustments[0].after"),
                       ({"after": 0, "points": [1]}, "adjustments[0].points"),
                       ({"after": 0, "points": [1, True]}, "adjustments[0].points"),
                       ({"after": -2, "points": [1, 0]}, "adjustments[0].after")):
        with pytest.raises(MalformedRecord) as exc:
            replay({**data, "adjustments": [bad]})
        assert exc.value.field == field


def test_partners_carry_the_same_adjustment() -> None:
    tricks = [["KS", "7S", "8S", "9S"], ["KD", "7D", "8D", "9D"], ["KC", "7C", "8C", "9C"]]
    one = {"dealer": 3, "turn_up": "9H", "tricks": tricks, "stopped": True}
    data = record("triomphe", [one], [{"after": 0, "points": [-1, 0, 0, 0]}], tri.P4, teams=[[0, 2], [1, 3]])
    with pytest.raises(MalformedRecord) as exc:
        judge(data)
    assert exc.value.field == "adjustments[0].points"
    ok = judge({**data, "adjustments": [{"after": 0, "points": [-1, 0, -1, 0]}]})
    assert ok.legal and ok.totals == [0, 0, 0, 0]  # seats 0 and 2 lay down after three tricks (+1), then −1


# -- Triomphe (§2.4 rule 14, §2.6 rules 20-21) ---------------------------------------------------------------

def test_triomphe_a_misdeal_point_makes_the_opponent_reach_the_target_first() -> None:
    # four points to Ana: 4-0. Bruno misdeals with no point to lose: "the opponents score one" (§2.6 rule 20):
    # Ana 5 = the target: the match ends there, before Bruno's vole of the next deal (which would make 4-2)
    deals = tri.in_turn([tri.deal(tri.POINT_0)] * 4 + [tri.deal(tri.VOLE_1)])
    misdeal = {"after": 3, "points": [1, 0], "reason": "Maldonne", "rule": "ADP-TRI, RULES.md §2.6 rule 20"}
    without = judge(record("triomphe", deals, [], tri.P2))
    assert without.totals == [4, 2] and without.winner is None
    verdict = judge(record("triomphe", deals[:4], [misdeal], tri.P2))
    assert verdict.legal
    assert verdict.totals == [5, 0] and verdict.winner == 0
    assert verdict.match.ended == {"deal": 3, "adjustment": 0}
    assert verdict.to_json()["adjustments"] == [{**misdeal, "applied": True, "totals": [5, 0]}]
    later = judge(record("triomphe", deals, [misdeal], tri.P2))
    assert rules_of(later) == ["match_over"] and later.deals[4].scores is None


def test_triomphe_a_penalty_at_the_end_of_the_deal_that_reached_the_target_reopens_the_match() -> None:
    # 5-0 after five points; Ana played out of turn in that deal: −1 (§2.6 rule 21): 4-0, the match goes on;
    # the end is checked at the end of the deal, after the penalty given there (rule 14)
    deals = tri.in_turn([tri.deal(tri.POINT_0)] * 5)
    assert judge(record("triomphe", deals, [], tri.P2)).match.ended == {"deal": 4, "event": 0}
    verdict = judge(record("triomphe", deals, [{"after": 4, "points": [-1, 0]}], tri.P2))
    assert verdict.legal and verdict.totals == [4, 0] and verdict.match.ended is None and verdict.winner is None
    # the next point makes it 5-0 again
    again = judge(record("triomphe", tri.in_turn([tri.deal(tri.POINT_0)] * 6), [{"after": 4, "points": [-1, 0]}],
                         tri.P2))
    assert again.legal
    assert again.totals == [5, 0] and again.winner == 0 and again.match.ended == {"deal": 5, "event": 0}


def test_triomphe_the_deal_still_ends_the_match_when_a_penalty_leaves_its_winner_there() -> None:
    # 5-0 by the fifth point; Bruno −1 for failing to trump (A-R9): 5-(−1), still Ana's, ended by the deal
    verdict = judge(record("triomphe", [tri.deal(tri.POINT_0)] * 5, [{"after": 4, "points": [0, -1]}], tri.P2))
    assert verdict.totals == [5, -1] and verdict.winner == 0 and verdict.match.ended == {"deal": 4, "event": 0}


def test_triomphe_two_parties_brought_level_to_the_target_is_for_the_arbiter() -> None:
    # 4-0, Bruno's two voles 4-4, then a typed +1 to each: 5-5, nothing separates them
    deals = tri.in_turn([tri.deal(tri.POINT_0)] * 4 + [tri.deal(tri.VOLE_1)] * 2)
    verdict = judge(record("triomphe", deals, [{"after": 5, "points": [1, 1]}], tri.P2))
    assert rules_of(verdict) == ["adjustment_tie"] and verdict.winner is None
    # in the table's words: the players by name, no « ajustement 1 », no seat numbers
    names = list(tri.P2)
    assert verdict.violations[0].message("fr", names) == (
        f"Ces points d'arbitrage amènent {names[0]} et {names[1]} au but à égalité : aucun texte ne les départage, "
        "l'arbitre décide autrement.")


def test_an_adjustment_after_the_end_is_said_in_the_table_s_words() -> None:
    verdict = judge(record("ecarte", ec.in_turn([ec.deal(ec.POINT_0)] * 5), [{"after": 4, "points": [-1, 1]}], ec.P2))
    assert verdict.violations[0].message("fr", list(ec.P2)) == (
        "La partie était déjà finie : ces points d'arbitrage viendraient après sa fin et ne compteraient pas.")


# -- Écarté (§3.4 rule 15) ---------------------------------------------------------------------------------

def test_ecarte_a_transfer_ends_the_partie_at_the_adjustment() -> None:
    # four points to Ana (3 tricks each, an exchange took place: no point de refus): 4-0; a transfer of one
    # point from Bruno to Ana: 5-(−1): the target of 5 at two players is reached by the adjustment
    deals = ec.in_turn([ec.deal(ec.POINT_0)] * 4)
    verdict = judge(record("ecarte", deals, [{"after": 3, "points": [1, -1]}], ec.P2))
    assert verdict.legal and verdict.totals == [5, -1] and verdict.winner == 0
    assert verdict.match.ended == {"deal": 3, "adjustment": 0}
    assert verdict.match.detail["manches"][0]["ended"] == {"deal": 3, "adjustment": 0}
    later = judge(record("ecarte", [*deals, ec.deal(ec.POINT_1)], [{"after": 3, "points": [1, -1]}], ec.P2))
    assert rules_of(later) == ["match_over"]


def test_ecarte_an_adjustment_after_the_end_does_not_count() -> None:
    # five points: 5-0, the partie ended at the fifth deal's point; an adjustment after it is refused
    verdict = judge(record("ecarte", ec.in_turn([ec.deal(ec.POINT_0)] * 5), [{"after": 4, "points": [-1, 1]}], ec.P2))
    assert rules_of(verdict) == ["adjustment_after_end"]
    assert verdict.totals == [5, 0] and verdict.match.adjustments[0]["applied"] is False


# -- L'Impériale (§4.2 rule 6, §4.3 rule 13, §4.5 rules IV and X, A-I10) --------------------------------------

def test_imperiale_a_penalty_impériale_is_never_wiped_but_the_card_jetons_are() -> None:
    # D2: Bruno fiches [0, 1], jetons [0, 1]. Ana misdeals with no impériale to lose (rule IV, A-I10): Bruno
    # scores one impériale: fiches [0, 2]; an adjustment erases nothing, Bruno keeps his jeton.
    # D1 mirrored (Ana first hand) with Ana's spade quatrième majeure: 1 impériale, erasing Bruno's jeton
    # (rule 13) but not his fiches: [1, 2] / [0, 0]; the Point to Bruno [0, 1]; Ana's capote (2) erases it
    # again: fiches [3, 2] — Bruno's penalty impériale survives both erasures.
    penalty = {"after": 0, "points": [0, 1], "rule": "AUJ-IMP règle IV (RULES.md §4.5, A-I10)"}
    verdict = judge(record("imperiale", [imp.d2(), imp.d1(dealer=1, announcements=imp.SHOW_SPADES)], [penalty],
                           ["Ana", "Bruno"], players=2))
    assert verdict.legal
    applied = verdict.match.adjustments[0]
    assert applied["fiches"] == [0, 2] and applied["jetons"] == [0, 1]
    assert [(m["step"], m["seat"], m["fiches"]) for m in applied["marks"]] == [("adjustment", 1, 1)]
    assert "wiped" not in applied["marks"][0]
    second = verdict.deals[1].result["marks"]
    assert second[0]["step"] == "imperiale_quatrieme_majeure" and second[0]["wiped"] == {"1": 1}
    assert second[0]["after"] == {"fiches": [1, 2], "jetons": [0, 0]}
    assert second[-1]["step"] == "capote" and second[-1]["wiped"] == {"1": 1}
    assert verdict.totals == [3, 2]
    # the deal scores are the fiches gained in each deal; with the adjustment they add up to the totals
    assert [d.scores for d in verdict.deals] == [[0, 1], [3, 0]]


def test_imperiale_losing_an_impériale_can_hand_the_match_to_the_adjustment() -> None:
    # target 2: D2 gives Bruno 1; a penalty impériale to Bruno (Ana failed to take, rule X, none to lose): 2
    penalty = {"after": 0, "points": [0, 1]}
    verdict = judge(record("imperiale", [imp.d2()], [penalty], ["Ana", "Bruno"], players=2, target=2))
    assert verdict.legal and verdict.winner == 1 and verdict.match.ended == {"deal": 0, "adjustment": 0}
    assert verdict.match.adjustments[0]["marks"][0]["reaches_target"] is True
    later = judge(record("imperiale", [imp.d2(), imp.d1(dealer=1)], [penalty], ["Ana", "Bruno"], players=2,
                         target=2))
    assert rules_of(later) == ["match_over"]
    # the offender who has one loses it: Bruno −1 after D2: fiches [0, 0], his jeton kept
    lose = judge(record("imperiale", [imp.d2()], [{"after": 0, "points": [0, -1]}], ["Ana", "Bruno"], players=2))
    assert lose.totals == [0, 0] and lose.match.adjustments[0]["jetons"] == [0, 1] and lose.winner is None


# -- Le Vingt-quatre (§5 rules 4-5) -----------------------------------------------------------------------------

def test_vingt_quatre_jetons_toward_the_partie() -> None:
    # target 40 points = 10 jetons. The deal: séquence 1 + Point 1 + honours K Q J 10 9 of spades 5 + la carte 1
    # = 8 jetons to Bruno. A typed penalty of 2 jetons to Bruno's favour (the arbiter's): 10 = the partie
    deal = vq.deal()
    base = judge(record("vingt-quatre", [deal], [], ["Ana", "Bruno", "Chloé", "David"], players=4,
                        target=40))
    assert base.totals == [0, 8, 0, 0] and base.winner is None
    verdict = judge(record("vingt-quatre", [deal], [{"after": 0, "points": [0, 2, 0, 0]}],
                           ["Ana", "Bruno", "Chloé", "David"], players=4, target=40))
    assert verdict.legal and verdict.totals == [0, 10, 0, 0] and verdict.winner == 1
    assert verdict.match.ended == {"deal": 0, "adjustment": 0}
    assert verdict.match.adjustments[0]["partie_won_by"] == 1
    # −1 jeton instead: 7, the partie goes on
    minus = judge(record("vingt-quatre", [deal], [{"after": 0, "points": [0, -1, 0, 0]}],
                         ["Ana", "Bruno", "Chloé", "David"], players=4, target=40))
    assert minus.totals == [0, 7, 0, 0] and minus.winner is None and minus.match.ended is None


# -- property: the score rows add up to the race ----------------------------------------------------------------

TRI_DEALS = {"point_0": tri.POINT_0, "vole_1": tri.VOLE_1, "vole_0": tri.VOLE_0, "failed_0": tri.ENGAGED_LOST}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(TRI_DEALS)), min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(-2, 2)), max_size=4))
def test_a_legal_race_is_the_deals_plus_the_zero_sum_transfers(names, transfers) -> None:
    """A legal verdict's totals are exactly the deals' scores plus the adjustments (what the table's score rows
    sum); a zero-sum transfer between the two parties leaves the sum of their totals that of the deals."""
    deals = [tri.deal(TRI_DEALS[n]) for n in names]
    adjustments = [{"after": min(a, len(deals) - 1), "points": [p, -p]} for a, p in transfers]
    verdict = judge(record("triomphe", deals, adjustments, tri.P2))
    if not verdict.legal:
        return
    rows = [sum(d.scores[s] for d in verdict.deals) + sum(a["points"][s] for a in adjustments) for s in (0, 1)]
    assert verdict.totals == rows
    assert sum(verdict.totals) == sum(sum(d.scores) for d in verdict.deals)


def test_vingt_quatre_at_five_players_an_adjustment_wins_a_partie_of_two() -> None:
    """Five players, two parties of 24 points (6 jetons). Before the first deal the arbiter gives Émile (seat 4)
    6 jetons: he wins the first partie at once (§5: the first to reach the target wins it), a new partie starts
    from 0 jeton each, and the match goes on, since it is played in two parties."""
    import random

    from rules.vingt_quatre import random_record

    five = random_record(random.Random(7), players=5)
    names = ["Ana", "Bruno", "Chloé", "David", "Émile"]
    first = {k: v for k, v in five.items() if k not in ("format", "game", "options", "players")}
    base = judge(record("vingt-quatre", [first], [], names, players=5, parties=2))
    assert base.legal and base.match.ended is None  # one deal never reaches 6 jetons with parties of 24 here
    six = judge(record("vingt-quatre", [first], [{"after": -1, "points": [0, 0, 0, 0, 6]}], names,
                       players=5, parties=2))
    assert six.legal and six.match.ended is None and six.winner is None
    assert six.match.adjustments[0]["partie_won_by"] == 4
    assert six.match.detail["parties_won"] == [0, 0, 0, 0, 1]
    # the jetons of the deal count in the second partie, from zero; the totals add the 6 jetons to the deal's
    assert six.match.detail["jetons"] == base.match.detail["jetons"]
    assert six.totals == [t + (6 if s == 4 else 0) for s, t in enumerate(base.totals)]
    # with one partie only, the same 6 jetons end the match before the first deal, which then comes too late
    over = judge(record("vingt-quatre", [first], [{"after": -1, "points": [0, 0, 0, 0, 6]}], names, players=5))
    assert over.match.ended == {"deal": -1, "adjustment": 0} and over.winner == 4
    assert not over.legal


# -- a fault ruled on the deal that ended the match (docs/deal-record.md, "A fault in the deal that ended the match")

def test_imperiale_a_fault_in_the_deal_that_ended_the_match_counts_before_its_marks() -> None:
    # target 4. D1 (dealer 0): the Point to Ana [0,0]/[1,0], Bruno's capote 2 erasing it: fiches [0,2].
    # D1 mirrored (dealer 1): the Point to Bruno, Ana's capote 2 erasing it: [2,2]. D1 (dealer 0) again: the Point
    # to Ana, Bruno's capote: [2,4], Bruno reaches 4 at the capote. Bruno failed to take in that deal (AUJ-IMP
    # rule X): he has 2 impériales before it and loses one, before the deal's marks: [2,1]; then the Point to Ana
    # [2,1]/[1,0], Bruno's capote [2,3] erasing her jeton: nobody at 4, the match goes on.
    deals = [imp.d1(), imp.d1(dealer=1), imp.d1()]
    penalty = {"after": 2, "points": [0, -1], "in_deal": True, "rule": "AUJ-IMP règle X (RULES.md §4.5, A-I10)"}
    verdict = judge(record("imperiale", deals, [penalty], ["Ana", "Bruno"], players=2, target=4))
    assert rules_of(verdict) == []
    assert verdict.totals == [2, 3] and verdict.winner is None and verdict.match.ended is None
    applied = verdict.match.adjustments[0]
    assert applied["applied"] is True and applied["fiches"] == [2, 1]
    assert [d.scores for d in verdict.deals] == [[0, 2], [2, 0], [0, 2]]
    # without the fault's deal named, the same penalty comes after the end of the match: it would not count
    late = judge(record("imperiale", deals, [{"after": 2, "points": [0, -1]}], ["Ana", "Bruno"], players=2, target=4))
    assert rules_of(late) == ["adjustment_after_end"] and late.winner == 1


def test_imperiale_none_to_lose_in_the_deal_that_ended_the_match() -> None:
    # target 3. D2: Bruno [0,1]/[0,1]. D1 mirrored with Ana's spade quatrième majeure: Ana failed to take in it,
    # with no impériale before it: Bruno scores one (A-I10) before the deal's marks: [0,2]/[0,1]; then Ana's
    # quatrième majeure [1,2] erasing Bruno's jeton, the Point to Bruno [1,2]/[0,1], Ana's capote [3,2]: Ana
    # reaches 3 at the capote all the same.
    deals = [imp.d2(), imp.d1(dealer=1, announcements=imp.SHOW_SPADES)]
    verdict = judge(record("imperiale", deals, [{"after": 1, "points": [0, 1], "in_deal": True}], ["Ana", "Bruno"],
                           players=2, target=3))
    assert rules_of(verdict) == []
    assert verdict.totals == [3, 2] and verdict.winner == 0
    assert verdict.match.ended == {"deal": 1, "event": 2}
    assert verdict.match.adjustments[0]["fiches"] == [0, 2]
    assert [d.scores for d in verdict.deals] == [[0, 1], [3, 0]]


def test_imperiale_a_penalty_that_reaches_the_target_before_the_deal_s_marks_ends_the_match_there() -> None:
    # target 2. D2: Bruno [0,1]. D1 mirrored: Ana's capote would bring her to 2, but she failed to take in that
    # deal with no impériale to lose: Bruno scores one at the fault, before the deal's marks: 2, the match ends
    # there (§4.3 rule 15: at once); the deal's marks do not count.
    deals = [imp.d2(), imp.d1(dealer=1)]
    verdict = judge(record("imperiale", deals, [{"after": 1, "points": [0, 1], "in_deal": True}], ["Ana", "Bruno"],
                           players=2, target=2))
    assert rules_of(verdict) == []
    assert verdict.totals == [0, 2] and verdict.winner == 1
    assert verdict.match.ended == {"deal": 1, "adjustment": 0}
    assert [d.scores for d in verdict.deals] == [[0, 1], [0, 0]]
