"""A championship's « why this rank » in English said « 1 championship points », « (3rd, 1 pts) », « The best 1
results of 2 count », « 1 tournament(s) played » (and French « 1 points de championnat », « 1 tournoi(s) joué(s) »):
the rank explanations' French singular was done for a tournament's ranking, not for a championship's. Now each
number takes its noun in the grammar of its language (English: one; French: below two), as a tournament's ranking
says « 1 match point » and « 1 point de match »."""

from __future__ import annotations

from fractions import Fraction

from scoring import championship as ch
from scoring.championship import PointsTable, Result, Rules
from scoring.ranking import singular

TABLE = PointsTable("rank", points=(3, 2, 1), beyond=0)
NAMES = {"T1": "Open", "T2": "Coupe"}


def _season(rules: Rules):
    # T1: A 1st (3), B 2nd (2), C 3rd (1), D 4th (0); T2: A 2nd (2), B 1st (3); E plays T2 alone 3rd (1)
    results = [Result(p, "T1", 1, rank=r, field=4) for r, p in enumerate("ABCD", 1)]
    results += [Result("B", "T2", 2, rank=1, field=3), Result("A", "T2", 2, rank=2, field=3),
                Result("E", "T2", 2, rank=3, field=3)]
    return ch.rank_championship(results, rules)


def test_one_championship_point_is_singular_in_english_and_below_two_in_french():
    snap = _season(Rules(TABLE))
    c_en, c_fr = ch.explain(snap, "C", "en", tournaments=NAMES), ch.explain(snap, "C", "fr", tournaments=NAMES)
    assert ": 1 championship point." in c_en and "Open (3rd, 1 pt)" in c_en, c_en
    assert ": 1 point de championnat." in c_fr and "Open (3e, 1 pt)" in c_fr, c_fr
    d_en, d_fr = ch.explain(snap, "D", "en", tournaments=NAMES), ch.explain(snap, "D", "fr", tournaments=NAMES)
    assert ": 0 championship points." in d_en and "(4th, 0 pts)" in d_en, d_en
    assert ": 0 point de championnat." in d_fr and "(4e, 0 pt)" in d_fr, d_fr
    a_en = ch.explain(snap, "A", "en", tournaments=NAMES)
    assert ": 5 championship points." in a_en and "(1st, 3 pts)" in a_en, a_en


def test_the_best_result_alone_counts_in_the_singular():
    snap = _season(Rules(TABLE, best=1))
    a_en, a_fr = ch.explain(snap, "A", "en", tournaments=NAMES), ch.explain(snap, "A", "fr", tournaments=NAMES)
    assert "The best result of 2 counts: Open (1st, 3 pts)." in a_en, a_en
    assert "Le meilleur résultat sur 2 compte : Open (1er, 3 pts)." in a_fr, a_fr
    two = _season(Rules(TABLE, best=2))
    assert "The best 2 results of 2 count:" in ch.explain(two, "A", "en")
    assert "Les 2 meilleurs résultats sur 2 comptent :" in ch.explain(two, "A", "fr")


def test_a_player_not_ranked_yet_is_told_in_words_not_in_brackets():
    snap = _season(Rules(TABLE, minimum=2))
    e_en, e_fr = ch.explain(snap, "E", "en", tournaments=NAMES), ch.explain(snap, "E", "fr", tournaments=NAMES)
    assert "Not ranked yet: 1 tournament played of the 2 required, 1 to go. 1 point so far: Coupe (3rd, 1 pt)." \
        in e_en, e_en
    assert ("Pas encore classé : 1 tournoi joué sur les 2 exigés, il en manque 1. 1 point à ce jour : Coupe (3e, "
            "1 pt).") in e_fr, e_fr
    assert "(s)" not in e_en + e_fr


def test_singular_follows_each_languages_rule():
    assert [singular(v, "en") for v in (0, 1, Fraction(3, 2), 2, -1)] == [False, True, False, False, True]
    assert [singular(v, "fr") for v in (0, 1, Fraction(3, 2), 2, -1)] == [True, True, True, False, True]
