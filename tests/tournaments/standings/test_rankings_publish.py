"""Publishing a ranking the fast way, and every way it can go wrong: the snapshot's inputs stored as the very text
their digest was computed from (``JSONText``), its lines as one document written by hand (``lines_json``) in the
snapshot's own INSERT and read back by ``snapshot_lines``. Odd names (tab, newline, backslash, quote, « Œ », emoji, a
%-format), NULLs, fractions and booleans go through and come back equal, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import ranking as pure
from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db

ODD = "a\tb\nc\rd\\e\"f « Œ » 😀 %s %% \\N \x01"
"""Every character a COPY line or a JSON template can get wrong; ``\\N`` is COPY's NULL."""


def line(rank, entry, metrics):
    return pure.RankLine(rank, entry, tuple(metrics))


def test_lines_json_is_the_document_of_the_lines_whatever_the_names_and_values():
    lines = (line(1, 7, [("marks", 120), (ODD, Fraction(-7, 2)), ("best_deal", None), ("x", True), ("y", False)]),
             line(2, 8, [("marks", -5), (ODD, Fraction(4, 1)), ("best_deal", 0), ("x", "texte\t« »"), ("y", 10**30)]),
             line(2, 9, [("marks", -5), (ODD, Fraction(4, 1)), ("best_deal", 0), ("x", 1), ("y", 2)]))
    text = rankings.lines_json(pure.RankingSnapshot("tarot", ("marks",), lines, (), (), "d"))
    assert json.loads(text) == {
        "metrics": ["marks", ODD, "best_deal", "x", "y"],
        "rows": [[1, False, 7, 120, "-7/2", None, True, False],
                 [2, True, 8, -5, "4/1", 0, "texte\t« »", 10**30],  # 8 and 9 share the 2nd place
                 [2, True, 9, -5, "4/1", 0, 1, 2]]}
    assert text.startswith('{"metrics":["marks","a\\tb\\nc\\rd\\\\e\\"f « Œ » 😀 %s %% \\\\N \\u0001",'
                           '"best_deal","x","y"],"rows":[[1,false,7,120,"-7/2",null,true,false],')
    assert rankings.lines_json(pure.RankingSnapshot("tarot", ("marks",), (), (), (), "d")) == '{"metrics":[],"rows":[]}'


def test_lines_of_one_ranking_with_other_metrics_are_refused():
    lines = (line(1, 1, [("marks", 1), ("deals", 2)]), line(2, 2, [("deals", 2), ("marks", 0)]))
    with pytest.raises(ValueError, match="metrics"):
        rankings.lines_json(pure.RankingSnapshot("tarot", ("marks",), lines, (), (), "d"))


def _computed(t, ranked, team_ranked=None, version=1):
    teams = pure.RankingSnapshot("tarot_teams", ("marks",), tuple(team_ranked), (), (), "t") if team_ranked else None
    return rankings.Computed(version, (1,), pure.RankingSnapshot("tarot", ("marks",), tuple(ranked), (), (), "d"),
                             teams, 3)


def test_lines_with_odd_metrics_nulls_and_fractions_come_back_equal():
    t, e = make_tournament("AB", teams={"Les « Œ »\t😀": "AB"})
    team = e["A"].team
    ranked = [line(1, e["A"].pk, [("marks", 10), (ODD, Fraction(7, 2)), ("best_deal", None)]),
              line(1, e["B"].pk, [("marks", 10), (ODD, Fraction(-1, 3)), ("best_deal", -40)])]
    team_ranked = [line(1, team.pk, [("marks", 20), (ODD, None), ("members", 2)])]
    with transaction.atomic():
        saved = rankings._save(t, _computed(t, ranked, team_ranked))
    snap = RankingSnapshot.objects.defer("lines", "team_lines").get(pk=saved.pk)
    assert rankings.snapshot_lines(snap) == (
        rankings.Line(1, 1, True, e["A"].pk, None, (("marks", 10), (ODD, "7/2"), ("best_deal", None))),
        rankings.Line(2, 1, True, e["B"].pk, None, (("marks", 10), (ODD, "-1/3"), ("best_deal", -40))))
    assert rankings.snapshot_lines(snap, rankings.Unit.TEAM) == (
        rankings.Line(1, 1, False, None, team.pk, (("marks", 20), (ODD, None), ("members", 2))),)
    b = rankings.snapshot_line(snap, e["B"].pk)
    assert rankings.metrics_dict(b)[ODD] == b.value(ODD) == Fraction(-1, 3)
    assert rankings.snapshot_line(snap, e["B"].pk + 1000) is None
    assert rankings.snapshot_line(snap, team.pk, rankings.Unit.TEAM).value("members") == 2


def test_a_line_naming_an_entry_that_is_not_the_tournaments_is_refused_and_nothing_is_published():
    """Set-wise, in the publication's transaction: an entry of another tournament (which the old per-line foreign key
    let through: it exists) and an entry that does not exist are both refused, and so is a team of another one."""
    t, e = make_tournament("AB", teams={"Nous": "AB"})
    _other, o = make_tournament("C", slug="autre", teams={"Eux": "C"})
    for ranked, team_ranked in (
            ([line(1, e["A"].pk, [("marks", 0)]), line(2, o["C"].pk, [("marks", -1)])], None),
            ([line(1, e["A"].pk, [("marks", 0)]), line(2, o["C"].pk + 1000, [("marks", -1)])], None),
            ([line(1, e["A"].pk, [("marks", 0)])], [line(1, o["C"].team_id, [("marks", 0)])])):
        with pytest.raises(ValueError, match="are not the tournament's"), transaction.atomic():
            rankings._save(t, _computed(t, ranked, team_ranked))
    assert not RankingSnapshot.objects.exists()
    with transaction.atomic():  # the tournament's own entries and team go through
        rankings._save(t, _computed(t, [line(1, e["A"].pk, [("marks", 0)])], [line(1, e["A"].team_id, [])]))
    assert RankingSnapshot.objects.count() == 1


def test_the_lines_are_read_alone_once_per_snapshot_and_kept():
    t, e = make_tournament("ABCD")
    (table,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    version = tasks.ranking_refresh(t.pk)
    snap = rankings.latest_snapshot(t.pk)
    assert snap.input_version == version and {"lines", "team_lines"} <= snap.get_deferred_fields()
    with CaptureQueriesContext(connection) as queries:
        lines = rankings.snapshot_lines(snap)
    assert len(queries) == 1 and "inputs" not in queries[0]["sql"]  # its column alone, not the inputs
    assert [(ln.position, ln.rank, ln.shared, ln.entry_id, ln.value("marks")) for ln in lines] == [
        (1, 1, False, e["A"].pk, 75), (2, 2, True, e["B"].pk, -25), (3, 2, True, e["C"].pk, -25),
        (4, 2, True, e["D"].pk, -25)]
    with CaptureQueriesContext(connection) as queries:
        assert rankings.snapshot_lines(rankings.latest_snapshot(t.pk)) is lines  # kept in this process
        assert rankings.snapshot_line(snap, e["C"].pk).rank == 2
    assert len(queries) == 1  # the snapshot's header, not its lines


def test_a_publication_writes_one_row_and_no_line_rows():
    t, e = make_tournament("ABCD", teams={"Nord": "AB", "Sud": "CD"})
    (table,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    with transaction.atomic():
        rankings.ranking_inputs_changed(tournament_id=t.pk)
    with CaptureQueriesContext(connection) as queries:
        snap = rankings.ranking_publish(tournament_id=t.pk)
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE",
                                                                                  "COPY"))]
    assert len(writes) == 1 and "tournaments_rankingsnapshot" in writes[0]
    assert [ln.value("marks") for ln in rankings.snapshot_lines(snap, rankings.Unit.TEAM)] == [50, -50]
    assert {ln.team_id for ln in rankings.snapshot_lines(snap, rankings.Unit.TEAM)} == {e["A"].team_id,
                                                                                         e["C"].team_id}


def test_json_text_is_stored_as_it_is_and_read_back_equal():
    t, _e = make_tournament("A")
    inputs = (pure.TarotTotals(ODD, 5), pure.TarotTotals("Chloé « Œ » 😀", -5, None, 0, 1),
              pure.TarotTotals(3, Fraction(7, 2)))  # type: ignore[arg-type]
    text = pure.canonical_json(inputs)
    snap = RankingSnapshot.objects.create(tournament=t, input_version=1, kind="tarot", digest="d",
                                          inputs=rankings.JSONText(text), options=rankings.JSONText("[]"))
    stored = RankingSnapshot.objects.get(pk=snap.pk)
    assert stored.inputs == json.loads(text) == [["TarotTotals", ODD, 5, None, 0, 0, 0],
                                                 ["TarotTotals", "Chloé « Œ » 😀", -5, None, 0, 1, 0],
                                                 ["TarotTotals", 3, "7/2", None, 0, 0, 0]]
    assert stored.options == []
    assert rankings.decode(stored.inputs[:2]) == inputs[:2]


def test_bad_json_text_is_refused():
    t, _e = make_tournament("A")
    with pytest.raises((DataError, IntegrityError)), transaction.atomic():  # jsonb; SQLite's CHECK (JSON_VALID)
        RankingSnapshot.objects.create(tournament=t, input_version=1, kind="tarot", digest="d",
                                       inputs=rankings.JSONText("[1,"))


def test_a_published_snapshot_keeps_the_text_it_hashed_and_reads_it_when_asked():
    t, e = make_tournament("ABCD", tie_breaks=("best_deal",))
    (table,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    version = tasks.ranking_refresh(t.pk)
    published = RankingSnapshot.objects.get(tournament=t, input_version=version)
    computed = rankings.ranking_compute(tournament=t)
    inputs_json, options_json = computed.individual.encoded
    assert published.inputs == json.loads(inputs_json) and published.options == json.loads(options_json)
    assert pure.digest_of("tarot", json.dumps(published.inputs, separators=(",", ":"), ensure_ascii=False),
                          json.dumps(published.options, separators=(",", ":"), ensure_ascii=False)) == published.digest
    # the model returned by the service: its inputs deferred, then read from the database
    with transaction.atomic():
        rankings.ranking_inputs_changed(tournament_id=t.pk)
    returned = rankings.ranking_publish(tournament_id=t.pk)
    assert "inputs" in returned.get_deferred_fields() and returned.inputs == published.inputs
    rebuilt = rankings.snapshot_ranking(returned)
    assert rebuilt.digest == published.digest and rebuilt.encoded is None  # not kept in a page's memory
    assert [(ln.rank, ln.metric("marks")) for ln in rebuilt.lines] == [(1, 75), (2, -25), (2, -25), (2, -25)]


def test_the_inputs_are_kept_as_the_very_text_hashed_and_bad_text_is_still_refused():
    # the inputs column keeps the text written (PostgreSQL ``json``: checked for syntax, not converted to jsonb's
    # binary form, whose text would come back with spaces): byte for byte the text of the digest
    t, e = make_tournament("ABCD")
    (table,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    version = tasks.ranking_refresh(t.pk)
    published = RankingSnapshot.objects.get(tournament=t, input_version=version)
    inputs_json, _options_json = rankings.ranking_compute(tournament=t).individual.encoded
    with connection.cursor() as cursor:
        cursor.execute("SELECT CAST(inputs AS text) FROM tournaments_rankingsnapshot WHERE id = %s", [published.pk])
        (stored,) = cursor.fetchone()
    assert stored == inputs_json and ", " not in stored
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT data_type FROM information_schema.columns WHERE table_name = "
                           "'tournaments_rankingsnapshot' AND column_name IN ('inputs', 'team_inputs')")
            assert {row[0] for row in cursor.fetchall()} == {"json"}
    assert rankings.snapshot_ranking(published).digest == published.digest
    with pytest.raises((DataError, IntegrityError)), transaction.atomic():
        RankingSnapshot.objects.create(tournament=t, input_version=version + 1, kind="tarot", digest="d",
                                       inputs=rankings.JSONText("[1,", as_text=True))


def test_big_inputs_are_compressed_with_lz4_on_postgresql():
    # pglz took 0.5 – 0.7 s of PostgreSQL's time for a 1,024-player duplicate's 3.8 MB of inputs, lz4 0.15 – 0.2 s
    # (migration 0024): a value big enough to be compressed comes back as written, compressed by lz4
    if connection.vendor != "postgresql":
        pytest.skip("column compression is PostgreSQL's")
    t, _e = make_tournament("ABCD")
    text = pure.canonical_json(tuple(pure.TarotTotals(i, i * 5) for i in range(20_000)))  # 0.5 MB, repetitive
    snap = RankingSnapshot.objects.create(tournament=t, input_version=1, kind="tarot", digest="d",
                                          inputs=rankings.JSONText(text, as_text=True),
                                          team_inputs=rankings.JSONText(text, as_text=True))
    with connection.cursor() as cursor:
        cursor.execute("SELECT CAST(inputs AS text), pg_column_compression(inputs), pg_column_compression(team_inputs) "
                       "FROM tournaments_rankingsnapshot WHERE id = %s", [snap.pk])
        assert cursor.fetchone() == (text, "lz4", "lz4")


def test_bad_lines_text_is_refused():
    t, _e = make_tournament("A")
    with pytest.raises((DataError, IntegrityError)), transaction.atomic():  # json; SQLite's CHECK (JSON_VALID)
        RankingSnapshot.objects.create(tournament=t, input_version=1, kind="tarot", digest="d", inputs=[],
                                       lines=rankings.JSONText('{"rows":[', as_text=True))
