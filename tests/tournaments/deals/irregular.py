"""What the irregular-deal tests of the match games share (``test_irregular_imperiale``,
``test_irregular_vingt_quatre``): a staffed table, its users and entries by name, the match and the ranking now."""

from __future__ import annotations

from typing import Any

from tests.tournaments.factories import UserFactory, role, seated_table
from tournaments.event.models import Table, Tournament
from tournaments.standings import rankings


def staffed_table(tournament: Tournament, names: list[str], **chief: Any) -> Table:
    """A table of ``tournament`` seating ``names`` in order, its table arbiter « arbitre » and the chief arbiter
    « chef » (``chief``: his other fields, e.g. his name)."""
    table = seated_table(tournament, players=len(names), names=names)
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    role(tournament, UserFactory(username="chef", **chief), "chief_arbiter")
    return table


def user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def entries(table: Table) -> dict[str, int]:
    """The table's entries by their player's name."""
    return {s.entry.player.name: s.entry_id for s in table.seats.select_related("entry__player")}


def ranked(table: Table) -> list[tuple[str, int, object]]:
    """The tournament's ranking computed now: (name, rank, match points) of each entry with match points."""
    names = {v: k for k, v in entries(table).items()}
    computed = rankings.ranking_compute(tournament=table.round.tournament, rounds="all")
    return [(names[line.entry], line.rank, line.metric("match_points")) for line in computed.individual.lines
            if line.metric("match_points")]


def match(table: Table) -> tuple[list[int] | None, bool, int | None]:
    """The table's match now: its totals, whether it ended, its winner."""
    table.refresh_from_db()
    return table.match_totals, table.match_ended, table.match_winner
