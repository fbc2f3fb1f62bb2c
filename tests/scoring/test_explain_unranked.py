"""« Pourquoi ce rang » when some lines are shown without a rank (no result yet: listed last, « — »): a walk read
« Devant Marie-Bernadette Delacroix-Montfort (rang 5) … » on a ranking where she was « — » and no rank 5 was shown.
With the ranks as shown (:func:`scoring.ranking.shown_ranks`), the rank said and every rank named are those shown,
and a line with no rank is never named nor compared with.

The matches, by hand (MatchPoints: win 2, loss 0; the margin is points for − the opponent's points, RULES.md and
``scoring/ranking.py rank_matches``): Ana beats Bruno 4 to 0 (Ana 2 match points, margin +4; Bruno 0, −4); Chloé
beats David 3 to 1 (Chloé 2, +2; David 0, −2); Marie has no result (0, margin 0). Ranked by match points then the
margin: Ana 1, Chloé 2, Marie 3, David 4, Bruno 5; shown, Marie left out: Ana 1, Chloé 2, David 3, Bruno 4."""

from __future__ import annotations

from scoring.ranking import MatchResult, played, rank_matches, shown_ranks

ANA, BRUNO, CHLOE, DAVID, MARIE = 1, 2, 3, 4, 5
NAMES = {ANA: "Ana", BRUNO: "Bruno", CHLOE: "Chloé", DAVID: "David", MARIE: "Marie-Bernadette Delacroix-Montfort"}


def snapshot():
    return rank_matches([MatchResult(1, 1, (ANA, BRUNO), (4, 0), 0), MatchResult(1, 2, (CHLOE, DAVID), (3, 1), 0)],
                        tie_breaks=("margin",), entries=NAMES)


def test_the_ranks_shown_leave_out_the_lines_without_a_result():
    snap = snapshot()
    assert [line.entry for line in snap.lines] == [ANA, CHLOE, MARIE, DAVID, BRUNO]
    assert [line.rank for line in snap.lines] == [1, 2, 3, 4, 5]
    unranked = {line.entry for line in snap.lines if not played(dict(line.metrics))}
    assert unranked == {MARIE}
    assert shown_ranks(snap, unranked) == {ANA: 1, CHLOE: 2, DAVID: 3, BRUNO: 4}


def test_an_explanation_names_only_ranked_lines_and_the_ranks_shown():
    snap = snapshot()
    ranks = shown_ranks(snap, {MARIE})
    david = snap.explain(DAVID, "fr", NAMES, ranks)
    assert david == ("Rang 3 sur 5 : 0 point de match. À égalité de points de match avec Bruno. Devant Bruno "
                     "(rang 4) au départage « écart de points (pour − contre) » : -2 contre -4.")
    assert snap.explain(BRUNO, "en", NAMES, ranks) == (
        "Rank 4 of 5: 0 match points. Level on match points with David. Behind David (rank 3) on score margin "
        "(points for − against): -4 v -2.")
    for entry in ranks:
        for lang in ("fr", "en"):
            words = snap.explain(entry, lang, NAMES, ranks)
            assert "Marie" not in words and "5)" not in words, words


def test_alone_once_the_unranked_are_left_out():
    """Chloé is level on 2 match points with Ana only; Ana ahead on the margin: +4 against +2."""
    snap = snapshot()
    ranks = shown_ranks(snap, {MARIE})
    assert snap.explain(CHLOE, "fr", NAMES, ranks) == (
        "Rang 2 sur 5 : 2 points de match. À égalité de points de match avec Ana. Derrière Ana (rang 1) au "
        "départage « écart de points (pour − contre) » : 2 contre 4.")


def test_ties_among_the_ranked_stay_shared():
    """Two draws (1 match point each, margins 0) and Marie without a result (0): Ana, Bruno, Chloé, David all 1,
    shared; Marie left out."""
    snap = rank_matches([MatchResult(1, 1, (ANA, BRUNO), (2, 2), None), MatchResult(1, 2, (CHLOE, DAVID), (1, 1),
                                                                                     None)],
                        tie_breaks=("margin",), entries=NAMES)
    ranks = shown_ranks(snap, {MARIE})
    assert ranks == {ANA: 1, BRUNO: 1, CHLOE: 1, DAVID: 1}
    words = snap.explain(ANA, "fr", NAMES, ranks)
    assert words.startswith("Rang 1 sur 5 : 1 point de match. À égalité de points de match avec Bruno, Chloé, David.")
    assert "Marie" not in words


def test_a_duplicate_line_without_an_etui_has_no_result():
    assert not played({"score": 0, "best_board": None, "tops": 0, "boards": 0})
    assert played({"score": 50, "best_board": 50, "tops": 0, "boards": 3})
    assert not played({"match_points": 0, "played": 0, "byes": 0})
    assert played({"match_points": 2, "played": 0, "byes": 1})
    assert not played({"marks": 0, "deals": 0})
