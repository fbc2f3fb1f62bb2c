"""Publishing a ranking the fast way, and every way it can go wrong: the snapshot's inputs stored as the very text
their digest was computed from (``JSONText``), the lines' metrics written from a template (``metrics_json``) and sent
with ``COPY`` on PostgreSQL (``bulk_create`` elsewhere). Odd names (tab, newline, backslash, quote, « Œ », emoji, a
%-format), NULLs, fractions and booleans go through and come back equal, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.db import DataError, IntegrityError, connection, transaction

from scoring import ranking as pure
from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingLine, RankingSnapshot

pytestmark = pytest.mark.django_db

ODD = "a\tb\nc\rd\\e\"f « Œ » 😀 %s %% \\N \x01"
"""Every character a COPY line or a JSON template can get wrong; ``\\N`` is COPY's NULL."""


def line(rank, entry, metrics):
    return pure.RankLine(rank, entry, tuple(metrics))


def test_metrics_json_is_the_json_of_the_metrics_whatever_the_names_and_values():
    lines = [line(1, 1, [("marks", 120), (ODD, Fraction(-7, 2)), ("best_deal", None), ("x", True), ("y", False)]),
             line(2, 2, [("marks", -5), (ODD, Fraction(4, 1)), ("best_deal", 0), ("x", "texte\t« »"), ("y", 10**30)]),
             line(3, 3, [("autre", 1)]),  # other names: another template
             line(3, 4, [])]
    texts = rankings.metrics_json(lines)
    assert [json.loads(t) for t in texts] == [
        [["marks", 120], [ODD, "-7/2"], ["best_deal", None], ["x", True], ["y", False]],
        [["marks", -5], [ODD, "4/1"], ["best_deal", 0], ["x", "texte\t« »"], ["y", 10**30]],
        [["autre", 1]], []]
    assert texts[0] == '[["marks",120],["a\\tb\\nc\\rd\\\\e\\"f « Œ » 😀 %s %% \\\\N \\u0001","-7/2"],' \
                       '["best_deal",null],["x",true],["y",false]]'


def _snapshot(t, version=1, **fields):
    return RankingSnapshot.objects.create(tournament=t, input_version=version, kind="tarot", inputs=[], digest="d",
                                          **fields)


def test_lines_with_odd_metrics_nulls_and_fractions_come_back_equal():
    t, e = make_tournament("AB", teams={"Les « Œ »\t😀": "AB"})
    team = e["A"].team
    snap = _snapshot(t)
    ranked = [line(1, e["A"].pk, [("marks", 10), (ODD, Fraction(7, 2)), ("best_deal", None)]),
              line(1, e["B"].pk, [("marks", 10), (ODD, Fraction(-1, 3)), ("best_deal", -40)])]
    team_ranked = [line(1, team.pk, [("marks", 20), (ODD, None), ("members", 2)])]
    rows = (rankings._lines(snap.pk, pure.RankingSnapshot("tarot", ("marks",), tuple(ranked), (), (), "d"), "entry")
            + rankings._lines(snap.pk, pure.RankingSnapshot("tarot_teams", ("marks",), tuple(team_ranked), (), (),
                                                            "d"), "team"))
    with transaction.atomic():
        rankings._insert_lines(rows)
    got = [(ln.unit, ln.position, ln.rank, ln.shared, ln.entry_id, ln.team_id, ln.metrics)
           for ln in RankingLine.objects.filter(snapshot=snap).order_by("unit", "position")]
    assert got == [
        ("entry", 1, 1, True, e["A"].pk, None, [["marks", 10], [ODD, "7/2"], ["best_deal", None]]),
        ("entry", 2, 1, True, e["B"].pk, None, [["marks", 10], [ODD, "-1/3"], ["best_deal", -40]]),
        ("team", 1, 1, False, None, team.pk, [["marks", 20], [ODD, None], ["members", 2]]),
    ]
    assert rankings.metrics_dict(RankingLine.objects.get(snapshot=snap, entry=e["B"]))[ODD] == Fraction(-1, 3)


def _check_constraints():
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    else:
        connection.check_constraints()


def test_a_line_naming_an_entry_that_does_not_exist_is_refused():
    t, e = make_tournament("A")
    snap = _snapshot(t)
    with pytest.raises(IntegrityError), transaction.atomic():
        rankings._insert_lines([(snap.pk, "entry", 1, 1, False, e["A"].pk + 1000, None, '[["marks",0]]')])
        _check_constraints()


def test_the_same_position_twice_is_refused():
    t, e = make_tournament("AB")
    snap = _snapshot(t)
    with pytest.raises(IntegrityError), transaction.atomic():
        rankings._insert_lines([(snap.pk, "entry", 1, 1, False, e["A"].pk, None, "[]"),
                                (snap.pk, "entry", 1, 2, False, e["B"].pk, None, "[]")])
        _check_constraints()


def test_metrics_that_are_not_json_are_refused():
    t, e = make_tournament("A")
    snap = _snapshot(t)
    with pytest.raises((DataError, ValueError)), transaction.atomic():  # PostgreSQL's jsonb; json.loads on SQLite
        rankings._insert_lines([(snap.pk, "entry", 1, 1, False, e["A"].pk, None, '[["marks",1]')])
    assert not RankingLine.objects.filter(snapshot=snap).exists()


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


def test_lines_go_with_their_snapshot_and_their_tournament():
    t, e = make_tournament("ABCD")
    (table,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    first = RankingSnapshot.objects.get(tournament=t, input_version=tasks.ranking_refresh(t.pk))
    add_deal(table, [-75, 25, 25, 25], taker=0)
    second = RankingSnapshot.objects.get(tournament=t, input_version=tasks.ranking_refresh(t.pk))
    assert RankingLine.objects.filter(snapshot=first).count() == 4
    assert RankingLine.objects.filter(snapshot=second).count() == 4
    first.delete()
    assert not RankingLine.objects.filter(snapshot_id=first.pk).exists()
    assert RankingLine.objects.filter(snapshot=second).count() == 4
    t.delete()
    assert not RankingLine.objects.exists()


def test_a_line_naming_a_snapshot_that_does_not_exist_is_refused():
    """The database keeps checking each line's snapshot (a season's rankings keep their integrity)."""
    t, e = make_tournament("A")
    snap = _snapshot(t)
    with pytest.raises(IntegrityError), transaction.atomic():
        rankings._insert_lines([(snap.pk + 1000, "entry", 1, 1, False, e["A"].pk, None, '[["marks",0]]')])
        _check_constraints()
