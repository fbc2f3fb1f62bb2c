"""What scoring a record produces, shared by every game.

Each game's scoring module (``scoring/tarot.py`` …) exposes one function::

    def score_match(replay: rules.replay.Replay) -> MatchScore

A single deal record is a match of one deal. The scores of a deal are integers in the
game's own unit (Tarot marks; points for Écarté and Triomphe; jetons for L'Impériale and
Le Vingt-quatre, a fiche counting 6 jetons, as each module documents). ``result`` holds the
game's own detail for people and for the verdict JSON. Inconsistencies that only scoring can
see (a Tarot summary that cannot be true) are returned as violations, never raised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import Violation


@dataclass(frozen=True)
class DealScore:
    """The marks of one deal per seat, and the game's detail.

    ``scores`` is None when the deal cannot be scored (unfinished, or a violation makes any
    score meaningless); ``result`` then says why.
    """

    scores: list[int] | None
    result: Mapping[str, Any] = field(default_factory=dict)
    violations: tuple[Violation, ...] = ()


@dataclass(frozen=True)
class MatchScore:
    """The deals' scores, the running totals, and who won (a seat, a list of seats for a team, or None).

    ``ended`` says where a match played to a target ended: ``{"deal": i, "event": k}``, the
    index of the deal and of the mark (in that deal's chronological ``result["marks"]``) that
    reached the target; None while the match goes on (or for games with no target).
    """

    deals: list[DealScore]
    totals: list[int] | None
    winner: int | list[int] | None = None
    ended: Mapping[str, int] | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def violations(self) -> list[Violation]:
        return [v for d in self.deals for v in d.violations]
