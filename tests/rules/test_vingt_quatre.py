"""Le Vingt-quatre, one deal: order (Ace lowest), sequences (A-V2), the Point (As 1), setup checks.

Expected values come from RULES.md §5 and seed 003, worked by hand.
"""

from __future__ import annotations

import pytest

import rules.game
import rules.imperiale
import rules.vingt_quatre
from rules.cards import FRENCH_52, format_card, mask_of, parse_card
from rules.errors import MalformedRecord
from rules.forcing import best_position, forcing_requirement
from rules.replay import replay
from rules.vingt_quatre import PLAY_ORDER, POINT_VALUES, as_run, best_sequence, runs_of

SPADES, HEARTS = 0, 1



def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def test_ace_is_lowest_in_play():
    assert best_position(cs("AS 2S"), HEARTS, PLAY_ORDER.beats) == 1
    assert best_position(cs("10S JS KS QS"), HEARTS, PLAY_ORDER.beats) == 2
    # forcing with the Ace lowest: a 3 beats an Ace led
    mask, rule = forcing_requirement(m("3S KD"), cs("AS"), HEARTS, PLAY_ORDER.beats)
    assert (mask, rule) == (m("3S"), "must_follow_higher")


def test_legality_is_the_impériale_algorithm():
    from rules.forcing import ForcingDealRules
    assert rules.vingt_quatre.VingtQuatreDeal.requirement is ForcingDealRules.requirement
    assert issubclass(rules.imperiale.ImperialeDeal, ForcingDealRules)


def test_runs_disjoint_are_separate_sequences():
    # hearts 2 3 4 5 6 and 8 9 10 J Q: two quintes (A-V2)
    runs = runs_of(m("2H 3H 4H 5H 6H 8H 9H 10H JH QH"), seat=0)
    assert [(r.length, r.top) for r in runs] == [(5, 6), (5, 12)]


def test_one_long_run_is_one_sequence():
    runs = runs_of(m("AH 2H 3H 4H 5H 6H 7H"), seat=0)     # a septième mineure, to the 7
    assert [(r.length, r.top) for r in runs] == [(7, 7)]
    assert runs_of(m("JH QH KH 10H 9H"), seat=0)[0].top == 13  # quinte majeure
    assert runs_of(m("2H 3H 4H 5H 7H"), seat=0) == []      # a gap: no sequence


def test_as_run_checks_a_shown_sequence():
    assert as_run(cs("8H 9H 10H JH QH"), 0) is not None
    assert as_run(cs("8H 9H 10H JH KH"), 0) is None
    assert as_run(cs("8H 9H 10H JH"), 0) is None
    assert as_run(cs("8H 9H 10H JH QS"), 0) is None


def test_best_sequence_length_then_top_then_trump_then_primaute():
    a = runs_of(m("2H 3H 4H 5H 6H 7H"), seat=1)[0]         # sixième au 7
    b = runs_of(m("9S 10S JS QS KS"), seat=2)[0]           # quinte majeure
    assert best_sequence([b, a], (1, 2, 3, 0), SPADES) is a  # more cards first
    c = runs_of(m("8D 9D 10D JD QD"), seat=3)[0]           # quinte à la dame
    d = runs_of(m("9C 10C JC QC KC"), seat=0)[0]           # quinte au roi
    assert best_sequence([c, d], (1, 2, 3, 0), SPADES) is d  # higher top card
    e = runs_of(m("9H 10H JH QH KH"), seat=3)[0]
    assert best_sequence([d, e], (1, 2, 3, 0), HEARTS) is e  # trump
    assert best_sequence([d, e], (1, 2, 3, 0), SPADES) is e  # primauté: seat 3 speaks before seat 0
    assert best_sequence([e, d], (0, 1, 2, 3), SPADES) is d


def test_point_values_ace_one_figures_ten():
    from rules.imperiale import point_of
    assert point_of(m("AH KH QH 2H 7H"), POINT_VALUES) == (5, 1 + 10 + 10 + 2 + 7)


# -- records -----------------------------------------------------------------------------------------

def full_suit(suit: str) -> str:
    return " ".join(f"{r}{suit}" for r in ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"])


HANDS4 = [full_suit("C"), full_suit("S"), full_suit("H"), full_suit("D")]   # dealer 0; talon: the four aces


def record(*, players=4, hands=HANDS4, turn_up="AS", tricks=None, announcements=None, options=None, dealer=0):
    deal = {"dealer": dealer, "turn_up": turn_up}
    if hands is not None:
        deal["hands"] = [h.split() if isinstance(h, str) else h for h in hands]
    if tricks is not None:
        deal["tricks"] = [t.split() for t in tricks]
    if announcements is not None:
        deal["announcements"] = announcements
    return {"format": "levee.deal/1", "game": "vingt-quatre", "options": {"players": players, **(options or {})},
            "players": ["Ana", "Bruno", "Chloé", "David", "Émile"][:players], **deal}


def found(data):
    return [(v.rule, v.seat) for v in replay(data).violations]


def test_four_players_twelve_cards_talon_four():
    result = replay(record())
    assert result.violations == []
    rules_ = result.deals[0].rules
    assert (rules_.hand_size, rules_.talon_size, rules_.tricks_per_deal) == (12, 4, 12)
    assert rules_.first_leader == 1


def test_five_players_ten_cards_talon_two():
    pack = [format_card(c) for c in FRENCH_52]
    turn_up = pack[50]
    hands = [pack[10 * i:10 * i + 10] for i in range(5)]
    assert replay(record(players=5, hands=hands, turn_up=turn_up)).violations == []
    assert found(record(players=5, hands=hands, turn_up=pack[0])) == [("turn_up_in_hand", 0)]
    short = [h[:] for h in hands]
    short[2] = short[2][:9]
    assert ("wrong_talon_size", None) in found(record(players=5, hands=short, turn_up=turn_up))


def test_honours_conventions():
    figures = replay(record()).deals[0].rules
    assert figures.honours == m("9S 10S JS QS KS") and not figures.retourne_is_honour
    point = replay(record(options={"honours": "point"})).deals[0].rules
    assert point.honours == m("AS 2S 3S 4S 5S") and point.retourne_is_honour
    per_deal = record()
    per_deal["honours"] = "point"
    assert replay(per_deal).deals[0].rules.honours == m("AS 2S 3S 4S 5S")


def test_bad_options():
    with pytest.raises(MalformedRecord) as err:
        replay(record(options={"honours": "aces"}))
    assert err.value.field == "options.honours"
    with pytest.raises(MalformedRecord) as err:
        replay(record(options={"target": 25}))
    assert err.value.field == "options.target"
    with pytest.raises(MalformedRecord) as err:
        replay(record(players=3, hands=None))
    assert err.value.field == "options.players"
    assert replay(record(options={"target_points": 28})).record.options.target == 28


def test_shown_sequences_checked():
    ann = {"sequences": [{"seat": 1, "cards": ["2S", "3S", "4S", "5S", "6S"]},
                         {"seat": 1, "cards": ["8S", "9S", "10S", "JS", "QS"]},   # joined by the 7S he holds
                         {"seat": 2, "cards": ["2S", "3S", "4S", "5S", "6S"]},    # not his
                         {"seat": 3, "cards": ["2D", "3D", "4D", "5D"]}]}         # four cards only
    assert found(record(announcements=ann)) == [("sequences_form_one_run", 1), ("sequence_not_in_hand", 2),
                                                ("not_a_sequence", 3)]


def test_shown_sequences_touching_without_hands():
    ann = {"sequences": [{"seat": 1, "cards": ["2S", "3S", "4S", "5S", "6S"]},
                         {"seat": 1, "cards": ["7S", "8S", "9S", "10S", "JS"]},   # 2..J is one run
                         {"seat": 2, "cards": ["2H", "3H", "4H", "5H", "6H"]},
                         {"seat": 2, "cards": ["8H", "9H", "10H", "JH", "QH"]}]}  # a gap: two sequences
    assert found(record(hands=None, announcements=ann)) == [("sequences_form_one_run", 1)]


def test_point_claim_checked():
    # every hand: 12 cards worth 2+…+10 + 3×10 = 84 → primauté: seat 1
    assert found(record(announcements={"point": {"seat": 1, "count": 12, "value": 84}})) == []
    assert found(record(announcements={"point": {"seat": 2, "count": 12, "value": 84}})) == [("false_point", 2)]
