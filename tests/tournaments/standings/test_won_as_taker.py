"""Contracts made as taker, counted in the totals aggregate (``rankings._tarot_totals_sql``) from ``ScoreRow.taker``.

It was three reads into Python, the last with one parameter per deal: past 65,535 deals PostgreSQL refused the
statement (« number of parameters must be between 0 and 65535 ») and a 10,000-player ranking could not be published.
Then a second statement reading every deal's record (0.9 – 1.8 s at 10,000 players). The taker's row is now marked
when the deal service writes the rows (``deals.record.taker_seat``): the tests below check that every writer keeps the
mark right. Every figure is counted by hand from the deals written."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.integration.builders import add_deal, correct_deal, make_round, make_tournament
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import taker_seat
from tournaments.links.models import TablePolicy
from tournaments.standings import rankings

pytestmark = pytest.mark.django_db


def counted(t, rounds=None):
    """Entry id → contracts made as taker, for the entries that made one (the aggregate the ranking reads)."""
    ids = rounds if rounds is not None else list(t.rounds.values_list("id", flat=True))
    return {x.entry: x.won_as_taker for x in rankings.tarot_totals(t, ids) if x.won_as_taker}


def test_only_the_takers_own_positive_counting_row_of_a_valid_deal():
    t, e = make_tournament("ABCDEFGH", slug="wat")
    t1, t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [90, -30, -30, -30], taker=0)       # A made it: A 1
    add_deal(t1, [-20, -20, 60, -20], taker=2)       # C made it: C 1
    add_deal(t1, [30, 30, -90, 30], taker=2)         # C failed: defenders positive, nobody counts
    add_deal(t2, [60, -20, -20, -20], taker=0, status="pending")  # not valid: E 0
    add_deal(t2, [-20, 60, -20, -20], taker=None)    # no taker (a passed deal): nobody
    odd = add_deal(t2, [-20, -20, 60, -20], taker=2)
    odd.record["bid"]["taker"] = "2"                 # a seat written as text is no seat
    odd.save()
    correct_deal(odd, [-20, -20, 60, -20])           # its rows written again from the record as it is now
    floated = add_deal(t2, [-20, -20, -20, 60], taker=3)
    floated.record["bid"]["taker"] = 3.5             # nor a fraction
    floated.save()
    correct_deal(floated, [-20, -20, -20, 60])
    assert counted(t) == {e["A"].pk: 1, e["C"].pk: 1}
    # one row marked per deal with a taker, none for the passed deal nor the text and fraction seats
    assert ScoreRow.objects.filter(tournament=t, taker=True).count() == 4


def test_the_taker_is_an_integer_seat():
    assert taker_seat({"bid": {"taker": 2}}) == 2
    assert taker_seat({"bid": {"taker": 0}}) == 0
    for odd in ("2", 2.0, 3.5, True, False, None, [2], {"seat": 2}):
        assert taker_seat({"bid": {"taker": odd}}) is None, odd
    for record in ({}, {"bid": None}, {"bid": 2}, {"bid": {}}, None, "text"):
        assert taker_seat(record) is None, record


def test_rulings_not_counting_rows_rounds_left_out_and_unconfirmed_sheets():
    t, e = make_tournament("ABCD", slug="wat2")
    (r1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    (r2,) = make_round(t, 2, [[e[x] for x in "BCDA"]])  # B at position 0 in round 2
    add_deal(r1, [90, -30, -30, -30], taker=0)       # A 1
    excluded = add_deal(r1, [90, -30, -30, -30], taker=0)
    ScoreRow.objects.filter(deal=excluded).update(counts=False)  # a row that does not count: nothing
    add_deal(r2, [90, -30, -30, -30], taker=0)       # B (position 0 in round 2) 1
    add_deal(r2, [-30, 90, -30, -30], taker=0)       # B failed; C's row positive but C is no taker: nothing
    rounds = list(t.rounds.order_by("number").values_list("id", flat=True))
    assert counted(t) == {e["A"].pk: 1, e["B"].pk: 1}
    assert counted(t, rounds[:1]) == {e["A"].pk: 1}   # only round 1
    # the organizer counts only the deals their players confirmed: none is, so none counts
    TablePolicy.objects.update_or_create(tournament=t, defaults={"unconfirmed_count": False})
    assert counted(t) == {}


def test_one_statement_whatever_the_number_of_deals():
    """The statement's parameters do not grow with the deals (one per deal before: refused past 65,535)."""
    t, e = make_tournament("ABCD", slug="wat3")
    (r1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    for _ in range(30):
        add_deal(r1, [90, -30, -30, -30], taker=0)
    sent: list[int] = []

    def count_params(execute, sql, params, many, context):
        sent.append(len(params or ()))
        return execute(sql, params, many, context)

    rounds = list(t.rounds.values_list("id", flat=True))
    with CaptureQueriesContext(connection) as queries, connection.execute_wrapper(count_params):
        totals = rankings.tarot_totals(t, rounds, every_round=True)
    assert {x.entry: x.won_as_taker for x in totals} == {e[x].pk: 30 if x == "A" else 0 for x in "ABCD"}
    # the policy's check, then the one aggregate with the tournament twice (before: 4 reads and 30 ids; then a second
    # statement reading the records)
    assert len(queries) == 2 and max(sent) == 2, (sent, [q["sql"] for q in queries])
    assert "record" not in queries[1]["sql"]
    assert Deal.objects.filter(table=r1).count() == 30


def test_rounds_and_deals_counted_in_the_same_aggregate():
    """A round counts when the entry has a deal's counting row in it: not a ruling's row alone, not a pending or an
    annulled deal's; the round filter applies before the grouping (a ruling's row counted among the rounds fails
    here: the aggregate is one level since the seventh pass, its rounds a ``COUNT(DISTINCT …)``)."""
    from tournaments.deals.rulings import ruling_record

    t, e = make_tournament("ABCDEFGH", slug="wat4")
    (r1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    (r2,) = make_round(t, 2, [[e[x] for x in "ABCE"]])
    (r3,) = make_round(t, 3, [[e[x] for x in "ABFG"]])
    add_deal(r1, [90, -30, -30, -30], taker=0)        # round 1: A made it
    add_deal(r1, [-30, -30, 90, -30], taker=2)        # and C
    add_deal(r2, [-20, 60, -20, -20], taker=1)        # round 2: B made it
    add_deal(r2, [-20, -20, -20, 60], taker=3, status="pending")   # E made it, pending: not a deal yet
    ruling_record(table=r3, kind="other", reason="jeu lent", user=None, adjustments={e["F"].pk: 10, e["G"].pk: -10})
    add_deal(r3, [-30, -30, -30, 90], taker=3, status="annulled")  # G's deal annulled: only a ruling's row is left
    rounds = list(t.rounds.order_by("number").values_list("id", flat=True))

    def totals(ids, every):
        return {x.entry: (x.marks, x.best_deal, x.deals, x.rounds, x.won_as_taker)
                for x in rankings.tarot_totals(t, ids, every_round=every) if x.deals or x.marks}

    assert totals(rounds, True) == {
        e["A"].pk: (40, 90, 3, 2, 1),      # 90 − 30 − 20: 2 deals in round 1, 1 in round 2
        e["B"].pk: (0, 60, 3, 2, 1),       # −30 − 30 + 60
        e["C"].pk: (40, 90, 3, 2, 1),      # −30 + 90 − 20
        e["D"].pk: (-60, -30, 2, 1, 0),    # −30 − 30
        e["E"].pk: (-20, -20, 1, 1, 0),    # round 2's first deal only
        e["F"].pk: (10, None, 0, 0, 0),    # a ruling's +10: marks, but no deal and no round
        e["G"].pk: (-10, None, 0, 0, 0),
    }
    assert totals(rounds[1:], False) == {
        e["A"].pk: (-20, -20, 1, 1, 0), e["B"].pk: (60, 60, 1, 1, 1), e["C"].pk: (-20, -20, 1, 1, 0),
        e["E"].pk: (-20, -20, 1, 1, 0),
        e["F"].pk: (10, None, 0, 0, 0), e["G"].pk: (-10, None, 0, 0, 0),
    }
