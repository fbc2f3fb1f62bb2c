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

from django.db.models import Q

from tournaments.event.models import Player


def name_key(name: str) -> str:
    """A name folded to compare two spellings of one person: accents, case, hyphens and spaces ignored."""
    text = unicodedata.normalize("NFKD", name or "").casefold()
    text = "".join(c for c in text if not unicodedata.combining(c)).replace("œ", "oe").replace("æ", "ae")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


def _spellings(names: Iterable[str]) -> Q:
    """The rows whose name is one of ``names`` with its case aside (``iexact``: on SQLite, ASCII letters only;
    the accented capitals of a name typed the same way match as they are)."""
    query = Q(pk__in=[])
    for name in {n.strip() for n in names if n and n.strip()}:
        query |= Q(name__iexact=name)
    return query


def _club_keys(player: Player) -> set[str]:
    keys = {name_key(player.club)}
    if player.home_club_id is not None and player.home_club is not None:
        keys.add(name_key(player.home_club.name))
    return keys - {""}


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
    candidates = (Player.objects.filter(_spellings([name]), anonymized_at__isnull=True).select_related("home_club")
                  .order_by("pk"))
    if tournament_id is not None:
        candidates = candidates.exclude(entries__tournament_id=tournament_id)
    for player in candidates:
        if name_key(player.name) != key or club_key not in _club_keys(player):
            continue
        if _contradicts(birth_date, player.birth_date, licence, player.licence):
            continue
        found.append(player)
    return found[0] if len(found) == 1 else None


def namesakes(players: Iterable[Player]) -> dict[int, list[Player]]:
    """For each of ``players``, the other records likely to be the same person: the same name (folded) and
    either the same birth date, or nothing that says otherwise — no other birth date, licence or club (a club on
    each side, not the same: a namesake). Read in one statement."""
    players = [p for p in players if p.anonymized_at is None]
    if not players:
        return {}
    births = {p.birth_date for p in players if p.birth_date}
    others = list(Player.objects.filter(_spellings(p.name for p in players) | Q(birth_date__in=births),
                                        anonymized_at__isnull=True).select_related("home_club").order_by("pk"))
    by_key: dict[str, list[Player]] = {}
    for other in others:
        by_key.setdefault(name_key(other.name), []).append(other)
    found: dict[int, list[Player]] = {}
    for player in players:
        same = []
        for other in by_key.get(name_key(player.name), ()):
            if other.pk == player.pk:
                continue
            if player.birth_date and player.birth_date == other.birth_date:
                same.append(other)
                continue
            mine, theirs = _club_keys(player), _club_keys(other)
            if _contradicts(player.birth_date, other.birth_date, player.licence, other.licence) or (
                    mine and theirs and not mine & theirs):
                continue
            same.append(other)
        if same:
            found[player.pk] = same
    return found


__all__ = ["known_player", "name_key", "namesakes"]
