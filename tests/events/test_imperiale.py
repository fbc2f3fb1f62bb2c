"""L'Impériale at 2 (7 players: a bye each round) and at 3 (7 players: two tables of three and a bye)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tournaments.deals import selectors

pytestmark = [pytest.mark.django_db, pytest.mark.events]


@pytest.mark.parametrize(("size", "players"), [(2, 7), (3, 7)])
def test_imperiale(event, size, players):
    ev = event(label=f"imperiale{size}-{players}", game="imperiale", seed=5000 + size, rounds=2,
               players_per_table=size, target=1)
    ev.register(players)
    ev.start()
    if size == 2:  # an irregular deal in round 1, inside its running event
        first = ev.open_round("swiss")
        table = ev.playing_tables(first)[0]
        # a renonce dealt by the generator (a card not taken when the player could take it, RULES.md §4.4 rule 18),
        # entered before any deal of the match: rule X (§4.5) takes one impériale from the offender; he has none,
        # so his adversary scores one instead (A-I10); the deal itself stays out of the match
        ev.irregular_in_match(table, "api", gen.renonce_fields(ev.rng, ev.head(table), ev.next_dealer(table)),
                              "penalty", lambda deal, _: {1 - deal.verdict["violations"][0]["seat"]: 1},
                              penalty="imperiale_failed_to_take", rule_via="api", corrected=True)
        fault_in_the_deal_that_ended_the_match(ev, ev.playing_tables(first)[1])
        ev.close_round(first)
        ev.public_in_french(rounds=(1,))
        ev.run_rounds(1, method="swiss")
    else:
        ev.run_rounds(2, method="swiss")
    ev.finish()


def fault_in_the_deal_that_ended_the_match(ev, table) -> None:
    """The table plays until its match ends (target 1: the first impériale), then the chief rules, from his form, a
    card not taken (AUJ-IMP rule X) by the winner in the very deal that ended it (docs/deal-record.md, "A fault in the
    deal that ended the match"): the penalty counts before that deal's marks. The winner had no impériale before
    that deal (the target is one), so his adversary scores one instead (A-I10): the adversary reaches the target
    at the penalty and wins, the deal's marks come after the end and count for nothing: totals 1 to the adversary,
    0 to the offender."""
    deals = ev.play_table(table, vias=("desk",))
    table.refresh_from_db()
    assert table.match_ended and table.match_winner in (0, 1)
    winner = table.match_winner
    seats = selectors.table_seats(table)
    url = reverse("ruling_create", args=[table.pk]) + f"?deal={deals[-1].pk}"
    response = ev.post("chief", url, {"penalty": "imperiale_failed_to_take", "offender": str(seats[winner].entry_id),
                                      "reason": "renonce appelée par la table", "deal": str(deals[-1].pk)})
    assert response.status_code == 302, ev.problems(response)
    ev.touched_tables.add(table.pk)
    table.refresh_from_db()
    expected = [0, 0]
    expected[1 - winner] = 1
    assert table.match_ended and table.match_winner == 1 - winner and ev.totals(table) == expected
    ev.check(f"round 1 table {table.number}: a fault ruled on the deal that ended the match")
