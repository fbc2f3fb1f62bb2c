"""Cards, codes, packs and orders (deal-record.md « Cards »)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import cards as c


@pytest.mark.parametrize(
    ("code", "name"),
    [("KS", "roi de pique"), ("10H", "10 de cœur"), ("NC", "cavalier de trèfle"), ("AD", "as de carreau"),
     ("JH", "valet de cœur"), ("QC", "dame de trèfle"), ("T21", "atout 21"), ("T1", "le Petit (atout 1)"),
     ("EX", "l'Excuse")],
)
def test_codes_name_the_card(code: str, name: str) -> None:
    assert c.card_name(c.parse_card(code)) == name


def test_codes_are_case_insensitive_and_upper_on_output() -> None:
    assert c.format_card(c.parse_card("10h")) == "10H"
    assert c.format_card(c.parse_card(" ex ")) == "EX"
    assert c.format_card(c.parse_card("t7")) == "T7"


@pytest.mark.parametrize("bad", ["", "1S", "11H", "KX", "T0", "T22", "E", "ZZ", "K"])
def test_bad_codes_are_refused_with_a_message(bad: str) -> None:
    with pytest.raises(c.CardCodeError):
        c.parse_card(bad)


def test_pack_sizes() -> None:
    assert (len(c.PIQUET_32), len(c.PIQUET_36), len(c.FRENCH_52), len(c.TAROT_78)) == (32, 36, 52, 78)
    for pack in (c.PIQUET_32, c.PIQUET_36, c.FRENCH_52, c.TAROT_78):
        assert len(set(pack)) == len(pack)
        assert c.count(c.mask_of(pack)) == len(pack)


def test_piquet_pack_has_seven_to_ace_only() -> None:
    ranks = {c.rank_of(x) for x in c.PIQUET_32}
    assert ranks == {1, 7, 8, 9, 10, 11, 13, 14}


def test_tarot_suits_have_fourteen_cards_and_trumps_twenty_one() -> None:
    tarot = c.mask_of(c.TAROT_78)
    for suit in range(4):
        assert c.count(tarot & c.SUIT_MASK[suit]) == 14
    assert c.count(tarot & c.TRUMP_MASK) == 21
    assert c.suit_of(c.EXCUSE) == c.NO_SUIT


@given(st.sampled_from(c.TAROT_78 + c.FRENCH_52))
def test_code_round_trip(card: int) -> None:
    assert c.parse_card(c.format_card(card)) == card


def test_triomphe_order_puts_the_ace_between_jack_and_ten() -> None:
    order = c.CardOrder.from_ranks(c.rank_order("K Q J A 10 9 8 7"))
    spades = sorted((x for x in c.PIQUET_32 if c.suit_of(x) == c.SPADES), key=order.key, reverse=True)
    assert [c.format_card(x) for x in spades] == ["KS", "QS", "JS", "AS", "10S", "9S", "8S", "7S"]
    assert order.beats[c.parse_card("AS")] == c.mask_of(c.parse_card(x) for x in ("KS", "QS", "JS"))


def test_masks_round_trip() -> None:
    hand = [c.parse_card(x) for x in ("KS", "T21", "EX", "2C")]
    assert sorted(c.cards_of(c.mask_of(hand))) == sorted(hand)
