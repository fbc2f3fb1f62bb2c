"""A poignée shown against the rules gives no bonus, whatever the fault (RULES.md §1.5 rule 19, A-T9; §1.13 rule 40:
any sanction is the arbiter's): the Excuse shown while a trump stays hidden, more trumps shown than the size
announced. Each is scored as the same deal without the poignée.

The deal: 4 players, Bruno (seat 1) takes a garde, 2 bouts, 49 points: needed 41, made by 8, S = (25 + 8) × 2 = 66;
the taker +3S = 198, each defender −66. Ana (seat 0) holds the Excuse and T1–T11. Her legal simple poignée (10
trumps) adds 20 to the side that wins the deal (RULES.md §1.9: S = … + sign·Σ poignées): S = 86, the taker 258."""

from __future__ import annotations

import pytest

from scoring.verdict import judge

PLAIN = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")]
TRUMPS = [f"T{i}" for i in range(1, 22)]
REST = TRUMPS[11:] + PLAIN[6:]
RECORD = {
    "format": "levee.deal/1", "game": "tarot", "options": {"players": 4}, "players": ["Ana", "Bruno", "Chloé", "David"],
    "dealer": 3, "bid": {"taker": 1, "contract": "garde", "called": None}, "partner": None,
    "chelem_announced": False, "handfuls": [],
    "hands": [["EX", *TRUMPS[:11], *PLAIN[:6]], REST[:18], REST[18:36], REST[36:54]], "dog": REST[54:60],
    "discard": ["7S", "8S", "9S", "10S", "JS", "NS"],
    "summary": {"oudlers": 2, "points": 49, "petit_au_bout": None, "chelem": None},
}


def scored(handfuls):
    verdict = judge({**RECORD, "handfuls": handfuls})
    return verdict.deals[0].scores, [v.rule for v in verdict.violations]


def test_without_and_with_a_legal_poignee():
    assert scored([]) == ([-66, 198, -66, -66], [])
    assert scored([{"seat": 0, "size": "simple", "cards": TRUMPS[:10]}]) == ([-86, 258, -86, -86], [])


@pytest.mark.parametrize(("cards", "rule"), [
    (["EX", *TRUMPS[:9]], "handful_excuse_hidden_trump"),   # the Excuse shown, T10 and T11 hidden (A-T9)
    (TRUMPS[:11], "handful_wrong_count"),                   # 11 trumps for a simple (10)
])
def test_an_illegal_poignee_gives_no_bonus(cards, rule):
    assert scored([{"seat": 0, "size": "simple", "cards": cards}]) == ([-66, 198, -66, -66], [rule])


def test_a_poignee_shown_bigger_than_announced_gives_no_bonus():
    # 13 trumps is a double: announced simple, it is neither (no 20, no 30)
    record = {**RECORD, "hands": [["EX", *TRUMPS[:13], *PLAIN[:4]], [*REST[2:18], *PLAIN[4:6]], *RECORD["hands"][2:]]}
    hands = record["hands"]
    assert sorted([c for h in hands for c in h] + record["dog"]) == sorted(TRUMPS + PLAIN + ["EX"])
    verdict = judge({**record, "handfuls": [{"seat": 0, "size": "simple", "cards": TRUMPS[:13]}]})
    assert [v.rule for v in verdict.violations] == ["handful_size_mismatch"]
    assert verdict.deals[0].scores == [-66, 198, -66, -66]
