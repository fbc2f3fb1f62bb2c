"""One person across a club's tournaments, when no licence ties his records together.

A player registered again by his name and his club (no licence typed) is the register's record of the same name
and club: his season's championship then has one line for him. What contradicts makes another person — another
club, another birth date, another licence — and so does a record already entered in the same tournament (two
« Jean Martin » of one club at one event are two people). A same name that nothing contradicts but nothing
confirms (no club on either side) is not taken on a guess: it is a likely duplicate, which the staff's lists flag
and the player's page offers to merge (``register.likely_duplicates``, ``register.players_records_merge``).

Names and clubs are compared folded (:func:`name_key`: accents, case, hyphens and spaces aside); the database
finds the candidates by the name as spelt, case aside, so a few rows are read whatever the register's size.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from django.db.models import Q, QuerySet, Subquery
from django.db.models.functions import Upper

from tournaments.clubs.models import Club
from tournaments.event.models import Player


def name_key(name: str) -> str:
    """A name folded to compare two spellings of one person: accents, case, hyphens and spaces ignored."""
    text = unicodedata.normalize("NFKD", name or "").casefold()
    text = "".join(c for c in text if not unicodedata.combining(c)).replace("œ", "oe").replace("æ", "ae")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def _ascii_upper(text: str) -> str:
    return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in text)


def _spellings(names: Iterable[str]) -> Q:
    """The rows (annotated ``name_upper``) whose name is one of ``names`` with its case aside: one ``IN`` list,
    which PostgreSQL hashes, rather than a comparison a name. Each name goes in twice: in capitals, and with its
    ASCII letters alone in capitals, as SQLite's ``upper()`` writes « Zoé » (« ZOé »)."""
    spelt = {n.strip() for n in names if n and n.strip()}
    return Q(name_upper__in=sorted({n.upper() for n in spelt} | {_ascii_upper(n) for n in spelt}))


def _players() -> QuerySet[Player]:
    return Player.objects.annotate(name_upper=Upper("name")).filter(anonymized_at__isnull=True)


def _club_keys(player: Player, home_club_name: str | None) -> set[str]:
    """His club as typed and his home club's name, folded."""
    return {name_key(player.club), name_key(home_club_name or "")} - {""}


def _contradicts(a_birth: dt.date | None, b_birth: dt.date | None, a_licence: str, b_licence: str) -> bool:
    return bool((a_birth and b_birth and a_birth != b_birth) or (a_licence and b_licence and a_licence != b_licence))


def known_player(*, name: str, club: str, licence: str = "", birth_date: dt.date | None = None,
                 tournament_id: int | None = None) -> Player | None:
    """The register's record of the person this registration names by his name and club, when exactly one
    record has both and nothing contradicts it (birth date, licence); never one already entered in
    ``tournament_id``. None without a club: a name alone is not a person."""
    club_key, key = name_key(club), name_key(name)
    if not club_key or not key:
        return None
    found = []
    candidates = _players().filter(_spellings([name])).select_related("home_club").order_by("pk")
    if tournament_id is not None:
        candidates = candidates.exclude(entries__tournament_id=tournament_id)
    for player in candidates:
        home = player.home_club.name if player.home_club is not None else None
        if name_key(player.name) != key or club_key not in _club_keys(player, home):
            continue
        if _contradicts(birth_date, player.birth_date, licence, player.licence):
            continue
        found.append(player)
    return found[0] if len(found) == 1 else None


class _Record(NamedTuple):
    """What telling two records apart reads of one: a row, not a model (a thousand players are read at once)."""

    pk: int
    name: str
    club: str
    licence: str
    birth_date: dt.date | None
    home_club_id: int | None


_RECORD = tuple(_Record._fields)


def namesakes(players: Iterable[Player], *, among: QuerySet[Player] | None = None) -> dict[int, list[Player]]:
    """For each of ``players``, the other records likely to be the same person: the same name (folded) and
    either the same birth date, or nothing that says otherwise — no other birth date, licence or club (a club on
    each side, not the same: a namesake). The other records are read as rows, their clubs' names in one more
    statement, each name folded once; only the records found are read as players. ``among``: a statement giving
    ``players`` (a tournament's), which the database reads instead of a list of their names (a thousand names
    are a thousand parameters)."""
    given = {p.pk: p for p in players if p.anonymized_at is None}
    if not given:
        return {}
    if among is not None:
        named = among.annotate(upper=Upper("name")).values("upper")
        born = among.filter(birth_date__isnull=False).values("birth_date")
        query = Q(name_upper__in=Subquery(named)) | Q(birth_date__in=Subquery(born))
    else:
        query = _spellings(p.name for p in given.values()) | Q(
            birth_date__in={p.birth_date for p in given.values() if p.birth_date})
    mine = [_Record(*(getattr(p, f) for f in _RECORD)) for p in given.values()]
    others = [_Record(*row) for row in _players().filter(query).values_list(*_RECORD) if row[0] not in given]
    pool = [*mine, *others]
    clubs = dict(Club.objects.filter(pk__in={r.home_club_id for r in pool if r.home_club_id})
                 .values_list("pk", "name"))
    keys = {r.pk: name_key(r.name) for r in pool}
    by_key: dict[str, list[_Record]] = {}
    for r in pool:
        by_key.setdefault(keys[r.pk], []).append(r)

    def club_keys(r: _Record) -> set[str]:
        return {name_key(r.club), name_key(clubs.get(r.home_club_id, "") if r.home_club_id else "")} - {""}

    def likely(a: _Record, b: _Record) -> bool:
        if a.birth_date and a.birth_date == b.birth_date:
            return True
        if _contradicts(a.birth_date, b.birth_date, a.licence, b.licence):
            return False
        ours, theirs = club_keys(a), club_keys(b)
        return not (ours and theirs and not ours & theirs)

    matched: dict[int, list[int]] = {}
    for r in mine:
        group = by_key[keys[r.pk]]
        if len(group) > 1:
            same = sorted(o.pk for o in group if o.pk != r.pk and likely(r, o))
            if same:
                matched[r.pk] = same
    read = Player.objects.in_bulk({pk for pks in matched.values() for pk in pks if pk not in given})
    return {pk: [given.get(o) or read[o] for o in pks] for pk, pks in matched.items()}


__all__ = ["known_player", "name_key", "namesakes"]
