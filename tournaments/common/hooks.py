"""The one port through which the rest of the house learns that a tournament's scores changed.

A writer (a deal recorded, corrected, annulled or restored; a ruling; a forfeit; a round released; an entry
registered, withdrawn or moved to another team; the tie-breaks changed) calls :func:`scores_changed` inside its
writing transaction. The standings subscribe at ``AppConfig.ready()`` (``tournaments/apps.py``): they bump the
ranking's input version in that transaction and queue the recomputation once it commits. Nothing else listens,
and no model signal does it behind the writer's back.
"""

from __future__ import annotations

from collections.abc import Callable

ScoresChanged = Callable[[int], None]

_subscribers: list[ScoresChanged] = []


def subscribe(callback: ScoresChanged) -> None:
    """Call ``callback(tournament_id)`` whenever a tournament's scores change (once per callback)."""
    if callback not in _subscribers:
        _subscribers.append(callback)


def subscribers() -> tuple[ScoresChanged, ...]:
    """The callbacks subscribed, in order."""
    return tuple(_subscribers)


def scores_changed(tournament_id: int) -> None:
    """Tell the subscribers that the ranking inputs of ``tournament_id`` changed; call inside the writing
    transaction (a subscriber may write in it, and acts on commit)."""
    for callback in _subscribers:
        callback(tournament_id)
