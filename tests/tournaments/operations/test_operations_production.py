"""Production settings of the operations, in processes of their own: one JSON line per request on the standard
error, the health endpoint reachable in plain HTTP behind the proxy, and errors sent to Sentry when SENTRY_DSN is
set (a local HTTP server plays Sentry)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LEVEE_", "SENTRY_", "DJANGO_"))}
    base.update({"DJANGO_SETTINGS_MODULE": "levee.settings", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "testserver",
                 "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "LEVEE_BACKUP_DIR": str(tmp_path / "b"),
                 "CACHE_URL": "locmemcache://", **env})
    base.pop("CELERY_BROKER_URL", None)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=120)


def test_production_logs_one_json_line_per_request(tmp_path):
    done = _run("import django; django.setup()\n"
                "from django.test import Client\n"
                "r = Client().get('/health/')\n"
                "print(r.status_code)\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["200"]  # not redirected to HTTPS: a load balancer probes in plain HTTP
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    requests = [x for x in lines if x.get("logger") == "levee.request"]
    assert len(requests) == 1, done.stderr
    line = requests[0]
    assert line["route"] == "/health/" and line["status"] == 200 and line["method"] == "GET"
    assert line["level"] == "INFO" and isinstance(line["duration_ms"], float) and line["time"]


class _Sentry(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            import brotli  # what sentry-sdk compresses with when it is installed

            body = brotli.decompress(body)
        _Sentry.received.append(body)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_errors_go_to_sentry_when_sentry_dsn_is_set(tmp_path):
    server = HTTPServer(("127.0.0.1", 0), _Sentry)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Sentry.received.clear()
    code = ("import django; django.setup()\n"
            "import sentry_sdk\n"
            "print(sentry_sdk.get_client().is_active())\n"
            "try:\n    raise ValueError('erreur de test')\n"
            "except ValueError as exc:\n    sentry_sdk.capture_exception(exc)\n"
            "sentry_sdk.flush(10)\n")
    try:
        done = _run(code, tmp_path, SENTRY_DSN=f"http://publickey@127.0.0.1:{server.server_port}/1")
    finally:
        server.shutdown()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
    assert any(b"erreur de test" in body for body in _Sentry.received), _Sentry.received
    assert _run(code, tmp_path).stdout.split() == ["False"]  # without SENTRY_DSN: the client is inactive
