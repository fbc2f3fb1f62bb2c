"""Partnership matches (Triomphe 2 v 2, Écarté à quatre) in the published ranking, and team standings.

Expected figures are hand arithmetic (win 2, draw 1, loss 0) in the comments, never output of the code.
"""

from __future__ import annotations

import pytest

from tests.integration.builders import end_match, make_round, make_tournament, named_lines
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db


def publish(t):
    version = tasks.ranking_refresh(t.pk)
    assert version is not None, "expected a new snapshot"
    return RankingSnapshot.objects.get(tournament=t, input_version=version)


def lines(snapshot, unit="entry"):
    """{name: (rank, metrics)} of a published snapshot."""
    out = {}
    for name, line in named_lines(snapshot, unit):
        out[name] = (line.rank, rankings.metrics_dict(line))
    return out


def pick(metrics, names=("match_points", "buchholz", "sonneborn_berger", "margin", "wins", "losses")):
    return tuple(metrics[n] for n in names)


def triomphe_pairs():
    """Triomphe 2 v 2 (options.teams: seats 0 and 2 against 1 and 3), pairs N=AB, S=CD, E=EF, W=GH."""
    t, e = make_tournament("ABCDEFGH", game="triomphe", slug="tri2v2",
                           teams={"N": "AB", "S": "CD", "E": "EF", "W": "GH"})
    t.options = {"teams": [[0, 2], [1, 3]]}
    t.save()
    A, B, C, D, E, F, G, H = (e[x] for x in "ABCDEFGH")
    t1, t2 = make_round(t, 1, [[A, C, B, D], [E, G, F, H]])
    end_match(t1, [5, 3, 5, 3], [0, 2])      # A B 5 – C D 3
    end_match(t2, [2, 5, 2, 5], [1, 3])      # G H 5 – E F 2
    u1, u2 = make_round(t, 2, [[A, G, B, H], [C, E, D, F]])
    end_match(u1, [5, 3, 5, 3], [0, 2])      # A B 5 – G H 3
    end_match(u2, [5, 1, 5, 1], [0, 2])      # C D 5 – E F 1
    return t, e


def test_partners_each_get_the_match_result():
    t, _e = triomphe_pairs()
    got = lines(publish(t))
    # A, B: 2 wins = 4 MP; Buchholz C2+D2 + G2+H2 = 8; SB the same 8; margin (5−3)+(5−3) = 4.
    # C, D: 0+2 = 2 MP; Buchholz A4+B4 + E0+F0 = 8; SB 0 + (E0+F0) = 0; margin (3−5)+(5−1) = 2.
    # G, H: 2+0 = 2 MP; Buchholz E0+F0 + A4+B4 = 8; SB 0; margin (5−2)+(3−5) = 1.
    # E, F: 0 MP; Buchholz G2+H2 + C2+D2 = 8; SB 0; margin (2−5)+(1−5) = −7.
    assert pick(got["A"][1]) == pick(got["B"][1]) == (4, 8, 8, 4, 2, 0)
    assert pick(got["C"][1]) == pick(got["D"][1]) == (2, 8, 0, 2, 1, 1)
    assert pick(got["G"][1]) == pick(got["H"][1]) == (2, 8, 0, 1, 1, 1)
    assert pick(got["E"][1]) == pick(got["F"][1]) == (0, 8, 0, -7, 0, 2)
    assert {n: r for n, (r, _) in got.items()} == {"A": 1, "B": 1, "C": 3, "D": 3, "G": 5, "H": 5, "E": 7, "F": 7}


def test_team_standings_of_a_partnership_tournament():
    t, _e = triomphe_pairs()
    snap = publish(t)
    teams = lines(snap, "team")
    # each pair scores its side's result once a match: N 4 MP, S 2, W 2, E 0;
    # team Buchholz N = S2+W2 = 4, S = N4+E0 = 4, W = E0+N4 = 4, E = W2+S2 = 4;
    # SB N = 2+2 = 4, S = 0, W = 0; margin N 4, S 2, W 1, E −7 → N, S, W, E.
    assert pick(teams["N"][1]) == (4, 4, 4, 4, 2, 0)
    assert pick(teams["S"][1]) == (2, 4, 0, 2, 1, 1)
    assert pick(teams["W"][1]) == (2, 4, 0, 1, 1, 1)
    assert pick(teams["E"][1]) == (0, 4, 0, -7, 0, 2)
    assert {n: r for n, (r, _) in teams.items()} == {"N": 1, "S": 2, "W": 3, "E": 4}
    assert teams["N"][1]["members"] == 2
    # the stored team snapshot regenerates from its own inputs
    assert rankings.snapshot_ranking(snap, teams=True).digest == snap.team_digest


def test_ecarte_a_quatre_partners_opposite():
    # Écarté at 4: seats 0 and 2 against 1 and 3. Q and S win 7–2.
    t, e = make_tournament("PQRS", game="ecarte", slug="ec4")
    (a,) = make_round(t, 1, [[e[x] for x in "PQRS"]])
    end_match(a, [2, 7, 2, 7], [1, 3])
    got = lines(publish(t))
    # Q, S 2 MP, Buchholz P0+R0 = 0, margin 7−2 = 5; P, R 0 MP, Buchholz Q2+S2 = 4, margin −5.
    assert pick(got["Q"][1]) == pick(got["S"][1]) == (2, 0, 0, 5, 1, 0)
    assert pick(got["P"][1]) == pick(got["R"][1]) == (0, 4, 0, -5, 0, 1)
    assert got["Q"][0] == got["S"][0] == 1 and got["P"][0] == got["R"][0] == 3


def test_a_winner_naming_both_sides_is_not_ranked():
    t, e = make_tournament("PQRS", game="ecarte", slug="ec4bad")
    (a,) = make_round(t, 1, [[e[x] for x in "PQRS"]])
    end_match(a, [2, 7, 2, 7], [0, 1])  # not one side: left out, never guessed
    got = lines(publish(t))
    assert {m["played"] for _, m in got.values()} == {0}
