"""wrk (C, epoll; ``apt-get install -y wrk``) as the closed-loop clients of ``bench/public.py --loadgen wrk``.

The Python clients of the bench (4 processes of ``http.client`` threads) read every body on the same two CPUs as
the server: at 400 downloads of 2.8 MB a second, or 2,700 PDFs of 166 KB, what they measure is largely their own
reading. wrk reads the same answers for a fraction of that CPU. One call of :func:`run` is one wrk process:
``connections`` keep-alive connections on ``threads`` threads for ``seconds`` whole seconds (wrk takes no
fraction), each connection asking for the variants (path, headers) in turn, and a Lua ``done()`` writing what wrk
counted as JSON: the requests, the run's length, the bytes read (headers included), the socket errors and the
answers ≥ 400 (wrk's own count), and the latency's percentiles.

Two things wrk does of its own: its latency statistics are **corrected for coordinated omission** (it adds
samples for the requests a connection would have sent meanwhile when a latency exceeds the mean interval), so its
high percentiles of a closed loop read higher than the Python client's; and a request slower than ``timeout`` is
counted as a timeout, not as a latency. The status of each answer is checked only when ``check`` gives the
expected one (a Lua ``response()``, which makes wrk copy every body into Lua: kept for the small answers).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: the latency percentiles read from wrk (the quantiles of a merged run are read from these)
PERCENTILES = [*range(1, 100), 99.5, 99.9]


class WrkMissing(SystemExit):
    """``--loadgen wrk`` without wrk: said plainly, never a silent fall back to the Python clients."""


def binary() -> str:
    found = shutil.which("wrk")
    if not found:
        raise WrkMissing("--loadgen wrk: no wrk on this machine (apt-get install -y wrk), "
                         "or run without --loadgen wrk (the Python clients)")
    return found


@dataclass
class WrkResult:
    """What one or more wrk runs counted."""

    requests: int = 0
    seconds: float = 0.0
    bytes: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    unexpected: int = 0  # answers whose status was not the expected one (when checked)
    cpu_seconds: float = 0.0  # wrk's own user + system CPU
    # (percentile, latency in seconds, weight = the run's requests): several runs merge by weight
    points: list[tuple[float, float, int]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def quantile(self, q: float) -> float:
        """The latency's ``q``-th percentile in ms (a weighted merge of the runs' percentiles)."""
        if not self.points:
            return float("nan")
        # each run's latency at percentile p stands for the run's requests between the previous percentile and p
        samples = []
        for n, (p, latency, weight) in enumerate(self.points):
            previous = PERCENTILES[n % len(PERCENTILES) - 1] if n % len(PERCENTILES) else 0.0
            samples.append((latency, weight * (p - previous) / 100))
        samples.sort()
        total = sum(w for _, w in samples)
        seen = 0.0
        for latency, weight in samples:
            seen += weight
            if seen >= total * q / 100:
                return latency * 1000
        return samples[-1][0] * 1000

    def add(self, other: WrkResult) -> None:
        self.requests += other.requests
        self.seconds += other.seconds
        self.bytes += other.bytes
        for name, count in other.errors.items():
            self.errors[name] = self.errors.get(name, 0) + count
        self.unexpected += other.unexpected
        self.cpu_seconds += other.cpu_seconds
        self.points += other.points

    @property
    def error_count(self) -> int:
        """Socket errors and timeouts, and the answers not as expected (≥ 400 when the status is not checked)."""
        sockets = sum(count for name, count in self.errors.items() if name != "status")
        return sockets + max(self.errors.get("status", 0), self.unexpected)


def _lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


def script(variants: list[tuple[str, dict[str, str]]], out: Path, check: int | None) -> str:
    """The Lua script: the requests built once, taken in turn by each thread from its own offset; ``done()`` writes
    the JSON; ``response()`` counts the statuses that are not ``check`` (only when given)."""
    requests = ",\n".join(
        "  wrk.format('GET', " + _lua_string(path) + ", {"
        + ", ".join(f"[ {_lua_string(k)} ] = {_lua_string(v)}" for k, v in headers.items()) + "})"
        for path, headers in variants)
    percentiles = ", ".join(str(p) for p in PERCENTILES)
    check_part = f"""
unexpected = 0  -- a global: done() reads each thread's with thread:get
function response(status, headers, body)
  if status ~= {check} then unexpected = unexpected + 1 end
end
""" if check else ""
    return f"""-- bench/wrk.py: generated
local threads = {{}}
local count = 0
function setup(thread)
  count = count + 1
  thread:set("id", count)
  table.insert(threads, thread)
end
local requests, turn
function init(args)
  requests = {{
{requests}
  }}
  turn = (wrk.thread:get("id") * 7) % #requests
end
function request()
  turn = turn % #requests + 1
  return requests[turn]
end
{check_part}
function done(summary, latency, rps)
  local unexpected_all = 0
  for _, t in ipairs(threads) do unexpected_all = unexpected_all + (t:get("unexpected") or 0) end
  local f = io.open({_lua_string(str(out))}, "w")
  local e = summary.errors
  f:write(string.format('{{"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, ' ..
                        '"write": %d, "status": %d, "timeout": %d, "unexpected": %d, "latency_us": [',
                        summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status,
                        e.timeout, unexpected_all))
  local ps = {{{percentiles}}}
  for i, p in ipairs(ps) do
    if i > 1 then f:write(", ") end
    f:write(string.format("%d", summary.requests > 0 and latency:percentile(p) or 0))
  end
  f:write("]}}")
  f:close()
end
"""


def run(port: int, variants: list[tuple[str, dict[str, str]]], *, connections: int, seconds: int, threads: int = 2,
        check: int | None = None, timeout: int = 30) -> WrkResult:
    """One wrk process against 127.0.0.1:``port`` for ``seconds`` (whole seconds, ≥ 1); what it counted."""
    exe = binary()
    folder = Path(tempfile.mkdtemp(prefix="levee-bench-wrk-"))
    try:
        out = folder / "result.json"
        lua = folder / "script.lua"
        lua.write_text(script(variants, out, check))
        with open(folder / "stdout", "wb") as stdout, open(folder / "stderr", "wb") as stderr:
            proc = subprocess.Popen([exe, "-t", str(min(threads, connections)), "-c", str(connections),
                                     "-d", f"{max(int(seconds), 1)}s", "--timeout", f"{timeout}s", "-s", str(lua),
                                     f"http://127.0.0.1:{port}"], stdout=stdout, stderr=stderr)
            # wait4: wrk's own CPU (user + system), to tell the clients' share of the two CPUs
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode or not out.exists():
            said = (folder / "stderr").read_text(errors="replace") + (folder / "stdout").read_text(errors="replace")
            raise SystemExit(f"wrk failed (exit {proc.returncode}): {said[-800:]}")
        data = json.loads(out.read_text())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    errors = {name: data[name] for name in ("connect", "read", "write", "status", "timeout") if data[name]}
    return WrkResult(requests=data["requests"], seconds=data["duration_us"] / 1e6, bytes=data["bytes"],
                     errors=errors, unexpected=data["unexpected"], cpu_seconds=usage.ru_utime + usage.ru_stime,
                     points=[(p, us / 1e6, data["requests"]) for p, us in zip(PERCENTILES, data["latency_us"],
                                                                              strict=True)])
