"""The bridge to the game registry (:mod:`rules.game`) and the scoring modules: all the Django side knows of a
game comes from here.

Pages, forms, services and templates never branch on a game's name: they ask this module for the game's
label, whether it plays matches, at how many players, which seats play as partners under the tournament's
options, which contracts wait for the chief arbiter's visa, whether it is played in duplicate deals, the expert
entry's skeleton, and a deal's result explained (:mod:`scoring.explain`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.errors import MalformedRecord
from rules.game import Game, all_games, get_game
from scoring.explain import Explanation, explain_verdict

#: the seats per table offered for a game the registry does not know
ANY_COUNT = tuple(range(2, 7))


def game(name: str) -> Game:
    """The registered game of that name (:class:`rules.errors.MalformedRecord` for an unknown one)."""
    return get_game(name)


def known(name: str) -> Game | None:
    """The registered game of that name, or None."""
    return all_games().get(name)


def names() -> tuple[str, ...]:
    """Every registered game's code name, in the registry's order."""
    return tuple(all_games())


def choices() -> list[tuple[str, str]]:
    """Every game as a choice: (code name, label), in the registry's order."""
    return [(name, g.label) for name, g in all_games().items()]


def label(name: str) -> str:
    """The game's name for people (the code name for a game the registry does not know)."""
    g = known(name)
    return g.label if g is not None else name


def plays_matches(name: str) -> bool:
    """Whether a table of the game plays a match to a target (scores depend on earlier deals)."""
    g = known(name)
    return g is not None and g.plays_matches


def match_games() -> frozenset[str]:
    """The games whose tables play matches."""
    return frozenset(name for name, g in all_games().items() if g.plays_matches)


def duplicate_deals(name: str) -> bool:
    """Whether the game may be played in duplicate deals (étuis)."""
    g = known(name)
    return g is not None and g.duplicate_deals


def contracts(name: str) -> tuple[str, ...]:
    """The contracts a taker may bid in the game (none for games without a bid)."""
    g = known(name)
    return tuple(g.contracts) if g is not None else ()


def player_counts(name: str) -> tuple[int, ...]:
    """The seats a table of the game may have."""
    g = known(name)
    return tuple(g.player_counts) if g is not None else ANY_COUNT


def needs_visa(name: str, record: Mapping[str, Any]) -> bool:
    """Whether a deal of this record counts only once the chief arbiter approves it (its contract)."""
    g = known(name)
    return g is not None and g.needs_visa(record)


def record_fields(name: str) -> dict[str, Any]:
    """A deal's own fields as the expert entry starts from them (a fresh copy)."""
    import copy

    g = known(name)
    return copy.deepcopy(dict(g.record_fields)) if g is not None else {"hands": None, "tricks": []}


def record_help(name: str) -> str:
    """One line of help on the game's deal fields, above the expert entry's JSON."""
    g = known(name)
    return g.record_help if g is not None else ""


def explain(name: str, verdict: Any, players: Sequence[str], lang: str = "fr") -> Explanation:
    """A saved deal's result in words (its verdict's last deal): headline, lines, marks."""
    return explain_verdict(name, verdict, players, lang)


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
