"""Rankings through the Django service, on small tournaments computed by hand.

Every expected figure below is hand arithmetic on FFT marks (taker +3S and each defender −S at 4
players, +2S/−S at 3, the mort scores 0 at 5), not output of the code under test.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.integration.builders import add_deal, correct_deal, end_match, make_round, make_tournament, named_lines
from tournaments.common import hooks
from tournaments.event import setup
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db


def publish(t):
    snapshot = tasks.ranking_refresh(t.pk)
    assert snapshot is not None, "expected a new snapshot"
    return RankingSnapshot.objects.get(tournament=t, input_version=snapshot)


def table_of(snapshot, unit="entry"):
    """[(rank, name, marks)] in the published order."""
    out = []
    for name, line in named_lines(snapshot, unit):
        out.append((line.rank, name, rankings.metrics_dict(line)[snapshot.criteria[0]]))
    return out


def eight_players(**kw):
    t, e = make_tournament("ABCDEFGHI", **kw)  # I registers and never plays
    A, B, C, D, E, F, G, H = (e[x] for x in "ABCDEFGH")
    t1, t2 = make_round(t, 1, [[A, B, C, D], [E, F, G, H]])
    add_deal(t1, [75, -25, -25, -25], taker=0)      # A garde, S = 25 made
    add_deal(t1, [30, -90, 30, 30], taker=1)        # B falls, S = -30
    add_deal(t2, [150, -50, -50, -50], taker=0)     # E, S = 50
    add_deal(t2, [40, 40, 40, -120], taker=3)       # H falls, S = -40
    u1, u2 = make_round(t, 2, [[A, E, B, F], [C, G, D, H]])
    f_deal = add_deal(u1, [-35, -35, -35, 105], taker=3)   # F, S = 35
    add_deal(u2, [5, -15, 5, 5], taker=1)           # G falls, S = -5
    return t, e, f_deal


def test_tarot_totals_shared_ranks_and_absent_player():
    t, _e, _ = eight_players()
    snap = publish(t)
    # A 75+30-35=70, B -25-90-35=-150, C -25+30+5=10, D 10, E 150+40-35=155, F -50+40+105=95,
    # G -50+40-15=-25, H -50-120+5=-165, I 0 (absent): C and D share 4th, so I is 6th.
    assert table_of(snap) == [(1, "E", 155), (2, "F", 95), (3, "A", 70), (4, "C", 10), (4, "D", 10), (6, "I", 0),
                              (7, "G", -25), (8, "B", -150), (9, "H", -165)]
    lines = dict(named_lines(snap))
    assert lines["C"].shared and lines["D"].shared and not lines["E"].shared
    assert rankings.metrics_dict(lines["I"])["deals"] == 0 and rankings.metrics_dict(lines["I"])["best_deal"] is None
    assert rankings.metrics_dict(lines["C"])["best_deal"] == 30
    assert sum(m for _, _, m in table_of(snap)) == 0
    explained = rankings.snapshot_ranking(snap).explain(lines["C"].entry_id)
    assert explained.startswith("Rank 4 of 9: 10 total marks.") and "shared" in explained


def test_only_released_rounds_count_and_release_republishes():
    t, e, _ = eight_players()
    A, B, C, D = (e[x] for x in "ABCD")
    (w1,) = make_round(t, 3, [[A, B, C, D]], released=False)
    add_deal(w1, [-300, 100, 100, 100], taker=0)
    snap = publish(t)
    assert snap.released_rounds == [1, 2]
    assert dict((n, m) for _, n, m in table_of(snap))["A"] == 70
    setup.round_release(round=t.rounds.get(number=3))  # the service tells the standings: the version moves
    assert not rankings.ranking_status(t).up_to_date
    snap3 = publish(t)
    assert snap3.released_rounds == [1, 2, 3]
    assert dict((n, m) for _, n, m in table_of(snap3))["A"] == -230
    assert rankings.ranking_status(t).up_to_date


def test_corrected_deal_changes_the_ranking_and_old_snapshot_still_regenerates():
    t, e, f_deal = eight_players()
    before = publish(t)
    # F actually fell (S = -35): F -105, the three defenders +35 each.
    correct_deal(f_deal, [35, 35, 35, -105])
    after = publish(t)
    assert after.input_version > before.input_version
    assert table_of(after) == [(1, "E", 225), (2, "A", 140), (3, "C", 10), (3, "D", 10), (5, "I", 0),
                               (6, "G", -25), (7, "B", -80), (8, "F", -115), (9, "H", -165)]
    # the published snapshot is immutable and rebuilt exactly from its stored inputs
    old = rankings.snapshot_ranking(before)
    assert old.digest == before.digest
    assert [(ln.rank, ln.entry) for ln in old.lines] == list(
        (ln.rank, ln.entry_id) for ln in rankings.snapshot_lines(before))
    change = rankings.snapshot_compare(before, after)
    assert not change.same_inputs
    moves = {m.entry: (m.old_rank, m.new_rank) for m in change.moved}
    assert moves[e["F"].pk] == (2, 8) and moves[e["A"].pk] == (3, 2)
    assert rankings.snapshot_compare(after, after).empty


def test_declared_tie_breaks_separate_equal_totals():
    t, e = make_tournament("ABCD", slug="tb", tie_breaks=["best_deal"])
    (t1,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(t1, [120, -40, -40, -40], taker=0)   # A, S = 40
    add_deal(t1, [-20, 60, -20, -20], taker=1)    # B, S = 20
    add_deal(t1, [-20, 60, -20, -20], taker=1)    # B again
    # A 80 (best 120), B 80 (best 60), C -80, D -80 (best -20 both): C and D still share.
    assert table_of(publish(t)) == [(1, "A", 80), (2, "B", 80), (3, "C", -80), (3, "D", -80)]
    t.tie_breaks = ["won_as_taker"]
    t.save()  # contracts made as taker: B 2, A 1 (a writer outside the services tells the hook itself)
    hooks.scores_changed(t.pk)
    assert table_of(publish(t)) == [(1, "B", 80), (2, "A", 80), (3, "C", -80), (3, "D", -80)]
    t.tie_breaks = []
    t.save()
    hooks.scores_changed(t.pk)
    assert table_of(publish(t)) == [(1, "A", 80), (1, "B", 80), (3, "C", -80), (3, "D", -80)]


def test_tables_of_three_and_five_and_team_totals():
    t, e = make_tournament("ABCDEFGH", slug="odd", teams={"Nord": "AF", "Sud": "BG", "Est": "CH", "Ouest": "DE"})
    five, three = make_round(t, 1, [[e[x] for x in "ABCDE"], [e[x] for x in "FGH"]])
    add_deal(five, [75, -25, -25, -25, 0], taker=0)   # E deals and sits out (mort): 0
    add_deal(three, [40, -20, -20], taker=0)          # at 3 players the taker gets +2S
    snap = publish(t)
    assert table_of(snap) == [(1, "A", 75), (2, "F", 40), (3, "E", 0), (4, "G", -20), (4, "H", -20),
                              (6, "B", -25), (6, "C", -25), (6, "D", -25)]
    # teams: Nord 75+40=115, Sud -25-20=-45, Est -25-20=-45, Ouest -25+0=-25 (equal teams listed by id)
    assert table_of(snap, "team") == [(1, "Nord", 115), (2, "Ouest", -25), (3, "Sud", -45), (3, "Est", -45)]
    assert rankings.snapshot_ranking(snap, teams=True).digest == snap.team_digest


def test_pending_deal_does_not_count_until_it_does():
    t, e = make_tournament("ABCD", slug="visa")
    (t1,) = make_round(t, 1, [[e["A"], e["B"], e["C"], e["D"]]])
    add_deal(t1, [75, -25, -25, -25], taker=0)
    add_deal(t1, [-300, 100, 100, 100], taker=0, status="pending")
    assert table_of(publish(t))[0] == (1, "A", 75)


def test_match_points_byes_and_swiss_tie_breaks():
    t, e = make_tournament("PQRST", game="ecarte", slug="ec")
    P, Q, R, S, T = (e[x] for x in "PQRST")
    a, b, _bye = make_round(t, 1, [[P, Q], [R, S], [T]])
    end_match(a, [5, 3], 0)          # P beats Q 5-3
    end_match(b, [2, 5], 1)          # S beats R 5-2
    c, d, _bye = make_round(t, 2, [[P, S], [Q, T], [R]])
    end_match(c, [4, 5], 1)          # S beats P 5-4
    end_match(d, [4, 4], None)       # Q and T draw 4-4
    snap = publish(t)
    got = {name: (ln.rank, rankings.metrics_dict(ln)) for name, ln in named_lines(snap)}
    # match points (win 2, draw 1, bye 2): P 2, Q 1, R 2, S 4, T 3
    # Buchholz: P = Q1+S4 = 5, R = S4 = 4 → P ahead of R
    expected = {"S": (1, 4, 4, 4, 4), "T": (2, 3, 1, Fraction(1, 2), 0), "P": (3, 2, 5, 1, 1),
                "R": (4, 2, 4, 0, -3), "Q": (5, 1, 5, Fraction(3, 2), -2)}
    for name, (rank, mp, buchholz, sb, margin) in expected.items():
        rank_got, m = got[name]
        assert (rank_got, m["match_points"], m["buchholz"], m["sonneborn_berger"], m["margin"]) == (
            rank, mp, buchholz, sb, margin), name
    assert got["T"][1]["byes"] == 1 and got["R"][1]["byes"] == 1


def test_unfinished_match_counts_nothing_yet():
    t, e = make_tournament("PQ", game="ecarte", slug="ec2")
    (a,) = make_round(t, 1, [[e["P"], e["Q"]]])
    a.match_totals, a.match_ended = [3, 2], False
    a.save()
    snap = publish(t)
    assert {rankings.metrics_dict(ln)["match_points"] for ln in rankings.snapshot_lines(snap)} == {0}


def test_lines_are_saved_per_snapshot_and_never_rewritten():
    t, _e, f_deal = eight_players()
    first = publish(t)
    stored = RankingSnapshot.objects.filter(pk=first.pk).values_list("lines", flat=True).get()
    correct_deal(f_deal, [35, 35, 35, -105])
    publish(t)
    assert RankingSnapshot.objects.filter(pk=first.pk).values_list("lines", flat=True).get() == stored
    assert RankingSnapshot.objects.filter(tournament=t).count() == 2
