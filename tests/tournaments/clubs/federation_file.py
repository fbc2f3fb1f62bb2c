"""A generated federation licence file, real-looking (cp1252, « ; », French headers, names with accents and
ligatures, clubs by number and name), whose changes are known by construction.

Last season's file (``last_season``): ``KNOWN`` = 2,000 licences. This season's file (``this_season``), 3,000 lines:

* ``KEEP`` = 1,800 licences of last season: the first ``RENAMED`` = 120 with a new family name, the next
  ``MOVED`` = 150 in another club, the rest (1,530) unchanged — of which the first ``OLD_EXPIRED`` = 300 expired
  (validity 31/08/2026, before the day of the import, 26/11/2026); the other 200 of last season are absent;
* ``DUPLICATED`` = 25 new licences written twice each (50 lines, all refused);
* ``UNREADABLE`` = 5 lines with a birth date that is not one (refused);
* ``ADDED`` = 3,000 - 1,800 - 50 - 5 = 1,145 new licences, the first ``NEW_EXPIRED`` = 100 expired.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

TODAY = dt.date(2026, 11, 26)
KNOWN, KEEP, RENAMED, MOVED, OLD_EXPIRED = 2000, 1800, 120, 150, 300
DUPLICATED, UNREADABLE, LINES, NEW_EXPIRED = 25, 5, 3000, 100
ADDED = LINES - KEEP - 2 * DUPLICATED - UNREADABLE
CLUBS = 40

FIRST = ["Maïwenn", "Yann", "Cœur", "Loïc", "Anaïs", "Gaëlle", "François", "Hélène", "Jérôme", "Noël", "Zoé",
         "Anne", "Pierre", "Thérèse", "Benoît", "Agnès", "Aurélien", "Léa", "Raphaël", "Chloé"]
LAST = ["LE GALL", "KERBRAT", "MORVAN", "BŒUF", "CALVEZ", "ROPARS", "NÉDÉLEC", "GUÉGUEN", "LE BRIS", "D'ARC",
        "LEFÈVRE", "MARTIN", "DUPONT", "ÇAVALIER", "PÉRON", "SALAÜN", "TANGUY", "QUÉRÉ", "JÉGOU", "ABGRALL"]
HEADER = "N° licence;Nom;Prénom;N° club;Club;Date de naissance;Catégorie/Série;Validité"


def club_number(i: int) -> str:
    return f"F{i:04d}"


def club_name(i: int) -> str:
    return f"Tarot Club n° {i} de Bretagne"


@dataclass
class Person:
    licence: str
    last: str
    first: str
    club: int
    born: dt.date
    serie: str

    def line(self, *, last: str | None = None, club: int | None = None, valid: str = "31/08/2027",
             born: str | None = None) -> str:
        c = self.club if club is None else club
        return ";".join([self.licence, last or self.last, self.first, club_number(c), club_name(c),
                         born or self.born.strftime("%d/%m/%Y"), self.serie, valid])


def people(n: int, start: int, seed: int) -> list[Person]:
    rng = random.Random(seed)
    return [Person(f"{start + i:07d}", rng.choice(LAST), rng.choice(FIRST), rng.randrange(CLUBS),
                   dt.date(1940, 1, 1) + dt.timedelta(days=rng.randrange(25000)), rng.choice(["S1", "S2", "S3",
                                                                                                  "S4", "Jeune"]))
            for i in range(n)]


def last_season() -> tuple[list[Person], bytes]:
    known = people(KNOWN, 2900000, seed=1)
    text = "\r\n".join([HEADER, *(p.line() for p in known)]) + "\r\n"
    return known, text.encode("cp1252")


def this_season(known: list[Person]) -> bytes:
    lines = [HEADER]
    for i, p in enumerate(known[:KEEP]):
        if i < RENAMED:
            lines.append(p.line(last=p.last + "-MORVAN"))  # married: a new family name
        elif i < RENAMED + MOVED:
            lines.append(p.line(club=(p.club + 1) % CLUBS))  # another club
        elif i < RENAMED + MOVED + OLD_EXPIRED:
            lines.append(p.line(valid="31/08/2026"))  # not renewed: expired
        else:
            lines.append(p.line())
    for p in people(DUPLICATED, 3500000, seed=2):
        lines += [p.line(), p.line(last=p.last + "-BIS")]
    for p in people(UNREADABLE, 3600000, seed=3):
        lines.append(p.line(born="31/02/1970"))
    for i, p in enumerate(people(ADDED, 3000000, seed=4)):
        lines.append(p.line(valid="2025-2026" if i < NEW_EXPIRED else "2026-2027"))
    assert len(lines) == LINES + 1
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")
