"""The quick summary of a deal of Triomphe, Écarté, L'Impériale or Le Vingt-quatre (``summary``).

What an arbiter enters instead of the tricks when they were not written down: the tricks won
by each seat (or each side), and what else the game's score depends on — the honours taken, in
the order taken (L'Impériale, Le Vingt-quatre: the chronology decides erasures and the race to
the target), the vole engagée (Triomphe), the first to reach two tricks at 2-2-1 (Écarté à
trois). This module reads its form (a :class:`~rules.errors.MalformedRecord` naming the field);
whether it can be true, and whether it agrees with tricks given beside it, is judged by the
game's scoring module, as violations. Documented in ``docs/deal-record.md``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import MalformedRecord
from .record import join_path, read_cards, read_seat


@dataclass(frozen=True)
class HonoursTaken:
    """Honours won by a seat in one trick (or several of its tricks in a row)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class TricksSummary:
    """A deal's summary: tricks won per seat (or per side, ``by_side``), and the game's extras."""

    tricks: tuple[int, ...]
    by_side: bool = False
    honours: tuple[HonoursTaken, ...] = ()
    engaged: bool = False
    first_to_two: int | None = None

    @property
    def total(self) -> int:
        return sum(self.tricks)


def read_summary(raw: Any, field: str, *, players: int, keys: Collection[str], pack: int,
                 sides: int | None = None) -> TricksSummary:
    """Read a summary whose allowed keys are ``tricks`` and ``keys`` (``honours``, ``engaged``,
    ``first_to_two``). ``sides``: the number of sides when tricks may be given per side."""
    if not isinstance(raw, Mapping):
        allowed = ", ".join(["tricks", *keys])
        raise MalformedRecord(field, f"the summary is an object ({allowed})",
                              fr="le résumé se donne champ par champ (les plis gagnés d'abord)")
    for key in raw:
        if key != "tricks" and key not in keys:
            known = ", ".join(["tricks", *keys])
            raise MalformedRecord(join_path(field, str(key)), f"unknown summary field (known: {known})",
                                  fr="le résumé de ce jeu ne demande pas cela")
    tricks_field = join_path(field, "tricks")
    tricks = raw.get("tricks")
    lengths = {players} | ({sides} if sides else set())
    if (not isinstance(tricks, list) or len(tricks) not in lengths
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in tricks)):
        per = f"one whole number (0 or more) per player ({players})"
        per_fr = f"un nombre entier (0 ou plus) par joueur ({players})"
        if sides:
            per += f" or per side ({sides})"
            per_fr += f" ou par camp ({sides})"
        raise MalformedRecord(tricks_field, f"the tricks won: {per}", fr=f"les plis gagnés : {per_fr}")
    honours: list[HonoursTaken] = []
    if raw.get("honours") is not None:
        value = raw["honours"]
        hfield = join_path(field, "honours")
        if not isinstance(value, list):
            raise MalformedRecord(hfield, 'the honours taken, in order: a list of {"seat": s, "cards": [...]}',
                                  fr='les honneurs levés, dans l\'ordre : une liste de {"seat": s, "cards": [...]}')
        for i, item in enumerate(value):
            where = f"{hfield}[{i}]"
            if not isinstance(item, Mapping):
                raise MalformedRecord(where, 'honours taken are {"seat": s, "cards": [...]}',
                                      fr='des honneurs levés s\'écrivent {"seat": s, "cards": [...]}')
            seat = read_seat(item.get("seat"), f"{where}.seat", players)
            cards = read_cards(item.get("cards"), f"{where}.cards", pack=pack)
            if not cards:
                raise MalformedRecord(f"{where}.cards", "at least one honour", fr="au moins un honneur")
            honours.append(HonoursTaken(seat, tuple(cards)))
    engaged = raw.get("engaged", False)
    if engaged is None:
        engaged = False
    if not isinstance(engaged, bool):
        raise MalformedRecord(join_path(field, "engaged"), "engaged is true or false", fr="engaged vaut true ou false")
    first = raw.get("first_to_two")
    first_to_two = read_seat(first, join_path(field, "first_to_two"), players) if first is not None else None
    return TricksSummary(tuple(tricks), len(tricks) != players, tuple(honours), engaged, first_to_two)
