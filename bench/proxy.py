"""nginx in front of gunicorn for the benchmarks and the tests, made of ``deploy/nginx-levee.conf``'s shared parts
(between its « levee: shared » markers: the upstream, the public pages' micro-cache, the inner server that follows
``X-Accel-Redirect`` to the kept files, the locations) with a run's own ports and folders, in a plain HTTP server.
nginx runs as a child of the caller (not the system's service, not a daemon); the caller ends it by its id."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def nginx_config(folder: Path, port: int, upstream: int, pdf_root: str, workers: int | str = 1) -> str:
    """An nginx.conf for this run: ``deploy/nginx-levee.conf``'s shared parts (between its « levee: shared » markers:
    the upstream, the micro-cache, the inner server following X-Accel-Redirect, the public and plain locations) with
    this run's ports and folders, in a plain HTTP server on 127.0.0.1:``port``."""
    deploy = (ROOT / "deploy" / "nginx-levee.conf").read_text()
    shared = dict(re.findall(r"# levee: shared begin \((http|server)\)\n(.*?)# levee: shared end", deploy, re.S))
    assert set(shared) == {"http", "server"}, "deploy/nginx-levee.conf lost its « levee: shared » markers"

    def here(text: str) -> str:
        return (text.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
                .replace("/var/cache/nginx/levee", str(folder / "cache"))
                .replace("/run/levee-nginx-inner.sock", str(folder / "inner.sock"))
                .replace("/var/lib/levee/pdf/", pdf_root.rstrip("/") + "/"))

    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                            "uwsgi", "scgi"))
    return f"""# bench/public.py --proxy nginx: generated from deploy/nginx-levee.conf
daemon off;
user root;
worker_processes {workers};
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 120s;
    keepalive_requests 1000000;   # the bench's clients keep one connection for the whole run
{temp}
{here(shared["http"])}
    server {{
        listen 127.0.0.1:{port};
{here(shared["server"])}
    }}
}}
"""


def start_nginx(upstream: int, pdf_root: str, workers: int | str = 1) -> tuple[int, subprocess.Popen]:
    """nginx as a child of this run (not the system's service), in front of gunicorn's ``upstream`` port; its port."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise SystemExit("--proxy nginx: no nginx here (apt-get install -y nginx-light)")
    folder = Path(tempfile.mkdtemp(prefix="levee-bench-nginx-"))
    port = _free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_config(folder, port, upstream, pdf_root, workers))
    check = subprocess.run([binary, "-t", "-c", str(conf), "-p", str(folder)], capture_output=True, text=True)
    if check.returncode:
        raise SystemExit(f"nginx -t: {check.stderr}")
    proxy = subprocess.Popen([binary, "-c", str(conf), "-p", str(folder)])
    _wait_up(port, proxy)
    return port, proxy




def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(port: int, proxy: subprocess.Popen) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        if proxy.poll() is not None:
            raise SystemExit("nginx did not start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("nginx did not answer")
