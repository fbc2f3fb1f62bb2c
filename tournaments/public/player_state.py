"""The state of a player's page across events, read in one plain statement.

His page (public, or private through his player link) is kept per state: each request reads only what the page
moves with — the newest ranking snapshot of a tournament he entered, the newest snapshot of a championship that
counts one of them, his entries (the newest, how many, how many withdrawn), his name, club, licence and birth date,
his club's name — and serves the kept bytes. His entries' three facts come as one text (« newest count withdrawn »,
None when he has none) from one sub-select: three sub-selects over his entries cost PostgreSQL ≈ 14 µs more a
request (docs/performance.md, « Thirteenth pass »). The statement is written out rather than built by the ORM: at
10,000 players the ORM's version cost 5.2 ms a request (3.7 ms of it compiling the query in Python, then
PostgreSQL planning its extra joins), this one 0.45 ms (docs/performance.md, « A player's page: its state in one
statement »). It is portable SQL (PostgreSQL and SQLite); the tests compare each of its parts with the ORM's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from functools import cache

from django.db import connection

from tournaments.event.models import Entry, Player, Tournament
from tournaments.links.models import PrivateLink
from tournaments.seasons.models import Championship, ChampionshipSnapshot
from tournaments.standings.models import RankingSnapshot


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What a player's page shows moves with; ``link_id`` and ``live`` when read through a link."""

    player_id: int
    licence: str
    birth_date: date | None
    tick: tuple[object, ...]
    link_id: int | None = None
    live: bool = True


#: where the link's columns start in a row (after the player's three and the tick's eight)
_LINK = 11


@cache
def _sql(by_link: bool) -> str:
    entry, player = Entry._meta.db_table, Player._meta.db_table
    club = Player._meta.get_field("home_club").related_model._meta.db_table
    ranking, champ_snap = RankingSnapshot._meta.db_table, ChampionshipSnapshot._meta.db_table
    counted = Championship.tournaments.through._meta.db_table
    assert Tournament._meta.db_table  # the snapshots name their tournament by its id: no join needed
    ticks = f"""
      (SELECT max(s.id) FROM {ranking} s JOIN {entry} x ON x.tournament_id = s.tournament_id
        WHERE x.player_id = p.id),
      (SELECT max(c.id) FROM {champ_snap} c JOIN {counted} ct ON ct.championship_id = c.championship_id
        JOIN {entry} x ON x.tournament_id = ct.tournament_id WHERE x.player_id = p.id),
      (SELECT CAST(max(x.id) AS TEXT) || ' ' || CAST(count(*) AS TEXT) || ' '
              || CAST(sum(CASE WHEN x.withdrawn THEN 1 ELSE 0 END) AS TEXT)
        FROM {entry} x WHERE x.player_id = p.id),
      p.name, p.anonymized_at, p.home_club_id, p.club, hc.name"""
    head = f"SELECT p.id, p.licence, p.birth_date, {ticks}"
    if by_link:
        return (f"{head}, l.id, l.revoked_at FROM {PrivateLink._meta.db_table} l "
                f"JOIN {entry} e ON e.id = l.entry_id JOIN {player} p ON p.id = e.player_id "
                f"LEFT JOIN {club} hc ON hc.id = p.home_club_id WHERE l.token = %s")
    return f"{head} FROM {player} p LEFT JOIN {club} hc ON hc.id = p.home_club_id WHERE p.id = %s"


def _read(by_link: bool, key: object) -> tuple[object, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(_sql(by_link), [key])
        return cursor.fetchone()


def of_player(player_id: int) -> PlayerState | None:
    """His public page's state (None: no such player)."""
    row = _read(False, player_id)
    if row is None:
        return None
    return PlayerState(int(row[0]), row[1], row[2], _tick(row[3:_LINK]))


def of_link(token: str, max_length: int) -> PlayerState | None:
    """His private page's state through the player link ``token`` (None: no such link, or a table's link)."""
    if not token or len(token) > max_length:
        return None
    row = _read(True, token)
    if row is None:
        return None
    return PlayerState(int(row[0]), row[1], row[2], _tick(row[3:_LINK]), link_id=int(row[_LINK]),
                       live=row[_LINK + 1] is None)


def _tick(values: tuple[object, ...]) -> tuple[object, ...]:
    """The values as the same Python types on every database (SQLite gives a date as text, a count as int)."""
    return tuple(v.isoformat() if isinstance(v, (datetime, date)) else v for v in values)


__all__ = ["PlayerState", "of_link", "of_player"]
