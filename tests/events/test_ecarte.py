"""L'Écarté, Swiss draw: tables of 2 with a bye (7 players, three rounds: the bye goes round); « Joueurs par
table : 3 » (7 players: 3-2-2) and « 4 » (9 players, partie liée: 4-3-2 or so), seated in the game's allowed sizes
(``games.table_sizes``) with no bye; every match to its target."""

from __future__ import annotations

import pytest

from tests.events import deals as gen
from tests.tournaments.deals.test_irregular_deals import ECARTE_RENONCE
from tournaments.common import games
from tournaments.event.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.events]


@pytest.mark.parametrize(("size", "players", "rounds"), [(2, 7, 3), (3, 7, 2), (4, 9, 2)])
def test_ecarte_swiss_with_byes(event, size, players, rounds):
    ev = event(label=f"ecarte{size}-{players}", game="ecarte", seed=3000 + size, rounds=rounds,
               players_per_table=size, target=3)
    ev.register(players)
    ev.start()
    if size == 2:  # an irregular deal in round 1, inside its running event
        first = ev.open_round("swiss")
        table = ev.playing_tables(first)[0]

        def renonce() -> dict:
            # ECARTE_RENONCE, the dealer moved to the seat that deals next: the dealer turns 7H (trumps hearts), the
            # other plays d'autorité and leads 8C; the dealer plays 9S holding AC (a renonce: he must follow and
            # beat, RULES.md §3.3 rule 10), then wins tricks 2–5: the point (1) and, the exchange declined, the point
            # de refus (1): 2 as played (§3.4 rules 12–13). Law 43 (§3.5 rule 20), the deal let stand: the offender
            # winning the point after the adversary played without proposing marks only 1.
            return gen.rotated(ECARTE_RENONCE, ev.next_dealer(table), 2)

        ev.irregular_in_match(table, "outbox", renonce(), "let_stand", lambda deal, _: {deal.record["dealer"]: 1},
                              corrected=True, second=renonce)
        ev.close_round(first)
        ev.public_in_french(rounds=(1,))
        done = [first, *ev.run_rounds(rounds - 1, method="swiss")]
    else:
        done = ev.run_rounds(rounds, method="swiss")
    allowed = games.table_sizes("ecarte", ev.tournament.record_options())
    for rnd in done:
        sizes = [t.seats.count() for t in rnd.tables.all()]
        assert sum(sizes) == players and set(sizes) - {1} <= set(allowed), sizes
    byes = [t.seats.get().entry_id for r in done for t in r.tables.all() if t.seats.count() == 1]
    assert len(byes) == (rounds * (players % 2) if size == 2 else 0), byes
    assert len(set(byes)) == len(byes), "the same player has the bye twice"
    assert all(Entry.objects.filter(pk=e).exists() for e in byes)
    ev.finish()
