"""Tarot rules (RULES.md §1.6–1.8, A-T3, A-T8): legality with hands written by hand, trick winners, setup."""

from __future__ import annotations

import pytest

from rules.cards import parse_card
from rules.errors import MalformedRecord
from rules.replay import replay
from tests.rules.test_tarot_helpers import cards, codes, full_hands, make_deal, mask, record


def legal(rules, hand: str, trick: str, trick_no: int = 3, seat: int = 0) -> tuple[set[str], str | None]:
    m, rule = rules.requirement(mask(hand), [parse_card(c) for c in codes(trick)], trick_no, seat)
    return cards(m), rule


FOUR = make_deal()


# -- §1.7 legality ------------------------------------------------------------------------------------

class TestLegality:
    def test_leader_plays_anything(self):
        assert legal(FOUR, "5S T3 EX KH", "") == ({"5S", "T3", "EX", "KH"}, None)

    def test_must_follow_without_beating(self):
        assert legal(FOUR, "2S QS T5 4H", "KS") == ({"2S", "QS"}, "must_follow")

    def test_excuse_always_legal_when_following(self):
        assert legal(FOUR, "2S T5 EX", "KS") == ({"2S", "EX"}, "must_follow")

    def test_excuse_always_legal_when_trumping_or_going_higher(self):
        assert legal(FOUR, "T3 T10 EX 5H", "KS T8")[0] == {"T10", "EX"}
        assert legal(FOUR, "T3 T12 EX", "T10")[0] == {"T12", "EX"}

    def test_must_trump_when_void(self):
        assert legal(FOUR, "T3 T10 5H", "KS 2S") == ({"T3", "T10"}, "must_trump")

    def test_must_overtrump(self):
        assert legal(FOUR, "T3 T10 5H", "KS T8") == ({"T10"}, "must_overtrump")

    def test_must_undertrump_when_unable_to_overtrump(self):
        assert legal(FOUR, "T3 T10 5H", "KS T15") == ({"T3", "T10"}, "must_undertrump")

    def test_overtrump_the_highest_trump_of_the_trick(self):
        assert legal(FOUR, "T9 T14 5H", "KS T8 T12") == ({"T14"}, "must_overtrump")

    def test_discard_anything_without_suit_or_trump(self):
        assert legal(FOUR, "5H 2D EX", "KS T15") == ({"5H", "2D", "EX"}, None)

    def test_trump_lead_go_higher(self):
        assert legal(FOUR, "T5 T12 T20 3S", "T10") == ({"T12", "T20"}, "must_go_higher")

    def test_trump_lead_go_higher_over_the_best_trump_so_far(self):
        assert legal(FOUR, "T5 T12 T20 3S", "T10 T15") == ({"T20"}, "must_go_higher")

    def test_trump_lead_any_trump_when_unable_to_go_higher(self):
        assert legal(FOUR, "T5 T7 3S", "T21") == ({"T5", "T7"}, "must_play_trump")

    def test_trump_lead_discard_without_trumps(self):
        assert legal(FOUR, "3S 4H EX", "T10") == ({"3S", "4H", "EX"}, None)

    def test_excuse_led_leaves_the_next_player_free(self):
        assert legal(FOUR, "2H T4 3S", "EX") == ({"2H", "T4", "3S"}, None)

    def test_excuse_led_then_the_second_card_fixes_the_suit(self):
        assert legal(FOUR, "2H T4 3S", "EX 5H") == ({"2H"}, "must_follow")
        assert legal(FOUR, "T5 T12 3S", "EX T10") == ({"T12"}, "must_go_higher")

    def test_excuse_in_the_trick_is_not_the_best_trump(self):
        assert legal(FOUR, "T3 T10 5H", "KS EX T8") == ({"T10"}, "must_overtrump")

    def test_go_higher_even_over_a_partner_at_five(self):
        five = make_deal(5, five="called_king", bid={"taker": 0, "contract": "garde", "called": "KH"}, partner=1)
        assert legal(five, "T5 T12 3S", "T10", seat=2) == ({"T12"}, "must_go_higher")


class TestCalledSuitOpening:
    """Rule 24 and A-T8: the opening lead of the deal may not be in the called suit, except the called card."""

    FIVE = make_deal(5, five="called_king", dealer=4, bid={"taker": 2, "contract": "garde", "called": "KH"})

    def test_opening_in_the_called_suit_is_refused(self):
        assert legal(self.FIVE, "2H 5H 3S T4", "", trick_no=0) == ({"3S", "T4"}, "called_suit_lead")

    def test_the_called_card_itself_may_open(self):
        assert legal(self.FIVE, "KH 5H 3S", "", trick_no=0)[0] == {"KH", "3S"}

    def test_a_hand_of_only_that_suit_may_open_in_it(self):
        assert legal(self.FIVE, "2H 5H 9H", "", trick_no=0) == ({"2H", "5H", "9H"}, None)

    def test_only_the_first_lead_of_the_deal(self):
        assert legal(self.FIVE, "2H 5H 3S", "", trick_no=1) == ({"2H", "5H", "3S"}, None)

    def test_after_an_excuse_opening_the_next_player_is_free(self):
        assert legal(self.FIVE, "2H 3S", "EX", trick_no=0) == ({"2H", "3S"}, None)

    def test_no_restriction_at_four(self):
        assert legal(FOUR, "2H 5H 3S", "", trick_no=0)[1] is None


# -- §1.8 trick winner ------------------------------------------------------------------------------------

def win(rules, trick: str, trick_no: int = 3, leader: int = 0, winners: list[int] | None = None) -> int:
    return rules.winner([parse_card(c) for c in codes(trick)], trick_no, leader, winners or [])


class TestWinner:
    def test_highest_of_the_led_suit(self):
        assert win(FOUR, "5S KS 2S QH") == 1

    def test_other_suits_never_win(self):
        assert win(FOUR, "5S KH 2S QD") == 0

    def test_highest_trump(self):
        assert win(FOUR, "KS T2 T21 AS") == 2

    def test_trump_lead(self):
        assert win(FOUR, "T5 T4 KS T6") == 3

    def test_excuse_never_wins_in_the_middle(self):
        assert win(FOUR, "KS EX QS 2S") == 0

    def test_excuse_led_next_card_fixes_the_suit(self):
        assert win(FOUR, "EX 5H KH 2H") == 2
        assert win(FOUR, "EX 5H KH T1") == 3

    def test_led_suit_skips_the_excuse(self):
        assert FOUR.led_suit([parse_card("EX"), parse_card("5H")]) == 1
        assert FOUR.led_suit([parse_card("EX")]) is None

    def test_excuse_led_to_the_last_trick_by_a_side_that_won_all(self):
        # seats play 0,1,2,3 (dealer 3); seat 0 takes and won the 17 previous tricks (A-T3)
        assert win(FOUR, "EX 5H KH 2H", trick_no=17, leader=0, winners=[0] * 17) == 0

    def test_excuse_led_to_the_last_trick_without_every_trick_loses(self):
        assert win(FOUR, "EX 5H KH 2H", trick_no=17, leader=0, winners=[0] * 16 + [1]) == 2

    def test_excuse_not_led_to_the_last_trick_loses_even_in_a_chelem(self):
        assert win(FOUR, "5H EX KH 2H", trick_no=17, leader=0, winners=[0] * 17) == 2

    def test_excuse_led_last_by_the_defence_that_won_all(self):
        assert win(FOUR, "EX 5H KH 2H", trick_no=17, leader=2, winners=[1, 2, 3] * 5 + [1, 2]) == 0

    def test_excuse_led_last_at_five_by_the_partner_of_a_chelem(self):
        five = make_deal(5, five="called_king", dealer=4, bid={"taker": 0, "contract": "garde", "called": "KH"},
                         partner=2)
        assert win(five, "EX 5S KS 2S 3S", trick_no=14, leader=2, winners=[0, 2] * 7) == 0
        assert win(five, "EX 5S KS 2S 3S", trick_no=14, leader=2, winners=[0, 2] * 6 + [1, 2]) == 2


# -- seats and first leader -------------------------------------------------------------------------

class TestSeats:
    def test_play_order_from_the_dealers_right(self):
        assert make_deal(4, dealer=1).seats == (2, 3, 0, 1)
        assert make_deal(4, dealer=1).first_leader == 2

    def test_mort_sits_out(self):
        rules = make_deal(5, dealer=2)
        assert rules.seats == (3, 4, 0, 1)
        assert rules.mort == 2
        assert rules.hand_size == 18 and rules.dog_size == 6

    def test_chelem_announcer_leads(self):
        rules = make_deal(4, dealer=0, bid={"taker": 2, "contract": "garde", "called": None}, chelem_announced=True)
        assert rules.first_leader == 2

    def test_table_sizes(self):
        assert (make_deal(3, dealer=2).hand_size, make_deal(3, dealer=2).dog_size) == (24, 6)
        five = make_deal(5, five="called_king", bid={"taker": 0, "contract": "garde", "called": "KS"})
        assert (five.hand_size, five.dog_size, five.tricks_per_deal) == (15, 3, 15)


# -- setup: chien, écart, called card, poignées -------------------------------------------------------

def setup_of(players: int = 4, *, given: dict[int, str] | None = None, dog: str | None = None,
             five: str = "mort", dealer: int = 3, **fields):
    hands, dog_cards = full_hands(players, given or {}, five=five, dealer=dealer, dog=dog)
    fields.setdefault("bid", {"taker": 0, "contract": "garde" if "discard" in fields else "garde_sans", "called": None})
    rules = make_deal(players, five=five, dealer=dealer, dog=fields.pop("dog_field", dog_cards), **fields)
    dealt = [mask(" ".join(h)) for h in hands]
    return rules, rules.setup(dealt), hands, dog_cards


def rules_of(setup) -> list[str]:
    return [v.rule for v in setup.violations]


class TestSetup:
    def test_taker_hand_is_hand_plus_dog_minus_discard(self):
        _rules, setup, hands, dog = setup_of(given={0: "2S 3S 4S 5S 6S 7S"}, discard=codes("2S 3S 4S 5S 6S 7S"))
        assert not setup.violations
        assert cards(setup.hands[0]) == (set(hands[0]) | set(dog)) - set(codes("2S 3S 4S 5S 6S 7S"))
        assert cards(setup.extra_won[0]) == set(codes("2S 3S 4S 5S 6S 7S"))

    def test_garde_sans_keeps_the_dog_apart_for_the_taker(self):
        _rules, setup, hands, dog = setup_of(bid={"taker": 0, "contract": "garde_sans", "called": None})
        assert cards(setup.hands[0]) == set(hands[0])
        assert cards(setup.extra_won[0]) == set(dog)

    def test_garde_contre_gives_the_dog_to_the_defender_opposite(self):
        _rules, setup, _hands, dog = setup_of(bid={"taker": 0, "contract": "garde_contre", "called": None})
        assert setup.extra_won == {2: mask(" ".join(dog))}

    def test_no_discard_on_garde_sans(self):
        _, setup, _, _ = setup_of(bid={"taker": 0, "contract": "garde_sans", "called": None},
                                  discard=codes("2S 3S 4S 5S 6S 7S"))
        assert rules_of(setup) == ["discard_not_allowed"]

    def test_discard_without_king_or_bout(self):
        _, setup, _, _ = setup_of(given={0: "KS T1 4S 5S 6S 7S"}, discard=codes("KS T1 4S 5S 6S 7S"))
        assert sorted(rules_of(setup)) == ["discard_bout", "discard_king"]

    def test_discard_size(self):
        _, setup, _, _ = setup_of(given={0: "2S 3S 4S 5S 6S"}, discard=codes("2S 3S 4S 5S 6S"))
        assert rules_of(setup) == ["wrong_discard_size"]

    def test_discard_of_a_card_not_held(self):
        hands, _ = full_hands(4, {})
        stranger = hands[1][0]
        _, setup, _, _ = setup_of(discard=[stranger, *hands[0][:5]])
        assert "discard_not_held" in rules_of(setup)

    def test_trump_in_discard_only_when_indispensable(self):
        # the taker holds plenty of plain cards: no trump may go
        _, setup, _, _ = setup_of(given={0: "2S 3S 4S 5S 6S T2"}, discard=codes("2S 3S 4S 5S 6S T2"))
        assert rules_of(setup) == ["discard_trump"]

    def test_trump_in_discard_when_indispensable(self):
        # 17 trumps + Excuse + 4 Kings = 22 cards; the dog brings 2 plain non-King cards: 4 trumps must go
        hand = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 EX"
        dog = "KS KH KD KC 2S 3S"
        _rules, setup, _, _ = setup_of(given={0: hand}, dog=dog, discard=codes("2S 3S T2 T3 T4 T5"))
        assert not setup.violations
        _, setup, _, _ = setup_of(given={0: hand}, dog=dog, discard=codes("T2 T3 T4 T5 T6 T7"))
        assert rules_of(setup) == ["discard_trump"]

    def test_dog_size_and_pack(self):
        _, setup, hands, dog = setup_of(dog_field=None)
        assert not setup.violations  # the dog is the rest of the pack
        rules = make_deal(dog=dog[:5], discard=hands[0][:6])
        found = rules.setup([mask(" ".join(h)) for h in hands])
        assert sorted(v.rule for v in found.violations) == ["missing_card", "wrong_dog_size"]

    def test_dog_card_also_in_a_hand(self):
        hands, dog = full_hands(4, {})
        rules = make_deal(dog=[hands[1][0], *dog[1:]], discard=hands[0][:6])
        found = rules.setup([mask(" ".join(h)) for h in hands])
        assert sorted(v.rule for v in found.violations) == ["duplicate_card", "missing_card"]

    def test_mort_hand_must_be_empty(self):
        hands, dog = full_hands(5, {}, dealer=4)
        hands[4] = ["EX"]
        hands[0].remove("EX") if "EX" in hands[0] else None
        rules = make_deal(5, dealer=4, dog=dog, discard=hands[0][:6])
        found = rules.setup([mask(" ".join(h)) for h in hands])
        assert "mort_holds_cards" in [v.rule for v in found.violations]


class TestCalledKing:
    def five(self, called: str, given: dict[int, str], **fields):
        return setup_of(5, five="called_king", dealer=4, given=given,
                        bid={"taker": 0, "contract": "garde_sans", "called": called}, **fields)

    def test_partner_is_the_holder_of_the_called_king(self):
        rules, setup, _, _ = self.five("KH", {2: "KH"})
        assert rules.partner == 2 and rules.attack == {0, 2}
        assert not setup.violations

    def test_called_king_in_own_hand_plays_alone(self):
        rules, _, _, _ = self.five("KH", {0: "KH"})
        assert rules.partner is None and rules.attack == {0}

    def test_called_king_in_the_dog_plays_alone(self):
        rules, _, _, _ = self.five("KH", {}, dog="KH 2C 3C")
        assert rules.partner is None

    def test_queen_only_with_four_kings(self):
        _, setup, _, _ = self.five("QH", {0: "KS KH KD KC", 1: "QH"})
        assert not setup.violations
        _, setup, _, _ = self.five("QH", {0: "KS KH KD", 1: "QH"})
        assert rules_of(setup) == ["called_card_not_allowed"]

    def test_a_trump_cannot_be_called(self):
        _, setup, _, _ = self.five("T21", {1: "T21"})
        assert "called_card_not_allowed" in rules_of(setup)

    def test_partner_field_contradicting_the_hands(self):
        _, setup, _, _ = self.five("KH", {2: "KH"}, partner=3)
        assert rules_of(setup) == ["wrong_partner"]


class TestHandfuls:
    TEN = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11"

    def test_shown_cards_give_the_size(self):
        rules, setup, _, _ = setup_of(given={1: self.TEN}, handfuls=[{"seat": 1, "cards": codes(self.TEN)}])
        assert not setup.violations
        assert rules.handful_sizes() == [(1, "simple")]

    def test_eleven_shown_is_not_a_poignee(self):
        eleven = self.TEN + " T12"
        _, setup, _, _ = setup_of(given={1: eleven}, handfuls=[{"seat": 1, "cards": codes(eleven)}])
        assert rules_of(setup) == ["handful_wrong_count"]

    def test_only_trumps_and_the_excuse(self):
        shown = "T2 T3 T4 T5 T6 T7 T8 T9 T10 KS"
        _, setup, _, _ = setup_of(given={1: shown}, handfuls=[{"seat": 1, "cards": codes(shown)}])
        assert rules_of(setup) == ["handful_not_trump"]

    def test_shown_cards_must_be_held(self):
        _, setup, _, _ = setup_of(given={2: "T11"}, handfuls=[{"seat": 1, "cards": codes(self.TEN)}])
        assert "handful_not_in_hand" in rules_of(setup)

    def test_excuse_only_when_no_trump_hidden(self):
        shown = "T2 T3 T4 T5 T6 T7 T8 T9 T10 EX"
        _, setup, _, _ = setup_of(given={1: shown + " 2S 3S 4S 5S 6S 7S 8S 9S"},
                                  handfuls=[{"seat": 1, "cards": codes(shown)}])
        assert not setup.violations
        _, setup, _, _ = setup_of(given={1: shown + " T11"}, handfuls=[{"seat": 1, "cards": codes(shown)}])
        assert rules_of(setup) == ["handful_excuse_hidden_trump"]

    def test_size_only_checked_against_the_hand(self):
        _, setup, _, _ = setup_of(given={1: "T2 T3 T4 T5 T6 T7 T8 T9 T10 EX 2S 3S 4S 5S 6S 7S 8S 9S"},
                                  handfuls=[{"seat": 1, "size": "simple"}])
        assert not setup.violations  # 9 trumps and the Excuse
        _, setup, _, _ = setup_of(given={1: "T2 T3 T4 T5 T6 T7 T8 T9 T10 2S 3S 4S 5S 6S 7S 8S 9S 10S"},
                                  handfuls=[{"seat": 1, "size": "simple"}])
        assert rules_of(setup) == ["handful_not_held"]

    def test_taker_may_show_a_trump_he_discarded(self):
        # rule 19: with 4 Kings and 15 trumps the taker who had to discard a trump re-shows it
        hand = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16 KS KH KD"
        shown = "T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16"
        rules, setup, _, _ = setup_of(given={0: hand}, dog="KC T17 T18 T19 T20 2S",
                                      discard=codes("2S T2 T17 T18 T19 T20"),
                                      handfuls=[{"seat": 0, "cards": codes(shown)}])
        assert not setup.violations
        assert rules.handful_sizes() == [(0, "triple")]

    def test_more_trumps_than_exist(self):
        _, setup, _, _ = setup_of(3, dealer=2, handfuls=[{"seat": 0, "size": "triple"}, {"seat": 1, "size": "simple"}])
        assert "handfuls_too_many_trumps" in rules_of(setup)

    def test_thresholds_by_table(self):
        assert make_deal(3, dealer=2).thresholds == (13, 15, 18)
        assert make_deal(4).thresholds == (10, 13, 15)
        assert make_deal(5, five="called_king", bid={"taker": 0, "contract": "garde", "called": "KS"}) \
            .thresholds == (8, 10, 13)


# -- malformed fields -----------------------------------------------------------------------------------

class TestMalformed:
    @pytest.mark.parametrize(("fields", "path"), [
        ({"bid": None}, "bid"),
        ({"bid": {"contract": "garde"}}, "bid.taker"),
        ({"bid": {"taker": 0, "contract": "grande"}}, "bid.contract"),
        ({"bid": {"taker": 0, "contract": "garde", "called": "KS"}}, "bid.called"),
        ({"chelem_announced": "yes"}, "chelem_announced"),
        ({"handfuls": [{"seat": 0, "size": "quadruple"}]}, "handfuls[0].size"),
        ({"handfuls": [{"seat": 9, "size": "simple"}]}, "handfuls[0].seat"),
        ({"dog": ["KS", "XX"]}, "dog[1]"),
        ({"discard": ["2S", "2S"]}, "discard[1]"),
        ({"summary": {"oudlers": 2, "points": "abc"}}, "summary.points"),
        ({"summary": {"oudlers": "two", "points": 40}}, "summary.oudlers"),
        ({"summary": {"oudlers": 2, "points": 40, "chelem": "taker"}}, "summary.chelem"),
        ({"partner": 1}, "partner"),
    ])
    def test_field_named(self, fields, path):
        with pytest.raises(MalformedRecord) as err:
            replay(record(4, **fields))
        assert err.value.field == path

    def test_mort_cannot_take(self):
        with pytest.raises(MalformedRecord) as err:
            replay(record(5, bid={"taker": 4, "contract": "garde", "called": None}))
        assert err.value.field == "bid.taker"

    def test_called_card_required_at_five_called_king(self):
        with pytest.raises(MalformedRecord) as err:
            replay(record(5, options={"players": 5, "five": "called_king"}))
        assert err.value.field == "bid.called"

    def test_five_option_choices(self):
        with pytest.raises(MalformedRecord) as err:
            replay(record(5, options={"players": 5, "five": "six"}))
        assert err.value.field == "options.five"

    def test_path_inside_a_match(self):
        data = record(4)
        data["format"] = "levee.match/1"
        data["deals"] = [{"dealer": 0, "bid": {"taker": 1, "contract": "garde", "called": None}},
                         {"dealer": 1, "bid": {"taker": 1, "contract": "nope", "called": None}}]
        with pytest.raises(MalformedRecord) as err:
            replay(data)
        assert err.value.field == "deals[1].bid.contract"


# -- poignées against the tricks, the hands not entered (a walk saved « poignée simple » for a defender who played
#    five trumps: the 18 tricks show every hand) --------------------------------------------------------------------

DEFENDER_TEN = "T2 T3 T4 T5 T6 T7 T8 T9 T10 EX KH QH NH JH 10H 9H 8H 7H"  # nine trumps and the Excuse
DEFENDER_FIVE = "T11 T12 T13 T14 T15 KS QS NS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"  # five trumps


def _tricks_only(contract: str, handfuls: list[dict[str, object]], *, tricks: int | None = None) -> dict:
    """A garde sans (or contre) of seat 0, seats 1 and 2 dealt the hands above, played out at random (legal
    cards), as a record of its tricks alone."""
    import random

    from rules.play import DealState, play_out_randomly

    hands, _dog = full_hands(4, {1: DEFENDER_TEN, 2: DEFENDER_FIVE})
    deal = make_deal(bid={"taker": 0, "contract": contract, "called": None})
    state = DealState(deal, [mask(" ".join(h)) for h in hands])
    return record(bid={"taker": 0, "contract": contract, "called": None}, handfuls=handfuls,
                  tricks=play_out_randomly(state, random.Random(7), tricks=tricks))


def test_a_poignee_is_checked_against_the_trumps_its_holder_played():
    found = replay(_tricks_only("garde_sans", [{"seat": 1, "size": "simple"}, {"seat": 2, "size": "simple"}]))
    deal = found.deals[0]
    assert [(v.rule, v.seat, v.params.get("count"), v.params.get("needed")) for v in deal.violations] == [
        ("handful_not_held", 2, 5, 10)]
    assert "declarations" not in deal.unchecked
    words = deal.violations[0].message("fr", ["P1", "P2", "P3", "P4"])
    assert words == "P3 annonce une poignée simple (10 atouts) mais n'en détient que 5 (Excuse comprise)."


def test_shown_cards_must_have_been_played_by_their_holder():
    # seat 2 shows seat 1's nine trumps and the Excuse: none were his, and he kept T11 – T15 hidden behind the
    # Excuse (rule A-T9)
    ten = DEFENDER_TEN.split()[:10]
    found = replay(_tricks_only("garde_contre", [{"seat": 2, "cards": ten}]))
    rules = [v.rule for v in found.deals[0].violations]
    assert rules.count("handful_not_in_hand") == 10 and set(rules) == {"handful_not_in_hand",
                                                                        "handful_excuse_hidden_trump"}


def test_tricks_not_all_entered_leave_the_poignee_unchecked():
    found = replay(_tricks_only("garde_sans", [{"seat": 2, "size": "simple"}], tricks=17))
    assert not found.deals[0].violations and "declarations" in found.deals[0].unchecked
