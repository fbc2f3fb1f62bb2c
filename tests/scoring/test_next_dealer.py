"""Who deals next (``MatchScore.next_dealers``, ``scoring.rotation.next_dealer``), game by game, from the rules:

* Tarot: the dealer's right-hand neighbour, the first hand (RULES.md §1.2 rule 13, A-X1);
* Triomphe individual: the previous first hand; by teams, the teams alternate, each through the same player
  (§2.2 rule 6: « C deals and D leads; then F deals and A leads; C and F alternate »);
* Écarté: the players alternate, except that in a partie liée the loser of a manche deals first in the next
  (§3.1 rule 2); at three the deal passes to the right among those who still play; at four, to the right;
* L'Impériale and Le Vingt-quatre: the previous first hand (§5 rule 5, A-X1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.rotation import next_dealer, proposed_dealer
from tests.scoring.test_ecarte_scoring import P3 as EC_P3
from tests.scoring.test_ecarte_scoring import POINT_0 as EC_POINT
from tests.scoring.test_ecarte_scoring import TEAM_02, VOLE3_0, VOLE_0, deal3
from tests.scoring.test_ecarte_scoring import deal as ecarte_deal
from tests.scoring.test_triomphe_scoring import P3, P4, SIX, SIX_TEAMS

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def record(game: str, players: list[str], deals: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": "levee.match/1", "game": game, "players": players, "options": options, "deals": deals}


def triomphe(players: list[str], *dealers: int, **options: Any) -> int:
    return next_dealer(record("triomphe", players, [{"dealer": d, "turn_up": "9H"} for d in dealers], **options))


def as_match(name: str) -> dict[str, Any]:
    """A golden single-deal record as a match of that one deal."""
    deal = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    head = {k: deal.pop(k) for k in ("format", "game", "players", "options") if k in deal}
    return {**head, "format": "levee.match/1", "deals": [deal]}


def test_tarot_the_first_hand_deals_next() -> None:
    assert next_dealer(as_match("tarot-garde-4p.json")) == 0  # dealt by seat 3
    assert next_dealer(as_match("tarot-mort-5p.json")) == 3  # dealt by seat 2, who sat out (the mort)


def test_triomphe_individual_the_previous_first_hand() -> None:
    assert triomphe(P3, 2) == 0
    assert triomphe(P3, 2, 0, 1) == 2


def test_triomphe_by_teams_each_team_through_the_same_player() -> None:
    # the seed's six (seats D E F A B C): C (5) deals, then F (2), then C again — never D, the first hand
    assert triomphe(SIX, 5, **SIX_TEAMS) == 2
    assert triomphe(SIX, 5, 2, **SIX_TEAMS) == 5
    assert triomphe(SIX, 5, 2, 5, **SIX_TEAMS) == 2
    # 2 v 2 side by side: 1 deals, then 3 (whose first hand, 0, is an opponent), not 2
    assert triomphe(P4, 1, teams=[[0, 1], [2, 3]]) == 3
    assert triomphe(P4, 1, 3, teams=[[0, 1], [2, 3]]) == 1
    # partners opposite: the other team's player after the dealer in the order of play, then always the same
    assert triomphe(P4, 0, teams=[[0, 2], [1, 3]]) == 1
    assert triomphe(P4, 0, 3, teams=[[0, 2], [1, 3]]) == 0
    assert triomphe(P4, 0, 3, 0, teams=[[0, 2], [1, 3]]) == 3


def test_ecarte_alternates_and_the_loser_of_a_manche_deals_first() -> None:
    p2 = ["Ana", "Bruno"]
    assert next_dealer(record("ecarte", p2, [ecarte_deal(EC_POINT)])) == 0  # Bruno dealt: Ana
    # partie liée, target 2: Ana's vole (Bruno dealt) wins the first manche: Bruno, the loser, deals again
    assert next_dealer(record("ecarte", p2, [ecarte_deal(VOLE_0)], target=2, partie_liee=True)) == 1
    # a manche not yet won (Ana 1 of 2): the players alternate
    assert next_dealer(record("ecarte", p2, [ecarte_deal(EC_POINT)], target=2, partie_liee=True)) == 0
    # at three, to the right: Chloé dealt, Ana deals
    assert next_dealer(record("ecarte", EC_P3, [deal3(VOLE3_0)], target=9)) == 0
    # at four (teams 0-2 against 1-3), to the right
    four = ["Ana", "Bruno", "Chloé", "David"]
    assert next_dealer(record("ecarte", four, [ecarte_deal(TEAM_02, None, dealer=3)])) == 0


def test_the_jetons_games_pass_the_deal_to_the_right() -> None:
    imperiale = json.loads((GOLDEN / "imperiale-protected-retourne-and-end.json").read_text(encoding="utf-8"))
    assert next_dealer({**imperiale, "deals": imperiale["deals"][:1]}) == 1
    assert next_dealer({**imperiale, "deals": imperiale["deals"][:2]}) == 0
    vingt = json.loads((GOLDEN / "vingt-quatre-race-to-forty.json").read_text(encoding="utf-8"))
    assert next_dealer({**vingt, "deals": vingt["deals"][:2]}) == 2
    assert next_dealer({**vingt, "deals": vingt["deals"][:4]}) == 0


def test_the_proposal_among_the_allowed_dealers() -> None:
    assert proposed_dealer(None, None, 4) == 0  # the first deal: the draw decides, seat 0 proposed
    assert proposed_dealer(None, 2, 4) == 3  # anybody (a new partie): the right-hand neighbour
    assert proposed_dealer([1, 3], 2, 4) == 3  # the first allowed after the last dealer
    assert proposed_dealer([1, 3], 3, 4) == 1
