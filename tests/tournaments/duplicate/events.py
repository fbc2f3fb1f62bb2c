"""The duplicate tests' event: 16 players (« Joueur 00 » … « Joueur 15 »), four tables of four, two étuis a round
dealt from the seed « test »; and a table found by its round and number."""

from __future__ import annotations

from typing import Any

from tests.tournaments.factories import EntryFactory, TournamentFactory
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Table, Tournament


def sixteen(*, rounds_planned: int, **fields: Any) -> Tournament:
    """A 4-player Tarot tournament of 16 made duplicate (``fields``: the tournament's own, e.g. its status)."""
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=rounds_planned, **fields)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="test")
    return tournament


def table_of(tournament: Tournament, round_no: int, number: int) -> Table:
    return Table.objects.get(round__tournament=tournament, round__number=round_no, number=number)
