"""The deal entry's transaction, in two round trips to PostgreSQL.

A deal entered runs a lock, then five writes (deal, history row, score rows, idempotency key,
ranking clock). Through ``transaction.atomic`` each statement, the BEGIN and the COMMIT wait for
their own answer: eight round trips, each costing both processes a wake-up and a few system calls
(about a tenth of the entry's CPU, docs/performance.md). :func:`write_transaction` sends them in
psycopg's pipeline mode instead:

1. ``BEGIN`` and the lock, whose answer the entry needs (the last deal number, the status);
2. the writes and ``COMMIT``, sent together; their errors (a reused idempotency key, say) come back
   at the end, as Django's exceptions, and the transaction is rolled back.

Statements inside read their results only once the transaction is over, except where they must
(the lock). Work to do after the commit is registered with :meth:`WriteTransaction.on_commit`.

Anywhere else (SQLite, or already inside ``transaction.atomic``, as in most tests) it is simply
``transaction.atomic``, with the same interface: the caller's code is the same on both paths.
Django knows nothing of the pipelined transaction (its connection stays in autocommit), so the
body must not use the ORM's writes (they read row counts) nor ``transaction.on_commit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction


class WriteTransaction:
    """The transaction a body runs in: its cursor, and what to do once it has committed."""

    def __init__(self, cursor: Any, *, pipelined: bool) -> None:
        self.cursor = cursor
        self.pipelined = pipelined
        self._after: list[Callable[[], Any]] = []

    def on_commit(self, func: Callable[[], Any]) -> None:
        """Run ``func`` once the transaction has committed (never if it rolls back)."""
        if self.pipelined:
            self._after.append(func)
        else:
            transaction.on_commit(func)

    def new_cursor(self) -> Any:
        """Another cursor in the same transaction (to read its results after the commit); closed with it."""
        cursor = self.cursor.db.cursor()
        self._cursors.append(cursor)
        return cursor

    @property
    def _cursors(self) -> list[Any]:
        return self.__dict__.setdefault("_extra_cursors", [])


def can_pipeline(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether :func:`write_transaction` pipelines here: PostgreSQL (psycopg 3), outside any atomic block."""
    db = connections[alias]
    return db.vendor == "postgresql" and db.get_autocommit() and not db.in_atomic_block


@contextmanager
def write_transaction(alias: str = DEFAULT_DB_ALIAS, *, pipeline: bool = True) -> Iterator[WriteTransaction]:
    """A transaction for a hot write path; see the module's docstring. ``pipeline=False``: plain atomic."""
    if not (pipeline and can_pipeline(alias)):
        with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
            yield WriteTransaction(cursor, pipelined=False)
        return
    db = connections[alias]
    db.ensure_connection()
    pg = db.connection
    tx = None
    try:
        with db.wrap_database_errors, db.cursor() as cursor, pg.pipeline():
            pg.execute("BEGIN", prepare=False)
            tx = WriteTransaction(cursor, pipelined=True)
            yield tx
            pg.execute("COMMIT", prepare=False)
    except BaseException:
        _rollback(db)
        _close(tx)
        raise
    try:
        for func in tx._after:
            func()
    finally:
        _close(tx)


def _rollback(db: Any) -> None:
    """Leave the connection idle after a failed transaction (or drop it if even that fails)."""
    from psycopg.pq import TransactionStatus

    pg = db.connection
    try:
        if pg is not None and not pg.closed and pg.info.transaction_status != TransactionStatus.IDLE:
            pg.execute("ROLLBACK", prepare=False)
    except Exception:  # the connection is broken: let Django replace it at the end of the request
        db.close()


def _close(tx: WriteTransaction | None) -> None:
    if tx is None:
        return
    for cursor in tx._cursors:
        with suppress(Exception):  # a cursor of a dead connection
            cursor.close()
