"""Scoring L'Écarté (RULES.md §3.4, §3.6, §3.7; A-E1..A-E8). Trump is ♥ (retourne 9♥) unless said;
order K Q J A 10 9 8 7; every trick below follows suit and its winner is worked out in the comment."""

from __future__ import annotations

from typing import Any

from rules.replay import replay
from scoring.ecarte import score_match

P2 = ["Ana", "Bruno"]
P3 = ["Ana", "Bruno", "Chloé"]
P4 = ["Ana", "Bruno", "Chloé", "David"]

# 2 players, dealer 1, seat 0 (first hand) leads
POINT_0 = [["KS", "7S"],  # 0
           ["7D", "KD"],  # 1
           ["8C", "QC"],  # 1 leads, 0 wins
           ["QS", "8S"],  # 0
           ["7C", "JC"]]  # 1 → 0: 3 tricks
POINT_1 = [["7S", "KS"],  # 1
           ["QS", "8S"],  # 1 leads, 1 wins
           ["7D", "KD"],  # 1 leads, 0 wins
           ["JS", "9S"],  # 0 leads, 0 wins
           ["8D", "QD"]]  # 0 leads, 1 wins → 1: 3 tricks
VOLE_0 = [["KS", "7S"], ["QS", "8S"], ["JS", "9S"], ["KD", "7D"], ["QD", "8D"]]
VOLE_1 = [["7S", "KS"], ["QS", "8S"], ["JS", "9S"], ["KD", "7D"], ["QD", "8D"]]
KING_0 = [["KH", "7H"],  # 0 plays the king of trumps
          ["7D", "KD"], ["8C", "QC"], ["QS", "8S"], ["7C", "JC"]]  # as POINT_0 → 0: 3 tricks

EXCH = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
        {"seat": 0, "action": "exchange", "discards": ["7H"], "draws": ["8H"]}]
AUTORITE = [{"seat": 0, "action": "play"}]
REFUSED = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}]
LATER_REFUSAL = [*EXCH, {"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}]


def deal(tricks, exchanges=EXCH, *, dealer: int = 1, turn_up: str = "9H", **fields: Any) -> dict[str, Any]:
    out = {"dealer": dealer, "turn_up": turn_up, **fields}
    if tricks is not None:
        out["tricks"] = tricks
        out["exchanges"] = exchanges
    return out


def mirrored(fields: dict[str, Any], seats: tuple[int, int] = (0, 1)) -> dict[str, Any]:
    """The same deal dealt by the other of two players (§3.1 rule 2: they alternate), each seat playing the same
    cards: the other leads the first trick, so its two cards change order (every fixture's first trick is of
    one suit, its winner stays the same), and the exchange's seats are swapped."""
    a, b = seats
    swap = {a: b, b: a}
    out = {**fields, "dealer": swap[fields["dealer"]]}
    if fields.get("tricks"):
        out["tricks"] = [list(reversed(fields["tricks"][0])), *fields["tricks"][1:]]
    if fields.get("exchanges"):
        out["exchanges"] = [{**step, "seat": swap[step["seat"]]} for step in fields["exchanges"]]
    return out


def in_turn(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Two-player deals dealt in turn: every other one :func:`mirrored`."""
    return [mirrored(d) if i % 2 else d for i, d in enumerate(deals)]


def match(deals, players=P2, **options):
    data = {"format": "levee.match/1", "game": "ecarte", "players": players, "options": options, "deals": deals}
    replayed = replay(data)
    assert replayed.violations == []
    return score_match(replayed)


def marks(scored) -> list[tuple[str, list[int], int]]:
    return [(m["kind"], m["seats"], m["points"]) for m in scored.result["marks"]]


def test_point_for_three_tricks_and_vole_for_five() -> None:
    one = match([deal(POINT_0)]).deals[0]
    assert one.scores == [1, 0] and marks(one) == [("point", [0], 1)]
    vole = match([deal(VOLE_1)]).deals[0]
    assert vole.scores == [0, 2] and marks(vole) == [("point", [1], 1), ("vole", [1], 1)]


def test_refusal_point_after_play_d_autorite() -> None:
    # the first hand played without proposing; the dealer wins: point + refusal
    scored = match([deal(POINT_1, AUTORITE)]).deals[0]
    assert scored.scores == [0, 2] and marks(scored) == [("point", [1], 1), ("refus", [1], 1)]
    # the first hand wins his own d'autorité: the point only
    assert match([deal(POINT_0, AUTORITE)]).deals[0].scores == [1, 0]


def test_refusal_point_after_the_dealer_refused() -> None:
    assert match([deal(POINT_0, REFUSED)]).deals[0].scores == [2, 0]
    assert match([deal(POINT_1, REFUSED)]).deals[0].scores == [0, 1]


def test_vole_and_refusal_are_not_cumulative() -> None:
    scored = match([deal(VOLE_0, REFUSED)]).deals[0]
    assert scored.scores == [2, 0] and marks(scored) == [("point", [0], 1), ("vole", [0], 1)]
    assert match([deal(VOLE_1, AUTORITE)]).deals[0].scores == [0, 2]


def test_refusing_a_later_proposal_gives_nothing() -> None:
    assert match([deal(POINT_0, LATER_REFUSAL)]).deals[0].scores == [1, 0]


def test_turned_king_scores_the_dealer_first() -> None:
    scored = match([deal(POINT_0, turn_up="KH")]).deals[0]
    assert scored.scores == [1, 1]
    assert marks(scored) == [("turned_king", [1], 1), ("point", [0], 1)]


def test_king_of_trumps_announced_in_time() -> None:
    for when in (None, 0):
        scored = match([deal(KING_0, king={"seat": 0, "trick": when})]).deals[0]
        assert scored.scores == [2, 0]
        assert marks(scored) == [("king", [0], 1), ("point", [0], 1)]


def test_king_announced_late_is_void() -> None:
    scored = match([deal(KING_0, king={"seat": 0, "trick": 1})]).deals[0]
    assert scored.scores == [1, 0]
    assert scored.result["king"]["status"] == "late"


def test_false_king_gives_the_adversary_a_point() -> None:
    scored = match([deal(KING_0, king={"seat": 1, "trick": None})]).deals[0]
    assert marks(scored) == [("false_king", [0], 1), ("point", [0], 1)]
    assert scored.scores == [2, 0]
    off = match([deal(KING_0, king={"seat": 1, "trick": None})], false_king_penalty=False).deals[0]
    assert off.scores == [1, 0] and off.result["king"]["status"] == "false"


def test_king_with_hands_uses_the_hand_after_the_exchange() -> None:
    # seat 0 draws the K♥ in the exchange and announces it
    hands = [["KS", "QS", "7H", "8D", "AC"], ["JS", "10S", "QH", "9D", "7C"]]
    exch = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
            {"seat": 0, "action": "exchange", "discards": ["8D"], "draws": ["KH"]}]
    d = deal([["KH", "QH"]], exch, hands=hands, king={"seat": 0, "trick": None})
    data = {"format": "levee.match/1", "game": "ecarte", "players": P2, "deals": [d]}
    scored = score_match(replay(data))
    assert scored.deals[0].result["king"]["status"] == "scored"
    assert scored.deals[0].scores is None  # the deal is unfinished: nothing counts yet


def test_turned_king_ends_the_game_before_any_card() -> None:
    deals = [deal(VOLE_0), deal(VOLE_0),  # 0: 4
             deal(None, dealer=0, turn_up="KH")]  # 0 deals and turns the king: 5
    scored = match(deals)
    assert scored.totals == [5, 0]
    assert scored.winner == 0
    assert scored.ended == {"deal": 2, "event": 0}
    assert scored.deals[2].scores == [1, 0]


def test_the_match_ends_at_the_exact_mark() -> None:
    # 0: 4, then a king announced before any card (5): the rest of that deal does not count
    deals = in_turn([deal(VOLE_0), deal(VOLE_0), deal(VOLE_1, king={"seat": 0, "trick": None})])
    scored = match(deals)
    assert scored.ended == {"deal": 2, "event": 0}
    assert scored.totals == [5, 0]
    assert [m["counted"] for m in scored.deals[2].result["marks"]] == [True, False, False]
    # 0: 4, then the point (5) — the vole is the next mark
    scored = match(in_turn([deal(VOLE_0), deal(VOLE_0), deal(VOLE_0)]))
    assert scored.ended == {"deal": 2, "event": 0} and not scored.violations
    after = match(in_turn([deal(VOLE_0), deal(VOLE_0), deal(VOLE_0), deal(POINT_1)]))
    assert [v.rule for v in after.violations] == ["match_over"]


def test_target_from_the_first_retourne() -> None:
    # first retourne 8♣: the manche is in 8 points; a figure would make 10, an Ace 11
    scored = match([deal(VOLE_0, turn_up="8C")] * 4, target="retourne")
    assert scored.detail["manches"][0]["target"] == 8 and scored.ended == {"deal": 3, "event": 1}
    seven = match([deal(VOLE_0)] * 4, target=7)
    assert seven.ended == {"deal": 3, "event": 0}


def test_partie_liee_two_manches_and_a_belle() -> None:
    scored = match([deal(VOLE_0), deal(VOLE_1), deal(VOLE_0)], target=2, partie_liee=True)
    assert scored.winner == 0
    assert scored.ended == {"deal": 2, "event": 1}
    assert [m["winner"] for m in scored.detail["manches"]] == [0, 1, 0]
    assert scored.totals == [4, 2]
    unfinished = match([deal(VOLE_0), deal(VOLE_1)], target=2, partie_liee=True)
    assert unfinished.winner is None and unfinished.ended is None


# -- three players: dealer 2, seat 0 leads ------------------------------------------------------------

TWO_TWO_ONE = [["7S", "8S", "KS"],  # 2
               ["7D", "8D", "KD"],  # 2 leads, 1 wins
               ["7C", "KC", "8C"],  # 1 leads, 2 wins: 2 is the first to two tricks
               ["9D", "10D", "QD"],  # 2 leads, 1 wins: 1 has two tricks too
               ["9C", "10C", "QC"]]  # 1 leads, 0 wins → 0: 1, 1: 2, 2: 2
VOLE3_0 = [["KS", "7S", "8S"], ["QS", "9S", "10S"], ["KD", "7D", "8D"], ["QD", "9D", "10D"], ["KC", "7C", "8C"]]
ALL_AGREE = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"}, {"seat": 2, "action": "accept"},
             {"seat": 0, "action": "exchange", "discards": ["7H"], "draws": ["8H"]}]


def deal3(tricks, exchanges=ALL_AGREE, **fields):
    return deal(tricks, exchanges, dealer=2, **fields)


def test_three_players_two_two_one_goes_to_the_first_to_two_tricks() -> None:
    # primauté would give it to seat 1; the rule of §3.6 gives it to seat 2
    assert match([deal3(TWO_TWO_ONE)], P3).deals[0].scores == [0, 0, 1]


def test_three_players_refusal_point_goes_to_the_third() -> None:
    one_refuses = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}]
    assert match([deal3(TWO_TWO_ONE, one_refuses)], P3).deals[0].scores == [1, 0, 1]
    # d'autorité: the first hand declined; winner 2, third player 1
    assert match([deal3(TWO_TWO_ONE, [{"seat": 0, "action": "play"}])], P3).deals[0].scores == [0, 1, 1]
    # the refuser wins: only his point
    dealer_refuses = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
                      {"seat": 2, "action": "refuse"}]
    assert match([deal3(TWO_TWO_ONE, dealer_refuses)], P3).deals[0].scores == [0, 0, 1]
    # the vole: 2 to the winner, 1 to the third
    assert match([deal3(VOLE3_0, one_refuses)], P3).deals[0].scores == [2, 0, 1]


def test_three_players_the_winner_withdraws_and_the_others_play_on() -> None:
    two = [{"seat": 1, "action": "propose"}, {"seat": 2, "action": "accept"},
           {"seat": 1, "action": "exchange", "discards": ["7H"], "draws": ["8H"]}]
    # target 2: seat 0 makes the vole and withdraws; seats 1 and 2 play on; the deal passes to the right, to the
    # next seat that still plays: seat 1 deals, seat 2 leads 7♠ and seat 1 wins with K♠, then every trick
    deals = [deal3(VOLE3_0), mirrored(deal(VOLE_0, two, dealer=2, seats=[1, 2]), (1, 2))]
    scored = match(deals, P3, target=2)
    assert not scored.violations
    assert scored.winner == 0
    assert scored.detail["withdrawn"] == [0, 1]
    assert scored.ended == {"deal": 1, "event": 1}
    # a deal still dealt to all three after the withdrawal is wrong
    wrong = match([deal3(VOLE3_0), deal(VOLE3_0, [{"seat": 1, "action": "play"}], dealer=0)], P3, target=2)
    assert [v.rule for v in wrong.violations] == ["ecarte_wrong_seats"]


# -- four players: teams 0-2 and 1-3, dealer 3, seat 0 leads ------------------------------------------

TEAM_02 = [["KS", "7S", "8S", "9S"],  # 0
           ["KD", "7D", "8D", "9D"],  # 0
           ["KC", "7C", "8C", "9C"],  # 0
           ["10S", "QS", "JS", "AS"],  # 1 (Q)
           ["10D", "AD", "QD", "JD"]]  # 1 leads 10♦, 2 heads with A♦, 3 Q♦ wins → team 0-2: 3 tricks


def test_the_dealers_alternate() -> None:
    # §3.1 rule 2: the first dealer is drawn, then the players alternate
    assert not match(in_turn([deal(POINT_0), deal(POINT_1), deal(POINT_0)])).violations
    again = match([deal(POINT_0), deal(POINT_1)]).violations
    assert [(v.rule, v.deal, v.seat) for v in again] == [("wrong_dealer", 1, 1)]
    # the dealer named (a walk read « c'était au joueur 4 de donner » at a table of names); his seat without names
    assert again[0].message("fr", P2) == "Mauvais donneur : c'était à Ana de donner."
    assert again[0].message("en", P2) == "Wrong dealer: Ana should have dealt."
    assert again[0].message("fr") == "Mauvais donneur : c'était au joueur 1 de donner."
    assert again[0].params == {"expected": "1"}  # the verdict's params unchanged
    # in a partie liée the loser of a manche deals first in the next: Bruno loses the first manche (Ana's vole
    # at target 2, Ana dealt by Bruno), so Bruno deals again, though it would be Ana's turn
    liee = match([deal(VOLE_0), deal(VOLE_1)], target=2, partie_liee=True)
    assert not liee.violations
    turn = match(in_turn([deal(VOLE_0), deal(VOLE_1)]), target=2, partie_liee=True)
    assert [(v.rule, v.deal) for v in turn.violations] == [("wrong_dealer", 1)]
    # at three the deal passes to the right; at four too (decision), the teams alternating
    assert [v.rule for v in match([deal3(VOLE3_0), deal3(VOLE3_0)], P3, target=9).violations] == ["wrong_dealer"]
    assert not match([deal(TEAM_02, None, dealer=3), deal(None, dealer=0)], P4).violations
    assert [v.rule for v in match([deal(TEAM_02, None, dealer=3), deal(None, dealer=1)], P4).violations] \
        == ["wrong_dealer"]


def test_four_players_score_by_team() -> None:
    scored = match([deal(TEAM_02, None, dealer=3)], P4).deals[0]
    assert scored.scores == [1, 0, 1, 0]
    kinged = match([deal(TEAM_02, None, dealer=3, turn_up="KH")], P4).deals[0]
    assert kinged.scores == [1, 1, 1, 1]  # the dealer's team (1-3) for the king, team 0-2 for the point
    assert match([deal(TEAM_02, None, dealer=3)], P4).detail["manches_won"] == [0, 0]
