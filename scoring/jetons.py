"""Jetons and fiches: the marking of L'Impériale and Le Vingt-quatre.

A jeton is worth 4 points; ``fiche_at`` jetons (6 = 24 points) become one fiche (an impériale),
the excess being kept (RULES.md §4.2 rule 6, A-I11). At L'Impériale, the instant a player
obtains a new impériale — d'emblée or through his sixth jeton — the jetons of his opponents are
erased, his own kept, fiches never (§4.3 rule 13). A jeton can be *protected* for a while (the
dealer's retourne jeton during the announcement phase, §4.3 rule 14).

:class:`Tally` applies marks one at a time, in the order of the game's chronology, and keeps a
list of them for the verdict: each mark says who scored what, what it erased and the fiches
and jetons of every seat after it. The first mark that brings a seat to ``target`` fiches ends
the match at once; later marks are refused (``ended`` is set).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.errors import Violation
from rules.messages import register as register_messages

from .base import DealScore
from .rotation import allowed_dealers, check_dealer


@dataclass
class Tally:
    """Fiches and jetons of each seat, and the marks of the current deal."""

    players: int
    target: int
    fiche_at: int = 6
    wipe: bool = True
    fiches: list[int] = field(default_factory=list)
    jetons: list[int] = field(default_factory=list)
    marks: list[dict[str, Any]] = field(default_factory=list)
    protected: dict[int, int] = field(default_factory=dict)
    winner: int | None = None

    def __post_init__(self) -> None:
        if not self.fiches:
            self.fiches = [0] * self.players
        if not self.jetons:
            self.jetons = [0] * self.players

    @property
    def ended(self) -> bool:
        return self.winner is not None

    def begin_deal(self) -> None:
        """Start the marks of a new deal."""
        self.marks = []
        self.protected = {}

    def protect(self, seat: int, jetons: int = 1) -> None:
        """Keep up to ``jetons`` of a seat's jetons from the next erasures (until :meth:`unprotect`)."""
        self.protected[seat] = min(jetons, self.jetons[seat])

    def unprotect(self) -> None:
        self.protected = {}

    def add_jetons(self, seat: int, jetons: int, step: str, **detail: Any) -> bool:
        """Mark jetons for a seat (a full set becomes a fiche and erases the opponents). True if the match ends."""
        if self.ended or jetons <= 0:
            return self.ended
        total = self.jetons[seat] + jetons
        fiches, self.jetons[seat] = divmod(total, self.fiche_at)
        self.fiches[seat] += fiches
        wiped = self._erase(seat) if fiches and self.wipe else {}
        return self._mark(seat, step, jetons=jetons, fiches=fiches, wiped=wiped, detail=detail)

    def add_fiches(self, seat: int, fiches: int, step: str, *, erase: bool = True, **detail: Any) -> bool:
        """Mark impériales d'emblée for a seat (erasing the opponents' jetons unless ``erase`` is false)."""
        if self.ended or fiches <= 0:
            return self.ended
        self.fiches[seat] += fiches
        wiped = self._erase(seat) if erase and self.wipe else {}
        return self._mark(seat, step, jetons=0, fiches=fiches, wiped=wiped, detail=detail)

    def remove_fiche(self, seat: int, step: str, **detail: Any) -> bool:
        """Take one fiche from a seat (a penalty). True if the match has ended."""
        if self.ended or not self.fiches[seat]:
            return self.ended
        self.fiches[seat] -= 1
        return self._mark(seat, step, jetons=0, fiches=-1, wiped={}, detail=detail)

    def adjust(self, points: list[int] | tuple[int, ...], *, unit: str, **detail: Any) -> list[int]:
        """Apply an arbiter's adjustment event between deals, every seat's points at once (RULES.md §1.13 rule
        40): ``unit`` ``"fiches"`` (L'Impériale: impériales gained or lost) or ``"jetons"`` (Le Vingt-quatre).

        An adjustment is not an impériale obtained in play: it **erases nothing** (as the A-I10 penalties of
        ``scoring/imperiale.py``), and fiches are never erased (§4.3 rule 13), so a later impériale wipes the
        jetons of the cards, never a penalty. Totals may go below zero. Starts a new list of marks (one per
        seat adjusted). Returns the seats at the target with the highest total: one is the winner (the match,
        or at Le Vingt-quatre the partie, ends there); several are a tie that no text separates.
        """
        self.begin_deal()
        values = self.fiches if unit == "fiches" else self.jetons
        for seat, value in enumerate(points):
            values[seat] += value
        if unit == "fiches":
            reached = [s for s in range(self.players) if self.fiches[s] >= self.target]
        else:
            reached = [s for s in range(self.players) if self.jetons[s] >= self.fiche_at]
        best = max((values[s] for s in reached), default=None)
        top = [s for s in reached if values[s] == best]
        if len(top) == 1 and unit == "jetons":
            fiches, self.jetons[top[0]] = divmod(self.jetons[top[0]], self.fiche_at)
            self.fiches[top[0]] += fiches
        for seat, value in enumerate(points):
            if not value:
                continue
            mark: dict[str, Any] = {"step": "adjustment", "seat": seat,
                                    "jetons": value if unit == "jetons" else 0,
                                    "fiches": value if unit == "fiches" else 0, **detail,
                                    "after": {"fiches": list(self.fiches), "jetons": list(self.jetons)}}
            if len(top) == 1 and seat == top[0] and self.fiches[seat] >= self.target:
                mark["reaches_target"] = True
            self.marks.append(mark)
        if len(top) == 1 and self.fiches[top[0]] >= self.target:
            self.winner = top[0]
        return top

    def _erase(self, seat: int) -> dict[int, int]:
        wiped = {}
        for other in range(self.players):
            if other == seat:
                continue
            lost = max(0, self.jetons[other] - self.protected.get(other, 0))
            if lost:
                self.jetons[other] -= lost
                wiped[other] = lost
        return wiped

    def _mark(self, seat: int, step: str, *, jetons: int, fiches: int, wiped: dict[int, int],
              detail: dict[str, Any]) -> bool:
        mark: dict[str, Any] = {"step": step, "seat": seat, "jetons": jetons, "fiches": fiches}
        mark.update(detail)
        if wiped:
            mark["wiped"] = {str(s): n for s, n in sorted(wiped.items())}
        mark["after"] = {"fiches": list(self.fiches), "jetons": list(self.jetons)}
        if self.winner is None and self.fiches[seat] >= self.target:
            self.winner = seat
            mark["reaches_target"] = True
        self.marks.append(mark)
        return self.ended


def deal_after_match_end(index: int) -> DealScore:
    """The score of a deal recorded after the match ended: none, with a ``match_over`` violation."""
    return DealScore(None, {"status": "after_match_end"}, (Violation("match_over", index, None, None, None),))


def dealer_violations(index: int, dealer: int, previous: int | None, players: int,
                      annulled: Sequence[int] = ()) -> list[Violation]:
    """``wrong_dealer`` when the deal is not dealt by the previous first hand (the deal passes to the right),
    or, after annulled deals (``annulled``: their dealers), as ``scoring.rotation`` allows."""
    def after(seat: int) -> list[int]:
        return [(seat + 1) % players]

    allowed = allowed_dealers(None if previous is None else after(previous), annulled, after)
    wrong = check_dealer(index, dealer, allowed)
    return [] if wrong is None else [wrong]


register_messages({
    "match_over": {
        "fr": "La partie était déjà terminée : cette donne ne compte pas.",
        "en": "The match was already over: this deal does not count.",
    },
})
