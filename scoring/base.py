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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.errors import MalformedRecord, Violation
from rules.frozen import quick_init
from rules.messages import register
from rules.record import Adjustment, Record

#: why a deal has no marks (its :class:`DealScore` ``result["reason"]``, as the games' scoring modules give it), in
#: the words of the table
UNSCORED_WHY = {
    "unfinished": "la donne n'est pas finie",
    "impossible_summary": "ce résumé ne correspond à aucune donne possible",
    "violations": "des cartes ou des annonces enfreignent la règle",
    "after_end": "la partie était déjà finie",
    "wrong_seats": "les joueurs ne sont pas à leurs places",
    "cards_not_conserved": "les cartes jouées ne font pas le jeu entier",
}


@quick_init
@dataclass(frozen=True)
class DealScore:
    """The marks of one deal per seat, and the game's detail.

    ``scores`` is None when the deal cannot be scored (unfinished, or a violation makes any
    score meaningless); ``result`` then says why.
    """

    scores: list[int] | None
    result: Mapping[str, Any] = field(default_factory=dict)
    violations: tuple[Violation, ...] = ()


@quick_init
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
    adjustments: list[dict[str, Any]] = field(default_factory=list)
    """The record's adjustment events as applied (in the record's order): each its JSON, ``applied`` and the
    game's detail (``marks`` for L'Impériale and Le Vingt-quatre, ``totals`` after it)."""
    adjustment_violations: tuple[Violation, ...] = ()
    next_dealers: tuple[int, ...] | None = None
    """Who may deal the deal after the record's last one, by the game's rule (RULES.md §2.2 rule 6, §3.1
    rule 2, §5 rule 5, A-X1); None: anybody (no deal yet: the draw
    decides; Le Vingt-quatre, a new partie). ``scoring.rotation.next_dealer`` picks the one to propose."""

    @property
    def violations(self) -> list[Violation]:
        return [v for d in self.deals for v in d.violations] + list(self.adjustment_violations)


# -- adjustment events (Levée's extension of levee.match/1, docs/deal-record.md "Adjustments") --------------------

def adjustments_after(record: Record) -> dict[int, list[Adjustment]]:
    """The record's adjustments grouped by the deal they follow (−1: before the first deal), in order."""
    out: dict[int, list[Adjustment]] = {}
    for adj in record.adjustments:
        out.setdefault(adj.after, []).append(adj)
    return out


def party_points(adj: Adjustment, sides: Sequence[Sequence[int]]) -> list[tuple[tuple[int, ...], int]]:
    """The points an adjustment gives each party (non-zero only). Partners carry their side's points alike,
    so an adjustment giving two partners different points is malformed."""
    out = []
    for side in sides:
        values = {adj.points[seat] for seat in side}
        if len(values) > 1:
            raise MalformedRecord(f"{adj.field}.points", "partners carry the same points: give each member of a "
                                                         "side the side's adjustment",
                                  fr="les partenaires portent les mêmes points : donnez à chaque membre d'un camp "
                                     "l'ajustement du camp")
        value = values.pop()
        if value:
            out.append((tuple(side), value))
    return out


def outcome(adj: Adjustment, applied: bool, **extra: Any) -> dict[str, Any]:
    """One adjustment as the verdict lists it."""
    return {**adj.to_json(), "applied": applied, **extra}


def after_end(adj: Adjustment) -> Violation:
    """An adjustment placed after the match (or the deal that ended it) ended: it would not count."""
    return Violation("adjustment_after_end", adj.after if adj.after >= 0 else None,
                     params={"adjustment": adj.index + 1})


def tie_at_target(adj: Adjustment, seats: Sequence[int], names: Sequence[str] = ()) -> Violation:
    """An adjustment that brings several parties to the target with equal totals: no text decides the winner.
    ``names``: the players' names (the record's ``players``), which the message gives."""
    who = [names[s] if 0 <= s < len(names) else str(s + 1) for s in seats]
    joined = ", ".join(who[:-1]) + " et " + who[-1] if len(who) > 1 else "".join(who)
    return Violation("adjustment_tie", adj.after if adj.after >= 0 else None,
                     params={"adjustment": adj.index + 1, "seats": joined})


def leaders(totals: Sequence[int], sides: Sequence[Sequence[int]], goal: int) -> list[tuple[int, ...]]:
    """The parties at or above ``goal`` with the highest total (several on a tie)."""
    reached = [tuple(side) for side in sides if totals[side[0]] >= goal]
    if not reached:
        return []
    best = max(totals[side[0]] for side in reached)
    return [side for side in reached if totals[side[0]] == best]


def wrong_dealer(index: int, dealer: int, allowed: Sequence[int]) -> Violation:
    """``wrong_dealer``: deal ``index`` was dealt by ``dealer`` where one of ``allowed`` should have dealt."""
    return Violation("wrong_dealer", index, None, dealer, None,
                     {"expected": " ou ".join(str(seat + 1) for seat in allowed)})


register({
    "wrong_dealer": {
        "fr": "Mauvais donneur : c'était au joueur {expected} de donner.",
        "en": "Wrong dealer: player {expected} should have dealt.",
        "seats": "expected",
        "fr_named": "Mauvais donneur : c'était à {expected} de donner.",
        "en_named": "Wrong dealer: {expected} should have dealt.",
    },
    "adjustment_after_end": {
        "fr": "La partie était déjà finie : ces points d'arbitrage viendraient après sa fin et ne compteraient pas.",
        "en": "The match was already over: these points from a ruling would come after its end and would not count.",
    },
    "adjustment_tie": {
        "fr": "Ces points d'arbitrage amènent {seats} au but à égalité : aucun texte ne les départage, l'arbitre "
              "décide autrement.",
        "en": "These points from a ruling bring {seats} to the target level: no text separates them, the arbiter "
              "must rule otherwise.",
    },
})
