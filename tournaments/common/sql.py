"""Plain SQL for the deal-entry path, written from the models' own metadata.

Entering a deal is the service's hot path (``bench/api.py``, ``docs/performance.md``): with the
ORM, compiling a query cost about as much CPU as PostgreSQL spent running it, and an entry ran
a dozen of them. The few statements of that path are written here once per process from the
models' metadata (table and column names, each field's conversions to and from the database),
then run through Django's connection, so they follow the models, stay portable between
PostgreSQL and SQLite, and go through the same transactions, converters and adapters as the ORM.

* :func:`select_list` and :func:`load` read whole model rows out of a hand-written join;
* :func:`insert` and :func:`insert_many` write rows given as ``{attname: value}``; a :class:`JSONText`
  is JSON serialised once for several rows.

Model instances built here are ordinary ones (``Model.from_db``), with every concrete field loaded
but those a caller leaves deferred (``skip``). Rows inserted here get no model defaults (give every
NOT NULL column) and send no ``pre_save``/``post_save`` signal, so a caller that needs what a signal
does (django-simple-history's version, say) writes it itself; values for integer, text and boolean
columns go to the database as they are, so give them with the field's Python type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import BooleanField, CharField, Field, IntegerField, Model, TextField
from django.db.models.fields.related import RelatedField

M = TypeVar("M", bound=Model)


@cache
def _fields(model: type[Model], skip: tuple[str, ...] = ()) -> tuple[Field, ...]:
    return tuple(f for f in model._meta.concrete_fields if f.attname not in skip)


@cache
def _attnames(model: type[Model], skip: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(f.attname for f in _fields(model, skip))


@cache
def _converters(model: type[Model], vendor: str, skip: tuple[str, ...] = ()
                ) -> tuple[tuple[int, Any, tuple[Any, ...]], ...]:
    """Per column that needs one: (index, the column expression, its converters), as the ORM applies them."""
    out = []
    for i, field in enumerate(_fields(model, skip)):
        col = field.get_col(model._meta.db_table)
        # Field.get_db_converters exists (django/db/models/fields/__init__.py); django-stubs 5.2 leaves it out
        funcs = tuple(connection.ops.get_db_converters(col)) + tuple(
            field.get_db_converters(connection))  # type: ignore[attr-defined]
        if funcs:
            out.append((i, col, funcs))
    return tuple(out)


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    """The model's quoted table name."""
    return quote(model._meta.db_table)


def concrete_field(model: type[Model], name: str) -> Field:
    """The concrete field named ``name`` (a column of the model's table, not a reverse relation)."""
    found = model._meta.get_field(name)
    if not isinstance(found, Field):
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return found


def column(model: type[Model], name: str) -> str:
    """The quoted column of the field named ``name`` (``"table"`` gives ``"table_id"``)."""
    return quote(concrete_field(model, name).column)


def select_list(model: type[Model], alias: str, skip: tuple[str, ...] = ()) -> str:
    """The concrete columns of the model under ``alias``, in the order :func:`load` reads them.

    ``skip``: attnames left out; :func:`load` given the same ``skip`` leaves them deferred (read
    from the database if ever used, as with ``QuerySet.defer``).
    """
    return ", ".join(f"{alias}.{quote(f.column)}" for f in _fields(model, skip))


def width(model: type[Model], skip: tuple[str, ...] = ()) -> int:
    """How many columns :func:`select_list` gives."""
    return len(_fields(model, skip))


def load(model: type[M], row: Sequence[Any], start: int = 0, skip: tuple[str, ...] = ()) -> M | None:
    """The instance whose columns start at ``row[start]`` (None for the NULLs of an outer join)."""
    fields = _fields(model, skip)
    values = list(row[start:start + len(fields)])
    if values[fields.index(model._meta.pk)] is None:
        return None
    db = connections[DEFAULT_DB_ALIAS]
    for i, col, funcs in _converters(model, db.vendor, skip):
        value = values[i]
        for func in funcs:
            value = func(value, col, db)
        values[i] = value
    return model.from_db(db.alias, _attnames(model, skip), values)


def convert(model: type[Model], name: str, value: Any) -> Any:
    """A value of the field ``name`` read with plain SQL, converted as the ORM converts it."""
    index = _attnames(model).index(concrete_field(model, name).attname)
    for i, col, funcs in _converters(model, connection.vendor):
        if i == index:
            for func in funcs:
                value = func(value, col, connection)
    return value


@cache
def _insert_sql(model: type[Model], names: tuple[str, ...], rows: int, returning: str | None, vendor: str) -> str:
    cols = ", ".join(column(model, n) for n in names)
    one = "(" + ", ".join(["%s"] * len(names)) + ")"
    sql = f"INSERT INTO {table(model)} ({cols}) VALUES {', '.join([one] * rows)}"
    if returning:
        sql += f" RETURNING {column(model, returning)}"
    return sql


#: fields whose values go to the database as they are (given with the field's Python type)
_PLAIN = (IntegerField, CharField, TextField, BooleanField)


@cache
def _prep(model: type[Model], names: tuple[str, ...]) -> tuple[Any, ...]:
    """Per value, the ORM's conversion for the database, or None where the value goes as it is."""
    out = []
    for name in names:
        concrete = concrete_field(model, name)
        target = concrete.target_field if isinstance(concrete, RelatedField) else concrete
        out.append(None if isinstance(target, _PLAIN) else concrete.get_db_prep_save)
    return tuple(out)


class JSONText(str):
    """A value already serialised to JSON, for a JSON column: written as it is, not serialised again
    (a deal's record and verdict go to the deal and to its history: dumped once)."""

    __slots__ = ()


def _json_param(db: Any, text: JSONText) -> Any:
    if db.vendor == "postgresql":
        from psycopg.types.json import Jsonb

        return Jsonb(text, dumps=str)
    return str(text)


def _params(prep: tuple[Any, ...], values: Iterable[Any], db: Any) -> list[Any]:
    out = []
    for p, v in zip(prep, values, strict=True):
        if p is None or v is None:
            out.append(v)
        elif type(v) is JSONText:
            out.append(_json_param(db, v))
        else:
            out.append(p(v, db))
    return out


def insert(model: type[Model], values: Mapping[str, Any], *, returning: str | None = "id",
           cursor: Any = None) -> Any:
    """INSERT one row given as ``{field name or attname: value}``; the ``returning`` column's value.

    Values are given as a model instance holds them (a dict for a JSONField, an aware datetime, an
    int for a foreign key …) and converted for the database as the ORM converts them
    (``Field.get_db_prep_save``). ``cursor``: run on this cursor of the default connection.
    """
    db = connections[DEFAULT_DB_ALIAS]
    names = tuple(values)
    returned = returning if db.features.can_return_columns_from_insert else None
    query = _insert_sql(model, names, 1, returned, db.vendor)
    params = _params(_prep(model, names), values.values(), db)
    if cursor is None:
        with db.cursor() as cursor:
            return _run_insert(db, cursor, model, query, params, returning, returned)
    return _run_insert(db, cursor, model, query, params, returning, returned)


def _run_insert(db: Any, cursor: Any, model: type[Model], query: str, params: list[Any], returning: str | None,
                returned: str | None) -> Any:
    cursor.execute(query, params)
    if not returning:
        return None
    if returned:
        return cursor.fetchone()[0]
    return db.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)


def insert_many(model: type[Model], names: Sequence[str], rows: Iterable[Sequence[Any]], *, cursor: Any = None) -> None:
    """INSERT several rows in one statement; ``names`` are field names or attnames, ``rows`` their values."""
    rows = list(rows)
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]
    names = tuple(names)
    prep = _prep(model, names)
    query = _insert_sql(model, names, len(rows), None, db.vendor)
    params = [p for row in rows for p in _params(prep, row, db)]
    if cursor is None:
        with db.cursor() as cursor:
            cursor.execute(query, params)
    else:
        cursor.execute(query, params)
