"""The first response of an idempotent submission kept as the JSON text sent (replayed as it is);
on PostgreSQL, the large JSON values of deals compressed with lz4 rather than pglz."""

from django.db import migrations, models

#: the columns holding a deal's record, verdict and first response: several KB each, written at every entry
LARGE_VALUES = {
    "tournaments_deal": ("record", "verdict"),
    "tournaments_historicaldeal": ("record", "verdict"),
    "tournaments_idempotencykey": ("response",),
}


def compress_with_lz4(apps, schema_editor):
    """PostgreSQL 14+ built with lz4: about half the CPU of pglz to write a value (docs/performance.md)."""
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()
    if not row or not row[0]:
        return
    quote = schema_editor.quote_name
    for table, columns in LARGE_VALUES.items():
        changes = ", ".join(f"ALTER COLUMN {quote(c)} SET COMPRESSION lz4" for c in columns)
        schema_editor.execute(f"ALTER TABLE {quote(table)} {changes}")


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_forfeits'),
    ]

    operations = [
        migrations.AlterField(
            model_name='idempotencykey',
            name='response',
            field=models.TextField(default='', help_text="Le corps JSON de la première réponse, tel qu'envoyé."),
        ),
        migrations.RunPython(compress_with_lz4, migrations.RunPython.noop),
    ]
