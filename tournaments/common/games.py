"""The bridge to the game registry (:mod:`rules.game`): all the Django side knows of a game comes from here.

Pages, forms and services never branch on a game's name: they ask this module whether the game plays
matches, at how many players, which seats play as partners under the tournament's options, and the game's
label.
"""

from __future__ import annotations

from typing import Any

from rules.errors import MalformedRecord
from rules.game import Game, all_games, get_game


def game(name: str) -> Game:
    """The registered game of that name (:class:`rules.errors.MalformedRecord` for an unknown one)."""
    return get_game(name)


def partnerships(tournament: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
    """The seats playing as partners at a table of ``players`` (Triomphe ``options.teams``, Écarté à
    quatre), as the game's rules read the tournament's options; None when each plays alone."""
    if not tournament.is_match_game:
        return None
    try:
        options = get_game(tournament.game).parse_options({**tournament.record_options(), "players": players})
    except (MalformedRecord, TypeError, ValueError):
        # options the rules cannot read: no deal was saved with them either
        return None
    teams = getattr(options, "teams", None)
    return tuple(tuple(side) for side in teams) if teams else None


def names() -> tuple[str, ...]:
    """Every registered game's code name, in the registry's order."""
    return tuple(all_games())
