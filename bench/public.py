"""Benchmark of the public pages of a 1,000- or 10,000-player event against gunicorn on PostgreSQL (issues 15, 22).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/levee_bench_public \\
    BENCH_REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/public.py \\
        [--event 10000] [--reuse] [--clients 64] [--duration 30] [--rate 100] [--slot 0.25] [--redis-cache]
        [--renders worker|thread] [--burst 30] [--only closed,open,publish,burst] [--proxy nginx]
        [--targets link,fragment] [--nginx-workers 1|auto] [--loadgen python|wrk|both] [--wrk-window 1]
        [--wrk-threads 2] [--quiet-pass] [--ready-limit 900]

1. Builds the ``--event``-player × 10-round Tarot tournament of ``bench/ranking.py`` (its generator: 12,500 deals
   and 50,000 score rows at 1,000 players, ten times that at 10,000; ``--reuse`` keeps the one an earlier run
   wrote) and publishes its ranking.
2. Starts gunicorn with ``levee/gunicorn.py`` (2 workers × 2 threads on 2 CPUs) and ``bench/public_site.py``:
   the project's settings and URLs plus a trivial view, the reference. The renders (PDFs) run as in production:
   ``--renders worker`` (the default when Redis answers) gives gunicorn the broker and starts one Celery worker
   on a ``prints`` queue of its own; ``--renders thread`` is the laptop's way (no broker, the web process's
   render thread).
3. **Closed loop, interleaved**: ``--clients`` clients (4 processes of threads, keep-alive, ``Accept-Encoding:
   gzip, deflate, br`` as a phone's Safari sends it; Chrome adds zstd) for ``--duration`` seconds. Time is cut in
   slots of ``--slot`` seconds and every slot, all clients request the same target: every other slot the trivial
   view, the public pages (full and conditional) taking turns in between, so every target is measured under the
   same load and the same minutes of this shared VM, and the reference is sampled all along the run.
   Per target: requests/s (during its slots), p50 / p95 / p99, bytes on the wire, and the ratio to the trivial
   view. A closed loop's latency is its queueing (Little's law: 64 clients at 1,000 requests/s wait 64 ms each).
4. **Open loop** at ``--rate`` requests/s in all over the public targets (each client on its own schedule; the
   latency counts from when a request was due, so falling behind shows): the run that answers "100 requests a
   second held, p95 under 100 ms".
5. **Publication with a real worker** (Celery, solo pool, Redis): a deal committed, then the « ma place »
   fragment of its taker polled through gunicorn until it shows his new total: p50 / p95 of commit → shown, each
   deal's parts printed beside it (commit → the snapshot saved, then committed); a first deal, not counted, waits
   for the worker to start (10 – 25 s under load: it made the p95 of 10 deals). ``--readers N``: N other players
   poll their own « ma place » meanwhile (French and English in turn, each on its own connection), as phones do.
   The renders its publications queue run on the print worker (``--renders worker``), as on a server.
   ``--only publish`` asks only the ranking pages first.
6. **A burst on the PDFs** (``--burst`` seconds): ``--clients`` clients ask for PDFs nobody asked for yet (the
   other parts of the ranking, rounds 9 and 8's results and placement: « en préparation » until their render is
   done, then the file) while 4 other clients ask for the trivial view at 50 requests/s, open loop; the trivial
   view's p95 is compared with the same open loop just before the burst. Then each gunicorn worker's memory
   (``VmRSS`` and its peak ``VmHWM`` in ``/proc/<pid>/status``), and the print worker's. The print worker is
   scheduled as ``deploy/levee-prints.service`` has it (``--prints-policy idle``: SCHED_IDLE, the CPU only when
   nothing else wants it) or as before (``nice``: ``Nice=10`` alone).

``--proxy nginx`` puts nginx in front of gunicorn as in production: a child nginx (not the system's service, not a
daemon) on a free port, its configuration made of ``deploy/nginx-levee.conf``'s shared parts (the micro-cache of the
public pages, the inner server that follows ``X-Accel-Redirect`` to the kept files, the proxy) with this run's
ports and folders, and gunicorn started with ``LEVEE_ACCEL_REDIRECT=/_kept/``. Every request then goes through
nginx; the reference is the trivial view through nginx (never cached: nginx passes it to gunicorn), and the
trivial view straight to gunicorn is measured beside it.

``--loadgen wrk`` (``bench/wrk.py``; ``apt-get install -y wrk``, a missing wrk stops the run) makes the closed-loop
clients one wrk process instead of the Python ones: the closed loop in windows of ``--wrk-window`` whole seconds
(every other one the trivial view's), and the burst's clients; the open loops stay Python. ``--loadgen both`` runs
wrk, then the Python clients, in the same run. Each burst says where the two CPUs went (``bench/cpushare.py``).
``--quiet-pass`` makes the PDFs and the big downloads in the build, as the prints worker does once a published
state is quiet, instead of waiting for the first requests to have them made.

The targets include every public page (ranking, « ma place », fragment, player, hall screen, home, round
results, printable ranking and results, ranking and results CSV, results file, ledger) and the PDFs, once their
worker made them (``wait_ready``: the seconds from the first request, « en préparation », to the file).

Targets: every public page at ≥ 50 % of the trivial view's rate (closed loop), p95 < 100 ms at 100 requests/s
(open loop), commit → fragment p95 < 1 s, the trivial view's p95 < 100 ms during the PDF burst and no web worker
above 300 MiB after it. Figures in docs/performance.md, "Public pages".
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT), str(BENCH)]
import cpushare  # noqa: E402 - bench/cpushare.py, after the path
import wrk  # noqa: E402 - bench/wrk.py, after the path

DB_URL = os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/levee_bench_public")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
os.environ["DATABASE_URL"] = DB_URL
os.environ["DJANGO_SETTINGS_MODULE"] = "public_site"
os.environ.setdefault("DEBUG", "False")
PROCESSES = 4
TARGET_RATIO, TARGET_P95_MS, TARGET_RATE, TARGET_PUBLISH_MS = 0.5, 100.0, 100.0, 1000.0
TARGET_BURST_P95_MS, TARGET_RSS_MIB, BURST_TRIVIAL_RATE = 100.0, 300.0, 50.0
#: a body above this is not handed to wrk's Lua (its status is not checked there: its size is, see report_wrk)
BIG = 64 * 1024
#: seconds a request may take while the targets are read and warmed (a page's first render at 10,000 players)
SETUP_TIMEOUT = 900
#: seconds to wait for a PDF or a download to be made before leaving it out of the run (--ready-limit)
READY_LIMIT = [900.0]
#: the print worker's queue in Redis (None: renders in the web process's thread)
PRINTS_QUEUE: list[str | None] = [None]


@dataclass
class Target:
    """One thing requested: a name, and its variants (path, headers, expected status) taken in turn."""

    name: str
    variants: list[tuple[str, dict[str, str], int]]
    public: bool = True
    port: int | None = None  # another server than the one measured (the trivial view straight to gunicorn)
    size: int = 0  # the body's bytes when the targets were read (wrk checks the status of the small ones only)

    @property
    def expected(self) -> int | None:
        """The one status every variant answers, checked by wrk unless the body is large (wrk copies it into Lua)."""
        statuses = {status for _, _, status in self.variants}
        return statuses.pop() if len(statuses) == 1 and 0 not in statuses and self.size <= BIG else None


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    bytes: int = 0
    errors: list[str] = field(default_factory=list)

    def quantile(self, q: int) -> float:
        if len(self.latencies) < 2:
            return float("nan")
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[q - 1] * 1000


# -- the tournament ------------------------------------------------------------------------------------


def build(quiet_pass: bool = False) -> tuple[str, list[int], int]:
    """The 1,000 × 10 tournament, published; (slug, entry ids, tournament id)."""
    import ranking as generator  # bench/ranking.py

    generator.ensure_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import transaction

    from tournaments.public import tasks as public_tasks
    from tournaments.standings import rankings

    # the publication's renders (tournaments/public/tasks.py render_published: the pages into the cache, the ranking
    # CSV's file) run here, timed, as the prints worker would run them: with --redis-cache they land in the cache the
    # web workers share, so their first request of the ranking page reads those bytes instead of rendering
    settings.LEVEE_RENDER_IN = "manual"  # nothing queued by this process runs behind its back
    call_command("migrate", verbosity=0)
    t = generator.generate()
    with transaction.atomic():
        rankings.ranking_inputs_changed(tournament_id=t.pk)
    started = time.perf_counter()
    rankings.ranking_publish(tournament_id=t.pk)
    print(f"ranking published in {(time.perf_counter() - started) * 1000:.0f} ms")
    # what the refresh task does after a publication (tournaments/standings/tasks.py: the ranking_published port):
    # the pages' renders, here in this process as the prints worker would run them; the quiet pass (the PDFs, the
    # big downloads) is left to the requests, as before
    version = t.ranking_snapshots.order_by("-input_version").values_list("input_version", flat=True).first()
    started = time.perf_counter()
    done = public_tasks.render_published(t.pk, version)
    print(f"the publication's renders ({done} pages into the cache and the ranking CSV's file): "
          f"{(time.perf_counter() - started) * 1000:.0f} ms")
    if quiet_pass:  # what the prints worker does once the state is quiet: the PDFs and the big downloads, as files
        started = time.perf_counter()
        done = public_tasks.render_published(t.pk, version, pdfs=True)
        print(f"the quiet pass ({done} files: the ranking and latest results PDFs, the results CSV and files): "
              f"{(time.perf_counter() - started):.0f} s")
    ids = list(t.entries.order_by("id").values_list("id", flat=True))
    return t.slug, ids, t.pk


# -- HTTP ----------------------------------------------------------------------------------------------

# what a phone's browser says it takes: Safari's « gzip, deflate, br » (Chrome's adds zstd, which nothing here sends);
# « gzip » alone until the eighth session, when the big downloads got their brotli copies
PHONE = {"Accept-Encoding": "gzip, deflate, br", "Cookie": "django_language=fr"}


def get(conn: http.client.HTTPConnection, path: str, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
    conn.request("GET", path, headers={**PHONE, **headers})
    response = conn.getresponse()
    body = response.read()
    return response.status, body, {k.lower(): v for k, v in response.getheaders()}


def targets(port: int, slug: str, ids: list[int], players: int, direct: int | None = None) -> list[Target]:
    """The trivial view and each public page, full and conditional (ETags read once here)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SETUP_TIMEOUT)
    base = f"/p/{slug}"
    me = ids[len(ids) // 2]

    def full_and_304(name: str, paths: list[str], headers: dict[str, str] | None = None) -> list[Target]:
        headers = headers or {}
        variants, conditional, size = [], [], 0
        for p in paths:
            started = time.perf_counter()
            status, body, h = get(conn, p, headers)
            size = max(size, len(body))
            took = time.perf_counter() - started
            if took > 0.1:
                print(f"{p}: first request {took * 1000:,.0f} ms")
            assert status == 200, (p, status)
            variants.append((p, headers, 200))
            conditional.append((p, {**headers, "If-None-Match": h["etag"]}, 304))
        return [Target(name, variants, size=size), Target(f"{name}, conditional", conditional)]

    out = [Target("trivial view" + (" (through nginx)" if direct else ""), [("/bench/trivial/", {}, 200)],
                  public=False)]
    if direct:
        out.append(Target("trivial view, straight to gunicorn", [("/bench/trivial/", {}, 200)], public=False,
                          port=direct))
    out += full_and_304("ranking", [f"{base}/ranking/"])
    out += full_and_304("ranking « ma place »", [f"{base}/ranking/?me={me}"])
    hx = {"HX-Request": "true"}
    _, body, _ = get(conn, f"{base}/ranking/", hx)
    fragment_size = len(body)
    poll = re.search(rb'hx-get="([^"]+)"', body if body[:2] != b"\x1f\x8b" else _gunzip(body)).group(1)
    poll = poll.decode().replace("&amp;", "&")
    out.append(Target("fragment", [(f"{base}/ranking/", hx, 200)], size=fragment_size))
    out.append(Target("fragment, polling (since)", [(poll, hx, 204)]))
    # « ma place »'s live fragment, each phone its own: more readers than a web process keeps pages (256)
    readers = ids[:: max(len(ids) // 1000, 1)][:1000]
    out.append(Target(f"fragment « ma place » ({len(readers)} readers)",
                      [(f"{base}/ranking/?me={i}", hx, 200) for i in readers], size=fragment_size))
    out += full_and_304(f"player ({players} players)", [f"{base}/players/{i}/" for i in ids[:players]])
    out += full_and_304("hall screen", [f"{base}/screen/"])
    out += full_and_304("home", [f"{base}/"])
    # the pages that were not cached before issue 22: the round results (page 1 of 5), the printable ranking and
    # results, the CSV files, the results file, the ledger
    out += full_and_304("round results (50 tables)", [f"{base}/rounds/10/", f"{base}/rounds/1/"])
    out += full_and_304("printable ranking", [f"{base}/ranking/print/"])
    out += full_and_304("printable results", [f"{base}/results/print/"])
    # the CSV files and the results file: rendered by the worker like the PDFs (« en préparation » meanwhile; the
    # ranking CSV at publication), then files
    for name, path in (("ranking CSV", f"{base}/ranking.csv"), ("results CSV", f"{base}/results.csv"),
                       ("results file (JSON)", f"{base}/results.json")):
        took = wait_ready(conn, path)
        if took is None:  # not measured, said so: the rest of the run goes on
            print(f"{path}: NOT ready after {SETUP_TIMEOUT} s: not measured")
            continue
        print(f"{path}: ready after {took:.1f} s")
        out += full_and_304(name, [path])
    out += full_and_304("ledger", [f"{base}/ledger/"])
    # the PDFs, rendered by the web process's render thread (no broker here) and then served as files
    pdfs = [f"{base}/ranking.pdf", f"{base}/rounds/10/results.pdf", f"{base}/rounds/10/seating.pdf"]
    for path in list(pdfs):
        took = wait_ready(conn, path)
        print(f"{path}: " + (f"ready after {took:.1f} s" if took is not None else
                             f"NOT ready after {READY_LIMIT[0]:g} s: not measured"))
        if took is None:
            pdfs.remove(path)
    if pdfs:
        out += full_and_304("PDFs (ranking, round results, seating)", pdfs)
    conn.close()
    return out


def wait_ready(conn: http.client.HTTPConnection, path: str, limit: float | None = None) -> float | None:
    """Ask for a PDF or a kept download until it is served (« en préparation », 202, meanwhile); the seconds, or
    None when it is not served after ``limit`` seconds (``--ready-limit``)."""
    limit = READY_LIMIT[0] if limit is None else limit
    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        status, _, _ = get(conn, path, {})
        if status == 200:  # maybe an older state's file: its newest state's render, if queued, done first
            wait_renders_done(os.environ["LEVEE_PDF_ROOT"], PRINTS_QUEUE[0], limit)
            return time.perf_counter() - started
        assert status == 202, (path, status)
        time.sleep(1.0)
    return None


def wait_renders_done(pdf_root: str, queue: str | None, limit: float) -> float:
    """Wait until the print worker has no render queued (its queue empty in Redis) or running (no live claim under
    the kept files' folder); the seconds waited. A download is served from its latest file written while its newest
    state renders: a render still running when the measurement starts lands mid-run, the file's ETag changes, and
    the conditional requests measured get 200 (seen at 10,000 players: the results file re-rendered after the
    setup's championship, 715 « unexpected statuses »)."""
    import redis

    from tournaments.common.files import CLAIM_STALE

    started = time.perf_counter()
    broker = redis.Redis.from_url(REDIS_URL) if queue else None
    while time.perf_counter() - started < limit:
        now = time.time()
        live = [c for c in Path(pdf_root).rglob("*.claim") if now - c.stat().st_mtime < CLAIM_STALE]
        if not live and (broker is None or not broker.llen(queue)):
            return time.perf_counter() - started
        time.sleep(1.0)
    print(f"the print worker still busy after {limit:g} s: measured anyway")
    return time.perf_counter() - started


def warm(port: int, tlist: list[Target], times: int = 4) -> float:
    """Every variant requested ``times`` times, each on a new connection (so that each gunicorn worker renders
    and keeps its copy, as it would after a few seconds of real traffic); the seconds it took."""
    started = time.perf_counter()
    for target in tlist:
        for path, headers, _ in target.variants:
            for _ in range(1 if len(target.variants) > 100 else times):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SETUP_TIMEOUT)
                get(conn, path, headers)
                conn.close()
    return time.perf_counter() - started


def _gunzip(body: bytes) -> bytes:
    import gzip

    return gzip.decompress(body)


# -- load ----------------------------------------------------------------------------------------------


def _client_process(port: int, tlist: list[Target], threads: int, start: float, warm_until: float, stop: float,
                    slot: float, rate_each: float | None, out: multiprocessing.Queue, seed: int) -> None:
    """One process of client threads; puts {target index: Result} on ``out``."""
    results = [Result() for _ in tlist]
    lock = threading.Lock()

    def run(k: int) -> None:
        conns: dict[int, http.client.HTTPConnection] = {}
        turn = [seed * 7919 + k * 31] * len(tlist)
        interval = 1 / rate_each if rate_each else None
        due = start + (interval or 0) * ((seed * threads + k) / (PROCESSES * threads))
        n = 0
        while True:
            if interval is None:
                sent = time.time()
                if sent >= stop:
                    break
                # every other slot is the first target's (the trivial view: the reference sampled all along the
                # run, not in one slot out of thirty), the others take turns in between
                n_slot = int((sent - start) / slot)
                index = 0 if n_slot % 2 == 0 or len(tlist) == 1 else 1 + (n_slot // 2) % (len(tlist) - 1)
            else:
                if due >= stop:
                    break
                wait = due - time.time()
                if wait > 0:
                    time.sleep(wait)
                sent, due = due, due + interval
                index = (seed * threads + k + n) % len(tlist)
                n += 1
            target = tlist[index]
            path, headers, expected = target.variants[turn[index] % len(target.variants)]
            turn[index] += 1
            where = target.port or port
            conn = conns.get(where) or conns.setdefault(where, http.client.HTTPConnection("127.0.0.1", where,
                                                                                          timeout=60))
            try:
                status, body, _ = get(conn, path, headers)
            except (OSError, http.client.HTTPException) as exc:
                conn.close()
                conns.pop(where, None)
                with lock:
                    results[index].errors.append(repr(exc))
                continue
            elapsed = time.time() - sent
            if sent < warm_until:
                continue
            with lock:
                r = results[index]
                if status != expected and not (expected == 0 and status in (200, 202)):
                    r.errors.append(f"{status} for {path}")
                r.latencies.append(elapsed)
                r.bytes += len(body)
        for conn in conns.values():
            conn.close()

    pool = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.put((results, usage.ru_utime + usage.ru_stime))  # the process's own CPU: the clients' share


def load(port: int, tlist: list[Target], clients: int, duration: float, warmup: float, slot: float,
         rate: float | None, cpu: list[float] | None = None) -> list[Result]:
    """The clients' results per target; ``cpu`` gets the client processes' own CPU seconds appended."""
    threads = max(clients // PROCESSES, 1)
    start = time.time() + 1.0
    warm_until, stop = start + warmup, start + warmup + duration
    rate_each = rate / (threads * PROCESSES) if rate else None
    queue: multiprocessing.Queue = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=_client_process, args=(port, tlist, threads, start, warm_until, stop,
                                                                   slot, rate_each, queue, i))
             for i in range(PROCESSES)]
    for p in procs:
        p.start()
    merged = [Result() for _ in tlist]
    used = 0.0
    for _ in procs:
        got, seconds = queue.get()
        used += seconds
        for m, r in zip(merged, got, strict=True):
            m.latencies += r.latencies
            m.bytes += r.bytes
            m.errors += r.errors
    for p in procs:
        p.join()
    if cpu is not None:
        cpu.append(used)
    return merged


def report_closed(tlist: list[Target], results: list[Result], duration: float, slot: float) -> bool:
    """Requests/s of each target during its own slots, latencies, bytes, ratio to the trivial view."""
    # seconds of the measured window that were each target's: half for the trivial view, the rest shared
    own_times = [duration / 2] + [duration / 2 / (len(tlist) - 1)] * (len(tlist) - 1)
    rates = [len(r.latencies) / own for r, own in zip(results, own_times, strict=True)]
    trivial = rates[0]
    print("| target | requests/s | p50 | p95 | p99 | bytes | ratio to the trivial view | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    ok = True
    for t, r, rate in zip(tlist, results, rates, strict=True):
        size = r.bytes / len(r.latencies) if r.latencies else 0
        ratio = rate / trivial if trivial else 0
        if t.public and (ratio < TARGET_RATIO or r.errors):
            ok = False
        print(f"| {t.name} | {rate:,.0f} | {r.quantile(50):.1f} ms | {r.quantile(95):.1f} ms | {r.quantile(99):.1f} ms "
              f"| {size:,.0f} | {ratio:.0%} | {len(r.errors)} |")
        if r.errors:
            print(f"|   first errors: {r.errors[:2]} |")
    return ok


def load_wrk(port: int, tlist: list[Target], clients: int, duration: float, window: int,
             threads: int) -> tuple[list[wrk.WrkResult], list[list[float]]]:
    """The closed loop with wrk: windows of ``window`` whole seconds (wrk takes no fraction), every other one the
    trivial view's (``tlist[0]``), the others taking turns between them, until ``duration`` seconds are covered
    (each target at least once): every target under the same load and the same minutes, as the Python clients'
    slots do. Each window is one wrk process of ``clients`` connections. Also, for each target, the ratio of each
    of its windows' rate to the trivial view's window just before it (the same seconds of this shared machine)."""
    others = list(range(1, len(tlist)))
    passes = max(1, round(duration / (2 * window * max(len(others), 1))))
    results = [wrk.WrkResult() for _ in tlist]
    paired: list[list[float]] = [[] for _ in tlist]
    for _ in range(passes):
        for index in others or [0]:
            before = 0.0
            for k in (0, index) if others else (0,):
                target = tlist[k]
                got = wrk.run(target.port or port, [(path, {**PHONE, **headers}) for path, headers, _ in
                                                    target.variants],
                              connections=clients, seconds=window, threads=threads, check=target.expected)
                results[k].add(got)
                if k == 0:
                    before = got.rate
                elif before:
                    paired[k].append(got.rate / before)
    return results, paired


def report_wrk(tlist: list[Target], results: list[wrk.WrkResult],
               paired: list[list[float]] | None = None) -> bool:
    """Requests/s of each target over its own windows, latencies (wrk's, corrected for coordinated omission),
    bytes read per answer (headers included), the ratio to the trivial view (over the whole run; and, with
    ``paired``, the median of each window's ratio to the trivial view's window just before it, with the lowest and
    highest, when a target had several windows); wrk's own CPU."""
    trivial = results[0].rate
    paired = paired or [[] for _ in tlist]
    print("| target | requests/s | p50 | p95 | p99 | bytes (with headers) | ratio to the trivial view | "
          "paired windows: median (low – high) | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ok = True
    for t, r, pair in zip(tlist, results, paired, strict=True):
        size = r.bytes / r.requests if r.requests else 0
        errors = r.error_count
        # a big answer's status is not read by wrk: a body much smaller than the one read at setup is a wrong answer
        wrong = t.size > BIG and size < t.size / 2
        ratio = r.rate / trivial if trivial else 0
        if t.public and (ratio < TARGET_RATIO or errors or wrong):
            ok = False
        flag = " (bodies too small)" if wrong else ""
        pairs = sorted(pair)
        spread = (f"{statistics.median(pairs):.0%} ({pairs[0]:.0%} – {pairs[-1]:.0%}, {len(pairs)} windows)"
                  if len(pairs) > 1 else "")
        print(f"| {t.name} | {r.rate:,.0f} | {r.quantile(50):.1f} ms | {r.quantile(95):.1f} ms | "
              f"{r.quantile(99):.1f} ms | {size:,.0f} | {ratio:.0%} | {spread} | {errors}{flag} |")
        if errors:
            print(f"|   errors: {r.errors}, unexpected statuses {r.unexpected} |")
    seconds = sum(r.seconds for r in results)
    cpu = sum(r.cpu_seconds for r in results)
    print(f"wrk's own CPU: {cpu:.1f} s over {seconds:.0f} s of windows ({cpu / seconds:.2f} CPUs of 2)")
    return ok


def report_open(tlist: list[Target], results: list[Result], duration: float, rate: float) -> bool:
    public = [(t, r) for t, r in zip(tlist, results, strict=True) if t.public]
    every = [x for _, r in public for x in r.latencies]
    errors = sum(len(r.errors) for _, r in public)
    done = len(every) / duration
    total = Result(every)
    print(f"open loop at {rate:g} requests/s over the {len(public)} public targets: {done:.1f} requests/s done, "
          f"p50 {total.quantile(50):.1f} ms, p95 {total.quantile(95):.1f} ms, p99 {total.quantile(99):.1f} ms, "
          f"max {max(every) * 1000:.1f} ms, errors {errors}")
    for t, r in public:
        print(f"   {t.name}: p50 {r.quantile(50):.1f} ms, p95 {r.quantile(95):.1f} ms")
    return done >= 0.97 * rate and total.quantile(95) < TARGET_P95_MS and not errors


# -- commit → the fragment showing it, with a real worker --------------------------------------------------


def _reader(port: int, path: str, lang: str, stop: threading.Event) -> None:
    """Another player's phone: his « ma place » fragment in ``lang``, asked every 0.1 s on a connection of its own
    (so that each gunicorn worker renders each new ranking, as with real traffic), until ``stop``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        while not stop.is_set():
            get(conn, path, {"HX-Request": "true", "Cookie": f"django_language={lang}"})
            stop.wait(0.1)
    finally:
        conn.close()


def publication(port: int, slug: str, tournament_id: int, samples: int, prints: str | None = None,
                readers: int = 0, ids: list[int] | None = None) -> list[float] | None:
    """Commit → the « ma place » fragment showing the new total, ``samples`` deals; the delays (ms). The refresh
    runs in a real worker (solo pool); the renders its publications queue go to ``prints``, the bench's print
    worker, as in production (they compete for the CPUs with the fragment's render), or nowhere when None. Each
    delay is printed with its parts: commit → the snapshot saved (its ``created_at``), then → the fragment."""
    import redis
    from django.db import transaction

    from levee.celery import app
    from tournaments.deals.models import Deal, ScoreRow
    from tournaments.event.models import Round
    from tournaments.standings import tasks
    from tournaments.standings.models import RankingClock, RankingSnapshot

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        print(f"(no Redis at {REDIS_URL}: {exc}; commit → fragment not measured)")
        return None
    queue = f"levee-bench-public-{uuid.uuid4().hex[:6]}"
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.update(task_always_eager=False, broker_url=REDIS_URL, task_default_queue=queue)
    # the renders this worker's publications queue go to a queue of their own, as in production (not measured here)
    env = {**os.environ, "DATABASE_URL": DB_URL, "CELERY_BROKER_URL": REDIS_URL, "LEVEE_TEST_QUEUE": queue,
           "LEVEE_TEST_PRINTS_QUEUE": prints or f"{queue}-prints", "DJANGO_SETTINGS_MODULE": "levee.settings"}
    worker = subprocess.Popen([str(Path(sys.executable).with_name("celery")), "-A", "tests.integration.worker_app",
                               "worker", "--pool=solo", "-Q", queue, "-l", "warning", "--without-gossip",
                               "--without-mingle", "--without-heartbeat", "-n", f"{queue}@%h"], cwd=ROOT, env=env)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    stop = threading.Event()
    others = [threading.Thread(target=_reader, args=(port, f"/p/{slug}/ranking/?me={(ids or [0])[-1 - r]}",
                                                     ("fr", "en")[r % 2], stop), daemon=True) for r in range(readers)]
    for thread in others:
        thread.start()
    delays: list[float] = []
    parts: list[float] = []  # commit → the snapshot committed, of each deal
    try:
        time.sleep(3)
        rnd = Round.objects.get(tournament_id=tournament_id, number=10)
        for k in range(-1, samples):  # deal -1: the worker's start and first task (tens of seconds), not counted
            table = rnd.tables.get(number=1 + (k + 1) % 50)
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            taker = seats[0]
            total = sum(ScoreRow.objects.filter(entry_id=taker, counts=True).values_list("points", flat=True)) + 75
            with transaction.atomic():
                deal = Deal.objects.create(table=table, number=table.deals.count() + 1, record={"bid": {"taker": 0}})
                ScoreRow.objects.bulk_create([ScoreRow(tournament_id=tournament_id, round=rnd, table=table, deal=deal,
                                                       entry_id=e, points=75 if p == 0 else -25)
                                              for p, e in enumerate(seats)])
                tasks.ranking_refresh_on_commit(tournament_id)
            committed, committed_at = time.perf_counter(), time.time()
            version = RankingClock.objects.get(tournament_id=tournament_id).version
            wanted = f"<td>{total}</td>".encode()
            visible = None  # when the snapshot of this deal was committed (seen by a statement of this process)
            while time.perf_counter() - committed < (30 if k >= 0 else 180):
                if visible is None and RankingSnapshot.objects.filter(tournament_id=tournament_id,
                                                                      input_version__gte=version).exists():
                    visible = time.perf_counter()
                status, body, _ = get(conn, f"/p/{slug}/ranking/?me={taker}", {"HX-Request": "true"})
                body = _gunzip(body) if body[:2] == b"\x1f\x8b" else body
                mine = body.split(b'id="me"', 1)[-1].split(b"</section>", 1)[0]
                if status == 200 and wanted in mine:
                    break
                time.sleep(0.01)
            else:
                raise SystemExit("the fragment did not show the new total within 30 s")
            if k < 0:
                print(f"  the worker's first deal (its start; not counted): {time.perf_counter() - committed:.1f} s")
                time.sleep(0.4)
                continue
            delays.append((time.perf_counter() - committed) * 1000)
            saved = RankingSnapshot.objects.filter(tournament_id=tournament_id).order_by("-input_version").values_list(
                "created_at", "compute_ms").first()
            seen = (visible or time.perf_counter()) - committed
            print(f"  deal {k + 1}: commit → snapshot saved {(saved[0].timestamp() - committed_at) * 1000:,.0f} ms "
                  f"(computed in {saved[1]:,} ms), committed {seen * 1000:,.0f} ms, → « ma place » "
                  f"{delays[-1]:,.0f} ms; load {os.getloadavg()[0]:.1f}")
            parts.append(seen * 1000)
            time.sleep(0.4)
        print(f"  commit → snapshot committed: median {statistics.median(parts):,.0f} ms; then → « ma place »: median "
              f"{statistics.median(d - p for d, p in zip(delays, parts, strict=True)):,.0f} ms")
        return delays
    finally:
        stop.set()
        conn.close()
        worker.terminate()
        worker.wait(timeout=20)
        redis.Redis.from_url(REDIS_URL).delete(queue, f"{queue}-prints")


# -- a burst on the PDFs, the trivial view measured beside it, the workers' memory after it --------------------


# how the print worker is started: as deploy/levee-prints.service schedules it (CPUSchedulingPolicy=idle, and
# CPUWeight=idle for its cgroup: CPU only when nothing else wants it), or at Nice=10 alone (before; its p95 of
# 614 – 6,859 ms beside a PDF burst at 10,000 players, docs/performance.md)
PRINTS_POLICY = {"idle": ["chrt", "--idle", "0"], "nice": ["nice", "-n", "10"]}


def burst_targets(slug: str, players: int, rounds: tuple[int, ...] = (9, 8)) -> list[Target]:
    """PDFs nobody asked for yet: the ranking's other parts, rounds 9 and 8's results and placement (and their
    parts). Each answers « en préparation » (202) until its render is done, then the file (200): either counts."""
    base = f"/p/{slug}"
    ranking_parts = max((players + 999) // 1000, 1)
    paths = [f"{base}/ranking.pdf?partie={k}" for k in range(2, ranking_parts + 1)]
    for number in rounds:
        paths += [f"{base}/rounds/{number}/results.pdf", f"{base}/rounds/{number}/seating.pdf"]
    return [Target("PDFs not rendered yet", [(p, {}, 0) for p in paths])]


def rss_mib(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process, MiB, from /proc/<pid>/status."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields.get("VmRSS", 0.0), fields.get("VmHWM", 0.0)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (gunicorn's workers)."""
    out = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        if f"\nPPid:\t{pid}\n" in text:
            out.append(int(status.parent.name))
    return sorted(out)


def burst(port: int, server_pid: int, slug: str, players: int, clients: int, seconds: float,
          printer: subprocess.Popen | None, direct: int | None = None, proxy: subprocess.Popen | None = None,
          loadgen: str = "python", wrk_threads: int = 2, rounds: tuple[int, ...] = (9, 8),
          prints_policy: str = "idle") -> bool:
    """The trivial view's open loop alone, then beside ``clients`` clients on PDFs not rendered yet; memory after.
    ``direct``: gunicorn's own port when ``port`` is nginx's: the trivial view is asked both ways, in turn.
    ``loadgen``: the ``clients`` are Python threads (4 processes) or one wrk process; the trivial view's open loop
    is the Python clients' either way (its latency counted from when each request was due). Each burst's CPU is
    shared out among the server's parts, the clients and the rest (:mod:`cpushare`, with ``vmstat 1``)."""
    trivial = [Target("trivial view" + (" through nginx" if direct else ""), [("/bench/trivial/", {}, 200)],
                      public=False)]
    if direct:
        trivial.append(Target("trivial view straight to gunicorn", [("/bench/trivial/", {}, 200)], public=False,
                              port=direct))
    pdfs = burst_targets(slug, players, rounds)
    # the control: the same burst on a page served from the cache (the ranking, rendered first), so that what the
    # PDFs add is told apart from what 64 clients cost this server on this machine whatever they ask for
    control = [Target("the ranking (cached)", [(f"/p/{slug}/ranking/", {}, 200)])]
    warm(port, control)

    def memory(when: str) -> dict[int, float]:
        out = {}
        for pid in children(server_pid):
            rss, hwm = rss_mib(pid)
            out[pid] = rss
            print(f"gunicorn worker {pid} {when}: VmRSS {rss:.0f} MiB (peak VmHWM {hwm:.0f} MiB)")
        return out

    memory("before the bursts")
    alone = load(port, trivial, PROCESSES, min(seconds, 15.0), 2.0, 1.0, BURST_TRIVIAL_RATE)
    for t, before in zip(trivial, alone, strict=True):
        print(f"\n{t.name} (of {BURST_TRIVIAL_RATE:g} requests/s in all, open loop), alone: p50 "
              f"{before.quantile(50):.1f} ms, p95 {before.quantile(95):.1f} ms (load average {os.getloadavg()[0]:.1f})")
    ok = True
    groups: dict[str, int | str] = {"gunicorn (master and workers)": server_pid}
    if proxy is not None:
        groups["nginx"] = proxy.pid
    if printer is not None:
        groups[f"print worker (Celery, {prints_policy})"] = printer.pid
    groups |= {"PostgreSQL": "postgres", "Redis": "redis-server"}
    for name, tlist in (("control: the cached ranking page", control), ("PDFs not rendered yet", pdfs)):
        load_before = os.getloadavg()
        out: dict[str, object] = {}
        share = cpushare.Share(groups)
        started = time.perf_counter()
        side_cpu: list[float] = []
        trivial_cpu: list[float] = []

        def side(t: list[Target] = tlist, o: dict[str, object] = out, c: list[float] = side_cpu) -> None:
            if loadgen == "wrk":  # the whole of the trivial view's window (it starts 1 s + 2 s of warm-up later)
                o["b"] = wrk.run(port, [(path, dict(PHONE)) for path, _, _ in t[0].variants], connections=clients,
                                 seconds=int(seconds) + 4, threads=wrk_threads, check=t[0].expected)
            else:
                o["b"] = load(port, t, clients, seconds, 2.0, seconds, None, c)

        thread = threading.Thread(target=side)
        thread.start()
        beside = load(port, trivial, PROCESSES, seconds, 2.0, 1.0, BURST_TRIVIAL_RATE, trivial_cpu)
        during = beside[0]
        thread.join()
        elapsed = time.perf_counter() - started
        load_after = os.getloadavg()
        got = out["b"]
        if isinstance(got, wrk.WrkResult):
            print(f"burst ({name}): {clients} wrk connections ({wrk_threads} threads) on {len(tlist[0].variants)} "
                  f"URL(s) for {got.seconds:.0f} s (load average {load_before[0]:.1f} → {load_after[0]:.1f}): "
                  f"{got.rate:.0f} answers/s, {got.bytes / got.seconds / 2**20:.0f} MiB/s read, p50 "
                  f"{got.quantile(50):.1f} ms, p95 {got.quantile(95):.1f} ms (wrk's), errors {got.error_count} "
                  f"{got.errors}; wrk's own CPU {got.cpu_seconds:.1f} s ({got.cpu_seconds / got.seconds:.2f} CPUs)")
            burst_errors = got.error_count
        else:
            b = got[0]  # type: ignore[index]
            print(f"burst ({name}): {clients} clients on {len(tlist[0].variants)} URL(s) for {seconds:g} s (load "
                  f"average {load_before[0]:.1f} → {load_after[0]:.1f}): {len(b.latencies) / seconds:.0f} answers/s, "
                  f"{b.bytes / seconds / 2**20:.0f} MiB/s read, p50 {b.quantile(50):.1f} ms, p95 "
                  f"{b.quantile(95):.1f} ms, errors {len(b.errors)} {b.errors[:2]}; the clients' own CPU "
                  f"{sum(side_cpu):.1f} s")
            burst_errors = len(b.errors)
        for t, r in zip(trivial, beside, strict=True):
            print(f"   {t.name} beside it: p50 {r.quantile(50):.1f} ms, p95 {r.quantile(95):.1f} ms, "
                  f"p99 {r.quantile(99):.1f} ms, {len(r.latencies) / seconds:.1f} requests/s done, "
                  f"errors {len(r.errors)}")
        print(f"   the trivial view's clients (Python, 4 processes): {sum(trivial_cpu):.1f} s of CPU")
        print(share.stop(elapsed))
        if tlist is pdfs:
            met = during.quantile(95) < TARGET_BURST_P95_MS and not during.errors and not burst_errors
            print(f"target: the trivial view's p95 < {TARGET_BURST_P95_MS:g} ms during the PDF burst: "
                  f"{'met' if met else 'NOT met'}")
            ok &= met
    fits = all(rss < TARGET_RSS_MIB for rss in memory("after the bursts").values())
    print(f"target: every web worker under {TARGET_RSS_MIB:g} MiB after the burst: {'met' if fits else 'NOT met'}")
    ok &= fits
    if printer is not None and printer.poll() is None:
        for pid in [printer.pid, *children(printer.pid)]:
            rss, hwm = rss_mib(pid)
            print(f"print worker {pid}: VmRSS {rss:.0f} MiB (peak VmHWM {hwm:.0f} MiB)")
    return ok


# -- main ----------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--slot", type=float, default=0.25, help="seconds each target has the clients in turn")
    parser.add_argument("--rate", type=float, default=TARGET_RATE, help="the open loop's requests/s in all")
    parser.add_argument("--players", type=int, default=100, help="distinct player pages requested in turn")
    parser.add_argument("--samples", type=int, default=20, help="deals committed for commit → fragment")
    parser.add_argument("--readers", type=int, default=0,
                        help="other players polling their « ma place » (French, English in turn) during commit → "
                             "fragment, each on a connection of its own")
    parser.add_argument("--redis-cache", action="store_true", help="CACHE_URL on Redis (shared by the workers)")
    parser.add_argument("--targets", default="",
                        help="the closed loop on the targets whose names hold one of these words (comma-separated; "
                             "the trivial view always): the pages in question, in more windows each")
    parser.add_argument("--only", type=lambda text: set(text.split(",")), default=None,
                        help="the parts to run, among closed, open, publish, burst (comma-separated); every: the "
                             "closed loop on the trivial view and bench/every_page.py's pages alone")
    parser.add_argument("--event", type=int, default=int(os.environ.get("BENCH_PLAYERS", "1000")),
                        help="players of the event (1000, 10000)")
    parser.add_argument("--reuse", action="store_true", help="keep the event an earlier run wrote (BENCH_REUSE=1)")
    parser.add_argument("--renders", choices=("worker", "thread"), default=None,
                        help="PDFs by a Celery worker on a prints queue (default with Redis), or the web's thread")
    parser.add_argument("--burst", type=float, default=30.0, help="seconds of the burst on the PDFs")
    parser.add_argument("--prints-policy", choices=tuple(PRINTS_POLICY), default="idle",
                        help="how the print worker is scheduled: idle (SCHED_IDLE, as deploy/levee-prints.service's "
                             "CPUSchedulingPolicy=idle and CPUWeight=idle), or nice (Nice=10 only, before)")
    parser.add_argument("--proxy", choices=("nginx",), default=None,
                        help="nginx in front (deploy/nginx-levee.conf's shared parts), as in production")
    parser.add_argument("--ready-limit", type=float, default=900.0,
                        help="seconds to wait for a PDF or a download before leaving it out of the run")
    parser.add_argument("--quiet-pass", action="store_true",
                        help="run the publication's quiet pass (the PDFs and big downloads as files) in the build, as "
                             "a prints worker would once the state is quiet, instead of waiting for the first requests")
    parser.add_argument("--nginx-workers", default="1",
                        help="with --proxy nginx: its worker_processes (1, or « auto » as Debian's nginx.conf has)")
    parser.add_argument("--loadgen", choices=("python", "wrk", "both"), default="python",
                        help="the closed-loop clients (the closed loop's and the burst's): the Python clients, or wrk "
                             "(bench/wrk.py; a missing wrk stops the run), or both one after the other; the open "
                             "loops stay Python")
    parser.add_argument("--wrk-window", type=int, default=1,
                        help="with --loadgen wrk: whole seconds of each target's window in the closed loop")
    parser.add_argument("--wrk-threads", type=int, default=2, help="with --loadgen wrk: wrk's threads")
    args = parser.parse_args()
    READY_LIMIT[0] = args.ready_limit
    parts = args.only or {"closed", "open", "publish", "burst"}
    known = {"closed", "open", "publish", "burst", "every"}
    if parts - known or ("every" in parts and parts != {"every"}):
        parser.error(f"--only: unknown part {sorted(parts - known)} (« every » runs alone)")
    loadgens = ["wrk", "python"] if args.loadgen == "both" else [args.loadgen]
    if "wrk" in loadgens:
        wrk.binary()  # said now, not after the event's build
    os.environ["BENCH_PLAYERS"] = str(args.event)
    if args.reuse:
        os.environ["BENCH_REUSE"] = "1"

    import tempfile

    import every_page  # bench/every_page.py: every other page and export
    from calibration import calibration

    # the kept files' folder and the cache, the same for this process (the publication's renders) and gunicorn
    pdf_root = tempfile.mkdtemp(prefix="levee-bench-pdf-")
    os.chmod(pdf_root, 0o755)
    os.environ["LEVEE_PDF_ROOT"] = pdf_root
    cache = "local memory (per worker)"
    if args.redis_cache:
        os.environ["CACHE_URL"] = REDIS_URL
        cache = f"Redis ({REDIS_URL})"
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    slug, ids, tournament_id = build(args.quiet_pass)
    extra = every_page.build_more(tournament_id, args.event)  # the pages the Tarot event does not show
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(BENCH), str(ROOT)]), "LOG_LEVEL": "ERROR",
           "CELERY_BROKER_URL": "", "LEVEE_PDF_ROOT": pdf_root}
    if args.proxy:
        env["LEVEE_ACCEL_REDIRECT"] = "/_kept/"
    renders = args.renders or ("worker" if _redis_up() else "thread")
    printer = None
    prints = f"levee-bench-prints-{uuid.uuid4().hex[:6]}"
    if renders == "worker":  # as on a server: the broker, and a worker of its own on the prints queue
        PRINTS_QUEUE[0] = prints
        env.update(CELERY_BROKER_URL=REDIS_URL, LEVEE_PRINTS_QUEUE=prints, LEVEE_RENDER_IN="worker")
        printer = subprocess.Popen(  # below the web, as deploy/levee-prints.service runs it
            [*PRINTS_POLICY[args.prints_policy], str(Path(sys.executable).with_name("celery")), "-A", "levee",
             "worker", "-Q", prints, "--concurrency=1", "-l", "warning", "--without-gossip", "--without-mingle",
             "--without-heartbeat", "-n", f"{prints}@%h"],
            cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "levee.settings"})
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "levee" / "gunicorn.py"),
                               "levee.wsgi:application", "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=env)
    ok = True
    proxy: subprocess.Popen | None = None
    direct = None
    try:
        _wait_up(port, server)
        if args.proxy:
            from proxy import start_nginx  # bench/proxy.py

            direct, (port, proxy) = port, start_nginx(port, pdf_root, args.nginx_workers)
            print(f"nginx on port {port} in front of gunicorn on port {direct} (deploy/nginx-levee.conf; "
                  f"worker_processes {args.nginx_workers})")
        if parts == {"burst"}:
            for k, loadgen in enumerate(loadgens):  # rounds nobody asked for yet, for each
                ok &= burst(port, server.pid, slug, args.event, args.clients, args.burst, printer, direct, proxy,
                            loadgen, args.wrk_threads, (9, 8) if k == 0 else (7, 6), args.prints_policy)
            return 0 if ok else 1
        if parts == {"publish"}:  # the ranking and « ma place » once per worker; the other pages are not asked
            tlist = [Target("ranking", [(f"/p/{slug}/ranking/{q}", h, 200) for q in ("", f"?me={ids[0]}")
                                        for h in ({}, {"HX-Request": "true"})])]
        else:
            tlist = targets(port, slug, ids, args.players, direct) if parts != {"every"} else every_page.reference(
                direct)
            tlist += every_page.more_targets(http.client.HTTPConnection("127.0.0.1", port, timeout=SETUP_TIMEOUT),
                                             extra, args.event)
            ok &= parts == {"every"} or every_page.check_coverage(tlist)
            if args.targets:  # these pages only (the trivial view always): more windows each in the same time
                tlist = [t for t in tlist if not t.public or any(w in t.name for w in args.targets.split(","))]
                print(f"the targets whose names hold {args.targets!r}: {', '.join(t.name for t in tlist)}")
        waited = wait_renders_done(pdf_root, prints if printer else None, SETUP_TIMEOUT)
        print(f"the print worker's renders done: {waited:.1f} s")
        print(f"warm-up (every page rendered by the workers): {warm(port, tlist):.1f} s")
        from levee import gunicorn as conf

        print(f"bench/public.py — {args.event:,} players × 10 rounds, gunicorn {conf.workers} workers × "
              f"{conf.threads} threads ({conf.worker_class}), cache {cache}, renders: {renders}, PostgreSQL, "
              f"{'nginx in front, ' if proxy else ''}"
              f"{os.cpu_count()} CPUs shared with the clients; calibration {calibration():.1f} µs, load average "
              f"{os.getloadavg()[0]:.1f}")
        if parts & {"closed", "every"} and "wrk" in loadgens:
            load_before = os.getloadavg()[0]
            share = cpushare.Share({"gunicorn": server.pid, **({"nginx": proxy.pid} if proxy else {})})
            started = time.perf_counter()
            found, paired = load_wrk(port, tlist, args.clients, args.duration, args.wrk_window,
                                     args.wrk_threads)
            print(f"\nclosed loop with wrk, {args.clients} connections on {args.wrk_threads} threads, windows of "
                  f"{args.wrk_window} s, every other one the trivial view's ({time.perf_counter() - started:.0f} s in "
                  f"all); load average {load_before:.1f} → {os.getloadavg()[0]:.1f}, calibration after: "
                  f"{calibration():.1f} µs")
            ok &= report_wrk(tlist, found, paired)
            windows = min(len(p) for p in paired[1:]) if len(paired) > 1 else 0
            if windows < 3:
                print(f"each target had {max(windows, 1)} window(s) of {args.wrk_window} s: a page that Django serves "
                      "at each request moved by a factor of two between runs of the same code in one window; "
                      "--targets (the pages in question) or a longer --duration give each more")
            print(share.stop(time.perf_counter() - started))
            print(f"target: every public page ≥ {TARGET_RATIO:.0%} of the trivial view: {'met' if ok else 'NOT met'}")
        if parts & {"closed", "every"} and "python" in loadgens:
            results = load(port, tlist, args.clients, args.duration, args.warmup, args.slot, None)
            print(f"\nclosed loop, {args.clients} clients, {args.duration:g} s, targets interleaved in slots of "
                  f"{args.slot:g} s; calibration after: {calibration():.1f} µs")
            ok &= report_closed(tlist, results, args.duration, args.slot)
            print(f"target: every public page ≥ {TARGET_RATIO:.0%} of the trivial view: {'met' if ok else 'NOT met'}")
        if "open" in parts:
            public = [t for t in tlist if t.public]
            results = load(port, public, args.clients, args.duration, args.warmup, args.slot, args.rate)
            met = report_open(public, results, args.duration, args.rate)
            print(f"target: {args.rate:g} requests/s held with p95 < {TARGET_P95_MS:g} ms: "
                  f"{'met' if met else 'NOT met'}")
            ok &= met
        if "publish" in parts:
            delays = publication(port, slug, tournament_id, args.samples, prints if printer else None, args.readers,
                                 ids)
            if delays:
                p95 = statistics.quantiles(delays, n=20, method="inclusive")[18]
                met = p95 < TARGET_PUBLISH_MS
                print(f"commit → the « ma place » fragment showing the new total (real worker, {len(delays)} deals): "
                      f"median {statistics.median(delays):.0f} ms, p95 {p95:.0f} ms, max {max(delays):.0f} ms "
                      f"[target p95 < {TARGET_PUBLISH_MS:g} ms: {'met' if met else 'NOT met'}]")
                ok &= met
        if "burst" in parts:
            for k, loadgen in enumerate(loadgens):  # rounds nobody asked for yet, for each
                ok &= burst(port, server.pid, slug, args.event, args.clients, args.burst, printer, direct, proxy,
                            loadgen, args.wrk_threads, (9, 8) if k == 0 else (7, 6), args.prints_policy)
    finally:
        if proxy is not None:
            proxy.terminate()  # a child of this run, by its id
            try:
                proxy.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proxy.kill()
        if printer is not None:  # a render in progress is not waited for
            pool = children(printer.pid)
            printer.kill()
            printer.wait(timeout=30)
            for pid in pool:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, 9)
            import redis

            redis.Redis.from_url(REDIS_URL).delete(prints)
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0 if ok else 1


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping())
    except Exception:
        return False


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"{server.args[0]} did not start")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/bench/trivial/")
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


if __name__ == "__main__":
    sys.exit(main())
