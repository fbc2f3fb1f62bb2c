"""levee/gunicorn.py: a worker's heartbeat never waits for a disk.

Each gunicorn worker changes its heartbeat file's mode (``os.fchmod``) between two requests. On a disk's file system
that call can wait for the journal while another process writes (the print worker's PDFs), and the worker accepts
nothing meanwhile: the fastest view's p99 reached half a second beside a PDF burst (docs/performance.md)."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest


def _settings(monkeypatch: pytest.MonkeyPatch, **env: str):
    for name in ("GUNICORN_WORKER_TMP_DIR",):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    import levee.gunicorn

    return importlib.reload(levee.gunicorn)


def _file_system(path: str) -> str:
    """The type of the file system ``path`` is on, from /proc/mounts (the longest mount point holding it)."""
    best, kind = "", ""
    for line in Path("/proc/mounts").read_text().splitlines():
        _dev, point, fs_type, *_ = line.split()
        if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) > len(best):
            best, kind = point, fs_type
    return kind


def test_the_heartbeat_is_kept_in_memory(monkeypatch):
    conf = _settings(monkeypatch)
    if not os.path.isdir("/dev/shm"):  # a system without it keeps gunicorn's default
        assert conf.worker_tmp_dir is None
        return
    assert conf.worker_tmp_dir == "/dev/shm"
    assert _file_system(conf.worker_tmp_dir) == "tmpfs"


def test_the_environment_can_say_where(monkeypatch, tmp_path):
    assert _settings(monkeypatch, GUNICORN_WORKER_TMP_DIR=str(tmp_path)).worker_tmp_dir == str(tmp_path)
