"""A season without losing anything (issue 21 §5): 40 Tarot events and about 2,000 deals through the REST API of a
real server, with an upgrade, backups and a restore in the middle; then every deal, version, ruling and ranking is
checked to be there exactly once.

    .venv/bin/python bench/soak.py [--events 40] [--release c447f10] [--keep]

The season, as a club lives it:

1. **Weeks 1 to ``events/2`` on the previous release** (``--release``, a commit of this repository checked out in a
   temporary worktree, running with this virtualenv): its own ``migrate`` on a fresh PostgreSQL database
   (``levee_soak`` on ``$BENCH_PG``), its own gunicorn, rankings computed in-process (no broker), as a laptop runs it.
2. **The upgrade**: this release's ``manage.py upgrade`` (a backup, then the migrations), timed.
3. **The rest of the season on this release**: gunicorn (``levee/gunicorn.py``) and a real Celery worker on Redis
   (``$BENCH_BROKER``, default ``redis://127.0.0.1:6379/14``); a ``manage.py backup`` after the first round of the
   event three quarters in; two more rounds and events are entered; then **the laptop dies**: the server and the
   worker are killed, the database dropped and created empty, ``manage.py restore`` brings the backup back, and the
   arbiters enter again, from their sheets (the driver's journal), what the backup did not hold; the season ends.
4. **The check**, with this release's code on the final database: one tournament per event; for each deal the
   driver entered, exactly one deal at its table and number, with the last record sent, its status (annulled or
   not) and its number of versions; each ruling once; no deal, ruling or snapshot more; every tournament's
   published ranking up to date and equal to a recompute; each idempotent resend stored once.

Each event: 16 or 20 players (4 or 5 tables of 4), 3 rounds, 4 or 5 deals a table a round, released round by round;
deals are legal random plays (``rules.tarot.random_record``), one in eight entered as a summary; along the way, as
a season brings them: a resend of the same deal with its ``Idempotency-Key`` (a double tap), corrections (new
versions), an annulled deal and a restored one, and a ruling (a penalty with a reason) per event. Printed: the time
of every phase, deals per second, the database's size, the backups' sizes and times, the restore's time.
The exit status is 0 when everything is there exactly once.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.tarot import random_record  # noqa: E402 - after the path

PYTHON = sys.executable
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432").rstrip("/")
BROKER = os.environ.get("BENCH_BROKER", "redis://127.0.0.1:6379/14")
DB = "levee_soak"
FIXED = ("format", "game", "options", "players")
FIRST = ("Anne", "Bruno", "Chloé", "Denis", "Élise", "Fabien", "Gisèle", "Hervé", "Inès", "Jules", "Karine", "Lucien",
         "Maëlle", "Noël", "Odile", "Pascal", "Rémi", "Solène", "Théo", "Ursule")
LAST = ("Bœuf", "Lefèvre", "Marie-Bernadette Delacroix-Montfort", "Dupont", "Garnier", "Noël", "Œillet", "Roux")


# ---------------------------------------------------------------- the journal: what the arbiters wrote down


@dataclass
class DealSheet:
    """One deal as its table's sheet has it: the last record sent, whether it stands, how many versions it has."""

    fields: dict[str, Any]
    versions: int = 1
    annulled: bool = False
    key: str = ""


@dataclass
class EventSheet:
    """One event: its players, its rounds' seating, its deals by (round, table, number), its rulings."""

    name: str
    players: list[str]
    seating: dict[int, list[list[int]]] = field(default_factory=dict)  # round → tables → player indexes
    deals: dict[tuple[int, int, int], DealSheet] = field(default_factory=dict)
    rulings: list[tuple[int, int, str]] = field(default_factory=list)  # (round, table, reason)
    resends: int = 0


# ---------------------------------------------------------------- HTTP


class Api:
    """A keep-alive JSON client with a token."""

    def __init__(self, port: int, token: str) -> None:
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.requests = 0

    def call(self, method: str, path: str, body: Any = None, *, expect: tuple[int, ...] = (200, 201),
             headers: dict[str, str] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        h = {"Authorization": f"Token {self.token}", "Content-Type": "application/json", **(headers or {})}
        for attempt in range(5):
            try:
                self.conn.request(method, path, body=data, headers=h)
                response = self.conn.getresponse()
                payload = response.read()
                break
            except (TimeoutError, ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                time.sleep(0.5 * (attempt + 1))
        else:
            raise SystemExit(f"{method} {path}: no answer")
        self.requests += 1
        if response.status not in expect:
            raise SystemExit(f"{method} {path}: HTTP {response.status}: {payload[:600]!r}")
        return json.loads(payload) if payload else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not answer")


# ---------------------------------------------------------------- the servers


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "LEVEE_"))}
    env.update({"DATABASE_URL": f"{PG}/{DB}", "LEVEE_ENV": "development", "DEBUG": "false", "SECRET_KEY": "soak" * 16,
                "ALLOWED_HOSTS": "*", "LOG_LEVEL": "ERROR", "LOG_REQUESTS": "false", "PYTHONUNBUFFERED": "1"})
    env.update(extra or {})
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def _psql(sql: str) -> str:
    return _run(["psql", f"{PG}/postgres", "-v", "ON_ERROR_STOP=1", "-qAtc", sql], ROOT, dict(os.environ))


def _fresh_database() -> None:
    _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    _psql(f"CREATE DATABASE {DB}")


def _db_size() -> int:
    return int(_psql(f"SELECT pg_database_size('{DB}')").strip())


class Server:
    """gunicorn (and, with a broker, a Celery worker) of one checkout."""

    def __init__(self, checkout: Path, env: dict[str, str], *, worker: bool, log: Path) -> None:
        self.port = _free_port()
        self.env = {**env, "GUNICORN_BIND": f"127.0.0.1:{self.port}", "GUNICORN_WORKERS": "2",
                    "GUNICORN_THREADS": "2"}
        conf = checkout / "levee" / "gunicorn.py"
        cmd = [PYTHON, "-m", "gunicorn", "levee.wsgi:application", "--bind", f"127.0.0.1:{self.port}"]
        if conf.exists():
            cmd[3:3] = ["-c", str(conf)]
        self.log = log.open("ab")
        self.web = subprocess.Popen(cmd, cwd=checkout, env=self.env, start_new_session=True, stdout=self.log,
                                    stderr=subprocess.STDOUT)
        self.worker = None
        if worker:
            self.worker = subprocess.Popen(
                [str(Path(PYTHON).with_name("celery")), "-A", "levee", "worker", "--concurrency", "1",
                 "--loglevel", "ERROR", "-Q", "celery,prints", "--without-mingle", "--without-gossip"],
                cwd=checkout, env=self.env, start_new_session=True, stdout=self.log, stderr=subprocess.STDOUT)
        _wait_up(self.port, self.web)

    def kill(self, sig: int = signal.SIGTERM) -> None:
        for proc in (self.web, self.worker):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, sig)
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def _token(checkout: Path, env: dict[str, str]) -> str:
    """The season's organizer (a superuser) and his API token, made by the checkout's own code."""
    script = ("from django.contrib.auth import get_user_model; from rest_framework.authtoken.models import Token; "
              "U = get_user_model(); u = U.objects.filter(username='soak').first() or "
              "U.objects.create_superuser('soak', 'soak@example.org', 'saison-sans-perte'); "
              "print(Token.objects.get_or_create(user=u)[0].key)")
    return _run([PYTHON, "manage.py", "shell", "-c", script], checkout, env).strip().splitlines()[-1]


# ---------------------------------------------------------------- the driver


class Season:
    def __init__(self, events: int, seed: int = 2026) -> None:
        self.rng = random.Random(seed)
        self.sheets: list[EventSheet] = []
        for i in range(events):
            n = 16 if i % 2 == 0 else 20
            names = [f"{FIRST[(i + k) % len(FIRST)]} {LAST[(k * 7 + i) % len(LAST)]} {k + 1:02d}" for k in range(n)]
            self.sheets.append(EventSheet(name=f"Tournoi du club n° {i + 1:02d}", players=names))
        self.entered = 0

    # one event, round by round; ``rounds`` limits what is entered now (the rest comes later)
    def run(self, api: Api, sheet: EventSheet, *, rounds: range, replay: bool = False,
            state: dict[str, Any] | None = None) -> dict[str, Any]:
        rng = self.rng
        if state is None:
            t = api.call("POST", "/api/tournaments/", {"name": sheet.name, "game": "tarot", "rounds_planned": 3,
                                                     "options": {"players": 4}})
            entries = [api.call("POST", f"/api/tournaments/{t['id']}/registrations/",
                                {"name": name, "club": "Club de la saison"})["id"] for name in sheet.players]
            for status in ("open", "running"):
                api.call("POST", f"/api/tournaments/{t['id']}/status/", {"status": status})
            state = {"tournament": t["id"], "entries": entries}
        tid, entries = state["tournament"], state["entries"]
        for r in rounds:
            if r not in sheet.seating:
                order = list(range(len(entries)))
                rng.shuffle(order)
                sheet.seating[r] = [order[k:k + 4] for k in range(0, len(order), 4)]
            rnd = api.call("POST", f"/api/tournaments/{tid}/rounds/",
                           {"number": r, "tables": [[entries[i] for i in table] for table in sheet.seating[r]]})
            tables = sorted(rnd["tables"], key=lambda table: table["number"])
            for table in tables:
                self._table(api, sheet, tid, r, table, replay=replay)
            api.call("POST", f"/api/rounds/{rnd['id']}/release/", {"released": True})
        return state

    def _table(self, api: Api, sheet: EventSheet, tid: int, r: int, table: dict[str, Any], *, replay: bool
               ) -> None:
        url = f"/api/tables/{table['id']}/deals/"
        per_table = 4 + (r + table["number"]) % 2
        for number in range(1, per_table + 1):
            place = (r, table["number"], number)
            if replay and place in sheet.deals:
                self._replay(api, url, sheet.deals[place])
                continue
            rng = self.rng
            fields = self._fields(rng, number)
            key = uuid.uuid4().hex
            deal = api.call("POST", url, fields, headers={"Idempotency-Key": key})
            sheet.deals[place] = DealSheet(fields=fields, key=key)
            self.entered += 1
            if rng.random() < 0.05:  # a double tap: the same deal sent again with its key
                again = api.call("POST", url, fields, headers={"Idempotency-Key": key})
                assert again["id"] == deal["id"], "a resend made a second deal"
                sheet.resends += 1
            if rng.random() < 0.06:  # a correction: the points were wrong
                fixed = self._fields(rng, number)
                api.call("PUT", f"/api/deals/{deal['id']}/", {"record": fixed, "reason": "feuille relue",
                                                            "version": deal["version"]})
                sheet.deals[place].fields, sheet.deals[place].versions = fixed, 2
            if rng.random() < 0.02:  # a maldonne noticed after the fact
                current = sheet.deals[place].versions
                api.call("POST", f"/api/deals/{deal['id']}/annul/", {"reason": "maldonne", "version": current})
                sheet.deals[place].annulled, sheet.deals[place].versions = True, current + 1
                if rng.random() < 0.5:  # … and the chief puts it back
                    api.call("POST", f"/api/deals/{deal['id']}/restore/", {"reason": "pas de maldonne",
                                                                         "version": current + 1})
                    sheet.deals[place].annulled, sheet.deals[place].versions = False, current + 2
        if table["number"] == 1 and r == 2:  # one ruling an event: a penalty for slow play
            reason = f"jeu lent — {sheet.name}"
            first = min(table["seats"], key=lambda seat: seat["position"])["entry"]
            api.call("POST", f"/api/tournaments/{tid}/rulings/",
                     {"table": table["id"], "kind": "slow_play", "reason": reason, "is_penalty": True,
                      "adjustments": {str(first): -10}})
            if not replay:
                sheet.rulings.append((r, table["number"], reason))

    def _replay(self, api: Api, url: str, deal: DealSheet) -> None:
        """An arbiter enters again, from his sheet, a deal the restored backup did not hold (its final state)."""
        saved = api.call("POST", url, deal.fields, headers={"Idempotency-Key": uuid.uuid4().hex})
        deal.versions = 1
        if deal.annulled:
            api.call("POST", f"/api/deals/{saved['id']}/annul/", {"reason": "maldonne", "version": 1})
            deal.versions = 2
        self.entered += 1

    @staticmethod
    def _fields(rng: random.Random, number: int) -> dict[str, Any]:
        dealer = (number - 1) % 4
        record = random_record(rng, players=4, contract=rng.choice(["petite", "garde", "garde", "garde_sans"]),
                               dealer=dealer)
        fields = {k: v for k, v in record.items() if k not in FIXED}
        if rng.random() < 0.125:  # a summary: the taker's bouts and points, no cards
            points = rng.randint(30, 61)
            fields = {"dealer": dealer, "bid": fields["bid"], "partner": None, "chelem_announced": False,
                      "handfuls": [], "summary": {"oudlers": rng.randint(0, 3), "points": points,
                                                  "petit_au_bout": None, "chelem": None}}
        return fields


# ---------------------------------------------------------------- the check


def verify(season: Season, env: dict[str, str], *, previous: set[str]) -> list[str]:
    """Every deal, version, ruling and ranking of the journal exactly once, nothing more (this release's code).

    The rankings the previous release published (``previous``: events it ran to the end) are compared by entry,
    rank and marks: that release counted no rounds and no contracts made (``rounds``, ``won_as_taker`` at 0), which
    this one adds to the lines; ranks and marks are the same.
    """
    os.environ.update({k: env[k] for k in ("DATABASE_URL", "LEVEE_ENV", "SECRET_KEY", "ALLOWED_HOSTS", "DEBUG")})
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "levee.settings")
    import django

    django.setup()
    from tournaments.deals.models import Deal, Ruling
    from tournaments.event.models import Tournament
    from tournaments.standings import rankings
    from tournaments.standings.models import RankingSnapshot

    problems: list[str] = []
    deals_expected = versions_expected = rulings_expected = 0
    for sheet in season.sheets:
        found = list(Tournament.objects.filter(name=sheet.name))
        if len(found) != 1:
            problems.append(f"{sheet.name}: {len(found)} tournaments")
            continue
        t = found[0]
        stored = {(d.table.round.number, d.table.number, d.number): d
                  for d in Deal.objects.filter(table__round__tournament=t).select_related("table__round")}
        count = Deal.objects.filter(table__round__tournament=t).count()
        if count != len(sheet.deals) or set(stored) != set(sheet.deals):
            problems.append(f"{sheet.name}: {count} deals stored, {len(sheet.deals)} entered")
        for place, deal_sheet in sheet.deals.items():
            deal = stored.get(place)
            if deal is None:
                continue
            mine = {k: v for k, v in deal.record.items() if k not in FIXED}
            if _digest(mine) != _digest(deal_sheet.fields):
                problems.append(f"{sheet.name} {place}: the stored record is not the last one sent")
            if (deal.status == Deal.Status.ANNULLED) != deal_sheet.annulled:
                problems.append(f"{sheet.name} {place}: status {deal.status}")
            if deal.version != deal_sheet.versions:
                problems.append(f"{sheet.name} {place}: version {deal.version}, {deal_sheet.versions} expected")
            created = deal.history.filter(history_type="+").count()
            if created != 1:
                problems.append(f"{sheet.name} {place}: created {created} times in its history")
            versions_expected += deal_sheet.versions
        deals_expected += len(sheet.deals)
        reasons = sorted(Ruling.objects.filter(tournament=t).values_list("reason", flat=True))
        if reasons != sorted(reason for _, _, reason in sheet.rulings):
            problems.append(f"{sheet.name}: rulings {reasons}")
        rulings_expected += len(sheet.rulings)
        status = rankings.ranking_status(t)
        if not status.up_to_date or status.snapshot is None:
            problems.append(f"{sheet.name}: the published ranking is behind its inputs")
            continue
        computed = rankings.ranking_compute(tournament=t)
        published = [(line.entry_id, line.rank, [[k, v] for k, v in line.metrics])
                     for line in rankings.snapshot_lines(status.snapshot)]
        recomputed = [(line.entry, line.rank, [[k, rankings._metric_json(v)] for k, v in line.metrics])
                      for line in computed.individual.lines]
        if sheet.name in previous:
            published = [(entry, rank, metrics[0]) for entry, rank, metrics in published]
            recomputed = [(entry, rank, metrics[0]) for entry, rank, metrics in recomputed]
        if published != recomputed:
            problems.append(f"{sheet.name}: published ranking ≠ recompute")
    totals = {"tournaments": Tournament.objects.count(), "deals": Deal.objects.count(),
              "versions": sum(Deal.objects.values_list("version", flat=True)), "rulings": Ruling.objects.count(),
              "snapshots": RankingSnapshot.objects.count()}
    if totals["tournaments"] != len(season.sheets):
        problems.append(f"{totals['tournaments']} tournaments in all, {len(season.sheets)} expected")
    if totals["deals"] != deals_expected:
        problems.append(f"{totals['deals']} deals in all, {deals_expected} expected")
    if totals["versions"] != versions_expected:
        problems.append(f"{totals['versions']} versions in all, {versions_expected} expected")
    if totals["rulings"] != rulings_expected:
        problems.append(f"{totals['rulings']} rulings in all, {rulings_expected} expected")
    print(f"   in the database: {totals}")
    return problems


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------- main


def _wait_rankings(env: dict[str, str], timeout: float = 120.0) -> float:
    """Seconds until every tournament's ranking is up to date (the worker catches up)."""
    script = ("from tournaments.event.models import Tournament; from tournaments.standings import rankings; "
              "print(sum(not rankings.ranking_status(t).up_to_date for t in Tournament.objects.all()))")
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        behind = int(_run([PYTHON, "manage.py", "shell", "-c", script], ROOT, env).strip().splitlines()[-1])
        if behind == 0:
            return time.monotonic() - start
        time.sleep(1)
    raise SystemExit(f"rankings still behind after {timeout:.0f} s")


def _newest(folder: Path) -> Path:
    files = sorted((p for p in folder.iterdir() if p.name.endswith((".pgdump", ".sqlite3.gz"))),
                   key=lambda p: p.stat().st_mtime)
    if not files:
        raise SystemExit(f"no backup in {folder}")
    return files[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--release", default="c447f10", help="the previous release (a commit of this repository)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the work folder")
    args = parser.parse_args()
    if args.events < 8:
        raise SystemExit("--events: at least 8 (an upgrade and a restore need a season around them)")

    work = Path(tempfile.mkdtemp(prefix="levee-soak-"))
    backups = work / "backups"
    old = work / "release"
    figures: dict[str, Any] = {}
    season = Season(args.events)
    half = args.events // 2
    crash_at = (3 * args.events) // 4
    load = os.getloadavg()
    started = time.monotonic()
    servers: list[Server] = []
    try:
        _run(["git", "worktree", "add", "--detach", str(old), args.release], ROOT, dict(os.environ))
        _fresh_database()
        env = _env({"LEVEE_BACKUP_DIR": str(backups)})

        # 1. the first half of the season on the previous release
        t0 = time.monotonic()
        _run([PYTHON, "manage.py", "migrate", "-v", "0"], old, env)
        token = _token(old, env)
        server = Server(old, env, worker=False, log=work / "servers.log")
        servers.append(server)
        api = Api(server.port, token)
        for sheet in season.sheets[:half]:
            season.run(api, sheet, rounds=range(1, 4))
        server.kill()
        figures["previous release"] = (time.monotonic() - t0, season.entered)
        entered_before = season.entered

        # 2. the upgrade (a backup first)
        t0 = time.monotonic()
        _run([PYTHON, "manage.py", "upgrade"], ROOT, env)
        figures["upgrade"] = time.monotonic() - t0
        figures["upgrade backup"] = _newest(backups).stat().st_size

        # 3. this release, with a real worker
        worker_env = {**env, "CELERY_BROKER_URL": BROKER}
        subprocess.run(["redis-cli", "-u", BROKER, "flushdb"], capture_output=True)
        t0 = time.monotonic()
        server = Server(ROOT, worker_env, worker=True, log=work / "servers.log")
        servers.append(server)
        api = Api(server.port, _token(ROOT, env))
        for sheet in season.sheets[half:crash_at]:
            season.run(api, sheet, rounds=range(1, 4))
        crash_sheet = season.sheets[crash_at]
        state = season.run(api, crash_sheet, rounds=range(1, 2))
        _wait_rankings(env)
        tb = time.monotonic()
        _run([PYTHON, "manage.py", "backup"], ROOT, env)
        figures["backup"] = (time.monotonic() - tb, _newest(backups).stat().st_size, _db_size())
        kept = _newest(backups)
        season.run(api, crash_sheet, rounds=range(2, 4), state=state)
        lost_events = season.sheets[crash_at + 1:crash_at + 3]
        for sheet in lost_events:
            season.run(api, sheet, rounds=range(1, 4))
        figures["this release, before the crash"] = (time.monotonic() - t0, season.entered - entered_before)

        # the laptop dies: everything since the backup is gone from the database
        server.kill(signal.SIGKILL)
        _fresh_database()
        subprocess.run(["redis-cli", "-u", BROKER, "flushdb"], capture_output=True)
        tr = time.monotonic()
        _run([PYTHON, "manage.py", "restore", str(kept)], ROOT, env)
        figures["restore"] = time.monotonic() - tr

        # the arbiters enter again, from their sheets, what the backup did not hold; the season goes on
        t0 = time.monotonic()
        entered = season.entered
        server = Server(ROOT, worker_env, worker=True, log=work / "servers.log")
        servers.append(server)
        api = Api(server.port, _token(ROOT, env))
        season.run(api, crash_sheet, rounds=range(2, 4), state=state, replay=True)
        for sheet in lost_events:
            season.run(api, sheet, rounds=range(1, 4), replay=True)
        for sheet in season.sheets[crash_at + 3:]:
            season.run(api, sheet, rounds=range(1, 4))
        figures["this release, after the restore"] = (time.monotonic() - t0, season.entered - entered)
        figures["rankings caught up"] = _wait_rankings(env)
        server.kill()
        figures["database"] = _db_size()
        figures["total"] = time.monotonic() - started

        # 4. the check
        problems = verify(season, env, previous={sheet.name for sheet in season.sheets[:half]})
    finally:
        for server in servers:
            server.kill(signal.SIGKILL)
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, capture_output=True)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
            subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)"],
                           capture_output=True)

    deals = sum(len(s.deals) for s in season.sheets)
    print(f"bench/soak.py — {len(season.sheets)} Tarot events, {deals} deals kept ({season.entered} entries, "
          f"{sum(s.resends for s in season.sheets)} resends), load average {load[0]:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end")
    seconds, n = figures["previous release"]
    print(f"   previous release ({args.release}, in-process rankings): {n} deals in {seconds:.0f} s "
          f"({n / seconds:.1f} deals/s, with the tournaments, players, rounds, corrections and rulings)")
    print(f"   upgrade (backup + migrations): {figures['upgrade']:.1f} s; "
          f"its backup {figures['upgrade backup'] / 1e6:.2f} MB")
    seconds, n = figures["this release, before the crash"]
    print(f"   this release with a Celery worker: {n} deals in {seconds:.0f} s ({n / seconds:.1f} deals/s)")
    b_seconds, b_size, db_size = figures["backup"]
    print(f"   backup three quarters in: {b_seconds:.1f} s, {b_size / 1e6:.2f} MB "
          f"for a {db_size / 1e6:.1f} MB database")
    print(f"   restore into an empty database: {figures['restore']:.1f} s")
    seconds, n = figures["this release, after the restore"]
    print(f"   after the restore: {n} deals (those the backup did not hold entered again, then the rest) "
          f"in {seconds:.0f} s")
    print(f"   rankings up to date {figures['rankings caught up']:.1f} s after the last deal")
    print(f"   database at the end: {figures['database'] / 1e6:.1f} MB; whole run {figures['total']:.0f} s")
    if problems:
        print(f"LOST OR DOUBLED ({len(problems)}):")
        for p in problems[:50]:
            print("   " + p)
        return 1
    print("   every deal, version, ruling and ranking is there exactly once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
