"""Cards typed the French way beside the record's codes (rules/typed.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.cards import FRENCH_52, TAROT_78, CardCodeError, format_card, parse_card
from rules.typed import is_french, parse_typed_card, parse_typed_cards

EVERY = sorted(set(TAROT_78) | set(FRENCH_52))


def codes(text: str, **kw) -> list[str]:
    return [format_card(c) for c in parse_typed_cards(text, **kw)]


def test_the_record_codes_still_read_as_before() -> None:
    for c in EVERY:
        code = format_card(c)
        assert parse_typed_card(code) == parse_card(code)
        assert parse_typed_card(code.lower()) == c


@given(st.lists(st.sampled_from(EVERY), min_size=1, max_size=24))
def test_an_entry_of_record_codes_is_never_read_the_french_way(cards: list[int]) -> None:
    text = " ".join(format_card(c) for c in cards)
    assert not is_french(text.split())
    assert codes(text) == [format_card(c) for c in cards]


def test_french_forms() -> None:
    assert codes("RC DK D♦ CT C♣ VP AT 10Co 21 Exc") == ["KH", "QD", "QD", "NC", "NC", "JS", "AC", "10H", "T21", "EX"]
    assert codes("rc, dk; ct 1 excuse T5 r♥ 7♧") == ["KH", "QD", "NC", "T1", "EX", "T5", "KH", "7C"]


def test_c_after_the_ace_or_a_number_follows_the_entry() -> None:
    # the documented rule: cœur in a French entry, clubs (the record's code) otherwise or in doubt
    assert codes("7C") == ["7C"]
    assert codes("7C RC") == ["7H", "KH"]
    assert codes("AC AP 10C") == ["AH", "AS", "10H"]
    assert codes("7C KC") == ["7C", "KC"]
    assert codes("7C RP KS") == ["7C", "KS", "KS"]  # French and English letters mixed: the record's codes
    assert codes("7C", french=True) == ["7H"] and codes("7Co 7T") == ["7H", "7C"]
    # after a rank letter C is decided by the rank: French R, D, C, V → cœur; English K, Q, N, J → clubs
    assert codes("RC QC CC NC") == ["KH", "QC", "NH", "NC"]


def test_a_number_alone_is_a_trump_only_at_tarot() -> None:
    assert parse_typed_card("21") == parse_card("T21")
    with pytest.raises(CardCodeError) as caught:
        parse_typed_card("21", tarot=False)
    assert "formes acceptées" in caught.value.fr and "RC" in caught.value.fr


@pytest.mark.parametrize("token", ["ZZ", "22", "RX", "1C", "R", "Cœur", "AS♠♠"])
def test_a_token_that_is_no_card_says_the_accepted_forms(token: str) -> None:
    with pytest.raises(CardCodeError) as caught:
        parse_typed_card(token)
    assert f"« {token} »" in caught.value.fr and "Exc pour l'Excuse" in caught.value.fr
    assert "accepted forms" in str(caught.value)


FRENCH_RANK = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}


def french(c: int, hearts: str) -> str:
    code = format_card(c)
    if code == "EX":
        return "Exc"
    if code.startswith("T"):
        return code[1:]
    rank = FRENCH_RANK.get(c & 15, str(c & 15))
    return rank + ("P", hearts, "K", "T")[c >> 4]


@given(st.lists(st.sampled_from(EVERY), min_size=1, max_size=24))
def test_a_hand_typed_the_french_way_reads_as_its_codes(cards: list[int]) -> None:
    expected = [format_card(c) for c in cards]
    assert codes(" ".join(french(c, "Co") for c in cards)) == expected
    with_c = [french(c, "C") for c in cards]
    assume(is_french(with_c))  # « 7C » alone is the record's 7 of clubs
    assert codes(" ".join(with_c)) == expected
