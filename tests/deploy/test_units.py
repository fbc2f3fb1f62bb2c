"""The systemd units of deploy/: the print worker gets the CPUs only when the web and the refreshes leave them idle.

``Nice=`` counts only among the processes of one unit's cgroup; between units, the cgroup CPU controller shares the
CPUs by ``CPUWeight=``. Neither ``Nice=10`` nor a low weight kept the web's fastest view under 100 ms beside a burst
on PDFs not made yet at 10,000 players; idle scheduling did (docs/performance.md)."""

from __future__ import annotations

import configparser
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    parser.read_string((DEPLOY / name).read_text(encoding="utf-8"))
    return parser["Service"]


def test_the_print_worker_is_idle_scheduled():
    prints = service("levee-prints.service")
    assert prints["CPUWeight"] == "idle"  # its cgroup (cpu.idle), against the other units
    assert prints["CPUSchedulingPolicy"] == "idle"  # its processes (SCHED_IDLE), and on cgroup v1
    assert "Nice" not in prints  # meaningless under SCHED_IDLE: one setting says how it runs


def test_the_web_and_the_refreshes_are_not():
    for other in ("levee-web.service", "levee-worker.service"):
        unit = service(other)
        assert unit.get("CPUWeight", "100") != "idle", other
        assert unit.get("CPUSchedulingPolicy", "other") in ("other", "batch"), other


def test_the_bench_runs_the_print_worker_as_the_unit_does():
    text = (DEPLOY.parent / "bench" / "public.py").read_text(encoding="utf-8")
    assert 'PRINTS_POLICY = {"idle": ["chrt", "--idle", "0"]' in text
    assert 'choices=tuple(PRINTS_POLICY), default="idle"' in text
