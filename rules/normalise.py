"""A deal's own fields as they are stored: only the fields the record format defines, numbers as numbers.

The record format (``rules/schema/deal-record.schema.json``, ``docs/deal-record.md``) lists each game's deal
fields. What a client sends beyond them (a misspelt or invented field) is not part of the deal: it is left out of
what is stored rather than kept as it came. A value the format allows as a number or a text (a Tarot summary's
``points``: ``41``, ``"41"`` or ``"40,5"``) is stored as the number. Objects the format describes field by field
(``bid``, ``summary``, ``king`` …) are normalised the same way, one level down.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

_SCHEMA = Path(__file__).resolve().parent / "schema" / "deal-record.schema.json"
_NUMBER = re.compile(r"^\s*[+-]?\d+(?:[.,]\d+)?\s*$")


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(_SCHEMA.read_text(encoding="utf-8"))
    return schema


def _resolve(node: Any) -> Any:
    while isinstance(node, Mapping) and "$ref" in node and len(node) == 1:
        node = _schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _branches(node: Any) -> Iterator[Mapping[str, Any]]:
    """The schema objects that apply to one value: the node, its $ref, allOf/anyOf/oneOf, if/then/else."""
    stack, seen = [node], set()
    while stack:
        item = stack.pop()
        if not isinstance(item, Mapping) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if "$ref" in item:
            stack.append(_schema()["$defs"][item["$ref"].rsplit("/", 1)[-1]])
        for key in ("allOf", "anyOf", "oneOf"):
            stack.extend(item.get(key, []))
        stack.extend(item[key] for key in ("then", "else") if key in item)


@cache
def _deal_properties(game: str) -> dict[str, tuple[Mapping[str, Any], ...]]:
    """Each field a deal of ``game`` may have, with the schema objects describing its value."""
    roots = [_schema()["$defs"]["deal"], _schema()["$defs"].get(f"{game}-deal", {})]
    fields: dict[str, list[Mapping[str, Any]]] = {}
    for root in roots:
        for branch in _branches(root):
            for name, sub in branch.get("properties", {}).items():
                fields.setdefault(name, []).append(sub)
    return {name: tuple(subs) for name, subs in fields.items()}


def _value_schemas(subs: tuple[Mapping[str, Any], ...]) -> list[Mapping[str, Any]]:
    return [b for sub in subs for b in _branches(_resolve(sub))]


def _normalise_value(value: Any, subs: tuple[Mapping[str, Any], ...]) -> Any:
    schemas = _value_schemas(subs)
    types: set[str] = set()
    for schema in schemas:
        kind = schema.get("type")
        types.update(kind if isinstance(kind, list) else [kind] if kind else [])
    if isinstance(value, str) and "number" in types and _NUMBER.match(value):
        number = float(value.strip().replace(",", "."))
        return int(number) if number.is_integer() else number
    if isinstance(value, Mapping):
        nested: dict[str, list[Mapping[str, Any]]] = {}
        for schema in schemas:
            for name, sub in schema.get("properties", {}).items():
                nested.setdefault(name, []).append(sub)
        if nested:  # an object the format describes field by field
            return {k: _normalise_value(v, tuple(nested[k])) for k, v in value.items() if k in nested}
    return value


def normalise_deal(game: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's own fields as stored: known fields only, values as the format defines them (see the module).

    ``fields`` holds no fixed field (format, game, options, players). A game the format does not know is left
    as it is (its reader will refuse it)."""
    if f"{game}-deal" not in _schema()["$defs"]:
        return dict(fields)
    known = _deal_properties(game)
    return {name: _normalise_value(value, known[name]) for name, value in fields.items() if name in known}
