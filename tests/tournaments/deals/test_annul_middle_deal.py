"""Annulling a deal in the middle of a match, at each of the four match games, then restoring it.

The deals that count no longer follow each other in the dealer rotation once a middle deal is annulled: the
deal after it was dealt by the player after the annulled deal's dealer (an annulled deal that was dealt passed
the deal on). The match record gives that deal the annulled deal's dealer (``annulled_dealers``) and the
rotation accepts it (``scoring.rotation``): the annulment goes through and the match is judged again.

Expected marks, by hand:

* La Triomphe (target 5): each deal is Ana's point (+1): three deals 3-0, without the second 2-0.
* L'Écarté (target 5): each deal Ana's point (3 tricks, +1): 3-0, then 2-0.
* L'Impériale (2 players, 5 impériales; ``tests/golden/imperiale-protected-retourne-and-end.json``, worked in
  ``tests/scoring/test_imperiale_golden.py``): deal 1 gives Bruno 1 fiche (and a jeton of cartes), deal 2
  Ana 3 fiches, deal 3 Ana 2 fiches and Bruno 2 (cartes blanches): Ana reaches 5 at deal 3's last mark, 5-3,
  over. Without deal 2: Bruno 1 + 2 = 3 fiches, Ana 2: the match goes on.
* Le Vingt-quatre (4 players, 40 points = 10 jetons; ``tests/golden/vingt-quatre-race-to-forty.json``): each
  deal gives its first hand 8 jetons: deals dealt by Ana, Bruno, Chloé give Bruno, Chloé, David 8 each;
  without Bruno's deal, Chloé's stays at 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.builders import make_round, make_tournament
from tests.scoring.test_ecarte_scoring import EXCH
from tests.scoring.test_ecarte_scoring import POINT_0 as EC_POINT
from tests.scoring.test_ecarte_scoring import in_turn as ecarte_in_turn
from tests.tournaments.deals.test_rulings_match_race import POINTS
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.common.errors import DealRejected
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_annul, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.event.models import Table

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
FIXED = ("format", "game", "options", "players")


def golden_deals(name: str, count: int) -> list[dict]:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))["deals"][:count]


def own(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in FIXED}


# game, players, tournament options and target, three deals dealt in turn, totals with all three, without the
# second (and whether the match then ended)
CASES = {
    "triomphe": ("triomphe", ["Ana", "Bruno"], {}, None, POINTS[:3], [3, 0], [2, 0]),
    "ecarte": ("ecarte", ["Ana", "Bruno"], {}, None,
               ecarte_in_turn([{"dealer": 1, "turn_up": "9H", "tricks": EC_POINT, "exchanges": EXCH}] * 3),
               [3, 0], [2, 0]),
    "imperiale": ("imperiale", ["Ana", "Bruno"], {}, 5,
                  golden_deals("imperiale-protected-retourne-and-end.json", 3), [5, 3], [2, 3]),
    "vingt-quatre": ("vingt-quatre", ["Ana", "Bruno", "Chloé", "David"], {"honours": "figures"}, 40,
                     golden_deals("vingt-quatre-race-to-forty.json", 3), [0, 8, 8, 8], [0, 8, 0, 8]),
}


def table_for(game: str, names: list[str], options: dict, target: int | None, slug: str) -> Table:
    t, e = make_tournament(names, game=game, slug=slug)
    t.options, t.target = options, target
    t.save(update_fields=["options", "target"])
    (table,) = make_round(t, 1, [[e[n] for n in names]])
    return table


@pytest.mark.parametrize("case", sorted(CASES))
def test_annulling_the_second_of_three_deals_then_restoring_it(case, chief):
    game, names, options, target, fields, full, without = CASES[case]
    table = table_for(game, names, options, target, f"mid-{case}")
    deals = [deal_record(table=table, record=own(f), user=chief) for f in fields]
    table.refresh_from_db()
    assert table.match_totals == full

    deal_annul(deal=deals[1], reason="donne saisie deux fois", user=chief)
    table.refresh_from_db()
    assert table.match_totals == without and not table.match_ended and table.match_winner is None
    assert Deal.objects.get(pk=deals[1].pk).status == Deal.Status.ANNULLED
    # the third deal names the annulled deal's dealer in the match record, never in its own saved record
    record = selectors.table_match_record(table)
    assert [d.get("annulled_dealers") for d in record["deals"]] == [None, [fields[1]["dealer"]]]
    assert "annulled_dealers" not in Deal.objects.get(pk=deals[2].pk).record
    third = Deal.objects.get(pk=deals[2].pk)
    assert third.verdict["totals"] == without and third.verdict["violations"] == []

    deal_restore(deal=deals[1], reason="annulée par erreur", user=chief)
    table.refresh_from_db()
    assert table.match_totals == full
    assert "annulled_dealers" not in json.dumps(selectors.table_match_record(table))


def test_after_an_annulled_last_deal_the_next_dealer_follows_either_deal(chief):
    # Le Vingt-quatre at four, the deal passing to the right: Ana, Bruno, Chloé dealt; Chloé's deal annulled.
    # The next deal is Chloé's again (her deal never happened, or was void and dealt again) or David's (it was
    # dealt and passed the deal on); Ana dealing is out of turn either way.
    game, names, options, target, fields, _full, _without = CASES["vingt-quatre"]
    table = table_for(game, names, options, target, "last-annulled")
    deals = [deal_record(table=table, record=own(f), user=chief) for f in fields]
    deal_annul(deal=deals[2], reason="maldonne", user=chief)
    fourth = own(golden_deals("vingt-quatre-race-to-forty.json", 4)[3])  # dealt by David (seat 3)
    with pytest.raises(DealRejected) as exc:
        deal_record(table=table, record={**fourth, "dealer": 0}, user=chief)
    wrong = [v for v in exc.value.violations if v.rule == "wrong_dealer"]
    assert [(v.deal, v.params["expected"]) for v in wrong] == [(2, "3 ou 4")]
    deal_record(table=table, record=fourth, user=chief)  # David deals: 8 jetons to Ana
    table.refresh_from_db()
    assert table.match_totals == [8, 8, 8, 0]
