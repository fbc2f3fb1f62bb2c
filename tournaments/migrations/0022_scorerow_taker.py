"""The taker's row marked on the score rows (``ScoreRow.taker``): the rankings count the contracts made as taker in
the aggregate that sums the marks, without reading every deal's record (issue 22 §3).

The rows written before the column are marked here by the rule the rankings applied in SQL until now and that
``tournaments.deals.record.taker_seat`` applies to every row written since: the deal's ``record.bid.taker`` is an
integer (a text, a fraction or a boolean is no seat), equal to the position of the seat of the row's entry at the
deal's table, and the row is the deal's own (not a ruling's). Whether the deal counts (valid, not pending, annulled
or irregular) stays on ``counts``, which every change of status already rewrites.

The index on (tournament, entry) becomes one on (tournament, entry, round) holding every column the rankings'
aggregate reads: it is read alone, in the order of its two GROUP BY, without a hash or a sort."""

from django.db import migrations, models


def mark_takers(apps, schema_editor):
    ScoreRow, Deal, Seat = (apps.get_model("tournaments", name) for name in ("ScoreRow", "Deal", "Seat"))
    quote = schema_editor.connection.ops.quote_name
    r, d, s = (quote(m._meta.db_table) for m in (ScoreRow, Deal, Seat))
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"""
            UPDATE {r} AS r SET taker = TRUE
            FROM {d} AS d JOIN {s} AS s ON s.table_id = d.table_id
            WHERE r.deal_id = d.id AND r.ruling_id IS NULL AND r.entry_id = s.entry_id
              AND jsonb_typeof(d.record -> 'bid' -> 'taker') = 'number'
              AND (d.record -> 'bid' ->> 'taker') = CAST(s.position AS text)""")
    else:
        schema_editor.execute(f"""
            UPDATE {r} SET taker = 1
            WHERE ruling_id IS NULL AND EXISTS (
                SELECT 1 FROM {d} AS d JOIN {s} AS s ON s.table_id = d.table_id
                WHERE d.id = {r}.deal_id AND s.entry_id = {r}.entry_id
                  AND json_type(d.record, '$.bid.taker') = 'integer'
                  AND json_extract(d.record, '$.bid.taker') = s.position)""")


class Migration(migrations.Migration):

    dependencies = [("tournaments", "0021_grouping_managers_licence_sex")]

    operations = [
        migrations.AddField(
            model_name="scorerow",
            name="taker",
            field=models.BooleanField(db_default=False, default=False,
                                      help_text="Vrai sur la ligne du preneur de la donne.", verbose_name="preneur"),
        ),
        migrations.RunPython(mark_takers, migrations.RunPython.noop),
        # the rankings' aggregate reads this index alone (an index-only scan in the order it groups by)
        migrations.RemoveIndex(model_name="scorerow", name="scorerow_tournament_entry"),
        migrations.AddIndex(
            model_name="scorerow",
            index=models.Index(fields=["tournament", "entry", "round"],
                               include=["points", "counts", "ruling", "deal", "taker"],
                               name="scorerow_totals"),
        ),
    ]
