"""Étuis: dealt from a seed, fingerprinted, and a table's record checked against them (A-T13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.etui import contradictions, deal_etui, etui_cards, fingerprint, from_record

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "tarot-garde-4p.json").read_text())


def test_same_seed_same_etuis_and_a_whole_pack():
    a, b = deal_etui("club-2026", 3), deal_etui("club-2026", 3)
    assert a == b and fingerprint(a) == fingerprint(b)
    assert deal_etui("club-2026", 4) != a and deal_etui("other", 3) != a
    assert [len(h) for h in a.hands] == [18, 18, 18, 18] and len(a.dog) == 6
    assert len({c for h in a.hands for c in h} | set(a.dog)) == 78
    assert [deal_etui("s", n).dealer for n in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, 0]


def test_fingerprint_names_the_cards_and_the_dealer():
    etui = from_record(GOLDEN)
    assert len(fingerprint(etui)) == 64
    moved = etui_cards(etui.hands, etui.dog, (etui.dealer + 1) % 4)
    assert fingerprint(moved) != fingerprint(etui)
    reordered = etui_cards([list(reversed(h)) for h in etui.hands], list(reversed(etui.dog)), etui.dealer)
    assert fingerprint(reordered) == fingerprint(etui)


def test_not_a_pack_is_refused_naming_the_seat():
    etui = from_record(GOLDEN)
    hands = [list(h) for h in etui.hands]
    hands[2] = hands[2][:-1]
    with pytest.raises(ValueError, match="seat 2: 17 cards"):
        etui_cards(hands, etui.dog, 0)
    hands = [list(h) for h in etui.hands]
    hands[1][0] = hands[0][0]
    with pytest.raises(ValueError, match="missing or twice"):
        etui_cards(hands, etui.dog, 0)


def test_the_same_cards_do_not_contradict():
    assert contradictions(from_record(GOLDEN), GOLDEN) == []
    played_only = {k: v for k, v in GOLDEN.items() if k not in ("hands", "dog")}
    assert contradictions(from_record(GOLDEN), played_only) == []


def test_hands_chien_and_dealer_that_differ_are_a_fouled_etui():
    etui = from_record(GOLDEN)
    swapped = json.loads(json.dumps(GOLDEN))
    a, b = swapped["hands"][0][0], swapped["hands"][1][0]  # T20 (North) and 3H (East) swapped
    swapped["hands"][0][0], swapped["hands"][1][0] = b, a
    found = contradictions(etui, swapped)
    assert [(c.what, c.seat, set(c.cards)) for c in found] == [("hand", 0, {"T20", "3H"}), ("hand", 1, {"T20", "3H"})]
    other_dealer = dict(GOLDEN, dealer=0)
    assert contradictions(etui, other_dealer)[0].what == "dealer"


def test_cards_played_that_the_etui_did_not_give():
    # the record played card by card, without hands, against another étui's cards
    played_only = {k: v for k, v in GOLDEN.items() if k not in ("hands", "dog")}
    other = deal_etui("x", 4)  # North… West hands of another deal, dealer 3 like the record
    found = contradictions(other, played_only)
    assert found and all(c.what == "play" for c in found)


def test_a_summarys_poignee_is_counted_in_the_etuis_hand():
    """Étui 2 of « test »: East holds T18 T11 T8 T7 T6 T5 T4 T3 (8 trumps, no Excuse), North T20 T10 T9 T2 and the
    Excuse (5); the chien no trump. Rule 19: 10 for a simple at 4, the Excuse standing in for a trump."""
    from scoring.etui import handful_violations

    etui = deal_etui("test", 2)
    summary = {"bid": {"taker": 1, "contract": "garde"}, "handfuls": [{"seat": 1, "size": "simple"}]}
    (found,) = handful_violations(etui, summary)
    assert (found.rule, found.seat, dict(found.params)) == (
        "etui_handful_not_held", 1, {"count": 8, "size": "simple", "needed": 10})
    assert found.message("fr", ["Ana", "Hervé", "Chloé", "David"]) == (
        "Hervé n'a que 8 atouts (Excuse comprise) dans cet étui : pas de poignée simple (10).")
    shown = {"bid": {"taker": 1, "contract": "garde"}, "handfuls": [{"seat": 0, "cards": ["T20", "T11", "EX"]}]}
    assert [(v.rule, v.seat) for v in handful_violations(etui, shown)] == [("etui_handful_card_not_held", 0)]
    # the cards entered are checked by the rules engine and against the étui, not here
    assert handful_violations(etui, {**summary, "hands": [list(h) for h in etui.hands]}) == []
