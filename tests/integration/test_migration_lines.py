"""Migration 0025: a snapshot's line rows become one document of the snapshot, and back.

Lines written through the historical models of 0024 (individual and team lines, fractions, NULLs, a shared rank, a
line gone with its deleted entry, a snapshot with no line), migrated forwards: each snapshot's documents hold them
at their places (the gap kept as ``null``) and ``rankings.snapshot_lines`` reads them back as they were; migrated
backwards: the same rows again. Runs on the test database's engine (SQLite, or PostgreSQL in CI).
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot

pytestmark = [pytest.mark.django_db(transaction=True)]

BEFORE = ("tournaments", "0024_snapshot_inputs_lz4")
AFTER = ("tournaments", "0025_ranking_lines_document")


def _migrate(target):
    """Migrate to ``target``; the historical models there."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return MigrationExecutor(connection).loader.project_state([target], at_end=True).apps


def _rows(Line):
    return list(Line.objects.order_by("snapshot_id", "unit", "position").values_list(
        "snapshot_id", "unit", "position", "rank", "shared", "entry_id", "team_id", "metrics"))


def test_line_rows_become_their_snapshots_documents_and_back():
    old = _migrate(BEFORE)
    try:
        Tournament, Player, Entry, Team, Snapshot, Line = (old.get_model("tournaments", name) for name in (
            "Tournament", "Player", "Entry", "Team", "RankingSnapshot", "RankingLine"))
        t = Tournament.objects.create(name="T", slug="t", game="tarot", format="teams")
        nord, sud = Team.objects.create(tournament=t, name="Nord"), Team.objects.create(tournament=t, name="Sud")
        a, b, c, d = (Entry.objects.create(tournament=t, player=Player.objects.create(name=n, licence=n),
                                           team=team) for n, team in (("A", nord), ("B", nord), ("C", sud), ("D", sud)))
        s1, s2, s3 = (Snapshot.objects.create(tournament=t, input_version=v, kind="tarot", inputs=[], digest="d")
                      for v in (1, 2, 3))
        Line.objects.bulk_create([
            Line(snapshot=s1, unit="entry", position=1, rank=1, shared=False, entry=a,
                 metrics=[["marks", 10], ["ratio", "7/2"]]),
            Line(snapshot=s1, unit="entry", position=2, rank=2, shared=True, entry=b,
                 metrics=[["marks", -5], ["ratio", None]]),
            Line(snapshot=s1, unit="entry", position=3, rank=2, shared=True, entry=c,
                 metrics=[["marks", -5], ["ratio", "-1/3"]]),
            Line(snapshot=s1, unit="team", position=1, rank=1, shared=False, team=nord,
                 metrics=[["marks", 5], ["members", 2]]),
            Line(snapshot=s1, unit="team", position=2, rank=2, shared=False, team=sud,
                 metrics=[["marks", -5], ["members", 1]]),
            Line(snapshot=s2, unit="entry", position=1, rank=1, shared=False, entry=a, metrics=[["marks", 1]]),
            Line(snapshot=s2, unit="entry", position=2, rank=2, shared=False, entry=d, metrics=[["marks", 0]]),
            Line(snapshot=s2, unit="entry", position=3, rank=3, shared=False, entry=b, metrics=[["marks", -1]]),
        ])
        d.delete()  # its line goes with it (the foreign key's cascade): a gap at s2's 2nd place
        before = _rows(Line)
        assert len(before) == 7

        _migrate(AFTER)
        documents = dict(RankingSnapshot.objects.values_list("pk", "lines"))
        assert documents == {
            s1.pk: {"metrics": ["marks", "ratio"],
                    "rows": [[1, False, a.pk, 10, "7/2"], [2, True, b.pk, -5, None], [2, True, c.pk, -5, "-1/3"]]},
            s2.pk: {"metrics": ["marks"], "rows": [[1, False, a.pk, 1], None, [3, False, b.pk, -1]]},
            s3.pk: None}
        assert json.loads(json.dumps(RankingSnapshot.objects.get(pk=s1.pk).team_lines)) == {
            "metrics": ["marks", "members"], "rows": [[1, False, nord.pk, 5, 2], [2, False, sud.pk, -5, 1]]}
        snaps = {s.pk: s for s in RankingSnapshot.objects.all()}
        assert rankings.snapshot_lines(snaps[s1.pk]) == (
            rankings.Line(1, 1, False, a.pk, None, (("marks", 10), ("ratio", "7/2"))),
            rankings.Line(2, 2, True, b.pk, None, (("marks", -5), ("ratio", None))),
            rankings.Line(3, 2, True, c.pk, None, (("marks", -5), ("ratio", "-1/3"))))
        team_lines = rankings.snapshot_lines(snaps[s1.pk], rankings.Unit.TEAM)
        assert [(ln.position, ln.team_id, ln.value("members")) for ln in team_lines] == [(1, nord.pk, 2),
                                                                                         (2, sud.pk, 1)]
        assert [(ln.position, ln.entry_id) for ln in rankings.snapshot_lines(snaps[s2.pk])] == [(1, a.pk), (3, b.pk)]
        assert rankings.snapshot_lines(snaps[s3.pk]) == () == rankings.snapshot_lines(snaps[s3.pk], rankings.Unit.TEAM)
        assert "tournaments_rankingline" not in connection.introspection.table_names()
        if connection.vendor == "postgresql":  # written with lz4 when the build has it (else pglz, as before)
            with connection.cursor() as cursor:
                cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
                (has_lz4,) = cursor.fetchone()
                cursor.execute("SELECT attname, attcompression FROM pg_attribute WHERE attrelid = "
                               "'tournaments_rankingsnapshot'::regclass AND attname IN ('inputs', 'lines')")
                assert dict(cursor.fetchall()) == dict.fromkeys(("inputs", "lines"), "l" if has_lz4 else "")

        back = _migrate(BEFORE)
        assert _rows(back.get_model("tournaments", "RankingLine")) == before
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
