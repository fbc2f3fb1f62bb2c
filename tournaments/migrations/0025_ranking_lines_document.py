"""A snapshot's lines become one document of the snapshot (``RankingSnapshot.lines`` / ``team_lines``); the
``RankingLine`` table goes.

Forwards, on PostgreSQL and SQLite alike: the lines are read in order (a server-side cursor on PostgreSQL), each
snapshot's written as ``{"metrics": [name, …], "rows": [[rank, shared, id, value, …], …]}`` — what
``tournaments.standings.rankings.lines_json`` writes — and the table is dropped. A place left empty by a line that
cascaded away with its entry is kept as ``null`` (readers skip it): a line's position stays its place in the rows.
Backwards: the table comes back and is filled from the documents (a line whose entry or team is gone is left out, as
the foreign key would have it).

On PostgreSQL built with lz4, the snapshot's large JSON columns (inputs and lines) are compressed with lz4 rather than
pglz when written (docs/performance.md: half the INSERT's time, a fifth more bytes); values already stored stay as
they are.
"""

import json

from django.db import migrations

import tournaments.standings.models

#: snapshots written per UPDATE batch
BATCH = 200


def _value(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _document(lines):
    """The document of one snapshot's lines of one unit: ``lines`` = [(position, rank, shared, id, metrics)]."""
    names = []
    for *_rest, metrics in lines:
        for name, _v in metrics:
            if name not in names:
                names.append(name)
    rows = []
    for position, rank, shared, ident, metrics in lines:
        while len(rows) < position - 1:
            rows.append("null")  # a line gone with its entry: its place is kept
        values = dict(metrics)
        rows.append("[" + ",".join([_value(rank), "true" if shared else "false", _value(ident),
                                    *[_value(values.get(name)) for name in names]]) + "]")
    return '{"metrics":' + _value(names) + ',"rows":[' + ",".join(rows) + "]}"


def lines_to_documents(apps, schema_editor):
    connection = schema_editor.connection
    Line = apps.get_model("tournaments", "RankingLine")
    Snapshot = apps.get_model("tournaments", "RankingSnapshot")
    col = {f.name: f.column for f in Line._meta.concrete_fields}
    snap_table, snap_id = Snapshot._meta.db_table, Snapshot._meta.pk.column
    cast = "CAST(%s AS json)" if connection.vendor == "postgresql" else "%s"
    updates = {"entry": f"UPDATE {snap_table} SET {Snapshot._meta.get_field('lines').column} = {cast} "
                        f"WHERE {snap_id} = %s",
               "team": f"UPDATE {snap_table} SET {Snapshot._meta.get_field('team_lines').column} = {cast} "
                       f"WHERE {snap_id} = %s"}
    pending = {"entry": [], "team": []}

    def flush(force=False):
        with connection.cursor() as writer:
            for unit, params in pending.items():
                if params and (force or len(params) >= BATCH):
                    writer.executemany(updates[unit], params)
                    params.clear()

    def done(key, lines):
        if key is not None:
            pending[key[1]].append((_document(lines), key[0]))
            flush()

    key, lines = None, []
    with connection.chunked_cursor() as cursor:
        cursor.execute(f"SELECT {col['snapshot']}, {col['unit']}, {col['position']}, {col['rank']}, {col['shared']}, "
                       f"{col['entry']}, {col['team']}, {col['metrics']} FROM {Line._meta.db_table} "
                       f"ORDER BY {col['snapshot']}, {col['unit']}, {col['position']}")
        while True:
            chunk = cursor.fetchmany(5000)
            if not chunk:
                break
            for snapshot, unit, position, rank, shared, entry, team, metrics in chunk:
                if (snapshot, unit) != key:
                    done(key, lines)
                    key, lines = (snapshot, unit), []
                if isinstance(metrics, str):  # SQLite: the JSON text
                    metrics = json.loads(metrics)
                lines.append((position, rank, shared, team if unit == "team" else entry, metrics))
    done(key, lines)
    flush(force=True)


def documents_to_lines(apps, schema_editor):
    connection = schema_editor.connection
    Line = apps.get_model("tournaments", "RankingLine")
    Snapshot = apps.get_model("tournaments", "RankingSnapshot")
    Entry = apps.get_model("tournaments", "Entry")
    Team = apps.get_model("tournaments", "Team")
    entries = set(Entry.objects.using(connection.alias).values_list("id", flat=True))
    teams = set(Team.objects.using(connection.alias).values_list("id", flat=True))
    for pk in Snapshot.objects.using(connection.alias).order_by("pk").values_list("pk", flat=True).iterator():
        documents = Snapshot.objects.using(connection.alias).filter(pk=pk).values_list("lines", "team_lines").get()
        rows = []
        for unit, document, known in (("entry", documents[0], entries), ("team", documents[1], teams)):
            if isinstance(document, str):
                document = json.loads(document)
            if not document:
                continue
            names = document["metrics"]
            for position, row in enumerate(document["rows"], start=1):
                if row is None or row[2] not in known:
                    continue
                rows.append(Line(snapshot_id=pk, unit=unit, position=position, rank=row[0], shared=row[1],
                                 entry_id=row[2] if unit == "entry" else None,
                                 team_id=row[2] if unit == "team" else None,
                                 metrics=[[name, value] for name, value in zip(names, row[3:], strict=True)]))
        Line.objects.using(connection.alias).bulk_create(rows, batch_size=2000)


#: the snapshot's columns written whole at each publication, read whole
_LARGE = ("inputs", "team_inputs", "lines", "team_lines")


def _compression(schema_editor, method):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'",
                       [method])
        row = cursor.fetchone()
    if not (row and row[0]):  # a build without lz4 (or older than PostgreSQL 14): pglz, as before
        return
    Snapshot = "tournaments_rankingsnapshot"
    for column in _LARGE:
        schema_editor.execute(f'ALTER TABLE "{Snapshot}" ALTER COLUMN "{column}" SET COMPRESSION {method}')


def lz4(apps, schema_editor):
    _compression(schema_editor, "lz4")


def pglz(apps, schema_editor):
    _compression(schema_editor, "pglz")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0024_snapshot_inputs_lz4'),
    ]

    operations = [
        migrations.AddField(
            model_name='rankingsnapshot',
            name='lines',
            field=tournaments.standings.models.JSONTextField(blank=True, help_text="Les lignes du classement, dans l'ordre.", null=True),
        ),
        migrations.AddField(
            model_name='rankingsnapshot',
            name='team_lines',
            field=tournaments.standings.models.JSONTextField(blank=True, help_text='Les lignes du classement des équipes.', null=True),
        ),
        # before the documents are written (they are then lz4 too), while no row of the table has changed in this
        # transaction: PostgreSQL refuses to ALTER a table with pending trigger events
        migrations.RunPython(lz4, pglz),
        migrations.RunPython(lines_to_documents, documents_to_lines),
        migrations.DeleteModel(
            name='RankingLine',
        ),
    ]
