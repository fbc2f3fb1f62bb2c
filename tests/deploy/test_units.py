"""The systemd units of deploy/: the print worker below the web when the CPUs are short.

``Nice=`` counts only among the processes of one unit's cgroup; between units, the cgroup CPU controller shares the
CPUs by ``CPUWeight=`` (100 when a unit says nothing). A print worker with ``Nice=10`` alone gets as much CPU as the
web under contention (a PDF burst at 10,000 players, docs/performance.md)."""

from __future__ import annotations

import configparser
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DEFAULT_WEIGHT = 100


def service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser["Service"]


def test_the_print_worker_weighs_less_than_the_web_and_the_refreshes():
    prints = service("levee-prints.service")
    assert int(prints["Nice"]) == 10
    weight = int(prints["CPUWeight"])
    for other in ("levee-web.service", "levee-worker.service"):
        theirs = int(service(other).get("CPUWeight", str(DEFAULT_WEIGHT)))
        assert weight * 4 <= theirs, other  # the web and the refreshes get at least four times its share
