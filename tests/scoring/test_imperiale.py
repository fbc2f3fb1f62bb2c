"""Scoring L'Impériale: the chronology of §4.3, the effacement, the protected retourne jeton, capote,
cartes, tombée, cartes blanches, and the match ending at a mark. Every expected figure is worked by hand
from RULES.md §4 (comments show the arithmetic)."""

from __future__ import annotations

from rules.replay import replay
from scoring.imperiale import score_match
from scoring.jetons import Tally

# D1 — dealer 0, retourne 9C (clubs trump; all clubs in the talon, no honour can be played).
# Seat 1 (first hand): spades and hearts K Q J A 10 9 (two plain quatrièmes majeures).
# Seat 0: 8S 7S 8H 7H and the eight diamonds (quatrième majeure of diamonds; Point 8 cards = 75).
# Seat 1 leads and wins all twelve tricks: capote.
D1_FIRST = "KS QS JS AS 10S 9S KH QH JH AH 10H 9H"
D1_SECOND = "8S 7S 8H 7H KD QD JD AD 10D 9D 8D 7D"
D1_TRICKS = ["KS 8S", "QS 7S", "JS KD", "AS QD", "10S JD", "9S AD", "KH 8H", "QH 7H", "JH 10D", "AH 9D",
             "10H 8D", "9H 7D"]

# D2 — dealer 0, retourne 9H (hearts trump; honours AH KH QH JH 7H).
# Seat 1: KH QH JH AH, KS QS JS AS 10S, 7D 8D 9D. Seat 0: 7H 8H 10H, KD QD JD AD 10D, 7S 8S 9S, KC.
# Point: both 5 cards worth 51 (K Q J A 10) → primauté → seat 1.
# Tricks: seat 1 wins 1-4 (honours 2, 1, 1, 1), seat 0 wins 5-9, seat 1 wins 10-12 → 7 tricks to 5.
D2_SEAT1 = "KH QH JH AH KS QS JS AS 10S 7D 8D 9D"
D2_SEAT0 = "7H 8H 10H KD QD JD AD 10D 7S 8S 9S KC"
D2_TRICKS = ["KH 7H", "QH 8H", "JH 10H", "AH KC", "7D AD", "KD 8D", "QD 9D", "JD 10S", "10D AS", "7S KS",
             "QS 8S", "JS 9S"]


def deal(dealer, hands, turn_up, tricks, announcements=None):
    out = {"dealer": dealer, "turn_up": turn_up, "hands": [h.split() for h in hands]}
    if tricks is not None:
        out["tricks"] = [t.split() for t in tricks]
    if announcements:
        out["announcements"] = announcements
    return out


def d1(dealer=0, turn_up="9C", announcements=None, tricks=D1_TRICKS):
    hands = (D1_SECOND, D1_FIRST) if dealer == 0 else (D1_FIRST, D1_SECOND)
    return deal(dealer, hands, turn_up, tricks, announcements)


def d2(announcements=None):
    return deal(0, (D2_SEAT0, D2_SEAT1), "9H", D2_TRICKS, announcements)


def match(*deals, **options):
    data = {"format": "levee.match/1", "game": "imperiale", "options": {"players": 2, **options},
            "players": ["Ana", "Bruno"], "deals": list(deals)}
    replayed = replay(data)
    assert replayed.violations == [], replayed.violations
    return score_match(replayed)


def steps(deal_score):
    return [(mk["step"], mk["seat"]) for mk in deal_score.result["marks"]]


def after(deal_score, k):
    mk = deal_score.result["marks"][k]
    return mk["after"]["fiches"], mk["after"]["jetons"]


# -- one deal ----------------------------------------------------------------------------------------

def test_point_then_capote_erases_the_point():
    score = match(d1())
    deal0 = score.deals[0]
    assert steps(deal0) == [("point", 0), ("capote", 1)]
    assert after(deal0, 0) == ([0, 0], [1, 0])           # the Point: 1 jeton to seat 0
    assert deal0.result["marks"][1]["wiped"] == {"0": 1}  # capote = 2 impériales, erasing seat 0's jeton
    assert after(deal0, 1) == ([0, 2], [0, 0])
    assert deal0.scores == [0, 2]
    assert score.totals == [0, 2] and score.winner is None and score.ended is None


def test_honours_trick_by_trick_point_by_primaute_and_cartes():
    score = match(d2())
    deal0 = score.deals[0]
    assert steps(deal0) == [("point", 1), ("honours", 1), ("honours", 1), ("honours", 1), ("honours", 1),
                            ("cartes", 1)]
    assert deal0.result["point"] == {"seat": 1, "count": 5, "value": 51}
    marks = deal0.result["marks"]
    assert [mk.get("trick") for mk in marks[1:5]] == [0, 1, 2, 3]
    assert [mk["jetons"] for mk in marks] == [1, 2, 1, 1, 1, 1]
    # 1 + 2 + 1 + 1 = 5 jetons, the AH makes the sixth: one fiche, nothing left over
    assert after(deal0, 4) == ([0, 1], [0, 0])
    # les cartes: 7 tricks, one above six
    assert marks[5]["tricks"] == 7
    assert after(deal0, 5) == ([0, 1], [0, 1])
    assert deal0.scores == [0, 1]
    assert deal0.result["tricks_won"] == [5, 7]


def test_impériale_tombée_option_after_the_honours():
    deal0 = match(d2(), imperiale_tombee=True).deals[0]
    assert [s for s, _ in steps(deal0)] == ["point", "honours", "honours", "honours", "honours",
                                            "imperiale_tombee", "cartes"]
    assert deal0.scores == [0, 2]


def test_no_tombée_for_the_trump_quatrième_scored_en_main():
    ann = {"imperiales": [{"seat": 1, "cards": ["AH", "KH", "QH", "JH"]}]}
    deal0 = match(d2(ann), imperiale_tombee=True).deals[0]
    assert [s for s, _ in steps(deal0)] == ["imperiale_quatrieme_majeure", "point", "honours", "honours",
                                            "honours", "honours", "cartes"]
    assert deal0.result["marks"][0]["fiches"] == 2      # in trump: double
    assert deal0.scores == [0, 3]                        # 2 en main + 1 through the sixth jeton


def test_parlett_order_puts_the_tombée_before_the_honours():
    deal0 = match(d2(), imperiale_tombee=True, parlett_order=True).deals[0]
    assert [s for s, _ in steps(deal0)][:3] == ["point", "imperiale_tombee", "honours"]


def test_impériales_en_main_in_primauté_then_the_point():
    ann = {"imperiales": [{"seat": 0, "cards": ["AD", "KD", "QD", "JD"]},
                          {"seat": 1, "cards": ["AS", "KS", "QS", "JS"]},
                          {"seat": 1, "cards": ["AH", "KH", "QH", "JH"]}]}
    deal0 = match(d1(announcements=ann)).deals[0]
    # first hand (seat 1) is paid first, whatever the order written
    assert steps(deal0) == [("imperiale_quatrieme_majeure", 1), ("imperiale_quatrieme_majeure", 1),
                            ("imperiale_quatrieme_majeure", 0), ("point", 0), ("capote", 1)]
    assert after(deal0, 2) == ([1, 2], [0, 0])
    assert deal0.scores == [1, 4]


def test_unannounced_impériales_do_not_count():
    assert match(d1()).deals[0].scores == [0, 2]


def test_match_ends_at_the_mark_reaching_the_target():
    ann = {"imperiales": [{"seat": 0, "cards": ["AD", "KD", "QD", "JD"]},
                          {"seat": 1, "cards": ["AS", "KS", "QS", "JS"]}]}
    score = match(d1(announcements=ann), target=1)
    assert score.winner == 1                      # primauté: first hand shows first
    assert score.ended == {"deal": 0, "event": 0}
    assert score.totals == [0, 1]
    assert steps(score.deals[0]) == [("imperiale_quatrieme_majeure", 1)]


def test_match_ends_in_the_middle_of_the_honours():
    score = match(d2(), d1(dealer=1), target=1)
    # marks: point (0), honours tricks 1-4 (1-4): the AH at trick 4 makes the impériale
    assert score.ended == {"deal": 0, "event": 4}
    assert score.winner == 1
    assert steps(score.deals[0])[-1] == ("honours", 1)
    assert score.deals[1].scores is None
    assert [v.rule for v in score.violations] == ["match_over"]


# -- a match: the effacement across deals and the protected retourne jeton ---------------------------

def test_two_deals_with_effacement():
    score = match(d2(), d1(dealer=1))
    # after D2: fiches [0, 1], jetons [0, 1]; D1 mirrored: Point to seat 1 (8 diamonds) → jetons [0, 2];
    # capote to seat 0 → fiches [2, 1], seat 1's two jetons erased
    second = score.deals[1]
    assert steps(second) == [("point", 1), ("capote", 0)]
    assert after(second, 0) == ([0, 1], [0, 2])
    assert second.result["marks"][1]["wiped"] == {"1": 2}
    assert second.scores == [2, 0]
    assert score.totals == [2, 1]
    assert score.detail["jetons"] == [0, 0]


SHOW_SPADES = {"imperiales": [{"seat": 0, "cards": ["AS", "KS", "QS", "JS"]}]}


def test_retourne_jeton_protected_from_impériales_en_main():
    score = match(d2(), d1(dealer=1, turn_up="7C", announcements=SHOW_SPADES))
    second = score.deals[1]
    assert steps(second) == [("retourne", 1), ("imperiale_quatrieme_majeure", 0), ("point", 1), ("capote", 0)]
    assert after(second, 0) == ([0, 1], [0, 2])          # 1 from D2 + the retourne 7C (an honour)
    # the impériale erases seat 1's older jeton only: the retourne jeton of this deal stays
    assert second.result["marks"][1]["wiped"] == {"1": 1}
    assert after(second, 1) == ([1, 1], [0, 1])
    assert after(second, 2) == ([1, 1], [0, 2])          # the Point
    # from the Point onwards it can be erased: the capote takes both
    assert second.result["marks"][3]["wiped"] == {"1": 2}
    assert score.totals == [3, 1]


def test_strict_auj_chronology_erases_the_retourne_jeton():
    score = match(d2(), d1(dealer=1, turn_up="7C", announcements=SHOW_SPADES), strict_auj_chronology=True)
    second = score.deals[1]
    assert second.result["marks"][1]["wiped"] == {"1": 2}
    assert after(second, 2) == ([1, 1], [0, 1])
    assert second.result["marks"][3]["wiped"] == {"1": 1}


def test_wrong_dealer_is_reported():
    data = {"format": "levee.match/1", "game": "imperiale", "options": {"players": 2}, "players": ["A", "B"],
            "deals": [d2(), d1(dealer=0)]}
    assert [v.rule for v in score_match(replay(data)).violations] == ["wrong_dealer"]


# -- cartes blanches ------------------------------------------------------------------------------------

BLANCHES = ("KS QS JS KH QH JH KD QD JD KC QC JC", "AS 10S 9S 8S 7S AH 10H 9H 8H 7H AD 10D")
BLANCHES_ANN = {"cartes_blanches": [1], "imperiales": [{"seat": 0, "cards": ["KS", "KH", "KD", "KC"]},
                                                       {"seat": 0, "cards": ["QS", "QH", "QD", "QC"]}]}


def blanches_deal():
    return deal(0, BLANCHES, "7C", None, BLANCHES_ANN)


def test_cartes_blanches_double_and_impériales_en_main_paid():
    deal0 = match(blanches_deal()).deals[0]
    assert steps(deal0) == [("retourne", 0), ("cartes_blanches", 1), ("imperiale_carre", 0),
                            ("imperiale_carre", 0)]
    assert deal0.result["status"] == "not_played"
    assert "point" not in deal0.result
    assert after(deal0, 1) == ([0, 2], [1, 0])           # the retourne jeton survives (rule 14)
    assert deal0.scores == [2, 2]
    assert deal0.result["jetons"] == [1, 0]


def test_cartes_blanches_erase_under_strict_chronology():
    deal0 = match(blanches_deal(), strict_auj_chronology=True).deals[0]
    assert deal0.result["marks"][1]["wiped"] == {"0": 1}
    assert deal0.result["jetons"] == [0, 0]


def test_cartes_blanches_do_not_erase_in_parlett_order():
    deal0 = match(blanches_deal(), strict_auj_chronology=True, parlett_order=True).deals[0]
    assert "wiped" not in deal0.result["marks"][1]
    assert deal0.result["jetons"] == [1, 0]


# -- the tally -----------------------------------------------------------------------------------------

def test_six_jetons_make_a_fiche_keeping_the_excess():
    tally = Tally(2, target=5)
    tally.add_jetons(0, 5, "x")
    tally.add_jetons(1, 4, "x")
    tally.add_jetons(0, 3, "x")              # 8 jetons → 1 fiche + 2, the opponent's 4 erased
    assert (tally.fiches, tally.jetons) == ([1, 0], [2, 0])
    assert tally.marks[-1]["wiped"] == {"1": 4}


def test_fiches_are_never_erased_and_penalty_removes_one():
    tally = Tally(2, target=5)
    tally.add_fiches(0, 2, "x")
    tally.add_fiches(1, 1, "x")
    assert tally.fiches == [2, 1]
    tally.remove_fiche(0, "penalty")
    assert tally.fiches == [1, 1]


# -- penalty option (A-I10, AUJ rule X) --------------------------------------------------------------------

def test_failure_to_take_costs_an_impériale_with_the_penalty_option():
    # D1 with seat 0's 8S and seat 1's 10S swapped: seat 1 leads the 9S and seat 0, holding the 10S, plays
    # the 7S — he could take and did not. Seat 1 then wins every trick.
    hands = ("10S 7S 8H 7H KD QD JD AD 10D 9D 8D 7D", "KS QS JS AS 8S 9S KH QH JH AH 10H 9H")
    tricks = ["9S 7S", "KS 10S", "QS KD", "JS QD", "AS JD", "8S AD", "KH 8H", "QH 7H", "JH 10D", "AH 9D",
              "10H 8D", "9H 7D"]
    data = {"format": "levee.deal/1", "game": "imperiale", "options": {"players": 2, "penalty_imperiale": True},
            "players": ["Ana", "Bruno"], **deal(0, hands, "9C", tricks)}
    replayed = replay(data)
    assert [(v.rule, v.trick, v.seat) for v in replayed.violations] == [("must_follow_higher", 0, 0)]
    deal0 = score_match(replayed).deals[0]
    # Point to seat 0, capote to seat 1; seat 0 has no fiche to lose: seat 1 scores one
    assert steps(deal0) == [("point", 0), ("capote", 1), ("penalty", 1)]
    assert deal0.scores == [0, 3]
    data["options"]["penalty_imperiale"] = False
    assert score_match(replay(data)).deals[0].scores == [0, 2]


def test_unfinished_deal_has_no_score_but_shows_the_marks_so_far():
    data = {"format": "levee.match/1", "game": "imperiale", "options": {"players": 2}, "players": ["A", "B"],
            "deals": [d1(tricks=D1_TRICKS[:3])]}
    deal0 = score_match(replay(data)).deals[0]
    assert deal0.scores is None
    assert deal0.result["status"] == "unfinished"
    assert steps(deal0) == [("point", 0)]


def test_point_recorded_as_not_counted():
    deal0 = match(d1(announcements={"point": None})).deals[0]
    assert steps(deal0) == [("capote", 1)]
