"""A ruling on a fault in the deal that ended an Impériale match (docs/deal-record.md, "A fault in the deal that
ended the match"), and a penalty on a deal the ruling annuls (« none to lose »: AUJ-IMP rules IV and X, A-I10).

Expected figures are worked by hand from RULES.md §4 (the deals are those of ``tests/scoring/test_imperiale.py``):

* D1 (dealer Ana): the Point to Ana (a jeton), Bruno's capote: 2 impériales, erasing her jeton.
* D1 mirrored (dealer Bruno): the Point to Bruno, Ana's capote: 2 impériales, erasing his jeton.
* D2 (dealer Ana): Bruno 1 impériale (honours) and a jeton (les cartes).
"""

from __future__ import annotations

import pytest

from tests.integration.builders import make_round, make_tournament
from tests.scoring import test_imperiale as imp
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tests.tournaments.deals.test_rulings_match_race import ids
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Table

pytestmark = pytest.mark.django_db


def imperiale_table(target: int, slug: str) -> Table:
    t, e = make_tournament(["Ana", "Bruno"], game="imperiale", slug=slug)
    t.options, t.target = {"players": 2}, target
    t.save(update_fields=["options", "target"])
    (table,) = make_round(t, 1, [[e["Ana"], e["Bruno"]]])
    return table


def test_a_fault_in_the_deal_that_ended_the_match_is_recorded_and_reopens_it(chief):
    # target 4: D1 [0,2], D1 mirrored [2,2], D1 [2,4]: Bruno reaches 4 at the third deal's capote. He failed to
    # take in that deal (AUJ-IMP rule X): with 2 impériales before it he loses one, before the deal's marks:
    # [2,1], then the deal: [2,3]. Nobody at 4: the match goes on.
    table = imperiale_table(4, "imp-end-lose")
    ana, bruno = ids(table)
    deals = [deal_record(table=table, record=f, user=chief) for f in (imp.d1(), imp.d1(dealer=1), imp.d1())]
    table.refresh_from_db()
    assert table.match_totals == [2, 4] and table.match_ended and table.match_winner == 1
    ruling = ruling_record(table=table, kind=None, reason="", user=chief, deal=deals[2],
                           penalty="imperiale_failed_to_take", offender=bruno)
    assert ruling.adjustments == {str(bruno): -1}
    table.refresh_from_db()
    assert table.match_totals == [2, 3] and not table.match_ended and table.match_winner is None
    assert selectors.table_totals(table) == {ana: 2, bruno: 3}
    assert selectors.table_match_record(table)["adjustments"][0]["in_deal"] is True


def test_none_to_lose_before_the_deal_that_ended_the_match(chief):
    # target 3: D2 [0,1]; D1 mirrored with Ana's spade quatrième majeure: 1 + capote 2 = Ana 3, the end. Ana
    # failed to take in it, with no impériale before it: Bruno scores one (A-I10) — not Ana −1 from the 3 the
    # deal gave her. Before the deal's marks: [0,2]; then Ana's 3: [3,2], she still wins.
    table = imperiale_table(3, "imp-end-none")
    ana, bruno = ids(table)
    deals = [deal_record(table=table, record=f, user=chief)
             for f in (imp.d2(), imp.d1(dealer=1, announcements=imp.SHOW_SPADES))]
    ruling = ruling_record(table=table, kind=None, reason="", user=chief, deal=deals[1],
                           penalty="imperiale_failed_to_take", offender=ana)
    assert ruling.adjustments == {str(bruno): 1}
    table.refresh_from_db()
    assert table.match_totals == [3, 2] and table.match_ended and table.match_winner == 0
    assert selectors.table_totals(table) == {ana: 3, bruno: 2}


def test_a_penalty_on_a_deal_it_annuls_is_worked_out_without_that_deal(chief):
    # target 5: D2 [0,1], D1 mirrored: Ana's capote [2,1]. The arbiter annuls the second deal and gives the
    # penalty (rule X): without it Ana has no impériale to lose, so Bruno scores one: [0,2] (not Ana −1: [−1,1]).
    table = imperiale_table(5, "imp-annul")
    ana, bruno = ids(table)
    deals = [deal_record(table=table, record=f, user=chief) for f in (imp.d2(), imp.d1(dealer=1))]
    ruling = ruling_record(table=table, kind=None, reason="", user=chief, deal=deals[1], annuls_deal=True,
                           penalty="imperiale_failed_to_take", offender=ana)
    assert ruling.adjustments == {str(bruno): 1}
    assert Deal.objects.get(pk=deals[1].pk).status == Deal.Status.ANNULLED
    table.refresh_from_db()
    assert table.match_totals == [0, 2] and not table.match_ended
    assert selectors.table_totals(table) == {ana: 0, bruno: 2}
