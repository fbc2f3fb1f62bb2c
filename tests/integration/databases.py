"""A second, fresh database beside the test database, for the restore and upgrade tests: a SQLite file in a
temporary folder, or a PostgreSQL database created next to the test one (dropped afterwards)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper


def _admin_execute(sql: str) -> None:
    conn = connections.create_connection("default")  # its own connection, in autocommit: CREATE DATABASE
    try:
        conn.ensure_connection()
        with conn.connection.cursor() as cursor:
            cursor.execute(sql)
    finally:
        conn.close()


def _allowing(patched: Callable[..., None], alias: str) -> Callable[..., None]:
    """Django's test case allows connections only to the aliases it was given (it replaces
    ``BaseDatabaseWrapper.ensure_connection``); this one alias, added during the test, is let through to the real
    method (the one Django's replacement closes over)."""
    real = next((c.cell_contents for c in (patched.__closure__ or ())
                 if getattr(c.cell_contents, "__name__", "") == "ensure_connection"), patched)

    def ensure_connection(self: BaseDatabaseWrapper, *args: Any, **kwargs: Any) -> None:
        return (real if self.alias == alias else patched)(self, *args, **kwargs)

    return ensure_connection


@contextlib.contextmanager
def fresh_database(alias: str, folder: Path) -> Iterator[str]:
    """Add the database alias ``alias`` (an empty database of the test database's engine) for the block."""
    base = connections["default"].settings_dict
    conf = {**base, "OPTIONS": dict(base.get("OPTIONS") or {}), "TEST": dict(base.get("TEST") or {})}
    pg = connections["default"].vendor == "postgresql"
    if pg:
        conf["NAME"] = f"{base['NAME']}_{alias}"
        _admin_execute(f'DROP DATABASE IF EXISTS "{conf["NAME"]}" WITH (FORCE)')
        _admin_execute(f'CREATE DATABASE "{conf["NAME"]}"')
    else:
        conf["NAME"] = str(folder / f"{alias}.sqlite3")
    connections.settings[alias] = conf
    patched = BaseDatabaseWrapper.ensure_connection
    BaseDatabaseWrapper.ensure_connection = _allowing(patched, alias)
    try:
        yield alias
    finally:
        connections[alias].close()
        del connections[alias]
        del connections.settings[alias]
        BaseDatabaseWrapper.ensure_connection = patched
        if pg:
            _admin_execute(f'DROP DATABASE IF EXISTS "{conf["NAME"]}" WITH (FORCE)')
