"""Issue 22 §2: the one-pass reader (``rules.limits.scan`` + ``rules.record.read_record``) says exactly what the
straightforward one says (``read_record_reference``: ``check_size`` first, then every card code parsed one by
one) — the same verdict JSON in both languages, or the same ``MalformedRecord`` field and messages — on the
golden records, random legal deals of every game, and those records mutated at random: wrong types at every
level, unknown fields, card codes in every case and spelling, and every bound broken (too long lists, too
many fields, deep nesting, huge or invalid texts, too many values).
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import limits
from rules.cards import CARD_BY_CODE
from rules.errors import MalformedRecord
from rules.record import read_record, read_record_reference
from rules.replay import replay_record
from scoring.verdict import Verdict, score

GOLDEN = sorted(p for p in Path("tests/golden").glob("*.json") if not p.name.endswith(".expected.json"))


def _generated() -> list[dict[str, Any]]:
    from rules import ecarte, imperiale, tarot, triomphe, vingt_quatre

    rng = random.Random(22)
    out = [tarot.random_record(rng, players=n, five=five) for n, five in ((3, "mort"), (4, "mort"),
                                                                          (5, "called_king"), (5, "mort"))]
    out += [tarot.random_record(rng, players=4, contract=c) for c in ("petite", "garde", "garde_contre")]
    out += [ecarte.random_record(rng, players=n) for n in (2, 3)]
    out += [imperiale.random_record(rng, players=n) for n in (2, 3)]
    out += [vingt_quatre.random_record(rng, players=n) for n in (4, 5)]
    out.append(triomphe.random_match(rng))
    return [json.loads(json.dumps(r)) for r in out]


BASES: list[dict[str, Any]] = [json.loads(p.read_text(encoding="utf-8")) for p in GOLDEN] + _generated()


def outcome(read: Any, data: Any) -> tuple[Any, ...]:
    """What the service answers for a record read by ``read``: the verdict JSON in French and English, or the
    malformed field and messages (any other exception is reported as such, to be compared too)."""
    try:
        replayed = replay_record(read(data))
        verdict = Verdict(replayed, score(replayed))
        return "verdict", verdict.to_json("fr"), verdict.to_json("en")
    except MalformedRecord as exc:
        return "malformed", exc.field, exc.message, exc.fr
    except Exception as exc:  # compared, not hidden: both readers must fail alike
        return "error", type(exc).__name__, str(exc)


def assert_agree(data: Any) -> tuple[Any, ...]:
    fast = outcome(read_record, copy.deepcopy(data))
    reference = outcome(read_record_reference, copy.deepcopy(data))
    assert fast == reference
    if isinstance(data, dict):  # (the readers refuse anything else first)
        within = limits.scan(data, CARD_BY_CODE) is not None
        assert within == limits._fits(data)  # the reference's own fast pass
        if not within:
            assert fast[0] == "malformed"
    return fast


@pytest.mark.parametrize("data", BASES, ids=lambda d: f"{d['game']}-{len(d['players'])}p")
def test_sound_records_agree(data):
    assert assert_agree(data)[0] == "verdict"


# -- mutations ---------------------------------------------------------------------------------------

CODES = ["KS", "ks", "Ks", "kS", " KS", "KS ", "10H", "10h", "1H", "11S", "T21", "t21", "T0", "T22", "T07", "EX",
         "ex", "Ex", "NC", "nc", "ZZ", "", "K", "♠", "T", "XX", "6S", "2C", "\ud800"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 100), st.floats(allow_nan=False),
                    st.text(max_size=6), st.sampled_from(CODES))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=5), max_leaves=12)


def _nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _past_a_bound(kind: str, size: int) -> Any:
    """A value at (size 0) or just past (size 1) a bound, or far past it (size 2)."""
    over = (0, 1, 50)[size]
    return {
        "long_text": "x" * (limits.MAX_TEXT + over),
        "long_key": {"k" * (limits.MAX_TEXT + over): 1},
        "surrogate": "\ud800" if size else "é",
        "surrogate_key": {"\udfff" if size else "é": 1},
        "surrogate_in_list": ["KS", "\ud800" if size else "é", "QH"],
        "long_codes": ["KS"] * (limits.MAX_ITEMS + over),
        "long_list": [1] * (limits.MAX_ITEMS + over),
        "long_lists": [["KS", "QH"]] * (limits.MAX_ITEMS + over),
        "long_inner": [["KS"] * (limits.MAX_ITEMS + over)],
        "long_names": ["n"] * (limits.MAX_ITEMS + over),
        "many_fields": {f"f{i}": i for i in range(limits.MAX_FIELDS + over)},
        "deep": _nested(limits.MAX_DEPTH + over, "KS"),
        "deep_codes": _nested(limits.MAX_DEPTH + over - 1, ["KS"]),
        "deep_dict": _nested(limits.MAX_DEPTH + over - 2, {"a": ["KS"]}),
    }[kind]


BOUNDS = ["long_text", "long_key", "surrogate", "surrogate_key", "surrogate_in_list", "long_codes", "long_list",
          "long_lists", "long_inner", "long_names", "many_fields", "deep", "deep_codes", "deep_dict"]


def _containers(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a dict or list inside ``value`` (the root included)."""
    out = [path] if isinstance(value, (dict, list)) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        out += _containers(item, (*path, key))
    return out


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        places = _containers(data)
        target = _at(data, draw(st.sampled_from(places)))
        kind = draw(st.sampled_from(["replace", "replace", "bound", "delete", "insert", "code", "duplicate"]))
        if isinstance(target, dict):
            keys = list(target)
            key = draw(st.sampled_from(keys)) if keys and kind != "insert" else draw(st.text(max_size=8))
        elif target:
            key = draw(st.integers(0, len(target) - 1))
        else:
            key = None
        if kind == "bound":
            value = _past_a_bound(draw(st.sampled_from(BOUNDS)), draw(st.integers(0, 2)))
        elif kind == "code":
            value = draw(st.sampled_from(CODES))
        elif kind == "duplicate" and key is not None and (isinstance(target, list) or key in target):
            value = copy.deepcopy(target[key])
        else:
            value = draw(json_values)
        if key is None or (kind == "insert" and isinstance(target, list)):
            if isinstance(target, list):
                target.append(value)
            else:
                target[key] = value
        elif kind == "delete":
            if isinstance(target, dict):
                target.pop(key, None)
            else:
                del target[key]
        elif kind == "duplicate" and isinstance(target, list):
            target.insert(key, value)
        else:
            target[key] = value
    return data


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_records_agree(data):
    assert_agree(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BASES), st.sampled_from(BOUNDS), st.integers(0, 2), st.data())
def test_every_bound_broken_anywhere_agrees(base, bound, size, data):
    """A value at or past each bound put at every level: the same field at fault, the same words."""
    record = copy.deepcopy(base)
    places = _containers(record)
    path = data.draw(st.sampled_from(places))
    target = _at(record, path)
    value = _past_a_bound(bound, size)
    if isinstance(target, dict):
        target[data.draw(st.sampled_from([*target, "extra"]))] = value
    else:
        target.insert(data.draw(st.integers(0, len(target))), value)
    result = assert_agree(record)
    if size == 2:
        assert result[0] == "malformed"


@settings(max_examples=100, deadline=None)
@given(json_values)
def test_anything_as_a_record_agrees(value):
    assert_agree(value)


def test_wrong_types_at_the_root_and_in_the_card_lists():
    base = next(b for b in BASES if b["game"] == "tarot" and "hands" in b)
    for value in (None, 1, "x", [], [base], True):
        assert assert_agree(value)[0] == "malformed"
    for field in ("hands", "tricks"):
        for value in ({"0": ["KS"]}, ["KS", "QH", "JH", "10H"], [["KS"], "QH"], [("KS",)], [[1, 2]], [["KS", None]],
                      [["KS", ["QH"]]], [[{"c": "KS"}]], [["ks", "qh", "jh", "10h"]], "KS"):
            assert assert_agree({**base, field: value})[0] in ("malformed", "verdict")


def _match_of_values(children: int) -> dict[str, Any]:
    """A Triomphe match whose containers hold ``children`` values in all (what the MAX_VALUES bound counts)."""
    base = next(b for b in BASES if b["game"] == "triomphe" and "deals" in b)
    record = {k: v for k, v in base.items() if k != "deals"}
    fixed = len(record) + sum(len(v) for v in record.values() if isinstance(v, (dict, list)))
    fixed += 1  # the deals list itself
    deals: list[Any] = []
    left = children - fixed
    while left > 0:
        if left == 1:
            deals.append({})  # 1 value (in the deals list)
            left = 0
        elif left <= limits.MAX_ITEMS + 2:
            deals.append({"y": ["KS"] * (left - 2)})  # 1 + 1 (y) + left - 2
            left = 0
        else:  # {"x": k lists of 78 codes}: 1 + 1 + k + 78 k
            k = min(limits.MAX_ITEMS, (left - 4) // 79)
            deals.append({"x": [["KS"] * limits.MAX_ITEMS for _ in range(k)]})
            left -= 2 + 79 * k
    record["deals"] = deals
    return record


@pytest.mark.parametrize("children", [limits.MAX_VALUES - 1, limits.MAX_VALUES, limits.MAX_VALUES + 1,
                                      limits.MAX_VALUES + 500])
def test_the_count_of_values_agrees_at_its_bound(children):
    record = _match_of_values(children)
    counted = sum(len(_at(record, p)) for p in _containers(record))
    assert counted == children
    assert len(record["deals"]) <= limits.MAX_DEALS
    result = assert_agree(record)
    within = children <= limits.MAX_VALUES
    assert (limits.scan(record, CARD_BY_CODE) is not None) == within
    if not within:
        assert result[:2] == ("malformed", "$")


# -- the stored form of a deal (rules.normalise): worked out once per game, the same result -------------

def _reference_normalise(game: str, fields: dict[str, Any]) -> dict[str, Any]:
    """``rules.normalise.normalise_deal`` as it was before its shapes were cached: the schema walked per value."""
    from rules import normalise

    def value_of(value: Any, subs: tuple[Any, ...]) -> Any:
        schemas = [b for sub in subs for b in normalise._branches(normalise._resolve(sub))]
        types: set[str] = set()
        for schema in schemas:
            kind = schema.get("type")
            types.update(kind if isinstance(kind, list) else [kind] if kind else [])
        if isinstance(value, str) and "number" in types and normalise._NUMBER.match(value):
            number = float(value.strip().replace(",", "."))
            return int(number) if number.is_integer() else number
        if isinstance(value, dict):
            nested: dict[str, list[Any]] = {}
            for schema in schemas:
                for name, sub in schema.get("properties", {}).items():
                    nested.setdefault(name, []).append(sub)
            if nested:
                return {k: value_of(v, tuple(nested[k])) for k, v in value.items() if k in nested}
        return value

    if f"{game}-deal" not in normalise._schema()["$defs"]:
        return dict(fields)
    known = normalise._deal_properties(game)
    return {name: value_of(value, known[name]) for name, value in fields.items() if name in known}


NUMBERS = st.sampled_from(["41", "40,5", " 40.5 ", "+3", "-2", "x", "4 1", "1e3", "", "٣"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.data())
def test_the_stored_form_is_the_reference_one(data, more):
    from rules.normalise import normalise_deal

    deals = data.get("deals") if isinstance(data.get("deals"), list) else [data]
    game = data.get("game") if isinstance(data.get("game"), str) else "tarot"
    for deal in deals:
        if not isinstance(deal, dict):
            continue
        fields = {k: v for k, v in deal.items() if k not in ("format", "game", "options", "players")}
        if more.draw(st.booleans()):  # numbers as texts where the format allows them (a summary's points …)
            fields["summary"] = {"points": more.draw(NUMBERS), "oudlers": more.draw(NUMBERS), "x": 1}
        assert normalise_deal(game, fields) == _reference_normalise(game, fields)


def test_options_are_read_once_per_distinct_object_and_errors_every_time():
    from rules.game import get_game
    from rules.record import parse_options

    tarot, ecarte = get_game("tarot"), get_game("ecarte")
    four = parse_options(tarot, {"players": 4})
    assert four is parse_options(tarot, {"players": 4})
    assert parse_options(tarot, {"players": 5, "five": "called_king"}).five == "called_king"
    assert parse_options(tarot, {"players": 5}).five == "mort"
    for raw in ({"players": True}, {"players": 4, "five": "x"}, {"players": 7}):  # True == 1 but is no player count
        for _ in range(2):
            with pytest.raises(MalformedRecord):
                parse_options(tarot, raw)
    assert parse_options(ecarte, {"players": 2}) != four
