"""Partnership matches ranked per player, team standings of match games, explanations in French.

Every expected value is hand arithmetic in the comments (win 2, draw 1, loss 0), never output of the code.
"""

from __future__ import annotations

import pytest

from scoring.ranking import (
    MatchResult,
    TarotTotals,
    _canon,
    explain,
    rank_match_teams,
    rank_matches,
    rank_tarot,
    regenerate,
)

# --------------------------------------------------------------------------------------------
# Triomphe 2 v 2, 8 players in 4 pairs: N = A+B, S = C+D, E = E+F, W = G+H. Seats in order of
# play alternate the sides (A, C, B, D): sides (0, 1, 0, 1). Every member carries its side's points.
#   R1 T1: A B 5 – C D 3, AB win.      R1 T2: E F 2 – G H 5, GH win.
#   R2 T1: A B 5 – G H 3, AB win.      R2 T2: C D 5 – E F 1, CD win.
# Per player: A, B 2+2 = 4 MP; C, D 0+2 = 2; G, H 2+0 = 2; E, F 0.
# Buchholz (opponents' MP, partners are not opponents): A = C2+D2 + G2+H2 = 8; C = A4+B4 + E0+F0 = 8;
#   G = E0+F0 + A4+B4 = 8; E = G2+H2 + C2+D2 = 8 → all 8.
# Sonneborn-Berger: A = (C2+D2) + (G2+H2) = 8; C = 0 + (E0+F0) = 0; G = (E0+F0) + 0 = 0; E = 0.
# Margin: A (5−3) + (5−3) = 4; C (3−5) + (5−1) = 2; G (5−2) + (3−5) = 1; E (2−5) + (1−5) = −7.
# Ranks (Buchholz, SB, margin, wins): A = B 1st (equal on everything), C = D 3rd, G = H 5th, E = F 7th.
# --------------------------------------------------------------------------------------------

ALT = (0, 1, 0, 1)
PAIRS = [
    MatchResult(1, 1, ("A", "C", "B", "D"), (5, 3, 5, 3), 0, sides=ALT),
    MatchResult(1, 2, ("E", "G", "F", "H"), (2, 5, 2, 5), 1, sides=ALT),
    MatchResult(2, 1, ("A", "G", "B", "H"), (5, 3, 5, 3), 0, sides=ALT),
    MatchResult(2, 2, ("C", "E", "D", "F"), (5, 1, 5, 1), 0, sides=ALT),
]
TEAMS = {"N": ("A", "B"), "S": ("C", "D"), "E": ("E", "F"), "W": ("G", "H")}


def metrics(snap, entry, names=("match_points", "buchholz", "sonneborn_berger", "margin", "wins", "losses")):
    return tuple(snap.line_for(entry).metric(n) for n in names)


def test_each_member_gets_the_sides_result():
    snap = rank_matches(PAIRS)
    assert metrics(snap, "A") == metrics(snap, "B") == (4, 8, 8, 4, 2, 0)
    assert metrics(snap, "C") == metrics(snap, "D") == (2, 8, 0, 2, 1, 1)
    assert metrics(snap, "G") == metrics(snap, "H") == (2, 8, 0, 1, 1, 1)
    assert metrics(snap, "E") == metrics(snap, "F") == (0, 8, 0, -7, 0, 2)
    assert [(line.rank, line.entry) for line in snap.lines] == [
        (1, "A"), (1, "B"), (3, "C"), (3, "D"), (5, "G"), (5, "H"), (7, "E"), (7, "F")]
    assert snap.line_for("A").metric("played") == 2
    assert regenerate(snap) == snap


def test_team_standings_count_a_partnership_once_per_match():
    # N: 2 wins = 4 MP; S 2; W 2; E 0. Team Buchholz: N = S2 + W2 = 4; S = N4 + E0 = 4; W = E0 + N4 = 4;
    # E = W2 + S2 = 4. SB: N = 2 + 2 = 4; S = E0 = 0; W = E0 = 0. Margin as the pairs: N 4, S 2, W 1, E −7.
    snap = rank_match_teams(PAIRS, TEAMS)
    assert metrics(snap, "N") == (4, 4, 4, 4, 2, 0)
    assert metrics(snap, "S") == (2, 4, 0, 2, 1, 1)
    assert metrics(snap, "W") == (2, 4, 0, 1, 1, 1)
    assert metrics(snap, "E") == (0, 4, 0, -7, 0, 2)
    assert [(line.rank, line.entry) for line in snap.lines] == [(1, "N"), (2, "S"), (3, "W"), (4, "E")]
    assert snap.line_for("N").metric("members") == 2 and snap.line_for("N").metric("played") == 2
    assert snap.kind == "matches_teams" and regenerate(snap) == snap


def test_team_standings_sum_individual_matches_of_team_mates():
    # Écarté 1 v 1 in a team event, teams X = P+Q and Y = R+S. R1: P beats R 5–3; S beats Q 5–2.
    # X: 2 + 0 = 2 MP, Y: 0 + 2 = 2. Buchholz X = Y2 (P's match) + Y2 (Q's) = 4, Y likewise 4.
    # SB: X = 2 (P's win) + 0 = 2; Y = 0 + 2 = 2. Margin X (5−3) + (2−5) = −1; Y +1 → Y first.
    results = [MatchResult(1, 1, ("P", "R"), (5, 3), 0), MatchResult(1, 2, ("Q", "S"), (2, 5), 1)]
    snap = rank_match_teams(results, {"X": ("P", "Q"), "Y": ("R", "S")})
    assert metrics(snap, "X") == (2, 4, 2, -1, 1, 1)
    assert metrics(snap, "Y") == (2, 4, 2, 1, 1, 1)
    assert [(line.rank, line.entry) for line in snap.lines] == [(1, "Y"), (2, "X")]


def test_partnership_forfeit_and_draw():
    # R1: C D absent, A B win by forfeit (points not counted). R2: A B draw C D 4–4.
    results = [MatchResult(1, 1, ("A", "C", "B", "D"), (0, 0, 0, 0), 0, forfeit=True, sides=ALT),
               MatchResult(2, 1, ("A", "C", "B", "D"), (4, 4, 4, 4), None, sides=ALT)]
    snap = rank_matches(results)
    # MP: A = B = 2 + 1 = 3; C = D = 0 + 1 = 1. Buchholz: A = (C1 + D1) × 2 matches = 4; C = (A3 + B3) × 2 = 12.
    # SB: A = 1 × (1 + 1) + 1/2 × (1 + 1) = 3; C = 0 + 1/2 × (3 + 3) = 3. Margin: forfeit not counted, 4 − 4 = 0.
    assert metrics(snap, "A") == metrics(snap, "B") == (3, 4, 3, 0, 1, 0)
    assert metrics(snap, "C") == metrics(snap, "D") == (1, 12, 3, 0, 0, 1)
    assert snap.line_for("C").metric("draws") == 1


def test_sides_are_checked():
    with pytest.raises(ValueError):
        MatchResult(1, 1, ("A", "B", "C", "D"), (), 0, sides=(0, 0, 0, 0))  # one side only
    with pytest.raises(ValueError):
        MatchResult(1, 1, ("A", "B", "C", "D"), (), 0, sides=(0, 2, 0, 2))  # side 1 missing
    with pytest.raises(ValueError):
        MatchResult(1, 1, ("A", "B", "C", "D"), (), 2, sides=ALT)  # winner is a side index
    with pytest.raises(ValueError):
        rank_match_teams(PAIRS, {"N": ("A", "B"), "M": ("B", "C")})


def test_digest_of_results_without_sides_is_unchanged():
    # the canonical form of a result without sides has the seven fields it always had
    plain = ["MatchResult", 1, 1, ["A", "B"], [1, 0], 0, False, False]
    assert _canon(MatchResult(1, 1, ("A", "B"), (1, 0), 0)) == plain
    assert _canon(MatchResult(1, 1, ("A", "B"), (1, 0), 0, sides=(0, 1)))[-1] == [0, 1]


def test_explain_in_french_with_names():
    totals = [TarotTotals("a", 50, 30), TarotTotals("b", 50, 40), TarotTotals("c", -100, -10)]
    snap = rank_tarot(totals, tie_breaks=("best_deal",))
    names = {"a": "Ana", "b": "Bruno", "c": "Chloé"}
    assert explain(snap, "a", "fr", names) == (
        "Rang 2 sur 3 : 50 points au total. À égalité de points au total avec Bruno. "
        "Derrière Bruno (rang 1) au départage « meilleure donne » : 30 contre 40.")
    assert snap.explain("a", "en", names) == (
        "Rank 2 of 3: 50 total marks. Level on total marks with Bruno. "
        "Behind Bruno (rank 1) on best single deal: 30 v 40.")
    assert explain(snap, "c", "fr", names) == (
        "Rang 3 sur 3 : -100 points au total. Décidé par les points au total seuls.")
    shared = rank_tarot(totals)
    assert explain(shared, "b", "fr", names).endswith(
        "Rang partagé avec Ana : égalité de points au total ; au Tarot, les égalités sont partagées.")
    # no names: the ids, as before
    assert "with 'b'" in explain(shared, "a")
