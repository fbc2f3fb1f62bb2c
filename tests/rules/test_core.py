"""The common play machinery (rules.play, rules.replay, rules.record) on a toy follow-suit game.

The toy game: two players, piquet pack, follow suit if you can, highest card of the suit led wins.
"""

from __future__ import annotations

import pytest

from rules.cards import PIQUET_32, SUIT, SUIT_MASK, CardOrder, mask_of, parse_card, rank_order
from rules.errors import MalformedRecord, RuleViolation
from rules.game import DealRules, Setup
from rules.play import DealState
from rules.record import DealInput, read_cards
from rules.replay import replay_deal

ORDER = CardOrder.from_ranks(rank_order("A K Q J 10 9 8 7"))


class FollowSuit(DealRules):
    seats = (1, 0)
    tricks_per_deal = 3
    hand_size = 3
    pack = PIQUET_32
    pack_mask = mask_of(PIQUET_32)
    order = ORDER
    trump = None
    first_leader = 1

    def requirement(self, hand, trick, trick_no, seat):
        if not trick:
            return hand, None
        same = SUIT_MASK[SUIT[trick[0]]] & hand
        return (same, "must_follow") if same else (hand, None)

    def winner(self, trick, trick_no, leader, winners):
        led = SUIT[trick[0]]
        return max(range(len(trick)), key=lambda i: ORDER.strength[trick[i]] if SUIT[trick[i]] == led else -1)

    def setup(self, dealt):
        return Setup(dealt)


def cards(*codes: str) -> list[int]:
    return [parse_card(x) for x in codes]


HANDS = [cards("AS", "7H", "8D"), cards("KS", "8H", "9D")]  # seat 0 is the dealer, seat 1 leads


def deal(tricks, hands=HANDS) -> DealInput:
    return DealInput(0, "", 0, hands, [cards(*t) for t in tricks], {})


def test_a_legal_deal_finds_every_winner() -> None:
    # 1: Bruno (seat 1) leads KS, Ana AS wins. 2: Ana leads 7H, Bruno 8H wins. 3: Bruno 9D, Ana 8D: Bruno.
    result = replay_deal(FollowSuit(), deal([["KS", "AS"], ["7H", "8H"], ["9D", "8D"]]), players=2)
    assert result.violations == ()
    assert [t.winner for t in result.tricks] == [0, 1, 1]
    assert result.tricks_won(2) == [1, 2]
    assert result.complete


def test_failing_to_follow_is_reported_at_the_trick_seat_and_card() -> None:
    result = replay_deal(FollowSuit(), deal([["KS", "7H"], ["AS", "8H"], ["9D", "8D"]]), players=2)
    first = result.violations[0]
    assert (first.rule, first.trick, first.seat, first.card) == ("must_follow", 0, 0, parse_card("7H"))
    assert "doit fournir à pique" in first.message("fr", ["Ana", "Bruno"])
    assert first.message("fr", ["Ana", "Bruno"]).startswith("Pli 1 : Ana")
    assert "must follow spades" in first.message("en", ["Ana", "Bruno"])


def test_a_card_from_another_hand_is_not_in_hand() -> None:
    result = replay_deal(FollowSuit(), deal([["AS", "KS"], ["7H", "8H"], ["9D", "8D"]]), players=2)
    rules = {(v.rule, v.trick, v.seat) for v in result.violations}
    assert ("not_in_hand", 0, 1) in rules


def test_without_hands_a_revoke_is_proved_by_a_later_card() -> None:
    # Ana discards 7H on the spade lead, then plays AS at trick 2: she held a spade at trick 1.
    result = replay_deal(FollowSuit(), deal([["KS", "7H"], ["8H", "AS"], ["9D", "8D"]], hands=None), players=2)
    assert [(v.rule, v.trick, v.seat, v.card) for v in result.violations] == [("revoke", 0, 0, parse_card("7H"))]
    assert "hands" in result.unchecked


def test_without_hands_a_card_played_twice_is_found() -> None:
    result = replay_deal(FollowSuit(), deal([["KS", "AS"], ["7H", "KS"]], hands=None), players=2)
    assert [(v.rule, v.trick, v.seat) for v in result.violations] == [("card_played_twice", 1, 1)]
    # the sentence names the trick and who played the card again (Bruno, seat 1)
    assert result.violations[0].message("fr", ["Ana", "Bruno"]) == \
        "Pli 2 : Bruno joue le roi de pique une seconde fois : cette carte a déjà été jouée au pli 1."
    assert result.violations[0].message("fr") == \
        "Pli 2 : le joueur 2 joue le roi de pique une seconde fois : cette carte a déjà été jouée au pli 1."
    assert result.violations[0].message("en", ["Ana", "Bruno"]) == \
        "Trick 2: Bruno plays the king of spades a second time: it was already played at trick 1."
    assert not result.complete


def test_verify_can_play_triplet() -> None:
    state = DealState(FollowSuit(), [mask_of(h) for h in HANDS])
    assert set(state.legal_cards()) == set(cards("KS", "8H", "9D"))
    state.play(parse_card("KS"))
    assert state.can_play(parse_card("AS"))
    assert not state.can_play(parse_card("7H"))
    with pytest.raises(RuleViolation) as raised:
        state.verify_play(parse_card("7H"))
    assert raised.value.violation.rule == "must_follow"
    record = state.play(parse_card("AS"))
    assert (record.trick, record.seat) == (0, 0)
    assert state.tricks[0].winner == 0 and state.seat_to_play == 0


def test_duplicate_dealt_card_is_a_violation() -> None:
    hands = [cards("AS", "7H", "8D"), cards("AS", "8H", "9D")]
    result = replay_deal(FollowSuit(), deal([], hands=hands), players=2)
    assert ("duplicate_card", 1) in {(v.rule, v.seat) for v in result.violations}


def test_an_oversized_trick_is_malformed_and_named() -> None:
    with pytest.raises(MalformedRecord) as raised:
        replay_deal(FollowSuit(), deal([["KS", "AS", "7H"]]), players=2)
    assert raised.value.field == "tricks[0]"


def test_card_codes_errors_name_the_position() -> None:
    with pytest.raises(MalformedRecord) as raised:
        read_cards(["KS", "1S"], "deals[2].tricks[3]")
    assert raised.value.field == "deals[2].tricks[3][1]"
