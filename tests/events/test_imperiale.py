"""L'Impériale at 2 (7 players: a bye each round) and at 3 (7 players: two tables of three and a bye)."""

from __future__ import annotations

import pytest

from tests.events import deals as gen

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
        ev.close_round(first)
        ev.public_in_french(rounds=(1,))
        ev.run_rounds(1, method="swiss")
    else:
        ev.run_rounds(2, method="swiss")
    ev.finish()
