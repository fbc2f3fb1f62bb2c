"""Tarot marks: the FFT worked examples, the half-point rule, every prime at 3/4/5 players, the Excuse.

The five examples of « La marque en donnes libres » and the 40½ / 41½ examples are those of the FFT
*Règlement officiel* (R-RO201206), as transcribed in MayoFaro/comptageTarot assets/reglement/reglement.md
(commit a4638ffc) and reproduced by the Swift ``FFTExampleTests`` suite: 106 (+318), 76 (+228), 42 (−126),
92 (+276), 582 (+1746). Other expected values below are hand arithmetic from RULES.md §1.10–1.11.
"""

from __future__ import annotations

import pytest

from rules.cards import parse_card
from rules.play import Trick
from rules.replay import DealReplay, replay
from scoring.tarot import facts_from_tricks, score_match
from tests.rules.test_tarot_helpers import make_deal, record


def summary_record(players=4, *, contract="garde", taker=0, oudlers=2, points=41, pab=None, chelem=None,
                   handfuls=(), announced=False, five="mort", called=None, partner=None, dealer=None):
    options = {"players": players} | ({"five": five} if players == 5 else {})
    return record(players, options=options, dealer=players - 1 if dealer is None else dealer,
                  bid={"taker": taker, "contract": contract, "called": called}, partner=partner,
                  chelem_announced=announced, handfuls=[{"seat": s, "size": z} for s, z in handfuls],
                  summary={"oudlers": oudlers, "points": points, "petit_au_bout": pab, "chelem": chelem})


def score(data):
    match = score_match(replay(data))
    return match.deals[0]


# -- the FFT worked examples ---------------------------------------------------------------------------------

class TestFFTExamples:
    def test_garde_poignee_petit_au_bout_106(self):
        deal = score(summary_record(contract="garde", points=49, oudlers=2, handfuls=[(0, "simple")], pab="attack"))
        assert deal.result["S"] == 106
        assert deal.scores == [318, -106, -106, -106]
        assert deal.result["diff"] == 8 and deal.result["made"]

    def test_garde_sans_won_by_4_petit_au_bout_to_the_defence_76(self):
        deal = score(summary_record(contract="garde_sans", points=45, oudlers=2, pab="defence"))
        assert deal.scores == [228, -76, -76, -76]

    def test_prise_failed_by_7_with_poignee_and_petit_au_bout_42(self):
        deal = score(summary_record(contract="petite", points=34, oudlers=2, handfuls=[(0, "simple")], pab="attack"))
        assert deal.scores == [-126, 42, 42, 42]
        assert not deal.result["made"] and deal.result["diff"] == 7

    def test_garde_won_by_11_defence_poignee_92(self):
        deal = score(summary_record(contract="garde", points=52, oudlers=2, handfuls=[(2, "simple")]))
        assert deal.scores == [276, -92, -92, -92]

    def test_announced_chelem_582(self):
        deal = score(summary_record(contract="garde", points=87, oudlers=2, handfuls=[(0, "simple")], pab="attack",
                                    chelem="attack", announced=True))
        assert deal.scores == [1746, -582, -582, -582]
        assert deal.result["diff"] == 46 and deal.result["chelem_term"] == 400


class TestHalfPoint:
    """3-player examples of the FFT rules: the stray ½ goes to the winning side (A-T7)."""

    def test_40_and_a_half_with_two_bouts_fails_by_one(self):
        deal = score(summary_record(3, contract="petite", points=40.5, oudlers=2))
        assert not deal.result["made"] and deal.result["diff"] == 1
        assert deal.scores == [-52, 26, 26]  # S = −(25 + 1); taker 2S

    def test_41_and_a_half_with_two_bouts_wins_by_one(self):
        deal = score(summary_record(3, contract="petite", points="41.5", oudlers=2))
        assert deal.result["made"] and deal.result["diff"] == 1
        assert deal.scores == [52, -26, -26]

    def test_juste_fait(self):
        deal = score(summary_record(contract="garde", points=41, oudlers=2))
        assert deal.result["made"] and deal.scores == [150, -50, -50, -50]


class TestPrimesAndDistribution:
    @pytest.mark.parametrize(("players", "taker_factor"), [(3, 2), (4, 3)])
    @pytest.mark.parametrize(("size", "value"), [("simple", 20), ("double", 30), ("triple", 40)])
    def test_poignee_values_not_multiplied(self, players, taker_factor, size, value):
        deal = score(summary_record(players, contract="garde_contre", points=56, oudlers=0, handfuls=[(1, size)]))
        s = (25 + 0) * 6 + value
        assert deal.result["S"] == s and deal.scores[0] == taker_factor * s

    def test_poignee_goes_to_the_winning_side(self):
        deal = score(summary_record(contract="garde", points=40, oudlers=2, handfuls=[(0, "double")]))
        assert deal.result["S"] == -(25 + 1) * 2 - 30

    @pytest.mark.parametrize("coef_contract", [("petite", 1), ("garde", 2), ("garde_sans", 4), ("garde_contre", 6)])
    def test_petit_au_bout_ten_times_the_coefficient(self, coef_contract):
        contract, coef = coef_contract
        won = score(summary_record(contract=contract, points=51, oudlers=1, pab="attack"))
        lost = score(summary_record(contract=contract, points=51, oudlers=1, pab="defence"))
        assert won.result["S"] == 25 * coef + 10 * coef
        assert lost.result["S"] == 25 * coef - 10 * coef

    def test_chelem_made_not_announced(self):
        deal = score(summary_record(contract="petite", points=91, oudlers=3, chelem="attack"))
        assert deal.result["S"] == (25 + 55) + 200

    def test_chelem_announced_and_failed(self):
        deal = score(summary_record(contract="garde", points=60, oudlers=1, announced=True))
        assert deal.result["S"] == (25 + 9) * 2 - 200

    def test_defence_chelem_each_defender_200_more(self):
        deal = score(summary_record(contract="petite", points=0, oudlers=0, chelem="defence"))
        assert deal.result["S"] == -(25 + 56) - 200
        assert deal.scores == [-3 * 281, 281, 281, 281]

    def test_defence_chelem_after_an_announcement_is_cumulative(self):
        deal = score(summary_record(contract="petite", points=0, oudlers=0, chelem="defence", announced=True))
        assert deal.result["S"] == -(25 + 56) - 400  # A-T5

    def test_five_with_partner(self):
        deal = score(summary_record(5, five="called_king", contract="garde", points=51, oudlers=1, called="KH",
                                    partner=2, dealer=4))
        s = (25 + 0) * 2
        assert deal.scores == [2 * s, -s, s, -s, -s]

    def test_five_alone(self):
        deal = score(summary_record(5, five="called_king", contract="garde", points=50.5, oudlers=1, called="KH",
                                    partner=None, dealer=4))
        s = -(25 + 1) * 2
        assert deal.scores == [4 * s, -s, -s, -s, -s]

    def test_five_mort_scores_zero(self):
        deal = score(summary_record(5, contract="garde", points=41, oudlers=2, dealer=2, taker=0))
        assert deal.scores == [150, -50, 0, -50, -50]

    def test_five_poignee_thresholds_and_values(self):
        deal = score(summary_record(5, five="called_king", contract="petite", points=56, oudlers=0, called="KS",
                                    partner=1, dealer=4, handfuls=[(0, "triple")]))
        assert deal.result["S"] == 25 + 40

    def test_match_totals(self):
        data = summary_record(contract="garde", points=49, oudlers=2, handfuls=[(0, "simple")], pab="attack")
        data["format"] = "levee.match/1"
        second = {k: data[k] for k in ("dealer", "bid", "partner", "chelem_announced", "handfuls", "summary")}
        data["deals"] = [second, {**second, "dealer": 0, "bid": {"taker": 1, "contract": "garde_sans",
                                                                    "called": None},
                                  "handfuls": [], "summary": {"oudlers": 2, "points": 45,
                                                              "petit_au_bout": "defence", "chelem": None}}]
        match = score_match(replay(data))
        assert match.totals == [318 - 76, -106 + 228, -106 - 76, -106 - 76]
        assert match.winner is None and match.ended is None


class TestSummaryValidation:
    @pytest.mark.parametrize(("fields", "code"), [
        ({"points": 92}, "summary_points_range"),
        ({"points": -1}, "summary_points_range"),
        ({"points": 40.3}, "summary_points_half"),
        ({"points": 40.5}, "summary_half_point_at_four"),
        ({"oudlers": 4}, "summary_oudlers"),
        ({"oudlers": 3, "points": 10}, "summary_points_oudlers"),
        ({"oudlers": 0, "points": 80}, "summary_points_oudlers"),
        ({"oudlers": 0, "points": 50, "pab": "attack"}, "summary_petit_au_bout"),
        ({"oudlers": 3, "points": 60, "pab": "defence"}, "summary_petit_au_bout"),
        ({"oudlers": 2, "points": 80, "chelem": "attack"}, "summary_chelem"),
        ({"oudlers": 3, "points": 87, "chelem": "attack"}, "summary_chelem"),
        ({"oudlers": 0, "points": 30, "chelem": "defence"}, "summary_chelem"),
        ({"oudlers": 3, "points": 91, "chelem": "attack", "pab": "defence"}, "summary_petit_au_bout"),
    ])
    def test_impossible_summaries(self, fields, code):
        deal = score(summary_record(**fields))
        assert code in [v.rule for v in deal.violations]
        assert deal.scores is None

    @pytest.mark.parametrize("fields", [
        {"oudlers": 2, "points": 87, "chelem": "attack"},
        {"oudlers": 3, "points": 91, "chelem": "attack", "pab": "attack"},
        {"oudlers": 0, "points": 0, "chelem": "defence"},
        {"oudlers": 1, "points": 4, "chelem": "defence"},
        {"oudlers": 0, "points": 0},
        {"oudlers": 3, "points": 91},
    ])
    def test_possible_summaries(self, fields):
        deal = score(summary_record(**fields))
        assert not deal.violations and deal.scores is not None

    def test_half_points_fine_at_three_and_five(self):
        assert not score(summary_record(3, points=40.5)).violations
        assert not score(summary_record(5, five="called_king", points=40.5, called="KS", partner=1,
                                        dealer=4)).violations


# -- the Excuse, from tricks built by hand ------------------------------------------------------------------

def synthetic(cards: list[list[str]], winners: list[int], *, taker: int = 0, contract: str = "garde"):
    """A 4-player deal with the tricks given (seat 0 leads the first; each winner leads the next)."""
    rules = make_deal(4, dealer=3, bid={"taker": taker, "contract": contract, "called": None})
    tricks = []
    leader = 0
    for i, (trick, won) in enumerate(zip(cards, winners, strict=True)):
        seats = tuple((leader + k) % 4 for k in range(4))
        tricks.append(Trick(i, leader, tuple(parse_card(c) for c in trick), seats, won))
        leader = won
    return DealReplay(0, rules, None, None, tuple(tricks), None, (), ())


PLAIN = [f"{r}{s}" for s in "SHDC" for r in (["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"])]  # 40 cards worth 0.5
TRUMPS_2_20 = [f"T{n}" for n in range(2, 21)]  # 19 cards worth 0.5
HONOURS = [f"{r}{s}" for s in "SHDC" for r in "KQNJ"]  # 16 honours: 4.5+3.5+2.5+1.5 = 12 per suit, 48 in all


class TestExcuseFromTricks:
    """Tricks of the form [4 cards]; the points of a side are summed by hand below."""

    @staticmethod
    def deal_cards():
        # 18 tricks: trick i holds 4 cards; 6 low cards form the écart. Trick 0: KS QS NS JS (12 points).
        ordered = [*HONOURS, "T21", "T1", "EX", *PLAIN, *TRUMPS_2_20]
        ecart = ordered[-6:]
        played = ordered[:-6]
        assert len(played) == 72
        return [played[4 * i:4 * i + 4] for i in range(18)], ecart

    def test_excuse_kept_by_the_defence_with_exchange(self):
        tricks, _ = self.deal_cards()
        assert tricks[4] == ["T21", "T1", "EX", "AS"]
        # seat 0 takes and wins tricks 0 and 4; trick 4 is led by seat 1 (winner of trick 3), so the Excuse
        # is played by seat 3, a defender: it stays with the defence, who give a half-point card
        deal = synthetic(tricks, [0, 1, 1, 1, 0] + [1] * 13)
        facts = facts_from_tricks(deal)
        # attack: trick 0 (KS QS NS JS = 12) + T21 4.5 + T1 4.5 + AS 0.5 + the card received 0.5 + écart 6 × 0.5
        assert facts.points_half == 2 * 25
        assert facts.oudlers == 2

    def test_excuse_of_the_attack_in_a_trick_lost(self):
        tricks, _ = self.deal_cards()
        # seat 3 takes; he wins trick 0 (12 points) and plays the Excuse to trick 4, won by seat 2
        deal = synthetic(tricks, [3, 1, 1, 1, 2] + [1] * 13, taker=3)
        facts = facts_from_tricks(deal)
        # attack: 12 + Excuse 4.5 − the half-point card given 0.5 + écart 3 = 19 points, 1 bout
        assert (facts.points_half, facts.oudlers) == (38, 1)

    def test_excuse_without_any_trick_counts_four(self):
        tricks, _ = self.deal_cards()
        deal = synthetic(tricks, [0, 1, 1, 1, 2] + [1] * 13, taker=3)
        facts = facts_from_tricks(deal)
        assert (facts.points_half, facts.oudlers) == (2 * (4 + 3), 1)  # A-T4: the Excuse 4, plus the écart
        assert facts.chelem == "defence"

    def test_excuse_played_to_the_last_trick_changes_side(self):
        tricks, _ = self.deal_cards()
        tricks[4], tricks[17] = tricks[17], tricks[4]
        # the last trick is led by seat 1: the Excuse is played by seat 3, the taker; seat 1 wins it
        deal = synthetic(tricks, [1] * 18, taker=3)
        facts = facts_from_tricks(deal)
        assert (facts.points_half, facts.oudlers) == (6, 0)  # only the écart

    def test_chelem_with_the_excuse_led_last_and_petit_at_the_penultimate(self):
        tricks, _ = self.deal_cards()
        tricks[4][1], tricks[16][0] = tricks[16][0], tricks[4][1]  # the Petit to trick 16
        tricks[4][2], tricks[17][0] = tricks[17][0], tricks[4][2]  # the Excuse leads trick 17
        deal = synthetic(tricks, [0] * 18, taker=0)
        facts = facts_from_tricks(deal)
        assert (facts.points_half, facts.oudlers, facts.chelem, facts.petit_au_bout) == (182, 3, "attack", "attack")

    def test_petit_in_the_last_trick_goes_to_the_winner_of_the_trick(self):
        tricks, _ = self.deal_cards()
        tricks[4], tricks[17] = tricks[17], tricks[4]
        deal = synthetic(tricks, [1] * 17 + [0], taker=0)
        assert facts_from_tricks(deal).petit_au_bout == "attack"  # A-T1: the side that wins the last trick
        deal = synthetic(tricks, [0] * 17 + [1], taker=0)
        assert facts_from_tricks(deal).petit_au_bout == "defence"

    def test_garde_contre_dog_counts_for_the_defence(self):
        tricks, _ = self.deal_cards()
        deal = synthetic(tricks, [0] * 18, contract="garde_contre")
        facts = facts_from_tricks(deal)
        # the Excuse (seat 2, a defender, at trick 4) stays with the defence, who also have the chien (6 × 0.5)
        assert facts.points_half == 182 - 6 - 9 + 1
        assert facts.chelem == "attack"
