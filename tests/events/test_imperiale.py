"""L'Impériale at 2 (7 players: a bye each round) and at 3 (7 players: two tables of three and a bye)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.events]


@pytest.mark.parametrize(("size", "players"), [(2, 7), (3, 7)])
def test_imperiale(event, size, players):
    ev = event(label=f"imperiale{size}-{players}", game="imperiale", seed=5000 + size, rounds=2,
               players_per_table=size, target=1)
    ev.register(players)
    ev.start()
    ev.run_rounds(2, method="swiss")
    ev.finish()
