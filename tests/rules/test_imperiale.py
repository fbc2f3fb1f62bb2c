"""L'Impériale, one deal: card order, the forcing rule (§4.4 rule 18), setup and announcement checks.

Expected values come from RULES.md §4 and seed 001, worked by hand.
"""

from __future__ import annotations

import pytest

from rules.cards import SUIT_MASK, cards_of, format_card, mask_of, parse_card
from rules.errors import MalformedRecord
from rules.forcing import best_position, forcing_requirement
from rules.imperiale import PLAY_ORDER, POINT_VALUES, point_of, point_winner
from rules.replay import replay
from rules.tap import play_position

HEARTS = 1



def m(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def codes(mask: int) -> set[str]:
    return {format_card(c) for c in cards_of(mask)}


def req(hand: str, trick: str, trump: int = HEARTS):
    mask, rule = forcing_requirement(m(hand), cs(trick), trump, PLAY_ORDER.beats)
    return codes(mask), rule


# -- card order and trick winner (§4.1 rule 4; play: R D V As 10 9 8 7) --------------------------------

def test_play_order_puts_the_ace_between_jack_and_ten():
    assert PLAY_ORDER.strength[parse_card("KS")] > PLAY_ORDER.strength[parse_card("JS")]
    assert PLAY_ORDER.strength[parse_card("JS")] > PLAY_ORDER.strength[parse_card("AS")]
    assert PLAY_ORDER.strength[parse_card("AS")] > PLAY_ORDER.strength[parse_card("10S")]


@pytest.mark.parametrize("trick, trump, winner", [
    ("AS KS", HEARTS, 1),          # the king beats the ace in play
    ("KS 7H", HEARTS, 1),          # any trump beats any plain card
    ("10S KD", HEARTS, 0),         # a card of another suit never wins
    ("10S 7H 8H", HEARTS, 2),      # highest trump
    ("JH AH 10S", HEARTS, 0),      # trump led: the jack beats the ace
])
def test_trick_winner(trick, trump, winner):
    assert best_position(cs(trick), trump, PLAY_ORDER.beats) == winner


# -- the forcing rule ------------------------------------------------------------------------------------

def test_follow_and_force_when_able():
    assert req("AS 9S KD 7H", "10S") == ({"AS"}, "must_follow_higher")


def test_follow_without_forcing_when_unable():
    assert req("AS 9S KD 7H", "KS") == ({"AS", "9S"}, "must_follow")


def test_follow_only_once_the_trick_is_trumped():
    # 3 players: spade led, trumped by the second; the third follows with any spade
    assert req("AS 9S KD QH", "10S 9H") == ({"AS", "9S"}, "must_follow")


def test_void_must_trump():
    assert req("8H QH KD", "10S") == ({"8H", "QH"}, "must_trump")


def test_void_must_overtrump_when_able():
    assert req("8H QH KD", "10S 9H") == ({"QH"}, "must_overtrump")


def test_no_undertrump_duty():
    # cannot overtrump the 9: any card, a low trump or a discard
    assert req("8H 7H KD", "10S 9H") == ({"8H", "7H", "KD"}, None)


def test_void_without_trumps_plays_anything():
    assert req("KD 7C", "10S") == ({"KD", "7C"}, None)


def test_trumps_led_go_higher():
    assert req("KH 8H AS", "QH") == ({"KH"}, "must_go_higher")
    # the jack is above the ace in play
    assert req("JH 8H AS", "AH") == ({"JH"}, "must_go_higher")


def test_trumps_led_any_trump_else_anything():
    assert req("8H 7H AS", "QH") == ({"8H", "7H"}, "must_play_trump")
    assert req("AS 7C", "QH") == ({"AS", "7C"}, None)


def test_leader_plays_anything():
    assert req("AS 7C 8H", "") == ({"AS", "7C", "8H"}, None)


# -- the Point (§4.2 rule 8): count, value (As 11, figures 10), primauté ------------------------------

def test_point_of_a_hand():
    # hearts A K 9 8 7: 5 cards, 11 + 10 + 9 + 8 + 7 = 45; spades K Q J A 10 9 8: 7 cards
    assert point_of(m("AH KH 9H 8H 7H"), POINT_VALUES) == (5, 45)
    assert point_of(m("AH KH 9H 8H 7H KS QS"), POINT_VALUES) == (5, 45)
    assert point_of(m("KS QS JS AS 10S 9S 8S"), POINT_VALUES) == (7, 10 + 10 + 10 + 11 + 10 + 9 + 8)
    # two suits of five: the better value is the Point
    assert point_of(m("AH KH 9H 8H 7H 10S 9S 8S 7S JS"), POINT_VALUES) == (5, 45)


def test_point_count_beats_value():
    hands = [m("7S 8S 9S 10S 7D 8D"), m("AH KH QH JH 9C")]
    # seat 0: 4 spades (34); seat 1: 4 hearts (41) — equal count, value decides
    assert point_winner(hands, (1, 0), POINT_VALUES).seat == 1
    hands = [m("7S 8S 9S 10S 7D"), m("AH KH QH 9C")]
    assert point_winner(hands, (1, 0), POINT_VALUES).seat == 0


def test_point_tie_goes_to_primaute():
    hands = [m("AH KH QH"), m("AS KS QS")]
    assert point_winner(hands, (1, 0), POINT_VALUES).seat == 1
    assert point_winner(hands, (0, 1), POINT_VALUES).seat == 0


# -- records: setup and announcements --------------------------------------------------------------

# Seat 1 (first hand): spades K Q J A 10 9 and hearts K Q J A 10 9 — two quatrièmes majeures.
# Seat 0 (dealer): 8S 7S 8H 7H and the eight diamonds. Talon: the eight clubs.
SEAT1 = "KS QS JS AS 10S 9S KH QH JH AH 10H 9H"
SEAT0 = "8S 7S 8H 7H KD QD JD AD 10D 9D 8D 7D"
TRICKS = ["KS 8S", "QS 7S", "JS KD", "AS QD", "10S JD", "9S AD", "KH 8H", "QH 7H", "JH 10D", "AH 9D",
          "10H 8D", "9H 7D"]


def record(*, dealer=0, hands=(SEAT0, SEAT1), turn_up="9C", tricks=TRICKS, announcements=None, options=None,
           players=2):
    deal = {"dealer": dealer, "turn_up": turn_up}
    if hands is not None:
        deal["hands"] = [h.split() for h in hands]
    if tricks is not None:
        deal["tricks"] = [t.split() for t in tricks]
    if announcements is not None:
        deal["announcements"] = announcements
    return {"format": "levee.deal/1", "game": "imperiale", "options": {"players": players, **(options or {})},
            "players": ["Ana", "Bruno", "Chloé"][:players], **deal}


def rules_of(data):
    return [v.rule for v in replay(data).violations]


def test_a_legal_deal_replays_without_violation():
    result = replay(record())
    assert result.violations == []
    assert result.deals[0].complete
    assert result.deals[0].tricks_won(2) == [0, 12]


def test_trump_comes_from_the_retourne():
    assert replay(record()).deals[0].rules.trump == 3  # clubs


def test_turn_up_is_required():
    data = record()
    del data["turn_up"]
    with pytest.raises(MalformedRecord) as err:
        replay(data)
    assert err.value.field == "turn_up"


def test_turn_up_in_a_hand_at_two_players():
    assert "turn_up_in_hand" in rules_of(record(turn_up="7D"))


def test_wrong_hand_size_and_talon():
    found = rules_of(record(hands=(SEAT0 + " 9C", SEAT1), tricks=None))
    assert "wrong_hand_size" in found and "wrong_talon_size" in found


def test_an_illegal_card_is_found_at_its_trick_and_seat():
    # trick 2: seat 0 discards KD on QS while holding 7S (must follow), then plays 7S at trick 3
    tricks = ["KS 8S", "QS KD", "JS 7S", *TRICKS[3:]]
    found = replay(record(tricks=tricks)).violations
    assert [(v.rule, v.trick, v.seat, format_card(v.card)) for v in found] == [("must_follow", 1, 0, "KD")]


def test_the_same_revoke_is_proved_without_hands():
    tricks = ["KS 8S", "QS KD", "JS 7S", *TRICKS[3:]]
    found = replay(record(hands=None, tricks=tricks)).violations
    assert [(v.rule, v.trick, v.seat) for v in found] == [("revoke", 1, 0)]


def test_force_is_checked():
    # seat 0 must beat a spade when able: give him the KS
    hands = ("KS 7S 8H 7H KD QD JD AD 10D 9D 8D 7D", "8S QS JS AS 10S 9S KH QH JH AH 10H 9H")
    tricks = ["10S 7S"]  # seat 0 holds KS, which beats the 10: must force
    found = replay(record(hands=hands, tricks=tricks)).violations
    assert [(v.rule, v.trick, v.seat, format_card(v.card)) for v in found] == [("must_follow_higher", 0, 0, "7S")]


def test_imperiales_shown_are_checked_against_the_hand():
    ann = {"imperiales": [{"seat": 1, "cards": ["AS", "KS", "QS", "JS"]},
                          {"seat": 0, "cards": ["AH", "KH", "QH", "JH"]},
                          {"seat": 1, "cards": ["AH", "KH", "QH", "10H"]}]}
    found = replay(record(announcements=ann)).violations
    assert [(v.rule, v.seat) for v in found] == [("imperiale_not_in_hand", 0), ("not_an_imperiale", 1)]


def test_same_impériale_shown_twice():
    ann = {"imperiales": [{"seat": 1, "cards": ["AS", "KS", "QS", "JS"]},
                          {"seat": 1, "cards": ["JS", "QS", "KS", "AS"]}]}
    assert rules_of(record(announcements=ann)) == ["imperiale_claimed_twice"]


def test_false_cartes_blanches():
    assert rules_of(record(tricks=None, announcements={"cartes_blanches": [1]})) == ["false_cartes_blanches"]


def test_cartes_blanches_deal_is_not_played():
    with pytest.raises(MalformedRecord) as err:
        replay(record(announcements={"cartes_blanches": [1]}))
    assert err.value.field == "tricks"
    assert replay(record(tricks=None, announcements={"cartes_blanches": [1]})).deals[0].complete


def test_point_claim_checked():
    # seat 0 holds eight diamonds: 8 cards, 10+10+10+11+10+9+8+7 = 75
    assert rules_of(record(announcements={"point": {"seat": 0, "count": 8, "value": 75}})) == []
    assert rules_of(record(announcements={"point": {"seat": 0, "count": 8}})) == []
    assert rules_of(record(announcements={"point": {"seat": 0, "count": 8, "value": 74}})) == ["false_point"]
    assert rules_of(record(announcements={"point": {"seat": 1, "count": 6}})) == ["false_point"]


def test_impériale_de_retourne_needs_the_option_and_the_dealer():
    # dealer 0 holds KS KH KD; the retourne KC completes the carré of kings
    hands = ("KS KH KD 7S 8H 7H QD JD AD 10D 9D 8D", "8S QS JS AS 10S 9S QH JH AH 10H 9H 7D")
    ann = {"imperiales": [{"seat": 0, "cards": ["KS", "KH", "KD"]}]}
    on = replay(record(hands=hands, turn_up="KC", tricks=None, announcements=ann,
                       options={"imperiale_de_retourne": True}))
    assert on.violations == []
    assert on.deals[0].rules.announcements.imperiales[0].kind == "retourne"
    off = replay(record(hands=hands, turn_up="KC", tricks=None, announcements=ann))
    assert [v.rule for v in off.violations] == ["not_an_imperiale"]


def test_carre_of_sevens_at_two_and_sixes_at_three():
    from rules.imperiale import imperiale_kind
    assert imperiale_kind(cs("7S 7H 7D 7C"), trump=0, players=2) == ("carre", 1)
    assert imperiale_kind(cs("6S 6H 6D 6C"), trump=0, players=3) == ("carre", 1)
    assert imperiale_kind(cs("7S 7H 7D 7C"), trump=0, players=3) == ("", 0)
    assert imperiale_kind(cs("10S 10H 10D 10C"), trump=0, players=2) == ("", 0)
    assert imperiale_kind(cs("AH KH QH JH"), trump=1, players=2) == ("quatrieme_majeure", 2)
    assert imperiale_kind(cs("AH KH QH JH"), trump=0, players=2) == ("quatrieme_majeure", 1)


# -- three players ------------------------------------------------------------------------------------

HANDS3 = ("6S 7S 8S 9S 10S AS JS QS KS 6H 7H 8H",   # dealer 0; his last card 8H fixes trump
          "9H 10H AH JH QH KH 6D 7D 8D 9D 10D AD",
          "JD QD KD 6C 7C 8C 9C 10C AC JC QC KC")


def test_three_players_turn_up_is_the_dealers_card():
    assert rules_of(record(players=3, hands=HANDS3, turn_up="8H", tricks=None)) == []
    assert rules_of(record(players=3, hands=HANDS3, turn_up="9H", tricks=None)) == ["turn_up_not_with_dealer"]


def test_three_players_first_lead_trump_option():
    # seat 1 leads; he holds hearts (trump)
    assert rules_of(record(players=3, hands=HANDS3, turn_up="8H", tricks=["6D"])) == []
    found = replay(record(players=3, hands=HANDS3, turn_up="8H", tricks=["6D"],
                          options={"first_lead_trump_at_3": True})).violations
    assert [(v.rule, v.trick, v.seat) for v in found] == [("must_lead_trump", 0, 1)]


def test_three_players_pack_has_the_sixes():
    deal = replay(record(players=3, hands=HANDS3, turn_up="8H", tricks=None)).deals[0]
    assert len(deal.rules.pack) == 36
    assert deal.rules.honours == mask_of(cs("AH KH QH JH 6H"))
    assert SUIT_MASK[1] & deal.rules.honours == deal.rules.honours


@pytest.mark.parametrize("later, code, words", [
    # Ana discards KD on Bruno's QS, then plays a club (the trump, 9C turned) on his JS: she held a trump and
    # neither followed nor trumped — the sentence names the trump, never « sans fournir à pique » with a club
    ("7C", "revoke_trump", "a joué le roi de carreau sans couper alors que sa main contenait le 7 de trèfle"),
    # … or a spade: she did not follow
    ("7S", "revoke", "a joué le roi de carreau sans fournir à pique alors que sa main contenait le 7 de pique"),
])
def test_a_revoke_is_named_by_the_card_that_proves_it(later, code, words):
    found = replay(record(hands=None, tricks=["KS 8S", "QS KD", f"JS {later}"])).violations
    assert [(v.rule, v.trick, v.seat, format_card(v.card)) for v in found] == [(code, 1, 0, "KD")]
    assert words in found[0].message("fr", ["Ana", "Bruno"])


# One discard, two later proofs (hands unknown). Ana discards K♦ on Bruno's Q♠ at trick 2 (clubs are trumps, 9♣
# turned). A spade she plays later proves she could follow: that is the fault, « sans fournir à pique ». A club
# proves only that she could trump *if* she had no spade: once a spade shows she had one, the club proves nothing
# (she had no duty to trump), and it never makes a second fault of the same play.
FOLLOW_WORDS = "a joué le roi de carreau sans fournir à pique alors que sa main contenait le 7 de pique"


@pytest.mark.parametrize("tricks", [
    # the club first (she trumps Bruno's J♠ and leads the 7♠), then the spade
    ["KS 8S", "QS KD", "JS 7C", "7S 9S"],
    # the spade first (she follows Bruno's J♠), then the club (she trumps his 8♥)
    ["KS 8S", "QS KD", "JS 7S", "8H 7C"],
])
def test_a_revoke_proved_twice_is_one_fault_named_by_the_suit_led(tricks):
    found = replay(record(hands=None, tricks=tricks)).violations
    assert [(v.rule, v.trick, v.seat, format_card(v.card)) for v in found] == [("revoke", 1, 0, "KD")]
    assert FOLLOW_WORDS in found[0].message("fr", ["Ana", "Bruno"])


def test_once_she_is_shown_to_hold_the_suit_led_a_trump_is_no_longer_forbidden():
    # after « JS 7S » Bruno leads 8♥: Ana's 7♣ is a plain trump on a heart, not a proof of trick 2's fault
    position = play_position(record(hands=None, tricks=["KS 8S", "QS KD", "JS 7S", "8H"]))
    assert position.seat == 0
    assert "7C" in {format_card(c) for c in position.playable}
    assert [(v.rule, v.trick) for v in position.violations] == [("revoke", 1)]


def test_a_second_card_of_the_suit_led_adds_no_fault():
    # 7♠ then 9♠ both prove trick 2's discard: one fault
    found = replay(record(hands=None, tricks=["KS 8S", "QS KD", "JS 7S", "8H 10H", "9S AS"])).violations
    assert [(v.rule, v.trick, v.seat) for v in found] == [("revoke", 1, 0)]
