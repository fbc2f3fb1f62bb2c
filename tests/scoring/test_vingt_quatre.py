"""Scoring Le Vingt-quatre: retourne, séquences, Point, honours trick by trick, la carte, the race to 24
ending mid-deal, parties. Expected figures worked by hand from RULES.md §5."""

from __future__ import annotations

from rules.replay import replay
from scoring.vingt_quatre import score_match

RANKS = ["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def full_suit(suit):
    return [f"{r}{suit}" for r in RANKS]


# Dealer 0; seat 1 (first hand) holds the spades K…2, seat 2 the hearts, seat 3 the diamonds, seat 0 the
# clubs; the four aces are the talon and the virade is AS: spades are trump and seat 1 holds them all.
# Each trick: seat 1 leads his highest spade, the others discard their highest card.
HANDS = [full_suit("C"), full_suit("S"), full_suit("H"), full_suit("D")]
TRICKS = [[f"{r}S", f"{r}H", f"{r}D", f"{r}C"] for r in RANKS]


def deal(dealer=0, hands=HANDS, tricks=TRICKS, announcements=None, turn_up="AS"):
    out = {"dealer": dealer, "turn_up": turn_up, "hands": hands, "tricks": tricks}
    if announcements is not None:
        out["announcements"] = announcements
    return out


def match(*deals, **options):
    data = {"format": "levee.match/1", "game": "vingt-quatre", "options": {"players": 4, **options},
            "players": ["Ana", "Bruno", "Chloé", "David"], "deals": list(deals)}
    replayed = replay(data)
    assert replayed.violations == [], replayed.violations
    return score_match(replayed)


def steps(deal_score):
    return [(mk["step"], mk["seat"], mk["jetons"]) for mk in deal_score.result["marks"]]


def test_aux_figures_the_partie_ends_at_the_fourth_honour():
    score = match(deal())
    first = score.deals[0]
    # séquences: four twelve-card runs to the king → trump decides: seat 1, one sequence → 1 jeton
    # Point: four hands of 12 cards worth 84 → primauté: seat 1 → 2 jetons
    # honours KS, QS, JS, 10S in tricks 1-4 → the 10S is the sixth jeton: 24 points, the partie is over
    assert steps(first) == [("sequences", 1, 1), ("point", 1, 1), ("honours", 1, 1), ("honours", 1, 1),
                            ("honours", 1, 1), ("honours", 1, 1)]
    assert first.result["marks"][-1]["trick"] == 3
    assert first.result["sequence"]["best"]["top"] == "KS"
    assert score.ended == {"deal": 0, "event": 5}
    assert score.winner == 1
    assert first.scores == [0, 6, 0, 0]
    assert score.totals == [0, 6, 0, 0]


def test_au_point_the_retourne_counts_first_and_the_end_comes_at_the_last_trick():
    score = match(deal(), honours="point")
    first = score.deals[0]
    # AS turned: an honour au point → dealer 0; seat 1's honours 5S 4S 3S 2S fall in tricks 9-12
    assert steps(first) == [("retourne", 0, 1), ("sequences", 1, 1), ("point", 1, 1), ("honours", 1, 1),
                            ("honours", 1, 1), ("honours", 1, 1), ("honours", 1, 1)]
    assert [mk["trick"] for mk in first.result["marks"][3:]] == [8, 9, 10, 11]
    assert score.ended == {"deal": 0, "event": 6}
    assert first.scores == [1, 6, 0, 0]


def test_la_carte_after_the_honours():
    score = match(deal(), honours="point", target=32)   # 8 jetons: nobody reaches it in one deal
    first = score.deals[0]
    assert steps(first)[-1] == ("carte", 1, 1)          # 12 tricks
    assert first.scores == [1, 7, 0, 0]
    assert score.ended is None and score.winner is None
    assert first.result["jetons"] == [1, 7, 0, 0]


def test_sequences_shown_without_hands():
    ann = {"sequences": [{"seat": 1, "cards": ["2H", "3H", "4H", "5H", "6H"]},
                         {"seat": 1, "cards": ["8H", "9H", "10H", "JH", "QH"]},
                         {"seat": 3, "cards": ["7C", "8C", "9C", "10C", "JC", "QC"]}],
           "point": {"seat": 2, "count": 7}}
    tricks = [["KS", "QS", "JS", "2S"]]   # seat 1 leads, seat 2 and 3 play low trumps; honours K Q J to seat 1
    d = {"dealer": 0, "turn_up": "AS", "tricks": tricks, "announcements": ann}
    data = {"format": "levee.match/1", "game": "vingt-quatre", "options": {"players": 4},
            "players": ["Ana", "Bruno", "Chloé", "David"], "deals": [d]}
    score = score_match(replay(data))
    first = score.deals[0]
    # seat 3's sixième beats seat 1's two quintes: 1 jeton to seat 3, none to seat 1
    assert steps(first) == [("sequences", 3, 1), ("point", 2, 1), ("honours", 1, 3)]
    assert first.result["status"] == "unfinished" and first.scores is None


def test_two_sequences_in_the_winning_hand_score_two():
    hands = [full_suit("C"), full_suit("S"), full_suit("H"), full_suit("D")]
    # swap seat 1's 7S with seat 2's 7H: seat 1 holds spades K…8 and 6…2 (a sixième majeure is
    # K Q J 10 9 8, then 6 5 4 3 2 a quinte) — two sequences; seat 2: hearts broken at 7 → two quintes too
    hands[1] = [c for c in hands[1] if c != "7S"] + ["7H"]
    hands[2] = [c for c in hands[2] if c != "7H"] + ["7S"]
    tricks = [["KS", "7S", "KD", "KC"]]   # seat 2 must play his only trump
    first = match(deal(hands=hands, tricks=tricks)).deals[0]
    # best: seat 3 or seat 0 with twelve cards to the king (diamonds and clubs); primauté → seat 3
    assert first.result["sequence"]["best"]["seat"] == 3
    assert steps(first)[0] == ("sequences", 3, 1)


def test_several_parties():
    score = match(deal(), deal(dealer=1, hands=[full_suit("D"), full_suit("C"), full_suit("S"), full_suit("H")]),
                  parties=2)
    # partie 1: seat 1 wins as above; partie 2 (dealer 1): seat 2 holds the spades and wins in the same way
    assert score.detail["parties_won"] == [0, 1, 1, 0]
    assert score.ended == {"deal": 1, "event": 5}
    assert score.winner is None                          # one partie each: no winner
    assert score.totals == [0, 6, 6, 0]


def test_deal_after_the_end_is_reported():
    score = match(deal(), deal(dealer=1, hands=[full_suit("D"), full_suit("C"), full_suit("S"), full_suit("H")]))
    assert score.deals[1].scores is None
    assert [v.rule for v in score.violations] == ["match_over"]


def test_the_mark_that_wins_the_partie_shows_the_count_at_the_end_of_the_partie():
    """The walk: « après : Guy 0 · Jean-Édouard 1 · … (jetons) » beside « +1 partie gagnée »: only the winner's
    jetons went back to 0. The partie is won at once at 24 points (§5 rule 4): the line says the count at its end,
    the winner's six jetons with the others', and says it is the end of the partie."""
    from scoring.vingt_quatre import explain

    score = match(deal(), honours="point")
    first = score.deals[0]
    # retourne → Ana 1; séquence, Point → Bruno 2; honours 5S 4S 3S 2S → Bruno 3, 4, 5, 6: the partie is Bruno's
    last = first.result["marks"][-1]
    assert last["after"]["jetons"] == [1, 6, 0, 0]
    assert first.result["jetons"] == [1, 6, 0, 0]
    words = explain(first.result, ["Ana", "Bruno", "Chloé", "David"], "fr")
    row, note = words.marks[-1]
    assert row[-1] == "+1 jeton, +1 partie gagnée"
    assert note == "fin de la partie : Ana 1 · Bruno 6 · Chloé 0 · David 0 (jetons)"
    assert words.marks[-2][1] == "après : Ana 1 · Bruno 5 · Chloé 0 · David 0 (jetons)"
    english = explain(first.result, ["Ana", "Bruno", "Chloé", "David"], "en")
    assert english.marks[-1][1] == "end of the partie: Ana 1 · Bruno 6 · Chloé 0 · David 0 (jetons)"
