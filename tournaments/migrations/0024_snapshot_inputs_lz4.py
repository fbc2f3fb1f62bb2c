"""The snapshots' inputs compressed with lz4 rather than pglz (PostgreSQL 14 and later, when built with lz4).

A 1,024-player duplicate writes 3.8 MB of canonical inputs at each publication: pglz took 500 – 740 ms of
PostgreSQL's time to compress them (to 1.8 MB), lz4 140 – 230 ms (to 0.75 MB), and reading them back is three times
quicker (docs/performance.md, « Fourth pass »). Only new values are compressed so; the older ones stay as they are
and read the same. Nothing changes elsewhere (SQLite, or a PostgreSQL without lz4: pglz stays)."""

from django.db import migrations

COLUMNS = ("inputs", "team_inputs")


def lz4(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    alter = ", ".join(f"ALTER COLUMN {column} SET COMPRESSION lz4" for column in COLUMNS)
    # a server built without lz4 refuses the method (feature_not_supported): pglz is kept then
    schema_editor.execute(f"DO $$ BEGIN EXECUTE 'ALTER TABLE tournaments_rankingsnapshot {alter}'; "
                          "EXCEPTION WHEN feature_not_supported THEN NULL; END $$")


def pglz(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql" or connection.pg_version < 140000:
        return
    alter = ", ".join(f"ALTER COLUMN {column} SET COMPRESSION pglz" for column in COLUMNS)
    schema_editor.execute(f"ALTER TABLE tournaments_rankingsnapshot {alter}")


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0023_snapshot_inputs_json"),
    ]

    operations = [migrations.RunPython(lz4, pglz)]
