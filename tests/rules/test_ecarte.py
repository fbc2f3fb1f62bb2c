"""L'Écarté: legality (RULES.md §3.3 rule 10 at 2 players, Triomphe forcée at 3 and 4, A-E7/A-E8),
the exchange (§3.2, A-E4) and its record, the king field (A-E1).
"""

from __future__ import annotations

import itertools
import random

import pytest

from rules.cards import HEARTS, PIQUET_32, SUIT, SUIT_MASK, cards_of, format_card, mask_of, parse_card
from rules.errors import MalformedRecord
from rules.replay import replay
from rules.triomphe import ORDER_1725, forcee_requirement


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def record(**fields):
    base = {"format": "levee.deal/1", "game": "ecarte", "players": ["A", "B"], "dealer": 1, "turn_up": "9H"}
    base.update(fields)
    return base


HANDS = [["KS", "QS", "7H", "8D", "AC"], ["JS", "10S", "KH", "9D", "7C"]]
# the talon (21 cards), from the top
TALON = ["KD", "QD", "JD", "AD", "10D", "7D", "QH", "JH", "AH", "10H", "8H",
         "AS", "9S", "8S", "7S", "KC", "QC", "JC", "10C", "9C", "8C"]
PLAY = [{"seat": 0, "action": "play"}]


def found(data) -> list[tuple[str, int | None, int | None]]:
    return [(v.rule, v.trick, v.seat) for v in replay(data).violations]


# -- legality ---------------------------------------------------------------------------------------

def rule_10(hand: int, led: int | None, trump: int) -> int:
    """§3.3 rule 10, written out from the seed: follow, beating the led card if able; else trump."""
    if led is None:
        return hand
    same = [c for c in cards_of(hand) if SUIT[c] == SUIT[led]]
    if same:
        higher = [c for c in same if ORDER_1725.strength[c] > ORDER_1725.strength[led]]
        return mask_of(higher or same)
    trumps = hand & SUIT_MASK[trump]
    return trumps or hand


def test_two_player_legality_is_rule_10_on_random_hands() -> None:
    rng = random.Random(20240601)
    for _ in range(3000):
        cards = rng.sample(PIQUET_32, 6)
        led, hand = cards[0], mask_of(cards[1:])
        trump = rng.randrange(4)
        assert forcee_requirement(hand, [led], trump, ORDER_1725)[0] == rule_10(hand, led, trump)


@pytest.mark.parametrize(("hand", "led", "expected", "rule"), [
    # must beat when following: K♠ beats Q♠
    ("KS 7S 9H", "QS", {"KS"}, "must_follow_higher"),
    # cannot beat: any spade
    ("8S 7S 9H", "QS", {"8S", "7S"}, "must_follow"),
    # the Ace sits between the Jack and the 10: A♠ beats 10♠ but not J♠
    ("AS 7S 9H", "10S", {"AS"}, "must_follow_higher"),
    ("AS 7S 9H", "JS", {"AS", "7S"}, "must_follow"),
    # must beat also in trumps
    ("KH 7H AS", "9H", {"KH"}, "must_go_higher"),
    # void: must trump
    ("7H 8H 7D", "QS", {"7H", "8H"}, "must_trump"),
])
def test_two_player_positions(hand, led, expected, rule) -> None:
    mask, code = forcee_requirement(mask_of(cs(hand)), cs(led), HEARTS, ORDER_1725)
    assert ({format_card(c) for c in cards_of(mask)}, code) == (expected, rule)


def test_must_beat_when_following_in_a_record() -> None:
    # A leads Q♠; B holds J♠ 10♠ (neither beats the Queen) → any spade; K♠ led: same
    assert found(record(hands=HANDS, exchanges=PLAY, tricks=[["QS", "10S"]])) == []
    # A leads 8♦; B holds 9♦, which beats it: B must play it (neither trump nor anything else)
    assert found(record(hands=HANDS, exchanges=PLAY, tricks=[["8D", "KH"]])) == [("must_follow_higher", 0, 1)]
    assert found(record(hands=HANDS, exchanges=PLAY, tricks=[["8D", "9D"]])) == []


def test_four_players_must_undertrump() -> None:
    # partners 0-2 and 1-3; dealer 3, seat 0 leads Q♠; seat 1 trumps with K♥; seat 2 is void in ♠ and holds
    # only the 7♥ as trump: forcée → must under-trump (§3.7: even if one cannot overtrump)
    hands = [["QS", "8S", "7D", "8C", "9C"], ["KH", "7S", "KD", "QD", "JD"],
             ["7H", "AD", "10D", "KC", "QC"], ["9S", "10S", "JS", "AS", "KS"]]
    base = record(players=["A", "B", "C", "D"], dealer=3, hands=hands)
    assert found({**base, "tricks": [["QS", "KD"]]}) == [("must_follow", 0, 1)]
    assert found({**base, "tricks": [["QS", "7S", "AD"]]}) == [("must_trump", 0, 2)]
    # now seat 1 has no spade (8♥ instead of 7♠): it trumps with K♥, and seat 2 must under-trump
    hands[1] = ["KH", "8H", "KD", "QD", "JD"]
    base = record(players=["A", "B", "C", "D"], dealer=3, hands=hands)
    assert found({**base, "tricks": [["QS", "KH", "AD"]]}) == [("must_undertrump", 0, 2)]
    assert found({**base, "tricks": [["QS", "KH", "7H", "KS"]]}) == []


def test_three_players_forcee_heading_and_overtrump() -> None:
    hands = [["QS", "8S", "7D", "8C", "9C"], ["KS", "7S", "KD", "QD", "JD"], ["8H", "AH", "10D", "KC", "QC"]]
    base = record(players=["A", "B", "C"], dealer=2, hands=hands,
                  exchanges=[{"seat": 0, "action": "play"}])
    # B must head the Queen with the King
    assert found({**base, "tricks": [["QS", "7S"]]}) == [("must_follow_higher", 0, 1)]
    # C void in spades: must trump; after B's K♠ (no trump yet) any trump
    assert found({**base, "tricks": [["QS", "KS", "10D"]]}) == [("must_trump", 0, 2)]
    assert found({**base, "tricks": [["QS", "KS", "8H"]]}) == []


# -- the exchange -----------------------------------------------------------------------------------

def test_exchange_changes_the_hands_at_the_first_lead() -> None:
    steps = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
             {"seat": 0, "action": "exchange", "discards": ["8D", "AC"], "draws": ["KD", "QD"]},
             {"seat": 1, "action": "exchange", "discards": ["7C"], "draws": ["JD"]}]
    r = replay(record(hands=HANDS, talon=TALON, exchanges=steps))
    assert r.violations == []
    deal = r.deals[0]
    assert {format_card(c) for c in cards_of(deal.start[0])} == {"KS", "QS", "7H", "KD", "QD"}
    assert {format_card(c) for c in cards_of(deal.start[1])} == {"JS", "10S", "KH", "9D", "JD"}
    assert deal.rules.exchanged and deal.rules.decliner is None
    # draws may be left out when the talon is known
    no_draws = [{**s, "draws": None} if s["action"] == "exchange" else s for s in steps]
    r2 = replay(record(hands=HANDS, talon=TALON, exchanges=no_draws))
    assert r2.violations == [] and r2.deals[0].start == deal.start
    # a discarded card cannot be played
    assert found(record(hands=HANDS, talon=TALON, exchanges=steps, tricks=[["AC"]])) == [("not_in_hand", 0, 0)]


def test_exchange_violations() -> None:
    def steps(first, second=None):
        out = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
               {"seat": 0, "action": "exchange", **first}]
        if second:
            out.append({"seat": 1, "action": "exchange", **second})
        return out

    # the first hand must discard at least one card (A-E4)
    assert found(record(hands=HANDS, exchanges=steps({"discards": [], "draws": []}))) == [
        ("exchange_must_discard", None, 0)]
    # a discard not in hand
    assert found(record(hands=HANDS, exchanges=steps({"discards": ["JS"], "draws": ["KD"]})))[0] == (
        "exchange_discard_not_in_hand", None, 0)
    # the retourne is never drawn
    assert ("exchange_draws_turn_up", None, 0) in found(
        record(hands=HANDS, exchanges=steps({"discards": ["8D"], "draws": ["9H"]})))
    # drawing out of the talon's order
    assert found(record(hands=HANDS, talon=TALON, exchanges=steps({"discards": ["8D"], "draws": ["QD"]}))) == [
        ("exchange_draw_out_of_order", None, 0)]
    # a drawn card that was dealt to the other player
    assert ("duplicate_card", None, 0) in found(
        record(hands=HANDS, exchanges=steps({"discards": ["8D"], "draws": ["JS"]})))
    # counts must match
    assert ("exchange_draw_count", None, 0) in found(
        record(hands=HANDS, exchanges=steps({"discards": ["8D", "AC"], "draws": ["KD"]})))


def test_talon_is_never_exceeded() -> None:
    # 21 cards in the talon: five rounds of 5 cards for the first hand would need 25
    steps: list[dict] = []
    hands = [h[:] for h in HANDS]
    talon = TALON[:]
    hand = hands[0][:]
    for _ in range(5):
        draws = talon[:5]
        talon = talon[5:]
        steps += [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
                  {"seat": 0, "action": "exchange", "discards": hand, "draws": draws or None}]
        hand = draws
    r = found(record(hands=hands, talon=TALON, exchanges=steps))
    assert ("exchange_talon_exceeded", None, 0) in r


@pytest.mark.parametrize(("steps", "field"), [
    ([{"seat": 1, "action": "play"}], "exchanges[0]"),  # only the first hand plays d'autorité
    ([{"seat": 0, "action": "propose"}], "exchanges"),  # the dealer must answer
    ([{"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}, {"seat": 0, "action": "propose"}],
     "exchanges[2]"),  # the play has started
    ([{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"}, {"seat": 1, "action": "exchange",
                                                                         "discards": [], "draws": []}],
     "exchanges[2]"),  # the first hand exchanges first
    ([{"seat": 0, "action": "jump"}], "exchanges[0].action"),
    ([], "exchanges"),
])
def test_exchange_grammar(steps, field) -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(exchanges=steps))
    assert info.value.field == field


def test_exchanges_required_with_tricks() -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(tricks=[["KS", "JS"]]))
    assert info.value.field == "exchanges"
    # four players: no exchange (A-E8); a proposal is malformed
    four = record(players=["A", "B", "C", "D"], dealer=3, tricks=[["KS"]])
    assert replay(four).violations == []
    with pytest.raises(MalformedRecord):
        replay({**four, "exchanges": [{"seat": 0, "action": "propose"}]})


@pytest.mark.parametrize(("steps", "decliner", "exchanged"), [
    ([{"seat": 0, "action": "play"}], 0, False),  # d'autorité: the first hand declined
    ([{"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}], 1, False),  # the dealer refused
    ([{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
      {"seat": 0, "action": "exchange", "discards": ["8D"]},
      {"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}], None, True),  # later refusal: nothing
])
def test_who_declined(steps, decliner, exchanged) -> None:
    deal = replay(record(talon=TALON, exchanges=steps)).deals[0]
    assert deal.rules.decliner == decliner
    assert deal.rules.exchanged == exchanged


def test_three_players_consent_in_turn() -> None:
    three = record(players=["A", "B", "C"], dealer=2)
    ok = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"}, {"seat": 2, "action": "refuse"}]
    assert replay({**three, "exchanges": ok}).deals[0].rules.decliner == 2
    with pytest.raises(MalformedRecord):  # seat 2 cannot answer before seat 1
        replay({**three, "exchanges": [{"seat": 0, "action": "propose"}, {"seat": 2, "action": "accept"}]})


def test_king_field() -> None:
    deal = replay(record(king={"seat": 1, "trick": None})).deals[0]
    assert deal.rules.king.in_time
    assert not replay(record(king={"seat": 1, "trick": 2})).deals[0].rules.king.in_time
    with pytest.raises(MalformedRecord) as info:
        replay(record(king={"seat": 3, "trick": 0}))
    assert info.value.field == "king.seat"


@pytest.mark.parametrize(("options", "field"), [
    ({"target": "seven"}, "options.target"),
    ({"target": 0}, "options.target"),
    ({"partie_liee": "yes"}, "options.partie_liee"),
    ({"false_king_penalty": 1}, "options.false_king_penalty"),
])
def test_bad_options(options, field) -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(options=options))
    assert info.value.field == field


def test_setup_checks() -> None:
    assert found(record(hands=HANDS, turn_up="KH")) == [("duplicate_card", None, 1)]
    assert found(record(hands=HANDS, talon=TALON[:5])) == [("wrong_talon_size", None, None)]
    short = [HANDS[0][:4], HANDS[1]]
    assert found(record(hands=short)) == [("wrong_hand_size", None, 0)]


def test_every_two_card_trick_winner() -> None:
    # highest trump, else highest of the suit led — exhaustively over two-card tricks
    from rules.ecarte import ECARTE

    rules = ECARTE.deal_rules(ECARTE.parse_options({"players": 2}), {"dealer": 1, "turn_up": "9H"},
                              players=2, field="")
    for a, b in itertools.permutations(PIQUET_32, 2):
        if SUIT[b] == SUIT[a]:
            expected = 1 if ORDER_1725.strength[b] > ORDER_1725.strength[a] else 0
        else:
            expected = 1 if SUIT[b] == HEARTS else 0
        assert rules.winner([a, b], 0, 0, []) == expected


@pytest.mark.parametrize(("code", "value"), [("KH", 10), ("QS", 10), ("JD", 10), ("AC", 11), ("10H", 10),
                                             ("9S", 9), ("7D", 7)])
def test_target_of_a_retourne(code: str, value: int) -> None:
    from rules.ecarte import retourne_value

    assert retourne_value(parse_card(code)) == value
