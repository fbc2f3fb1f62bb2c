"""Rankings from hand-computed tournaments (RULES.md §1.12 rules 33–34, A-T11).

Every expected value below was computed by hand in the comments, never by running the code.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.ranking import (
    MatchPoints,
    MatchResult,
    Move,
    ScoreRow,
    TarotTotals,
    aggregate_tarot,
    diff,
    rank_matches,
    rank_tarot,
    rank_tarot_teams,
    regenerate,
)

# --------------------------------------------------------------------------------------------
# A Tarot free-deal tournament: 8 players, 2 rounds, tables of 4. Every deal sums to 0.
#   R1 T1 (A,B,C,D): d1 A taker won S=30: A +90, B C D −30.   d2 C taker won S=20: C +60, A B D −20.
#   R1 T2 (E,F,G,H): d1 G taker lost S=10: G −30, E F H +10.  d2 E taker won S=20: E +60, F G H −20.
#   R2 T1 (A,E,B,F): d1 B taker lost S=40: B −120, A E F +40.
#   R2 T2 (C,G,D,H): d1 H taker won S=80: H +240, C G D −80.
# Totals: A 90−20+40=110 (best 90), B −30−20−120=−170 (best −20), C −30+60−80=−50 (best 60),
#         D −30−20−80=−130 (best −20), E 10+60+40=110 (best 60), F 10−20+40=30 (best 40),
#         G −30−20−80=−130 (best −20), H 10−20+240=230 (best 240).
# Contracts won as taker: A 1, C 1, E 1, H 1; G's contract failed.
# --------------------------------------------------------------------------------------------


def _deal(rows, rnd, table, deal, scores, taker=None, won=False):
    for entry, points in scores.items():
        rows.append(ScoreRow(entry, rnd, table, deal, points, won_as_taker=(entry == taker and won)))


def tarot_rows(b_wins_r2=False):
    rows: list[ScoreRow] = []
    _deal(rows, 1, 1, 1, {"A": 90, "B": -30, "C": -30, "D": -30}, "A", True)
    _deal(rows, 1, 1, 2, {"C": 60, "A": -20, "B": -20, "D": -20}, "C", True)
    _deal(rows, 1, 2, 1, {"G": -30, "E": 10, "F": 10, "H": 10}, "G", False)
    _deal(rows, 1, 2, 2, {"E": 60, "F": -20, "G": -20, "H": -20}, "E", True)
    if b_wins_r2:  # the corrected sheet: B's contract was actually made
        _deal(rows, 2, 1, 1, {"B": 120, "A": -40, "E": -40, "F": -40}, "B", True)
    else:
        _deal(rows, 2, 1, 1, {"B": -120, "A": 40, "E": 40, "F": 40}, "B", False)
    _deal(rows, 2, 2, 1, {"H": 240, "C": -80, "G": -80, "D": -80}, "H", True)
    return rows


def ranks(snapshot):
    return [(line.rank, line.entry) for line in snapshot.lines]


def test_deals_sum_to_zero_per_table():
    sums: dict[tuple[int, int, int], int] = {}
    for row in tarot_rows():
        key = (row.round, row.table, row.deal)
        sums[key] = sums.get(key, 0) + row.points
    assert set(sums.values()) == {0}


def test_tarot_totals_and_shared_ranks():
    snap = rank_tarot(tarot_rows())
    # 230 | 110 110 | 30 | −50 | −130 −130 | −170 → 1, 2, 2, 4, 5, 6, 6, 8 (ties shared, entry order for display)
    assert ranks(snap) == [(1, "H"), (2, "A"), (2, "E"), (4, "F"), (5, "C"), (6, "D"), (6, "G"), (8, "B")]
    assert [snap.line_for(e).metric("marks") for e in "ABCDEFGH"] == [110, -170, -50, -130, 110, 30, -130, 230]
    assert snap.line_for("A").metric("best_deal") == 90
    assert snap.line_for("B").metric("best_deal") == -20
    assert snap.line_for("E").metric("won_as_taker") == 1
    assert snap.line_for("G").metric("won_as_taker") == 0
    assert snap.line_for("H").metric("deals") == 3
    assert snap.line_for("H").metric("rounds") == 2
    assert snap.shared_with("A") == ("E",)
    assert snap.criteria == ("marks",)


def test_tarot_tie_breaks_in_organizer_order():
    snap = rank_tarot(tarot_rows(), tie_breaks=("best_deal",))
    # A and E: 110 each; best deal A 90 > E 60 → A 2, E 3. D and G: best −20 both → still shared 6.
    assert ranks(snap)[:3] == [(1, "H"), (2, "A"), (3, "E")]
    assert ranks(snap)[5:7] == [(6, "D"), (6, "G")]
    only_contracts = rank_tarot(tarot_rows(), tie_breaks=("won_as_taker",))
    # A 1 contract, E 1 contract → shared.
    assert ranks(only_contracts)[1:3] == [(2, "A"), (2, "E")]
    both = rank_tarot(tarot_rows(), tie_breaks=("won_as_taker", "best_deal"))
    assert ranks(both)[1:3] == [(2, "A"), (3, "E")]


def test_explain_names_the_deciding_tie_break():
    snap = rank_tarot(tarot_rows(), tie_breaks=("won_as_taker", "best_deal"))
    text = snap.explain("E")
    assert "Rank 3 of 8" in text and "110 total marks" in text
    assert "Behind 'A' (rank 2) on best single deal: 60 v 90" in text
    assert "Ahead of 'E' (rank 3) on best single deal: 90 v 60" in snap.explain("A")
    shared = snap.explain("D")
    assert "Rank shared with 'G'" in shared and "at Tarot, ties are shared" in shared
    assert "Decided by total marks alone" in snap.explain("H")


def test_pre_aggregated_totals_give_the_same_snapshot():
    rows = tarot_rows()
    totals = [
        TarotTotals("A", 110, 90, 1, 3, 2), TarotTotals("B", -170, -20, 0, 3, 2), TarotTotals("C", -50, 60, 1, 3, 2),
        TarotTotals("D", -130, -20, 0, 3, 2), TarotTotals("E", 110, 60, 1, 3, 2), TarotTotals("F", 30, 40, 0, 3, 2),
        TarotTotals("G", -130, -20, 0, 3, 2), TarotTotals("H", 230, 240, 1, 3, 2),
    ]
    assert sorted(aggregate_tarot(rows).values()) == sorted(totals)
    from_rows = rank_tarot(rows, tie_breaks=("best_deal",))
    from_totals = rank_tarot(list(reversed(totals)), tie_breaks=("best_deal",))
    assert from_rows == from_totals
    assert from_rows.digest == from_totals.digest
    assert regenerate(from_rows) == from_rows


def test_digest_depends_on_options():
    rows = tarot_rows()
    assert rank_tarot(rows).digest != rank_tarot(rows, tie_breaks=("best_deal",)).digest


def test_corrected_deal_changes_the_ranking_and_diff_shows_it():
    old = rank_tarot(tarot_rows())
    new = rank_tarot(tarot_rows(b_wins_r2=True))
    # Corrected R2 T1: B +120, A E F −40 → A 30, B 70, E 30, F −50; others unchanged.
    # 230 H | 70 B | 30 A, E | −50 C, F | −130 D, G → 1, 2, 3, 3, 5, 5, 7, 7
    assert ranks(new) == [(1, "H"), (2, "B"), (3, "A"), (3, "E"), (5, "C"), (5, "F"), (7, "D"), (7, "G")]
    assert old.digest != new.digest
    d = diff(old, new)
    assert not d.same_inputs
    assert set(d.moved) == {Move("B", 8, 2), Move("A", 2, 3), Move("E", 2, 3), Move("F", 4, 5), Move("D", 6, 7),
                            Move("G", 6, 7)}
    assert ("B", "marks", -170, 70) in d.changed
    assert ("B", "won_as_taker", 0, 1) in d.changed
    assert ("B", "best_deal", -20, 120) in d.changed
    assert not d.added and not d.removed
    assert diff(old, regenerate(old)).empty


def test_duplicate_row_is_refused():
    rows = tarot_rows()
    with pytest.raises(ValueError, match="replace"):
        rank_tarot([*rows, rows[0]])


def test_absent_player_has_no_score_for_missed_rounds():
    # I registered but absent from the start; F absent in round 2 (his R2 row removed): F 10−20 = −10.
    rows = [r for r in tarot_rows() if not (r.entry == "F" and r.round == 2)]
    snap = rank_tarot(rows, entries=["I"])
    assert snap.line_for("I").metrics == (("marks", 0), ("best_deal", None), ("won_as_taker", 0), ("deals", 0),
                                          ("rounds", 0))
    assert snap.line_for("F").metric("marks") == -10
    assert snap.line_for("F").metric("rounds") == 1
    # 230 H | 110 A E | 0 I | −10 F | −50 C | ...
    assert ranks(snap)[:6] == [(1, "H"), (2, "A"), (2, "E"), (4, "I"), (5, "F"), (6, "C")]
    # no best deal ranks below any best deal when used as a tie-break
    tie = rank_tarot([TarotTotals("x", 0, None), TarotTotals("y", 0, -50)], tie_breaks=("best_deal",))
    assert ranks(tie) == [(1, "y"), (2, "x")]


def test_team_ranking_from_members_totals():
    # Teams whose members never met (rule 34): (A,H) 110+230=340, (B,G) −170−130=−300,
    # (C,F) −50+30=−20, (D,E) −130+110=−20 → 1, 2, 2, 4.
    teams = {"T1": ["A", "H"], "T2": ["B", "G"], "T3": ["C", "F"], "T4": ["D", "E"]}
    snap = rank_tarot_teams(tarot_rows(), teams)
    assert ranks(snap) == [(1, "T1"), (2, "T3"), (2, "T4"), (4, "T2")]
    assert snap.line_for("T1").metric("marks") == 340
    # best deal: T3 max(60, 40) = 60, T4 max(−20, 60) = 60; contracts 1 and 1 → still shared.
    tb = rank_tarot_teams(tarot_rows(), teams, tie_breaks=("best_deal", "won_as_taker"))
    assert ranks(tb) == [(1, "T1"), (2, "T3"), (2, "T4"), (4, "T2")]
    assert regenerate(tb) == tb
    with pytest.raises(ValueError):
        rank_tarot_teams(tarot_rows(), {"X": ["A"], "Y": ["A", "B"]})


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError):
        rank_tarot(tarot_rows(), tie_breaks=("buchholz",))
    with pytest.raises(ValueError):
        rank_tarot(tarot_rows(), tie_breaks=("best_deal", "best_deal"))


# --------------------------------------------------------------------------------------------
# A small Swiss event (2/1/0, bye = a win), 5 players, 3 rounds:
#   R1: A beats B 11–5; C draws D 8–8; E bye.
#   R2: C beats A 11–9; B beats E 11–3; D bye.
#   R3: A beats D 11–4; C draws E 6–6; B bye.
# Match points: A 2+0+2=4, B 0+2+2=4, C 1+2+1=4, D 1+2+0=3, E 2+0+1=3.
# Buchholz (opponents' MP, byes count nothing): A B4+C4+D3=11, B A4+E3=7, C D3+A4+E3=10, D C4+A4=8, E B4+C4=8.
# Sonneborn-Berger: A 4 (beat B) + 0 + 3 (beat D) = 7; B 0 + 3 = 3; C 3/2 + 4 + 3/2 = 7; D 4/2 + 0 = 2; E 0 + 4/2 = 2.
# Margin: A +6 −2 +7 = 11; B −6 +8 = 2; C 0 +2 +0 = 2; D 0 −7 = −7; E −8 +0 = −8.
# --------------------------------------------------------------------------------------------

SWISS = [
    MatchResult(1, 1, ("A", "B"), (11, 5), 0),
    MatchResult(1, 2, ("C", "D"), (8, 8), None),
    MatchResult(1, None, ("E",), bye=True),
    MatchResult(2, 1, ("C", "A"), (11, 9), 0),
    MatchResult(2, 2, ("B", "E"), (11, 3), 0),
    MatchResult(2, None, ("D",), bye=True),
    MatchResult(3, 1, ("A", "D"), (11, 4), 0),
    MatchResult(3, 2, ("C", "E"), (6, 6), None),
    MatchResult(3, None, ("B",), bye=True),
]


def test_swiss_metrics_by_hand():
    snap = rank_matches(SWISS)
    expect = {  # mp, buchholz, SB, margin, wins, draws, losses, byes
        "A": (4, 11, 7, 11, 2, 0, 1, 0),
        "B": (4, 7, 3, 2, 1, 0, 1, 1),
        "C": (4, 10, 7, 2, 1, 2, 0, 0),
        "D": (3, 8, 2, -7, 0, 1, 1, 1),
        "E": (3, 8, 2, -8, 0, 1, 1, 1),
    }
    names = ("match_points", "buchholz", "sonneborn_berger", "margin", "wins", "draws", "losses", "byes")
    for entry, values in expect.items():
        assert tuple(snap.line_for(entry).metric(n) for n in names) == values, entry
    assert snap.line_for("C").metric("sonneborn_berger") == 7
    # default order Buchholz, SB, margin, wins: 4 MP: A 11 > C 10 > B 7; 3 MP: D, E level; margin −7 > −8
    assert ranks(snap) == [(1, "A"), (2, "C"), (3, "B"), (4, "D"), (5, "E")]
    assert "Ahead of 'E' (rank 5) on score margin (points for − against): -7 v -8" in snap.explain("D")


def test_swiss_tie_break_order_matters():
    sb_first = rank_matches(SWISS, tie_breaks=("sonneborn_berger", "buchholz"))
    # A SB 7 = C SB 7, Buchholz 11 > 10; B SB 3; D, E SB 2 and Buchholz 8 → shared 4.
    assert ranks(sb_first) == [(1, "A"), (2, "C"), (3, "B"), (4, "D"), (4, "E")]
    margin_only = rank_matches(SWISS, tie_breaks=("margin",))
    # A 11; B 2 = C 2 → shared 2; D −7, E −8.
    assert ranks(margin_only) == [(1, "A"), (2, "B"), (2, "C"), (4, "D"), (5, "E")]
    none = rank_matches(SWISS, tie_breaks=())
    assert ranks(none) == [(1, "A"), (1, "B"), (1, "C"), (4, "D"), (4, "E")]
    wins = rank_matches(SWISS, tie_breaks=("wins",))
    assert ranks(wins) == [(1, "A"), (2, "B"), (2, "C"), (4, "D"), (4, "E")]


def test_bye_points_configurable():
    snap = rank_matches(SWISS, points=MatchPoints(win=2, draw=1, loss=0, bye=1))
    # bye = a draw: B 0+2+1=3, D 1+1+0=2, E 1+0+1=2; A 4, C 4.
    assert [snap.line_for(e).metric("match_points") for e in "ABCDE"] == [4, 3, 4, 2, 2]
    # Buchholz now: A B3+C4+D2=9, C D2+A4+E2=8 → A first.
    assert snap.line_for("A").metric("buchholz") == 9
    assert ranks(snap)[:2] == [(1, "A"), (2, "C")]
    assert regenerate(snap) == snap


def test_sonneborn_berger_is_a_fraction_when_needed():
    # X draws Y, Y beats Z: Y 1+2=3 MP; X SB = Y MP (3) × 1/2 = 3/2.
    results = [MatchResult(1, 1, ("X", "Y"), (5, 5), None), MatchResult(2, 1, ("Y", "Z"), (7, 2), 0)]
    snap = rank_matches(results)
    assert snap.line_for("X").metric("sonneborn_berger") == Fraction(3, 2)
    assert isinstance(snap.line_for("X").metric("sonneborn_berger"), Fraction)


def test_absent_and_withdrawn_entries():
    # W withdrew after round 1 (no results after); V registered, never played; F forfeits round 2 to A.
    results = [
        MatchResult(1, 1, ("W", "A"), (11, 7), 0),
        MatchResult(1, 2, ("F", "G"), (3, 11), 1),
        MatchResult(2, 1, ("A", "F"), (0, 0), 0, forfeit=True),
        MatchResult(2, 2, ("G",), bye=True),
    ]
    snap = rank_matches(results, entries=["V"])
    # W 2 MP (1 played), A 0+2=2, G 2+2=4, F 0, V 0.
    assert [snap.line_for(e).metric("match_points") for e in ("W", "A", "G", "F", "V")] == [2, 2, 4, 0, 0]
    assert snap.line_for("W").metric("played") == 1
    assert snap.line_for("V").metric("played") == 0
    # forfeit counts as a win, not in the margin: A's margin only from R1: 7 − 11 = −4
    assert snap.line_for("A").metric("margin") == -4
    assert snap.line_for("A").metric("wins") == 1
    # Buchholz: A met W (2) and F (0) = 2; W met A (2) = 2; G met F (0) = 0.
    assert snap.line_for("A").metric("buchholz") == 2
    assert snap.line_for("G").metric("buchholz") == 0
    # 4 G | 2 A, W (Buchholz 2 = 2; SB: W beat A 2 → 2, A beat F 0 → 0) → W 2, A 3 | 0 F, V
    assert ranks(snap)[:3] == [(1, "G"), (2, "W"), (3, "A")]


def test_two_results_in_one_round_refused():
    with pytest.raises(ValueError):
        rank_matches([MatchResult(1, 1, ("A", "B"), (1, 0), 0), MatchResult(1, 2, ("A", "C"), (1, 0), 0)])
    with pytest.raises(ValueError):
        MatchResult(1, None, ("A", "B"), bye=True)
    with pytest.raises(ValueError):
        MatchResult(1, 1, ("A", "A"), (1, 0), 0)


def test_three_sided_match_margin_uses_opponents_mean():
    # Écarté à trois style: P 10, Q 4, R 2, P wins. P margin 10 − (4+2)/2 = 7; Q 4 − 6 = −2; R 2 − 7 = −5.
    snap = rank_matches([MatchResult(1, 1, ("P", "Q", "R"), (10, 4, 2), 0)])
    assert [snap.line_for(e).metric("margin") for e in "PQR"] == [7, -2, -5]
    assert sum(snap.line_for(e).metric("margin") for e in "PQR") == 0


def test_a_fractional_tie_break_is_a_french_decimal_in_the_words():
    """The walk (Vingt-quatre, « pourquoi ? »): « écart de points (pour − contre) : -1 contre -7/3 ». A fraction is
    written as the ranking's column writes it: two decimals, rounded half up, a decimal comma in French."""
    from scoring.ranking import RankingSnapshot, RankLine, explain

    lines = (RankLine(1, "A", (("match_points", 2), ("margin", -1), ("buchholz", Fraction(7, 2)))),
             RankLine(2, "B", (("match_points", 2), ("margin", Fraction(-7, 3)), ("buchholz", 4))),
             RankLine(3, "C", (("match_points", 1), ("margin", Fraction(1, 8)), ("buchholz", 0))))
    snap = RankingSnapshot("matches", ("match_points", "margin", "buchholz"), lines, (), (), "test")
    names = {"A": "Zoé", "B": "Guy", "C": "Jean"}
    # -7/3 = -2.333… → -2,33; 1/8 = 0.125 → 0,13 (half up)
    assert "au départage « écart de points (pour − contre) » : -2,33 contre -1." in explain(snap, "B", "fr", names)
    assert "au départage « écart de points (pour − contre) » : -1 contre -2,33." in explain(snap, "A", "fr", names)
    assert "on score margin (points for − against): -2.33 v -1." in explain(snap, "B", "en", names)
    lines = (RankLine(1, "A", (("match_points", 2), ("margin", Fraction(1, 8)))),
             RankLine(2, "B", (("match_points", 2), ("margin", 0))))
    snap = RankingSnapshot("matches", ("match_points", "margin"), lines, (), (), "test")
    assert ": 0,13 contre 0." in explain(snap, "A", "fr", names)


def test_explain_says_one_point_in_the_singular():
    """French grammar: « 1 point de match », « 0 point de match », « 4 points de match » (a walk read « 1 points »).
    One round: A beats B (A 2 match points, B 0), C and D draw (1 each)."""
    results = [MatchResult(1, 1, ("A", "B"), (7, 3), winner=0), MatchResult(1, 2, ("C", "D"), (5, 5), winner=None)]
    snap = rank_matches(results, tie_breaks=("margin",))
    assert "2 points de match" in snap.explain("A", "fr")
    assert ": 1 point de match." in snap.explain("C", "fr")
    assert ": 0 point de match." in snap.explain("B", "fr")


def test_explain_says_one_match_point_in_the_singular_in_english_too():
    """English grammar: « 1 match point », but « 0 match points » and « 2 match points » (French has the singular
    below two, English only at one). One round: A beats B (A 2 match points, B 0), C and D draw (1 each)."""
    results = [MatchResult(1, 1, ("A", "B"), (7, 3), winner=0), MatchResult(1, 2, ("C", "D"), (5, 5), winner=None)]
    snap = rank_matches(results, tie_breaks=("margin",))
    assert "2 match points" in snap.explain("A", "en")
    assert ": 1 match point." in snap.explain("C", "en")
    assert ": 0 match points." in snap.explain("B", "en")
