"""Where the two CPUs went during a part of a benchmark: each process group's CPU seconds (user + system, from
``/proc/<pid>/stat``, children included while they live) against the machine's busy time (``/proc/stat``), and the
run queue sampled by ``vmstat 1`` beside it. What is not in a named group is the clients that are not counted
otherwise and every other job of the machine (other sessions' test suites on a shared VM)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[str, int, float] | None:
    """(command, parent, CPU seconds) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    command = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return command, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def processes() -> dict[int, tuple[str, int, float]]:
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _stat(int(entry.name))
            if found is not None:
                out[int(entry.name)] = found
    return out


def _tree(table: dict[int, tuple[str, int, float]], root: int) -> set[int]:
    members, grew = {root}, True
    while grew:
        grew = False
        for pid, (_, parent, _) in table.items():
            if parent in members and pid not in members:
                members.add(pid)
                grew = True
    return members & set(table)


def busy_seconds() -> float:
    """The machine's CPU seconds spent not idle (all CPUs), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / TICK


class Share:
    """Start with the groups to follow (name → root pid, or name → a command name such as « postgres »); :meth:`stop`
    gives each group's CPU seconds over the interval, the machine's busy seconds, and the run queue."""

    def __init__(self, roots: dict[str, int | str]) -> None:
        self.roots = roots
        self.before = self._sample()
        self.busy = busy_seconds()
        self.vmstat: subprocess.Popen | None = None
        if shutil.which("vmstat"):
            self.vmstat = subprocess.Popen(["vmstat", "-n", "1"], stdout=subprocess.PIPE, text=True)

    def _sample(self) -> dict[str, dict[int, float]]:
        table = processes()
        out: dict[str, dict[int, float]] = {}
        for name, root in self.roots.items():
            if isinstance(root, str):
                pids = {pid for pid, (command, _, _) in table.items() if command == root}
            else:
                pids = _tree(table, root)
            out[name] = {pid: table[pid][2] for pid in pids}
        return out

    def stop(self, seconds: float) -> str:
        after = self._sample()
        busy = busy_seconds() - self.busy
        lines = [f"CPU over {seconds:.0f} s (2 CPUs = {2 * seconds:.0f} CPU seconds): the machine busy "
                 f"{busy:.1f} s ({busy / seconds:.2f} CPUs)"]
        named = 0.0
        for name in self.roots:
            used = sum(cpu - self.before[name].get(pid, 0.0) for pid, cpu in after[name].items())
            named += used
            lines.append(f"   {name}: {used:.1f} s ({used / seconds:.2f} CPUs, {used / busy:.0%} of the busy time)"
                         if busy else f"   {name}: {used:.1f} s")
        lines.append(f"   the rest (uncounted clients, this bench's own process, other jobs): {busy - named:.1f} s")
        if self.vmstat is not None:
            self.vmstat.terminate()  # a child of this run, by its id
            out, _ = self.vmstat.communicate(timeout=5)
            rows = [line.split() for line in out.splitlines()[1:]]
            header = rows[0] if rows else []
            samples = [dict(zip(header, row, strict=False)) for row in rows[2:] if len(row) == len(header)]
            if samples:
                queue = [int(s["r"]) for s in samples]
                idle = [int(s["id"]) for s in samples]
                lines.append(f"   vmstat 1 ({len(samples)} samples): run queue r median {statistics.median(queue):g}, "
                             f"max {max(queue)}; idle median {statistics.median(idle):g} %")
        return "\n".join(lines)
