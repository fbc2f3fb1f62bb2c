"""What an arbiter writes on the paper score sheet of a table, per game: the columns of one deal before
the marks of each player (the marks columns follow, one per seat). Pure data, in French (a sheet is
printed for the table, in the words of the table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Column:
    title: str
    hint: str
    """What to write: the choices, shown small under the title."""
    width: float
    """Relative width (1 = a mark column)."""


TAROT = (
    Column("Preneur", "n° de place", 1.0),
    Column("Contrat", "P · G · GS · GC", 1.0),
    Column("Bouts", "0 · 1 · 2 · 3", 0.8),
    Column("Points", "du preneur", 1.0),
    Column("Poignées", "S · D · T, qui", 1.1),
    Column("Petit au bout", "A · D", 0.9),
    Column("Chelem", "annoncé, fait", 1.0),
)
TAROT_CALLED_KING = (*TAROT[:2], Column("Roi appelé", "carte, partenaire", 1.1), *TAROT[2:])
MATCH = (Column("Donneur", "n° de place", 1.0), Column("Déclarations", "annonces, échanges", 2.0))


def deal_columns(game: str, seats: int, options: Mapping[str, Any] | None = None) -> tuple[Column, ...]:
    """The columns of one deal on ``game``'s paper sheet for a table of ``seats``: a Tarot table of 5
    playing the called king (option ``five``, RULES.md §1.2; the default « mort » has no king) adds it."""
    if game == "tarot":
        return TAROT_CALLED_KING if seats == 5 and (options or {}).get("five", "mort") == "called_king" else TAROT
    return MATCH
