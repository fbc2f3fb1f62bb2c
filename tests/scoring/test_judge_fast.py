"""Issue 22 §2: the fast paths of a judgement say exactly what the straightforward ones say.

The fast replay (a game's ``fast_replay`` loop, which also gathers the cards each seat won) and the scoring
that reads those cards (``scoring.tarot._facts_from_won``) against the reference: every play through
:class:`rules.play.DealState` and every trick walked again by scoring — the same verdict JSON in French and
English, or the same error, on the golden records, random legal deals of every game at every table size and
contract, and the same records mutated at random (``tests/rules/test_read_fast.py``).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import replay as replay_module
from rules import tarot
from rules.errors import MalformedRecord
from rules.record import read_record
from rules.replay import replay_record
from scoring.tarot import facts_from_tricks
from scoring.verdict import Verdict, score
from tests.rules.test_read_fast import BASES, mutated


def _outcome(data: Any, *, straightforward: bool = False) -> tuple[Any, ...]:
    """The verdict JSON (French, English, and the text of each: the same bytes, keys in the same order) or the
    error; ``straightforward``: written by ``Verdict.to_json_reference``."""
    try:
        replayed = replay_record(read_record(data))
        verdict = Verdict(replayed, score(replayed))
        write = verdict.to_json_reference if straightforward else verdict.to_json
        fr, en = write("fr"), write("en")
        return "verdict", fr, en, json.dumps(fr, ensure_ascii=False), json.dumps(en, ensure_ascii=False)
    except MalformedRecord as exc:
        return "malformed", exc.field, exc.message, exc.fr
    except Exception as exc:  # compared, not hidden: both paths must fail alike
        return "error", type(exc).__name__, str(exc)


def reference(data: Any) -> tuple[Any, ...]:
    """The verdict with no fast path: every play checked by DealState, every trick walked by scoring, the JSON
    written by ``Verdict.to_json_reference``."""
    saved = replay_module._fast_replay
    replay_module._fast_replay = lambda *args: None
    try:
        return _outcome(data, straightforward=True)
    finally:
        replay_module._fast_replay = saved


def assert_agree(data: Any) -> tuple[Any, ...]:
    fast = _outcome(copy.deepcopy(data))
    assert fast == reference(copy.deepcopy(data))
    return fast


@pytest.mark.parametrize("data", BASES, ids=lambda d: f"{d['game']}-{len(d['players'])}p")
def test_sound_records_agree(data):
    assert assert_agree(data)[0] == "verdict"


TABLES = [(3, "mort"), (4, "mort"), (5, "mort"), (5, "called_king")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TABLES), st.sampled_from([None, *tarot.CONTRACTS]), st.integers(0, 2**32 - 1))
def test_random_tarot_deals_agree(table, contract, seed):
    """Every table and contract: the Excuse kept or lost, chelems, the chien apart, a partner or none."""
    players, five = table
    data = tarot.random_record(random.Random(seed), players=players, five=five, contract=contract)
    assert assert_agree(data)[0] == "verdict"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.data())
def test_tarot_deals_with_swapped_tricks_agree(table, seed, data):
    """Tricks played in another order, or by the wrong seats: the fast path must refuse exactly what DealState
    refuses, and say nothing else."""
    players, five = table
    record = tarot.random_record(random.Random(seed), players=players, five=five)
    tricks = record["tricks"]
    i, j = data.draw(st.integers(0, len(tricks) - 1)), data.draw(st.integers(0, len(tricks) - 1))
    tricks[i], tricks[j] = tricks[j], tricks[i]
    k = data.draw(st.integers(0, len(tricks[i]) - 1))
    m = data.draw(st.integers(0, len(tricks[i]) - 1))
    tricks[i][k], tricks[i][m] = tricks[i][m], tricks[i][k]
    assert_agree(record)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_agree(data):
    assert_agree(data)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(TABLES), st.sampled_from([None, *tarot.CONTRACTS]), st.integers(0, 2**32 - 1))
def test_the_facts_from_the_cards_won_are_those_of_the_tricks(table, contract, seed):
    players, five = table
    data = tarot.random_record(random.Random(seed), players=players, five=five, contract=contract)
    deal = replay_record(read_record(data)).deals[0]
    assert deal.won is not None  # a legal deal goes through the fast path
    assert facts_from_tricks(deal) == facts_from_tricks(replace(deal, won=None))


# -- the Excuse led to the last trick (A-T3): rare in random play, so built by hand -------------------------

PLAIN = [f"{r}{s}" for s in "SHDC" for r in ["A", *map(str, range(2, 11)), "J", "N", "Q", "K"]]


def _excuse_led_last(won_every_trick: bool) -> dict[str, Any]:
    """A 4-player garde sans (the chien apart): seat 0 takes, leads its trumps from the top, and the Excuse to the
    last trick; it won every trick before (a chelem) or lost the first to the King of spades."""
    if won_every_trick:
        taker = [f"T{n}" for n in range(21, 4, -1)] + ["EX"]
        dog = ["T1", "T2", "T3", "T4", "AS", "AH"]
        rest = [c for c in PLAIN if c not in dog]
        others = [rest[0:18], rest[18:36], rest[36:54]]
        tricks = [[taker[t], others[0][t], others[1][t], others[2][t]] for t in range(17)]
    else:
        taker = ["2S"] + [f"T{n}" for n in range(21, 5, -1)] + ["EX"]
        dog = ["T1", "T2", "T3", "T4", "T5", "AS"]
        spades = [c for c in PLAIN if c.endswith("S") and c not in ("AS", "2S", "KS")]
        rest = [c for c in PLAIN if not c.endswith("S")]
        others = [["KS", *spades, *rest[:6]], rest[6:24], rest[24:42]]
        tricks = [["2S", "KS", others[1][0], others[2][0]], [others[0][1], others[1][1], others[2][1], "T21"]]
        tricks += [[taker[t], others[0][t], others[1][t], others[2][t]] for t in range(2, 17)]
    tricks.append(["EX", others[0][17], others[1][17], others[2][17]])
    return {"format": "levee.deal/1", "game": "tarot", "options": {"players": 4}, "players": ["A", "B", "C", "D"],
            "dealer": 3, "bid": {"taker": 0, "contract": "garde_sans", "called": None}, "chelem_announced": False,
            "handfuls": [], "hands": [taker, *others], "dog": dog, "tricks": tricks}


@pytest.mark.parametrize("won_every_trick", [True, False])
def test_the_excuse_led_to_the_last_trick(won_every_trick):
    data = _excuse_led_last(won_every_trick)
    result = assert_agree(data)
    assert result[0] == "verdict" and result[1]["legal"], result[1]["violations"]
    last = result[1]["deals"][0]["tricks"][-1]
    assert (last["winner"] == 0) is won_every_trick  # A-T3: the Excuse wins it only after every trick won
    assert result[1]["deals"][0]["result"]["chelem"] == ("attack" if won_every_trick else None)
    assert replay_record(read_record(data)).deals[0].won is not None  # (the fast path was taken)


# -- the verdict JSON: what the property tests above meet rarely ---------------------------------------------

def _matches_with_adjustments() -> list[dict[str, Any]]:
    """Matches of every game with adjustments (applied, after the end, with a reason, a rule and a ref)."""
    from rules import ecarte, imperiale, triomphe, vingt_quatre

    rng = random.Random(7)
    out = [triomphe.random_match(rng)]
    for module, players in ((ecarte, 2), (imperiale, 2), (vingt_quatre, 4)):
        deals = [module.random_record(rng, players=players) for _ in range(3)]
        head = {k: v for k, v in deals[0].items() if k not in ("dealer", "hands", "tricks") and k in (
            "game", "options", "players")}
        out.append({"format": "levee.match/1", **head, "deals": [
            {k: v for k, v in d.items() if k not in ("format", "game", "options", "players")} for d in deals]})
    for data in out:
        n = len(data["players"])
        data["adjustments"] = [
            {"after": -1, "points": [1] + [0] * (n - 1), "reason": "retard", "rule": "§1.13", "ref": 12},
            {"after": len(data["deals"]) - 1, "points": [0] * (n - 1) + [2]}]
    return json.loads(json.dumps(out))


@pytest.mark.parametrize("data", _matches_with_adjustments(), ids=lambda d: d["game"])
def test_matches_with_adjustments_agree(data):
    result = assert_agree(data)
    assert result[0] == "verdict" and len(result[1]["adjustments"]) == 2, result


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**32 - 1), st.data())
def test_a_deal_judged_as_played_writes_the_same_json(table, seed, data):
    """``judge_as_played`` (a renonce kept in the verdict, the deal scored): the written JSON of both writers."""
    from scoring.verdict import judge_as_played

    players, five = table
    record = tarot.random_record(random.Random(seed), players=players, five=five)
    tricks = record["tricks"]
    i, j = data.draw(st.integers(0, len(tricks) - 1)), data.draw(st.integers(0, len(tricks) - 1))
    tricks[i], tricks[j] = tricks[j], tricks[i]
    verdict = judge_as_played(record, 0)
    for lang in ("fr", "en"):
        fast, straight = verdict.to_json(lang), verdict.to_json_reference(lang)
        assert json.dumps(fast, ensure_ascii=False) == json.dumps(straight, ensure_ascii=False)


def _change(value: Any) -> None:
    """Append to every list and add a key to every dict inside a JSON value."""
    if isinstance(value, list):
        for item in value:
            _change(item)
        value.append("changed")
    elif isinstance(value, dict):
        for item in value.values():
            _change(item)
        value["added"] = 1


@pytest.mark.parametrize("data", BASES + _matches_with_adjustments(), ids=lambda d: f"{d['game']}-{len(d['players'])}p")
def test_the_json_of_a_result_is_a_copy(data):
    """The verdict JSON may be changed by its caller (a page adds a field) without touching the verdict."""
    replayed = replay_record(read_record(copy.deepcopy(data)))
    verdict = Verdict(replayed, score(replayed))
    before = json.dumps(verdict.to_json_reference())
    first = verdict.to_json()
    for deal in first["deals"]:  # (what the straightforward writer copies: scores and totals it does not)
        for name in ("result", "tricks", "unchecked", "unfinished_trick"):
            _change(deal[name])
    _change(first.get("adjustments"))
    assert json.dumps(verdict.to_json()) == json.dumps(verdict.to_json_reference()) == before
