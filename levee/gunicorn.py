"""gunicorn settings for Levée: ``gunicorn -c levee/gunicorn.py levee.wsgi:application``.

Sized for a small server where PostgreSQL runs on the same cores: a deal entered costs about two
thirds of its CPU in Python and one third in PostgreSQL (docs/performance.md, "API"), so one worker
process per core, each with two threads: one runs Python while the other waits on the database.
Measured on 2 cores: 2 × 2 gives the most deals per second with fair latency; 4 × 1 about as many
but some connections wait behind others; sync workers (no keep-alive) slightly fewer, the fairest.
Everything can be overridden from the environment (or gunicorn's own command-line options).

Django keeps one database connection per thread for ``CONN_MAX_AGE`` seconds (set in the settings),
so a worker thread does not reconnect for each request.
"""

from __future__ import annotations

import gc
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", os.cpu_count() or 2))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = int(os.environ.get("GUNICORN_THREADS", 2))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 30))
preload_app = True  # Django is imported once, before the workers are forked
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None  # no line per request unless asked
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")
# each worker tells the master it is alive by changing its heartbeat file's mode between two requests: on a disk's
# file system that call waits for the journal whenever another process (the print worker writing a PDF) holds it,
# and the worker accepts nothing meanwhile. In memory it never waits (gunicorn's documentation says the same).
worker_tmp_dir = os.environ.get("GUNICORN_WORKER_TMP_DIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)


def post_fork(server, worker) -> None:
    """In each worker: what the master imported (Django, the app) is frozen out of the garbage collector's
    scans, and young objects are collected less often (a request allocates many short-lived ones):
    about 1 % fewer instructions per deal entered (docs/performance.md)."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
