"""Backups: a consistent, compressed, dated copy of the whole database, and bringing one back.

* **PostgreSQL**: ``pg_dump`` in its custom format (compressed), run on a snapshot exported by a read-only
  REPEATABLE READ transaction (``pg_export_snapshot``): the dump, and the counts and digest written beside it,
  see one instant of the database while the entries go on.
* **SQLite** (the embedded default): SQLite's online backup API copies the live database in one step (one
  consistent state; in WAL mode the writers are not held up), then the copy is gzipped.

A backup is a file ``levee-YYYYMMDD-HHMMSS.pgdump`` or ``….sqlite3.gz`` in ``LEVEE_BACKUP_DIR`` and its manifest
``<file>.json`` (when and why it was taken, the engine, the counts of tournaments, deals, versions and users,
the digest of every row). The oldest beyond ``LEVEE_BACKUP_KEEP`` are deleted. :func:`backup_restore` brings a
file back into an empty database (or replaces one, ``replace=True``) and counts what it restored.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.utils import timezone

__all__ = [
    "Backup",
    "BackupError",
    "backup_create",
    "backup_dir",
    "backup_latest",
    "backup_list",
    "backup_prune",
    "backup_restore",
    "database_counts",
    "database_digest",
    "database_is_empty",
]

SUFFIXES = {"postgresql": ".pgdump", "sqlite": ".sqlite3.gz"}
NAME_RE = re.compile(r"^levee-\d{8}-\d{6}(?:-\d+)?(?:\.pgdump|\.sqlite3\.gz)$")
PG_MAGIC = b"PGDMP"
GZIP_MAGIC = b"\x1f\x8b"

#: what a backup's manifest and a restore count, by the words the commands print
COUNTED = {
    "tournaments": "tournaments.Tournament",
    "deals": "tournaments.Deal",
    "versions": "tournaments.HistoricalDeal",
    "rulings": "tournaments.Ruling",
    "users": "auth.User",
    "rankings": "tournaments.RankingSnapshot",
}


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message says why, in French."""


@dataclass(frozen=True)
class Backup:
    """One backup file and what its manifest says."""

    path: Path
    taken_at: datetime
    engine: str
    size: int
    reason: str = ""
    counts: dict[str, int] = field(default_factory=dict)
    digest: str = ""
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return self.path.name


# ---------------------------------------------------------------------------------------------------------------
# where, and which


def backup_dir() -> Path:
    """The folder of the backups (``LEVEE_BACKUP_DIR``)."""
    return Path(settings.LEVEE_BACKUP_DIR)


def engine_of(alias: str = "default") -> str:
    vendor = connections[alias].vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"Base de données « {vendor} » : seules PostgreSQL et SQLite sont sauvegardées.")
    return vendor


def _manifest_path(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _read(path: Path) -> Backup:
    stat = path.stat()
    meta: dict[str, Any] = {}
    with contextlib.suppress(OSError, ValueError):
        meta = json.loads(_manifest_path(path).read_text(encoding="utf-8"))
    taken = meta.get("taken_at")
    taken_at = (datetime.fromisoformat(taken) if taken
                else datetime.fromtimestamp(stat.st_mtime, tz=timezone.get_current_timezone()))
    engine = meta.get("engine") or ("postgresql" if path.name.endswith(".pgdump") else "sqlite")
    return Backup(path=path, taken_at=taken_at, engine=engine, size=stat.st_size, reason=meta.get("reason", ""),
                  counts=meta.get("counts", {}), digest=meta.get("digest", ""), seconds=meta.get("seconds", 0.0))


def backup_list(folder: Path | None = None) -> list[Backup]:
    """The backups of ``folder`` (the backup folder by default), the newest first."""
    folder = folder or backup_dir()
    try:
        paths = [p for p in folder.iterdir() if NAME_RE.match(p.name) and p.is_file()]
    except FileNotFoundError:
        return []
    found = []
    for path in paths:
        with contextlib.suppress(FileNotFoundError):  # pruned meanwhile
            found.append(_read(path))
    return sorted(found, key=lambda b: (b.taken_at, b.name), reverse=True)


def backup_latest(folder: Path | None = None) -> Backup | None:
    found = backup_list(folder)
    return found[0] if found else None


def backup_prune(*, keep: int | None = None, folder: Path | None = None) -> list[Path]:
    """Delete the oldest backups beyond ``keep`` (``LEVEE_BACKUP_KEEP``); the files deleted."""
    keep = settings.LEVEE_BACKUP_KEEP if keep is None else keep
    gone = []
    for old in backup_list(folder)[max(keep, 1):]:
        for path in (old.path, _manifest_path(old.path)):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        gone.append(old.path)
    return gone


# ---------------------------------------------------------------------------------------------------------------
# counting and digesting, on a DB-API cursor (the same state the dump sees)


def _tables() -> list[tuple[str, str]]:
    """Every table of the installed models (many-to-many ones too) and its primary key's column, sorted."""
    seen: dict[str, str] = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.managed and not meta.proxy and meta.db_table not in seen:
            seen[meta.db_table] = meta.pk.column
    return sorted(seen.items())


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _table_names(cursor: Any, engine: str) -> set[str]:
    if engine == "sqlite":
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
    return {row[0] for row in cursor.fetchall()}


def _counts(cursor: Any, engine: str) -> dict[str, int]:
    existing = _table_names(cursor, engine)
    out = {}
    for word, label in COUNTED.items():
        table = apps.get_model(label)._meta.db_table
        if table in existing:
            cursor.execute(f"SELECT count(*) FROM {_q(table)}")
            out[word] = cursor.fetchone()[0]
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, memoryview | bytes | bytearray):
        return bytes(value).hex()
    return str(value) if not isinstance(value, int | float | str | bool | type(None) | list | dict) else value


def _digest(cursor: Any, engine: str, tables: Iterable[tuple[str, str]] | None = None) -> str:
    """sha256 of every row of every model's table, in primary-key order."""
    existing = _table_names(cursor, engine)
    total = hashlib.sha256()
    for table, pk in tables or _tables():
        if table not in existing:
            continue
        cursor.execute(f"SELECT * FROM {_q(table)} ORDER BY {_q(pk)}")
        columns = [c[0] for c in cursor.description]
        total.update(json.dumps([table, columns]).encode())
        for row in cursor.fetchall():
            total.update(json.dumps([_plain(v) for v in row], sort_keys=True, default=_plain).encode())
    return total.hexdigest()


@contextlib.contextmanager
def _cursor(alias: str) -> Iterator[tuple[Any, str]]:
    """A cursor on the database of ``alias`` and its engine. SQLite is read from a copy made by the online backup
    API through Django's own connection (it sees what this thread sees; a plain ``sqlite3`` connection reads the
    same value types as a backup read later); PostgreSQL through a connection of its own."""
    engine = engine_of(alias)
    if engine == "sqlite":
        with tempfile.TemporaryDirectory(prefix="levee-read-") as tmp:
            copy = Path(tmp) / "copy.sqlite3"
            _sqlite_copy(alias, copy)
            raw = sqlite3.connect(copy)
            try:
                yield raw.cursor(), engine
            finally:
                raw.close()
        return
    conn = connections.create_connection(alias)
    try:
        conn.ensure_connection()
        with conn.connection.cursor() as cursor:
            yield cursor, engine
    finally:
        conn.close()


def database_counts(alias: str = "default") -> dict[str, int]:
    """Tournaments, deals, versions (of deals), rulings, users and published rankings in the database."""
    with _cursor(alias) as (cursor, engine):
        return _counts(cursor, engine)


def database_digest(alias: str = "default") -> str:
    """The digest of every row of the database of ``alias``: two databases with the same rows have the same one."""
    with _cursor(alias) as (cursor, engine):
        return _digest(cursor, engine)


def database_is_empty(alias: str = "default") -> bool:
    """Whether the database has no table at all (a new database) or none of Levée's tables holds a row."""
    with _cursor(alias) as (cursor, engine):
        counts = _counts(cursor, engine)
    return not any(counts.values())


# ---------------------------------------------------------------------------------------------------------------
# taking one


def _sqlite_live(alias: str) -> sqlite3.Connection:
    """The ``sqlite3`` connection Django holds for ``alias`` in this thread."""
    conn = connections[alias]
    conn.ensure_connection()
    return conn.connection


def _sqlite_copy(alias: str, dest: Path) -> None:
    """Copy the live database into the file ``dest`` with SQLite's online backup API, in one step: one
    consistent state (in WAL mode the writers are not held up)."""
    target = sqlite3.connect(dest)
    try:
        _sqlite_live(alias).backup(target)
        target.execute("PRAGMA journal_mode=DELETE")  # the copy stands alone (no -wal file beside it)
    finally:
        target.close()


def _pg_env(alias: str) -> tuple[list[str], dict[str, str]]:
    """The connection options of ``pg_dump`` / ``pg_restore`` for ``alias``, and their environment."""
    db = connections[alias].settings_dict
    args = []
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    if (db.get("OPTIONS") or {}).get("sslmode"):
        env["PGSSLMODE"] = str(db["OPTIONS"]["sslmode"])
    return args, env


def _tool(name: str) -> str:
    path = shutil.which(name)
    if not path:
        raise BackupError(f"« {name} » est introuvable : installez le client PostgreSQL (paquet postgresql-client).")
    return path


def _new_path(folder: Path, engine: str, now: datetime) -> Path:
    """A name of its own in ``folder`` (two backups in the same second are numbered), reserved by creating it."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = "levee-" + timezone.localtime(now).strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        path = folder / f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIXES[engine]}"
        try:
            path.with_name(path.name + ".partial").open("x").close()
        except FileExistsError:
            continue
        if path.exists():
            path.with_name(path.name + ".partial").unlink()
            continue
        return path
    raise BackupError("Trop de sauvegardes dans la même seconde.")


def _backup_sqlite(alias: str, partial: Path) -> tuple[dict[str, int], str]:
    with tempfile.TemporaryDirectory(prefix="levee-backup-") as tmp:
        copy = Path(tmp) / "copy.sqlite3"
        _sqlite_copy(alias, copy)
        target = sqlite3.connect(copy)
        try:
            counts, digest = _counts(target.cursor(), "sqlite"), _digest(target.cursor(), "sqlite")
        finally:
            target.close()
        with copy.open("rb") as raw, gzip.open(partial, "wb", compresslevel=6) as packed:
            shutil.copyfileobj(raw, packed, 1 << 20)
    return counts, digest


def _backup_postgresql(alias: str, partial: Path) -> tuple[dict[str, int], str]:
    args, env = _pg_env(alias)
    conn = connections.create_connection(alias)  # a connection of its own: the snapshot's transaction is ours
    try:
        conn.ensure_connection()
        with conn.connection.cursor() as cursor:
            cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
            done = subprocess.run(
                [_tool("pg_dump"), *args, "--format=custom", f"--snapshot={snapshot}", "--file", str(partial),
                 "--dbname", str(conn.settings_dict["NAME"])],
                env=env, capture_output=True, text=True, check=False)
            if done.returncode:
                raise BackupError(f"pg_dump a échoué : {done.stderr.strip()[:500]}")
            counts, digest = _counts(cursor, "postgresql"), _digest(cursor, "postgresql")
            cursor.execute("COMMIT")
    finally:
        conn.close()
    return counts, digest


def backup_create(*, reason: str = "manual", alias: str = "default", folder: Path | None = None,
                  keep: int | None = None) -> Backup:
    """Take a backup of the database of ``alias`` into ``folder`` (the backup folder by default) and prune the
    oldest beyond ``keep``; the backup written. Safe while the service runs."""
    engine = engine_of(alias)
    started = timezone.now()
    path = _new_path(folder or backup_dir(), engine, started)
    partial = path.with_name(path.name + ".partial")
    try:
        counts, digest = (_backup_sqlite if engine == "sqlite" else _backup_postgresql)(alias, partial)
        seconds = round((timezone.now() - started).total_seconds(), 3)
        manifest = {"taken_at": timezone.localtime(started).isoformat(), "reason": reason, "engine": engine,
                    "counts": counts, "digest": digest, "seconds": seconds, "migrations": _last_migrations(alias)}
        _manifest_path(path).write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
        partial.replace(path)  # listed only once whole
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        with contextlib.suppress(FileNotFoundError):
            _manifest_path(path).unlink()
        raise
    backup_prune(keep=keep, folder=path.parent)
    return _read(path)


def _last_migrations(alias: str) -> dict[str, str]:
    from django.db.migrations.recorder import MigrationRecorder

    last: dict[str, str] = {}
    with contextlib.suppress(Exception):
        for app, name in MigrationRecorder(connections[alias]).migration_qs.order_by("id").values_list("app", "name"):
            last[app] = name
    return last


# ---------------------------------------------------------------------------------------------------------------
# bringing one back


@dataclass(frozen=True)
class Restored:
    """What a restore brought back."""

    path: Path
    engine: str
    counts: dict[str, int]
    digest: str
    expected_digest: str = ""

    @property
    def identical(self) -> bool | None:
        """Whether the database now holds exactly the backup's rows (None: the backup had no manifest)."""
        return (self.digest == self.expected_digest) if self.expected_digest else None


def engine_of_file(path: Path) -> str:
    with path.open("rb") as f:
        head = f.read(5)
    if head.startswith(PG_MAGIC):
        return "postgresql"
    if head.startswith(GZIP_MAGIC):
        return "sqlite"
    raise BackupError(f"« {path.name} » n'est pas une sauvegarde de Levée (ni PostgreSQL, ni SQLite compressée).")


def _clear_postgresql(alias: str) -> None:
    conn = connections.create_connection(alias)
    try:
        conn.ensure_connection()
        with conn.connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            schema = _q(cursor.fetchone()[0])
            cursor.execute(f"DROP SCHEMA {schema} CASCADE")
            cursor.execute(f"CREATE SCHEMA {schema}")
    finally:
        conn.close()


def _restore_postgresql(path: Path, alias: str) -> None:
    args, env = _pg_env(alias)
    done = subprocess.run(
        [_tool("pg_restore"), *args, "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
         "--dbname", str(connections[alias].settings_dict["NAME"]), str(path)],
        env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise BackupError(f"pg_restore a échoué (rien n'a été restauré) : {done.stderr.strip()[:500]}")


def _restore_sqlite(path: Path, alias: str) -> None:
    with tempfile.TemporaryDirectory(prefix="levee-restore-") as tmp:
        copy = Path(tmp) / "copy.sqlite3"
        try:
            with gzip.open(path, "rb") as packed, copy.open("wb") as raw:
                shutil.copyfileobj(packed, raw, 1 << 20)
        except (OSError, EOFError) as exc:
            raise BackupError(f"« {path.name} » est illisible ou tronquée : {exc}") from exc
        source = sqlite3.connect(copy)
        try:
            if source.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise BackupError(f"« {path.name} » : la base qu'elle contient est abîmée.")
            source.backup(_sqlite_live(alias))
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"Restauration impossible : {exc}") from exc
        finally:
            source.close()


def backup_restore(path: Path, *, alias: str = "default", replace: bool = False) -> Restored:
    """Bring the backup ``path`` back into the database of ``alias``, which must be empty unless ``replace``;
    what it now holds. Stop the service first: a restore replaces the whole database."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"Le fichier « {path} » n'existe pas.")
    engine, target = engine_of_file(path), engine_of(alias)
    if engine != target:
        words = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}
        raise BackupError(f"Cette sauvegarde est une base {words[engine]} ; la base configurée est {words[target]} "
                          "(DATABASE_URL).")
    if not replace and not database_is_empty(alias):
        raise BackupError("La base configurée contient déjà des données : restaurez dans une base vide, ou ajoutez "
                          "--replace pour la remplacer (une sauvegarde de son état actuel est prise d'abord).")
    if engine == "postgresql":
        connections[alias].close()
        if replace:
            _clear_postgresql(alias)
        _restore_postgresql(path, alias)
    else:
        _restore_sqlite(path, alias)
    connections[alias].close()
    with _cursor(alias) as (cursor, _engine):
        counts, digest = _counts(cursor, engine), _digest(cursor, engine)
    expected = _read(path).digest
    return Restored(path=path, engine=engine, counts=counts, digest=digest, expected_digest=expected)


WORDS = {
    "tournaments": ("tournoi", "tournois"),
    "deals": ("donne", "donnes"),
    "versions": ("version de donne", "versions de donnes"),
    "rulings": ("décision", "décisions"),
    "users": ("utilisateur", "utilisateurs"),
    "rankings": ("classement publié", "classements publiés"),
}


def describe_counts(counts: dict[str, int]) -> str:
    """« 5 tournois, 37 donnes, 39 versions de donnes, … » in French."""
    parts = []
    for word, (one, many) in WORDS.items():
        if word in counts:
            n = counts[word]
            parts.append(f"{n} {one if n <= 1 else many}")
    return ", ".join(parts) or "aucune donnée"


def describe_size(size: int) -> str:
    """A file size in French words (« 1,2 Mo »)."""
    for unit, scale in (("Go", 1 << 30), ("Mo", 1 << 20), ("ko", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}".replace(".", ",")
    return f"{size} octets"
