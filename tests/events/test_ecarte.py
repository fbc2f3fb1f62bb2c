"""L'Écarté, Swiss draw: tables of 2 with a bye (7 players, three rounds: the bye goes round); « Joueurs par
table : 3 » (7 players: 3-2-2) and « 4 » (9 players, partie liée: 4-3-2 or so), seated in the game's allowed sizes
(``games.table_sizes``) with no bye; every match to its target."""

from __future__ import annotations

import pytest

from tournaments.common import games
from tournaments.event.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.events]


@pytest.mark.parametrize(("size", "players", "rounds"), [(2, 7, 3), (3, 7, 2), (4, 9, 2)])
def test_ecarte_swiss_with_byes(event, size, players, rounds):
    ev = event(label=f"ecarte{size}-{players}", game="ecarte", seed=3000 + size, rounds=rounds,
               players_per_table=size, target=3)
    ev.register(players)
    ev.start()
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
