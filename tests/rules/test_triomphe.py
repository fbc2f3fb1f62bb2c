"""La Triomphe: legality of forcée / au forçat / au plaisant (RULES.md §2.3), the card orders (A-R1),
the trick winner (§2.4), the setup checks and the As qui pille pillage (§2.5, A-R7).

Expected sets of legal cards are worked out by hand from the seed's wording (S000 §3.1).
"""

from __future__ import annotations

import pytest

from rules.cards import HEARTS, cards_of, format_card, mask_of, parse_card
from rules.errors import MalformedRecord
from rules.replay import replay
from rules.triomphe import (
    ORDER_1725,
    ORDER_PIQUET,
    forcat_requirement,
    forcee_requirement,
    plaisant_requirement,
    trick_winner,
)


def cs(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def legal(mode: str, hand: str, trick: str, *, trump: int = HEARTS, order=ORDER_1725,
          players: int = 3) -> tuple[set[str], str | None]:
    h = mask_of(cs(hand))
    t = cs(trick)
    if mode == "forcee":
        mask, rule = forcee_requirement(h, t, trump, order)
    elif mode == "forcat":
        mask, rule = forcat_requirement(h, t, trump, order)
    else:
        mask, rule = plaisant_requirement(h, t, trump, order, players)
    return {format_card(c) for c in cards_of(mask)}, rule


# -- forcée ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("hand", "trick", "expected", "rule"), [
    # leading: anything
    ("KS 7S 9H", "", {"KS", "7S", "9H"}, None),
    # follow and head in the suit led (no trump in the trick): K beats Q
    ("KS 7S 9H", "QS", {"KS"}, "must_follow_higher"),
    # 1725 order: the Ace is below the Jack, so A♠ does not head J♠
    ("AS 7S 9H", "JS", {"AS", "7S"}, "must_follow"),
    # void in the suit led: must trump, any trump
    ("9H 7H 7D", "QS", {"9H", "7H"}, "must_trump"),
    # trick already trumped: follow suit with any card of it, no duty to head (A-R3)
    ("KS 7S AH", "QS 7H", {"KS", "7S"}, "must_follow"),
    # trick trumped, void: overtrump if able (A♥ beats 9♥ in the 1725 order)
    ("AH 8H 7D", "QS 9H", {"AH"}, "must_overtrump"),
    # trick trumped, void, cannot overtrump: must under-trump (A-R2)
    ("8H 7D", "QS 9H", {"8H"}, "must_undertrump"),
    # void and no trump: any card
    ("7D 8C", "QS 9H", {"7D", "8C"}, None),
    # trump led: go higher if able
    ("KH 7H AS", "9H", {"KH"}, "must_go_higher"),
    # trump led, only lower trumps: any trump
    ("7H 8H AS", "9H", {"7H", "8H"}, "must_follow"),
    # trump led, no trump: anything
    ("AS 7D", "9H", {"AS", "7D"}, None),
    # heading is against the best card of the suit led, not the first one
    ("QS 7S 7D", "10S KS", {"QS", "7S"}, "must_follow"),
    ("KS 7S", "10S QS", {"KS"}, "must_follow_higher"),
])
def test_forcee(hand: str, trick: str, expected: set[str], rule: str | None) -> None:
    assert legal("forcee", hand, trick) == (expected, rule)


# -- au forçat: make oneself master whenever possible --------------------------------------------

@pytest.mark.parametrize(("hand", "trick", "expected", "rule"), [
    ("KS 7S 9H", "QS", {"KS"}, "must_follow_higher"),
    # cannot head in the suit led but holds a trump: must trump, even holding lower cards of the suit
    ("7S 8H", "QS", {"8H"}, "must_trump_to_win"),
    # cannot head, no trump: a card of the suit led
    ("7S 8D", "QS", {"7S"}, "must_follow"),
    # void in the suit led: trump
    ("8H 8D", "QS", {"8H"}, "must_trump"),
    # trick trumped: overtrump even while holding the suit led
    ("KS 7S AH", "QS 7H", {"AH"}, "must_overtrump"),
    # trick trumped, no higher trump: follow the suit led
    ("KS 7S 8H", "QS 9H", {"KS", "7S"}, "must_follow"),
    # trick trumped, void, only a lower trump: no under-trump duty (A-R2)
    ("8H 7D", "QS 9H", {"8H", "7D"}, None),
    # trump led: as forcée
    ("KH 7H AS", "9H", {"KH"}, "must_go_higher"),
    ("7H 8H AS", "9H", {"7H", "8H"}, "must_follow"),
])
def test_forcat(hand: str, trick: str, expected: set[str], rule: str | None) -> None:
    assert legal("forcat", hand, trick) == (expected, rule)


def test_forcee_and_forcat_differ_on_the_same_position() -> None:
    # ♠Q led, ♥ trump; the player holds ♠7 and ♥8
    assert legal("forcee", "7S 8H", "QS")[0] == {"7S"}
    assert legal("forcat", "7S 8H", "QS")[0] == {"8H"}


# -- au plaisant: only the last to play is au forçat ------------------------------------------------

@pytest.mark.parametrize(("hand", "trick", "expected"), [
    # second of three: follow suit, no duty to head
    ("KS 7S 9H", "QS", {"KS", "7S"}),
    # second of three, void: trump or discard at will
    ("9H 7D", "QS", {"9H", "7D"}),
    # trump led, second of three: any trump (follow suit), no duty to go higher
    ("KH 7H AS", "9H", {"KH", "7H"}),
    # last of three: au forçat (cannot head ♠, holds a trump → must trump)
    ("7S 8H", "QS 7D", {"8H"}),
    # last of three: overtrump even while holding the suit led
    ("KS 7S AH", "QS 7H", {"AH"}),
])
def test_plaisant_three_players(hand: str, trick: str, expected: set[str]) -> None:
    assert legal("plaisant", hand, trick, players=3)[0] == expected


def test_plaisant_at_two_players_is_forcat() -> None:
    for hand, trick in [("7S 8H", "QS"), ("KS 7S 9H", "QS"), ("8H 7D", "9H")]:
        assert legal("plaisant", hand, trick, players=2) == legal("forcat", hand, trick)


# -- orders and the trick winner --------------------------------------------------------------------

def test_as_qui_pille_order_puts_the_ace_first() -> None:
    # piquet order: A > K, so A♠ heads K♠; in the 1725 order it does not
    assert legal("forcee", "AS 7S", "KS", order=ORDER_PIQUET) == ({"AS"}, "must_follow_higher")
    assert legal("forcee", "AS 7S", "KS", order=ORDER_1725) == ({"AS", "7S"}, None)


@pytest.mark.parametrize(("trick", "order", "winner"), [
    ("KS 7H", ORDER_1725, 1),  # the lowest trump beats a plain King
    ("JS AS", ORDER_1725, 0),  # 1725: Jack above Ace
    ("JS AS", ORDER_PIQUET, 1),  # piquet: Ace above Jack
    ("7S KD 8S", ORDER_1725, 2),  # a discard of another suit never wins
    ("QS 7H 8H 9S", ORDER_1725, 2),  # overtrump wins
    ("8H KS 9H", ORDER_1725, 2),  # trump led: highest trump
])
def test_trick_winner(trick: str, order, winner: int) -> None:
    assert trick_winner(cs(trick), HEARTS, order.strength) == winner


# -- records: options, setup, pillage ----------------------------------------------------------------

def record(**fields):
    base = {"format": "levee.deal/1", "game": "triomphe", "players": ["A", "B", "C"], "dealer": 2,
            "turn_up": "9H"}
    base.update(fields)
    return base


HANDS3 = [["KS", "QS", "7H", "8D", "AC"], ["JS", "10S", "KH", "9D", "7C"], ["AS", "9S", "QH", "KD", "8C"]]


def rules_found(data) -> list[tuple[str, int | None, int | None]]:
    return [(v.rule, v.trick, v.seat) for v in replay(data).violations]


def test_turn_up_in_a_hand_is_reported() -> None:
    assert rules_found(record(hands=HANDS3, turn_up="KH")) == [("duplicate_card", None, 1)]


def test_hand_sizes_are_five() -> None:
    hands = [h[:] for h in HANDS3]
    hands[0].append("10D")
    assert ("wrong_hand_size", None, 0) in rules_found(record(hands=hands))


def test_talon_size_and_content() -> None:
    # 32 - 3 × 5 - 1 = 16 cards
    assert rules_found(record(hands=HANDS3, talon=["7S", "8S"])) == [("wrong_talon_size", None, None)]
    talon16 = ["8S", "7S", "AH", "JH", "10H", "8H", "AD", "QD", "JD", "10D", "7D", "KC", "QC", "JC", "10C", "9C"]
    assert rules_found(record(hands=HANDS3, talon=talon16)) == []
    assert ("duplicate_card", None, 0) in rules_found(record(hands=HANDS3, talon=["KS", *talon16[1:]]))


def test_first_lead_is_right_of_dealer_and_forcee_checked() -> None:
    # dealer 2 → seat 0 leads. ♠K led; B holds J♠ 10♠ (cannot beat K) → any spade; C holds A♠ 9♠:
    # in the 1725 order A♠ does not beat K♠ either, so C may play 9♠.
    data = record(hands=HANDS3, tricks=[["KS", "10S", "9S"]])
    assert rules_found(data) == []
    assert replay(data).deals[0].tricks[0].winner == 0
    # seat 1 plays K♥ (a trump) while holding spades: must_follow at trick 0, seat 1
    assert rules_found(record(hands=HANDS3, tricks=[["KS", "KH"]])) == [("must_follow", 0, 1)]


def test_forcat_mode_in_a_record() -> None:
    # ♠Q led by A; B holds ♠J ♠10 (lower) and ♥K: au forçat B must trump
    data = record(hands=HANDS3, options={"mode": "forcat"}, tricks=[["QS", "10S"]])
    assert rules_found(data) == [("must_trump_to_win", 0, 1)]
    data = record(hands=HANDS3, tricks=[["QS", "10S"]])
    assert rules_found(data) == []


@pytest.mark.parametrize(("options", "field"), [
    ({"as_qui_pille": True}, "options.as_qui_pille"),  # 2 players
    ({"mode": "alone"}, "options.mode"),
    ({"order": "ace"}, "options.order"),
    ({"teams": [[0], [1]]}, "options.teams"),
    ({"target": 0}, "options.target"),
])
def test_bad_options_two_players(options, field) -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(players=["A", "B"], dealer=1, options=options))
    assert info.value.field == field


def test_as_qui_pille_refuses_the_1725_order_and_teams() -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(options={"as_qui_pille": True, "order": "1725"}))
    assert info.value.field == "options.order"
    with pytest.raises(MalformedRecord) as info:
        replay(record(players=["A", "B", "C", "D"], options={"as_qui_pille": True, "teams": [[0, 1], [2, 3]]}))
    assert info.value.field == "options.as_qui_pille"
    with pytest.raises(MalformedRecord) as info:
        replay(record(players=["A", "B", "C", "D"], options={"mode": "plaisant", "teams": [[0, 1], [2, 3]]}))
    assert info.value.field == "options.mode"


def test_target_defaults() -> None:
    six = ["A", "B", "C", "D", "E", "F"]
    r = replay(record(players=six, options={"teams": [[0, 1, 2], [3, 4, 5]]}))
    assert r.record.options.goal == 7
    r = replay(record(players=six[:4], options={"teams": [[0, 1], [2, 3]]}))
    assert r.record.options.goal == 5
    assert replay(record()).record.options.goal == 5


def test_turn_up_is_required() -> None:
    data = record()
    del data["turn_up"]
    with pytest.raises(MalformedRecord) as info:
        replay(data)
    assert info.value.field == "turn_up"


# As qui pille: 3 players, dealer 2. Hands HANDS3; the dealer turns the Ace of hearts.
AQP = {"as_qui_pille": True}
TALON_AH = ["JH", "10H", "7S", "8S", "AD", "QD", "JD", "10D", "7D", "KC", "QC", "JC", "10C", "9C", "8H", "9H"]


def test_dealer_pillages_the_turned_ace_and_following_trumps() -> None:
    data = record(hands=HANDS3, options=AQP, turn_up="AH", talon=TALON_AH,
                  pillage={"seat": 2, "taken": ["AH", "JH", "10H"], "discarded": ["8C", "9S", "KD"]})
    r = replay(data)
    assert r.violations == []
    start = {format_card(c) for c in cards_of(r.deals[0].start[2])}
    assert start == {"AS", "QH", "AH", "JH", "10H"}


def test_pillage_stops_at_the_first_non_trump() -> None:
    # talon: J♥ 10♥ 7♠ — the 7♠ is not a trump and cannot be taken
    data = record(hands=HANDS3, options=AQP, turn_up="AH", talon=TALON_AH,
                  pillage={"seat": 2, "taken": ["AH", "JH", "10H", "7S"], "discarded": ["8C", "9S", "KD", "AS"]})
    assert rules_found(data) == [("pillage_not_trump", None, 2)]


def test_pillage_must_follow_the_talon_order() -> None:
    data = record(hands=HANDS3, options=AQP, turn_up="AH", talon=TALON_AH,
                  pillage={"seat": 2, "taken": ["AH", "10H"], "discarded": ["8C", "9S"]})
    assert rules_found(data) == [("pillage_out_of_order", None, 2)]


def test_only_the_dealer_pillages_a_turned_ace() -> None:
    data = record(hands=HANDS3, options=AQP, turn_up="AH",
                  pillage={"seat": 0, "taken": ["AH"], "discarded": ["8D"]})
    assert rules_found(data) == [("pillage_not_entitled", None, 0)]


def test_holder_of_the_trump_ace_pillages_when_no_ace_is_turned() -> None:
    # retourne 9♥; seat 1 holds A♥ (in this deal) and takes the retourne first (A-R7)
    hands = [["KS", "QS", "7H", "8D", "AC"], ["JS", "10S", "AH", "9D", "7C"], ["AS", "9S", "QH", "KD", "8C"]]
    ok = record(hands=hands, options=AQP, pillage={"seat": 1, "taken": ["9H"], "discarded": ["7C"]})
    assert rules_found(ok) == []
    wrong = record(hands=hands, options=AQP, pillage={"seat": 0, "taken": ["9H"], "discarded": ["8D"]})
    assert rules_found(wrong) == [("pillage_not_entitled", None, 0)]
    discard = record(hands=hands, options=AQP, pillage={"seat": 1, "taken": ["9H"], "discarded": ["KS"]})
    assert rules_found(discard) == [("pillage_discard_not_in_hand", None, 1), ("wrong_hand_size", None, 1)]


def test_a_discarded_card_cannot_be_played() -> None:
    data = record(hands=HANDS3, options=AQP, turn_up="AH", talon=TALON_AH,
                  pillage={"seat": 2, "taken": ["AH"], "discarded": ["9S"]},
                  tricks=[["KS", "10S", "9S"]])
    assert rules_found(data) == [("not_in_hand", 0, 2)]


def test_pillage_needs_the_option() -> None:
    with pytest.raises(MalformedRecord) as info:
        replay(record(hands=HANDS3, pillage={"seat": 2, "taken": ["9H"], "discarded": ["8C"]}))
    assert info.value.field == "pillage"



def test_a_revoke_proved_by_the_suit_led_then_by_a_trump_is_one_fault() -> None:
    # the walk's deal, hands unknown, forcée, clubs trumps: Chloé leads K♥, David discards 7♦. At trick 2 he plays
    # the J♥: he could follow, the fault (« sans fournir à cœur »). At trick 3 he leads the 9♣: a trump proves he
    # could trump only if he could not follow, and he could: no second fault (S000 §3.1: the duty to trump is
    # the void player's)
    data = record(players=["Chloé", "David"], dealer=1, turn_up="8C",
                  tricks=[["KH", "7D"], ["10H", "JH"], ["9C", "7C"]])
    found = replay(data).violations
    assert [(v.rule, v.trick, v.seat, format_card(v.card)) for v in found] == [("revoke", 0, 1, "7D")]
    words = found[0].message("fr", ["Chloé", "David"])
    assert "sans fournir à cœur alors que sa main contenait le valet de cœur" in words


@pytest.mark.parametrize(("chosen", "options"), [
    # the team game (§2.2 rule 3): partners on the same side of the table, a block of seats in the order of play
    ({"partners": True}, {"mode": "forcee", "order": "1725", "players": 4, "teams": [[0, 1], [2, 3]]}),
    ({"partners": True, "players": 4}, {"mode": "forcee", "order": "1725", "players": 4, "teams": [[0, 1], [2, 3]]}),
    ({"partners": True, "players": 6, "mode": "forcat"},
     {"mode": "forcat", "order": "1725", "players": 6, "teams": [[0, 1, 2], [3, 4, 5]]}),
    ({"partners": False, "players": 4}, {"mode": "forcee", "order": "1725", "players": 4}),
])
def test_the_team_game_an_organizer_chooses(chosen, options) -> None:
    from rules.triomphe import Triomphe

    assert Triomphe().tournament_options(chosen) == options
    assert Triomphe().parse_options(options).two_parties == bool(chosen.get("partners"))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_team_game_is_played_at_four_or_six(players) -> None:
    from rules.triomphe import Triomphe

    with pytest.raises(MalformedRecord) as info:
        Triomphe().tournament_options({"partners": True, "players": players})
    assert info.value.field == "options.teams"
    assert "deux contre deux" in info.value.text("fr")


def test_the_summary_speaks_of_sides_only_with_teams() -> None:
    from rules.triomphe import Triomphe

    def tricks_help(options):
        form = Triomphe().describe_entry(Triomphe().parse_options(options))
        return next(f.help for p in form.phases for f in p.fields if f.name == "summary.tricks")

    assert tricks_help({"players": 4}) == ""
    assert "camp" in tricks_help({"players": 4, "teams": [[0, 1], [2, 3]]})
