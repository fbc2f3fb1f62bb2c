"""The import contracts of pyproject.toml: the layers of tournaments/ and the HTTP-free domain packages are
declared, and no exception is listed (``lint-imports``, run by ``make test``, holds them)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def test_tournaments_is_layered_by_audience_over_domain_over_common():
    layered = [c for c in _contracts() if c["type"] == "layers" and c.get("containers") == ["tournaments"]]
    assert len(layered) == 1
    layers = layered[0]["layers"]
    assert {name.strip() for name in layers[0].split("|")} == {"organizer", "desk", "public", "api"}
    assert layers[-1] == "common"
    assert {"event", "deals", "links", "duplicate", "standings"} <= set(layers)


def test_no_contract_lists_an_exception():
    assert [c["name"] for c in _contracts() if c.get("ignore_imports")] == []


def test_the_domain_packages_are_forbidden_http():
    forbidden = [c for c in _contracts() if c["type"] == "forbidden" and "django.http" in c["forbidden_modules"]]
    assert forbidden and {"tournaments.event", "tournaments.deals", "tournaments.links", "tournaments.duplicate",
                          "tournaments.standings"} <= set(forbidden[0]["source_modules"])
