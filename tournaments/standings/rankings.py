"""Rankings, the Django side: SQL aggregates over score rows → ``scoring.ranking`` → a published snapshot.

The flow (see ``docs/architecture.md``):

1. A service that changes what the ranking depends on (a deal entered or corrected, a ruling, a round
   released …) calls :func:`ranking_inputs_changed` inside its transaction: the tournament's
   :class:`~tournaments.standings.models.RankingClock` version goes up by one. ``tournaments.standings.tasks``
   then queues one refresh on commit (:func:`ranking_refresh_claim` makes a burst queue one task).
2. The task takes the tournament's lease (:func:`ranking_lease_take`: one refresh runs at a time; changes
   meanwhile queue nothing) and calls :func:`ranking_publish`: it reads the version and the aggregates **in one database
   snapshot** (REPEATABLE READ on PostgreSQL), ranks with :mod:`scoring.ranking`, and publishes an
   immutable :class:`~tournaments.standings.models.RankingSnapshot` labelled with the version it
   ranked. A snapshot at that version or newer already there means there is nothing to do, so a
   rerun (a worker killed mid-task, a duplicate message) changes nothing and loses nothing.
3. Pages read :func:`ranking_status`: the latest snapshot, and whether it is up to date (its
   ``input_version`` equals the clock's ``version``), and its lines with :func:`snapshot_lines` (one document of the
   snapshot, written in its INSERT, no row per line).

A line names an entry (or a team) by its id, and nothing stops that entry being deleted after the publication (a
no-show struck off the list: the next publication no longer ranks him). Every reader skips such a line — what the old
line rows' foreign key did by cascading them away — using the entries it reads anyway for their names.

Only released rounds count (``Round.released`` or ``number <= Tournament.released_round``): the
published ranking is what the public may see. :func:`ranking_compute` with ``rounds="all"`` gives
the organizer's live ranking (seating by ranking uses it) without publishing anything.
"""

from __future__ import annotations

import json
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from datetime import timedelta
from enum import StrEnum
from fractions import Fraction
from functools import cache
from threading import Lock
from typing import Any, NamedTuple, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import Expression, F, JSONField, Max, Q, QuerySet
from django.utils import timezone

from scoring import duplicate as pure_duplicate
from scoring import ranking as pure
from scoring import snapshots
from tournaments.common import games, sql
from tournaments.deals.models import Deal, Forfeit, Ruling, ScoreRow
from tournaments.duplicate import results as duplicate
from tournaments.event.models import Entry, Round, Seat, Table, Team, Tournament
from tournaments.links.models import DealSheet, TablePolicy
from tournaments.standings.models import RankingClock, RankingSnapshot

log = logging.getLogger(__name__)

#: a refresh queued longer ago than this and not started is taken as lost and may be queued again
QUEUE_STALE_AFTER = timedelta(seconds=30)
#: how long a running refresh holds its tournament without renewing (it renews before each publication and while
#: it waits for a burst to end): a worker that died is taken over once its lease expires
REFRESH_LEASE = timedelta(seconds=5)


# --------------------------------------------------------------------------------------------
# The clock: input versions and the coalescing of refreshes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockBump:
    """The clock after :func:`ranking_inputs_changed`: the new input version, since when a refresh is queued, and
    until when a running refresh holds the tournament."""

    version: int
    queued_at: Any  # datetime | None
    lease_until: Any = None  # datetime | None

    @property
    def refresh_waiting(self) -> bool:
        """A refresh is queued and has not started, or is running: either way it will rank this change.

        Safe to rely on inside the changing transaction: the task starts by taking the lease (and clearing
        ``queued_at``) with an UPDATE of the clock row, which waits for this transaction's row lock, and only
        then reads the inputs, in a snapshot taken after this commit; a running refresh lets go of its lease
        only by an UPDATE that waits for this row lock too and finds the version it published older than this
        change's (:func:`ranking_lease_release`), so it ranks once more.
        """
        now = timezone.now()
        return ((self.queued_at is not None and self.queued_at >= now - QUEUE_STALE_AFTER)
                or (self.lease_until is not None and self.lease_until > now))


@cache
def _bump_sql(vendor: str) -> str:
    """The clock's upsert: version + 1, or a new clock at version 1, returning the version and the claim."""
    clock, version, queued, changed, key, lease = (sql.table(RankingClock), sql.column(RankingClock, "version"),
                                                   sql.column(RankingClock, "queued_at"),
                                                   sql.column(RankingClock, "changed_at"),
                                                   sql.column(RankingClock, "tournament"),
                                                   sql.column(RankingClock, "lease_until"))
    return (f"INSERT INTO {clock} ({key}, {version}, {changed}) VALUES (%s, 1, %s) "
            f"ON CONFLICT ({key}) DO UPDATE SET {version} = {clock}.{version} + 1, {changed} = EXCLUDED.{changed} "
            f"RETURNING {version}, {queued}, {lease}")


def send_clock_bump(cursor: Any, *, tournament_id: int) -> None:
    """Bump the tournament's input version on ``cursor``; :func:`read_clock_bump` reads the answer."""
    field = RankingClock._meta.get_field("changed_at")
    cursor.execute(_bump_sql(connection.vendor), [tournament_id, field.get_db_prep_save(timezone.now(), connection)])


def read_clock_bump(cursor: Any) -> ClockBump:
    """The clock as :func:`send_clock_bump` left it."""
    version, queued_at, lease_until = cursor.fetchone()
    return ClockBump(version, sql.convert(RankingClock, "queued_at", queued_at),
                     sql.convert(RankingClock, "lease_until", lease_until))


def ranking_inputs_changed(*, tournament_id: int) -> ClockBump:
    """Bump the tournament's input version (call it inside the transaction that changed the inputs).

    One upsert on the clock row, which creates it at the first change (it runs on every deal
    entered). The row lock taken here is held until commit, so versions follow the order in which
    changes commit.
    """
    with connection.cursor() as cursor:
        send_clock_bump(cursor, tournament_id=tournament_id)
        return read_clock_bump(cursor)


def ranking_refresh_claim(*, tournament_id: int) -> bool:
    """Mark a refresh as queued; False when one is already queued and has not started (coalescing).

    A claim older than :data:`QUEUE_STALE_AFTER` is taken as lost (its message never ran) and can
    be claimed again.
    """
    now = timezone.now()
    return bool(RankingClock.objects.filter(tournament_id=tournament_id)
                .filter(Q(queued_at__isnull=True) | Q(queued_at__lt=now - QUEUE_STALE_AFTER))
                .update(queued_at=now))


def ranking_refresh_unclaim(*, tournament_id: int) -> None:
    """Forget a claim whose task could not be queued (broker down): the next change queues again."""
    RankingClock.objects.filter(tournament_id=tournament_id).update(queued_at=None)


# --------------------------------------------------------------------------------------------
# The lease: one refresh running per tournament, taken over when its worker dies
# --------------------------------------------------------------------------------------------


def ranking_lease_take(*, tournament_id: int) -> Any:
    """Take the tournament's refresh lease, consuming the queued claim; the lease (its expiry, which identifies
    it), or None when another refresh holds a live lease (it will rank what this one would have)."""
    now = timezone.now()
    until = now + REFRESH_LEASE
    taken = (RankingClock.objects.filter(tournament_id=tournament_id)
             .filter(Q(lease_until__isnull=True) | Q(lease_until__lte=now))
             .update(lease_until=until, queued_at=None))
    return until if taken else None


def ranking_claim_yield(*, tournament_id: int) -> bool:
    """Forget the queued claim while another refresh holds a live lease; False when no live lease is held (the
    caller then takes the lease itself).

    A duplicate refresh (beat's, a start-up re-queue's) that finds the lease held must not leave its claim behind:
    changes would see a refresh waiting and queue nothing once the holder lets go. Conditional on the live lease,
    in one UPDATE: a change committed before it is ranked by the holder (before its release, or in its run)."""
    return bool(RankingClock.objects.filter(tournament_id=tournament_id, lease_until__gt=timezone.now())
                .update(queued_at=None))


def ranking_lease_renew(*, tournament_id: int, lease: Any) -> Any:
    """Extend a lease still held; the new lease, or None when it was lost (expired and taken over)."""
    until = timezone.now() + REFRESH_LEASE
    renewed = RankingClock.objects.filter(tournament_id=tournament_id, lease_until=lease).update(lease_until=until)
    return until if renewed else None


def ranking_lease_release(*, tournament_id: int, lease: Any, published: int) -> bool:
    """Let go of the lease if the inputs are still at version ``published``; False when they changed meanwhile
    (the refresh then runs once more) or the lease was lost.

    The UPDATE waits for the row lock of a change being committed and reads its version: a change that saw the
    lease held (and so queued nothing) is always ranked by the holder."""
    return bool(RankingClock.objects.filter(tournament_id=tournament_id, lease_until=lease, version__lte=published)
                .update(lease_until=None))


def ranking_lease_drop(*, tournament_id: int, lease: Any) -> None:
    """Let go of the lease whatever the version (the refresh failed)."""
    RankingClock.objects.filter(tournament_id=tournament_id, lease_until=lease).update(lease_until=None)


def ranking_lease_break_expired() -> list[int]:
    """Clear every expired lease (its worker died or hangs); the tournaments whose lease was cleared here (another
    worker clearing it at the same moment gets the other ones)."""
    broken = []
    for tid, lease in RankingClock.objects.filter(lease_until__lte=timezone.now()).values_list("tournament_id",
                                                                                                 "lease_until"):
        if RankingClock.objects.filter(tournament_id=tid, lease_until=lease).update(lease_until=None):
            broken.append(tid)
    return broken


def published_version(tournament_id: int) -> int:
    """The input version of the latest published snapshot (0 when none)."""
    return (RankingSnapshot.objects.filter(tournament_id=tournament_id)
            .aggregate(v=Max("input_version"))["v"] or 0)


def stale_tournament_ids() -> list[int]:
    """Tournaments whose latest snapshot is older than their inputs (or that have none yet)."""
    latest = {tid: v for tid, v in RankingSnapshot.objects.values("tournament_id")
              .annotate(v=Max("input_version")).values_list("tournament_id", "v")}
    return [tid for tid, version in RankingClock.objects.values_list("tournament_id", "version")
            if version > latest.get(tid, 0)]


# --------------------------------------------------------------------------------------------
# Inputs: SQL aggregates over the score rows
# --------------------------------------------------------------------------------------------


def released_round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.filter(Q(released=True) | Q(number__lte=tournament.released_round))
                .order_by("number").values_list("number", flat=True))


@cache
def _rounds_sql(vendor: str) -> str:
    """The tournament's rounds (id, number, released) in order of number."""
    number = sql.column(Round, "number")
    return (f"SELECT {sql.column(Round, 'id')}, {number}, {sql.column(Round, 'released')} FROM {sql.table(Round)} "
            f"WHERE {sql.column(Round, 'tournament')} = %s ORDER BY {number}")


def _round_ids(tournament: Tournament, rounds: str | Sequence[int]) -> tuple[list[int], list[int], bool]:
    """(ids, numbers) of the rounds selected, and whether they are all the tournament's rounds (one query)."""
    with connection.cursor() as cursor:  # plain cursor: see _current_version
        cursor.execute(_rounds_sql(connection.vendor), [tournament.pk])
        every = cursor.fetchall()
    if rounds == "released":
        chosen = [(i, n) for i, n, released in every if released or n <= tournament.released_round]
    elif rounds == "all":
        chosen = [(i, n) for i, n, _ in every]
    else:
        wanted = set(rounds)
        chosen = [(i, n) for i, n, _ in every if n in wanted]
    return [i for i, _ in chosen], [n for _, n in chosen], len(chosen) == len(every)


def _tie_breaks(tournament: Tournament, allowed: Sequence[str]) -> tuple[str, ...]:
    chosen = []
    for name in tournament.tie_breaks or []:
        if name in allowed and name not in chosen:
            chosen.append(name)
        else:
            log.warning("tournament %s: tie-break %r ignored (allowed: %s)", tournament.pk, name, allowed)
    return tuple(chosen)


@cache
def _tarot_totals_sql(vendor: str) -> str:
    """Marks, best deal, deals, rounds and contracts made as taker of every entry; ``{rounds}`` and ``{sheets}`` are
    left for the filters.

    An irregular deal the chief decided (a ruling on it, not withdrawn, that does not annul it) was played: its own
    rows, which count for no marks, count it among the entry's deals and rounds (the ruling's rows hold its marks).

    One level, by entry: a round counts when the entry has a deal's row in it (``COUNT(DISTINCT round)`` of the
    rows that are no ruling's). PostgreSQL reads the covering index ``scorerow_totals`` (tournament, entry, round) in
    order, so each entry's few rows are grouped as they come and their rounds told apart among themselves: at 10,000
    players 150 – 195 ms against 280 – 400 ms for the two levels used before, (entry, round) then entry, whose first
    level hashed 100,000 groups (docs/performance.md, « seventh pass »). A contract made as taker is the taker's own
    row (``ScoreRow.taker``) of a counting deal, positive: a row of a deal counts exactly when its deal is valid
    (``Deal.counts``; every change of status rewrites it)."""
    entry, points, ruling, tournament, counts, round_, deal, taker = (
        sql.column(ScoreRow, name)
        for name in ("entry", "points", "ruling", "tournament", "counts", "round", "deal", "taker"))
    e_id = sql.column(Entry, "id")
    decided = (f"SELECT r.{sql.column(Ruling, 'deal')} FROM {sql.table(Ruling)} r JOIN {sql.table(Deal)} d "
               f"ON d.{sql.column(Deal, 'id')} = r.{sql.column(Ruling, 'deal')} "
               f"WHERE d.{sql.column(Deal, 'status')} = '{Deal.Status.IRREGULAR.value}' "
               f"AND r.{sql.column(Ruling, 'withdrawn_at')} IS NULL AND NOT r.{sql.column(Ruling, 'annuls_deal')}")
    return f"""
    SELECT e.{e_id}, a.marks, a.best, a.deals, a.rounds, a.won
    FROM {sql.table(Entry)} e
    LEFT JOIN (
        SELECT {entry} AS who, SUM(CASE WHEN {counts} THEN {points} ELSE 0 END) AS marks,
               MAX(CASE WHEN {counts} AND {ruling} IS NULL THEN {points} END) AS best,
               COUNT(CASE WHEN {ruling} IS NULL THEN 1 END) AS deals,
               COUNT(DISTINCT CASE WHEN {ruling} IS NULL THEN {round_} END) AS rounds,
               COUNT(CASE WHEN {taker} AND {counts} AND {ruling} IS NULL AND {points} > 0 THEN 1 END) AS won
        FROM {sql.table(ScoreRow)}
        WHERE {tournament} = %s AND ({counts} OR ({ruling} IS NULL AND {deal} IN ({decided}))) {{rounds}} {{sheets}}
        GROUP BY {entry}
    ) a ON a.who = e.{e_id}
    WHERE e.{sql.column(Entry, 'tournament')} = %s
"""


def tarot_totals(tournament: Tournament, round_ids: Sequence[int], *, with_taker: bool = False,
                 every_round: bool | None = None) -> list[pure.TarotTotals]:
    """One SQL aggregate (:func:`_tarot_totals_sql`) over the counting rows of the given rounds.

    Every registered entry appears (0 marks when it played nothing). Rows of a ruling (adjustments)
    add to the marks but are not deals: they are left out of ``best_deal``, ``deals`` and ``rounds``
    (the rounds in which the entry has a deal, as :func:`scoring.ranking.tarot_totals` counts them).
    ``won_as_taker`` is counted always (it is shown in the ranking's metrics, a tie-break or not).
    """
    if every_round is None:
        every_round = set(round_ids) == set(tournament.rounds.values_list("id", flat=True))
    params: list[Any] = [tournament.pk]
    round_col, deal_col = sql.column(ScoreRow, "round"), sql.column(ScoreRow, "deal")
    rounds = ""
    if not every_round:  # else the filter is a no-op
        ids = [int(r) for r in round_ids] or [0]
        rounds = f"AND {round_col} IN ({', '.join(['%s'] * len(ids))})"
        params += ids
    sheets = ("" if unconfirmed_count(tournament) else
              f"AND ({deal_col} IS NULL OR {deal_col} IN ({_confirmed_deals_sql(connection.vendor)}))")
    params.append(tournament.pk)
    with connection.cursor() as cursor:
        cursor.execute(_tarot_totals_sql(connection.vendor).format(rounds=rounds, sheets=sheets), params)
        rows = cursor.fetchall()
    # PostgreSQL's SUM of counts is a numeric (a Decimal here): int() it
    return [pure.TarotTotals(entry_id, int(marks or 0), best, int(won or 0), int(deals or 0), n_rounds or 0)
            for entry_id, marks, best, deals, n_rounds, won in rows]


@cache
def _confirmed_deals_sql(vendor: str) -> str:
    """The deals whose players confirmed the current version (:class:`~tournaments.links.models.DealSheet`)."""
    deal, version = sql.column(DealSheet, "deal"), sql.column(DealSheet, "version")
    return (f"SELECT s.{deal} FROM {sql.table(DealSheet)} s JOIN {sql.table(Deal)} d "
            f"ON d.{sql.column(Deal, 'id')} = s.{deal} AND d.{sql.column(Deal, 'version')} = s.{version} "
            f"WHERE s.{sql.column(DealSheet, 'state')} = '{DealSheet.State.CONFIRMED.value}'")


def unconfirmed_count(tournament: Tournament) -> bool:
    """Whether deals its players have not confirmed count in the tournament's ranking (the organizer's
    choice, ``TablePolicy.unconfirmed_count``; they do unless he said otherwise)."""
    return not TablePolicy.objects.filter(tournament_id=tournament.pk, unconfirmed_count=False).exists()


def _sides(positions: list[int], teams: tuple[tuple[int, ...], ...] | None, winner: Any
           ) -> tuple[tuple[int, ...], int | None] | None:
    """(side of each position, winning side) of a finished match, or None when it cannot be told.

    Without partnerships each seat is a side. With them, the winner is a list of seats (one side)."""
    if teams is None:
        if isinstance(winner, list):
            winner = winner[0] if len(winner) == 1 else None
            if winner is None:
                return None
        return (), (positions.index(winner) if isinstance(winner, int) and winner in positions else None)
    side_of = {seat: k for k, side in enumerate(teams) for seat in side}
    if set(side_of) != set(positions):
        return None
    sides = tuple(side_of[p] for p in positions)
    if winner is None:
        return sides, None
    seats = winner if isinstance(winner, list) else [winner]
    won = {side_of.get(seat) for seat in seats}
    if len(won) != 1 or None in won:
        return None
    return sides, won.pop()


def _forfeits(round_ids: Sequence[int]) -> dict[int, tuple[str, set[int]]]:
    """Per table: the kind of its forfeit record and the absent entries."""
    out: dict[int, tuple[str, set[int]]] = {}
    for table_id, kind, entry_id in (Forfeit.objects.filter(table__round_id__in=list(round_ids))
                                     .values_list("table_id", "kind", "absent")):
        out.setdefault(table_id, (kind, set()))[1].add(entry_id)
    return out


def match_results(tournament: Tournament, round_ids: Sequence[int]) -> list[pure.MatchResult]:
    """One :class:`scoring.ranking.MatchResult` per finished match (a table whose match ended), and a
    bye for a table with a single seat. A match still in play counts nothing yet; one left unfinished when its
    round was ended (the round finished, the organizer having confirmed) is over and worth nothing: an
    ``unfinished`` result, its players ranked with their other results (docs/ranking.md).

    Each seat is a side, except in partnerships (Triomphe ``teams``, Écarté à quatre): the sides are
    then the teams of seats and ``Table.match_winner`` is a list of seats; every member gets the
    side's result. No winner on an ended match is a draw. A table's :class:`Forfeit` overrides what
    was played: a *forfait* gives the match to the side left present (points not counted), an
    *absence* (or a forfait with every side absent) leaves the match without a result.
    """
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, entry_id in (Seat.objects.filter(table__round_id__in=list(round_ids))
                                         .values_list("table_id", "position", "entry_id")):
        seats[table_id][position] = entry_id
    forfeits = _forfeits(round_ids)
    # a match with a deal its players have not confirmed is still in play, when unconfirmed deals do not count
    unsigned = set() if unconfirmed_count(tournament) else set(
        Deal.objects.filter(table__round_id__in=list(round_ids)).exclude(status=Deal.Status.ANNULLED)
        .exclude(sheet__state="confirmed", sheet__version=F("version")).values_list("table_id", flat=True))
    teams_at: dict[int, tuple[tuple[int, ...], ...] | None] = {}
    out = []
    tables = (Table.objects.filter(round_id__in=list(round_ids))
              .values_list("id", "number", "round__number", "match_totals", "match_winner", "match_ended",
                           "round__status"))
    for table_id, number, round_no, totals, winner, ended, round_status in tables:
        by_pos = seats.get(table_id, {})
        positions = sorted(by_pos)
        if len(positions) == 1:
            out.append(pure.MatchResult(round_no, number, (by_pos[positions[0]],), bye=True))
            continue
        if len(positions) < 2:
            continue
        entries = tuple(by_pos[p] for p in positions)
        if len(positions) not in teams_at:
            teams_at[len(positions)] = games.partnerships(tournament, len(positions))
        teams = teams_at[len(positions)]
        forfeit = forfeits.get(table_id)
        if forfeit is not None:
            result = _forfeit_result(round_no, number, positions, entries, teams, *forfeit)
            if result is not None:
                out.append(result)
            continue
        if not ended and round_status == Round.Status.FINISHED:
            # left unfinished when the round was ended (« ses joueurs ne marqueront rien pour cette manche »): over,
            # worth nothing, its players ranked with their other results (MatchResult.unfinished, docs/ranking.md)
            sided = _sides(positions, teams, None)
            if sided is not None:
                out.append(pure.MatchResult(round_no, number, entries, sides=sided[0], unfinished=True))
            continue
        if not ended or table_id in unsigned:
            continue
        sided = _sides(positions, teams, winner)
        if sided is None:
            log.warning("table %s: match winner %r does not name one side; not ranked", table_id, winner)
            continue
        sides, won = sided
        points = tuple(int(totals[p]) for p in positions) if isinstance(totals, list) and len(totals) >= len(
            positions) else ()
        out.append(pure.MatchResult(round_no, number, entries, points, won, sides=sides))
    return out


def _forfeit_result(round_no: int, number: int, positions: list[int], entries: tuple[int, ...],
                    teams: tuple[tuple[int, ...], ...] | None, kind: str, absent: set[int]
                    ) -> pure.MatchResult | None:
    if kind != Forfeit.Kind.FORFEIT:
        return None
    sided = _sides(positions, teams, None)
    if sided is None:
        return None
    sides = sided[0]
    side_of = sides or tuple(range(len(entries)))
    present = {side_of[i] for i in range(len(entries))} - {side_of[i] for i, e in enumerate(entries) if e in absent}
    if len(present) != 1:
        return None  # everyone absent (or several sides left: the match is still to be played)
    return pure.MatchResult(round_no, number, entries, (), present.pop(), forfeit=True, sides=sides)


@dataclass(frozen=True)
class Computed:
    """A ranking computed from the database, not yet published."""

    version: int
    round_numbers: tuple[int, ...]
    individual: pure.RankingSnapshot
    teams: pure.RankingSnapshot | None
    compute_ms: int


@cache
def _version_sql(vendor: str) -> str:
    return (f"SELECT {sql.column(RankingClock, 'version')} FROM {sql.table(RankingClock)} "
            f"WHERE {sql.column(RankingClock, 'tournament')} = %s")


def _current_version(tournament_id: int) -> int:
    # a plain cursor: this runs on every recomputation and the ORM would cost more than the query
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(connection.vendor), [tournament_id])
        row = cursor.fetchone()
    return row[0] if row else 0


def _members(tournament: Tournament) -> dict[int, list[int]]:
    """Team id → its entries' ids (every team, even empty)."""
    members: dict[int, list[int]] = {team_id: [] for team_id in
                                     Team.objects.filter(tournament_id=tournament.pk).values_list("id", flat=True)}
    for entry_id, team_id in (Entry.objects.filter(tournament_id=tournament.pk, team__isnull=False)
                              .values_list("id", "team_id")):
        members[team_id].append(entry_id)
    return members


def _teams_of(tournament: Tournament) -> Mapping[pure.Entry, Sequence[pure.Entry]]:
    """:func:`_members` as the pure rankings read it (their entries are ids here)."""
    return cast("Mapping[pure.Entry, Sequence[pure.Entry]]", _members(tournament))


def ranking_compute(*, tournament: Tournament, rounds: str | Sequence[int] = "released") -> Computed:
    """Rank the tournament from the database as it is now (``rounds``: "released", "all" or numbers)."""
    started = time.perf_counter()
    version = _current_version(tournament.pk)
    round_ids, numbers, every_round = _round_ids(tournament, rounds)
    teams_snapshot = None
    duplicate_setup = duplicate.setup_of(tournament) if games.duplicate_deals(tournament.game) else None
    if duplicate_setup is not None:
        tie_breaks = _tie_breaks(tournament, pure_duplicate.DUPLICATE_TIE_BREAKS)
        members = _members(tournament) if tournament.format == Tournament.Format.TEAMS else None
        individual, teams_snapshot = duplicate.rank(tournament, duplicate_setup, round_ids, tie_breaks, members)
    elif not games.plays_matches(tournament.game):
        tie_breaks = _tie_breaks(tournament, pure.TAROT_TIE_BREAKS)
        totals = tarot_totals(tournament, round_ids, with_taker="won_as_taker" in tie_breaks, every_round=every_round)
        individual = pure.rank_tarot(totals, tie_breaks=tie_breaks)
        if tournament.format == Tournament.Format.TEAMS:
            teams_snapshot = pure.rank_tarot_teams(totals, _teams_of(tournament), tie_breaks=tie_breaks)
    else:
        tie_breaks = _tie_breaks(tournament, pure.MATCH_TIE_BREAKS) if tournament.tie_breaks else (
            "buchholz", "sonneborn_berger", "margin", "wins")
        entries = Entry.objects.filter(tournament_id=tournament.pk).values_list("id", flat=True)
        results = match_results(tournament, round_ids)
        individual = pure.rank_matches(results, tie_breaks=tie_breaks, entries=entries)
        if tournament.format == Tournament.Format.TEAMS:
            teams_snapshot = pure.rank_match_teams(results, _teams_of(tournament), tie_breaks=tie_breaks)
    return Computed(version, tuple(numbers), individual, teams_snapshot,
                    int((time.perf_counter() - started) * 1000))


# --------------------------------------------------------------------------------------------
# Publishing
# --------------------------------------------------------------------------------------------


#: the memory PostgreSQL may give each hash of a publication's aggregate (``work_mem``, for its transaction only): at
#: 10,000 players the (entry, round) groups take 20 MB, and with the default 4 MB the hash spilled to disk in five
#: batches (docs/performance.md, « The lines as one document »)
PUBLISH_WORK_MEM = "32MB"


def _repeatable_read() -> None:
    """Make the current transaction read one database snapshot (PostgreSQL; SQLite does already), its aggregate
    hashed in memory (:data:`PUBLISH_WORK_MEM`)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cursor.execute(f"SET LOCAL work_mem = '{PUBLISH_WORK_MEM}'")


def latest_snapshot(tournament_id: int) -> RankingSnapshot | None:
    """The latest snapshot, its lines left in the database (:func:`snapshot_lines` reads them)."""
    return (RankingSnapshot.objects.filter(tournament_id=tournament_id).defer("lines", "team_lines")
            .order_by("-input_version").first())


def ranking_publish(*, tournament_id: int) -> RankingSnapshot | None:
    """Compute and publish the ranking at the current input version; None when already published.

    Idempotent: the version, the aggregates and the check for an existing snapshot are read in
    one transaction and one database snapshot, and (tournament, input_version) is unique.
    """
    current = _current_version(tournament_id)
    latest = (RankingSnapshot.objects.filter(tournament_id=tournament_id)
              .aggregate(v=Max("input_version"))["v"])
    if latest is not None and latest >= current:
        return None
    outermost = not connection.in_atomic_block  # inside a caller's transaction, its snapshot rules
    try:
        with pure.gc_paused(), transaction.atomic():
            if outermost:
                _repeatable_read()
            tournament = Tournament.objects.get(pk=tournament_id)
            computed = ranking_compute(tournament=tournament)
            if RankingSnapshot.objects.filter(tournament_id=tournament_id,
                                              input_version__gte=computed.version).exists():
                return None
            return _save(tournament, computed)
    except IntegrityError:  # the same version published concurrently by another worker
        return None


class JSONText(Expression):
    """A JSON value already written as text, stored as it is: the snapshot's canonical inputs, whose text the digest
    was computed from, are not decoded and encoded again (``CAST(… AS jsonb)`` on PostgreSQL, or ``json`` for a
    :class:`~tournaments.standings.models.JSONTextField` — the inputs —, only checked for syntax; SQLite keeps
    text)."""

    output_field = JSONField()

    def __init__(self, text: str, *, as_text: bool = False) -> None:
        super().__init__()
        self.text = text
        self.as_text = as_text

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        if connection.vendor != "postgresql":
            return "%s", [self.text]
        return ("CAST(%s AS json)" if self.as_text else "CAST(%s AS jsonb)"), [self.text]


def _encoded(ranked: pure.RankingSnapshot) -> tuple[str, str]:
    """The canonical JSON texts of a ranking's inputs and options: those its digest was computed from."""
    if ranked.encoded is not None:
        return ranked.encoded
    return pure.canonical_json(ranked.inputs), pure.canonical_json(ranked.options)


#: the snapshot's columns written from JSON text, read again from the database only if asked for
_JSON_TEXT_FIELDS = ("inputs", "options", "team_inputs", "team_options", "lines", "team_lines")


def _save(tournament: Tournament, computed: Computed) -> RankingSnapshot:
    """Write the snapshot in one INSERT: its canonical inputs as the text the digest was computed from (encoded
    once), and its lines as one document per unit (:func:`lines_json`), after checking set-wise that every line
    names an entry (a team) of the tournament (:func:`_check_ranked`)."""
    ind, teams = computed.individual, computed.teams
    _check_ranked(tournament.pk, ind, teams)
    inputs, options = _encoded(ind)
    team_inputs, team_options = _encoded(teams) if teams else (None, None)
    snapshot = RankingSnapshot.objects.create(
        tournament=tournament, input_version=computed.version, kind=ind.kind, criteria=list(ind.criteria),
        released_rounds=list(computed.round_numbers), inputs=JSONText(inputs, as_text=True), options=JSONText(options),
        digest=ind.digest, team_inputs=JSONText(team_inputs, as_text=True) if team_inputs is not None else None,
        team_options=JSONText(team_options) if team_options is not None else None,
        team_digest=teams.digest if teams else "", compute_ms=computed.compute_ms,
        lines=JSONText(lines_json(ind), as_text=True),
        team_lines=JSONText(lines_json(teams), as_text=True) if teams else None)
    for name in _JSON_TEXT_FIELDS:  # deferred: read from the database if anyone asks
        if isinstance(snapshot.__dict__.get(name), JSONText):
            del snapshot.__dict__[name]
    return snapshot


@cache
def _ids_sql(vendor: str, model: type[Entry] | type[Team]) -> str:
    return (f"SELECT {sql.column(model, 'id')} FROM {sql.table(model)} "
            f"WHERE {sql.column(model, 'tournament')} = %s")


def _check_ranked(tournament_id: int, ind: pure.RankingSnapshot, teams: pure.RankingSnapshot | None) -> None:
    """Refuse to publish a line naming an entry (a team) that is not the tournament's: what the line rows' foreign
    keys checked one trigger per row at commit, here one query per unit read in the publication's own database
    snapshot (the one the ranking was computed in), compared as sets."""
    for ranked, model in ((ind, Entry), (teams, Team)):
        if ranked is None or not ranked.lines:
            continue
        with connection.cursor() as cursor:
            cursor.execute(_ids_sql(connection.vendor, model), [tournament_id])
            known = {row[0] for row in cursor.fetchall()}
        stray = {line.entry for line in ranked.lines} - known
        if stray:
            raise ValueError(f"tournament {tournament_id}: ranked {model.__name__.lower()} ids {sorted(stray)[:5]} "
                             f"are not the tournament's")


def lines_json(ranked: pure.RankingSnapshot) -> str:
    """A ranking's lines as one JSON document, in order: ``{"metrics": [name, …], "rows": [[rank, shared, id,
    value, …], …]}`` — the metric names once (every line of a ranking has the same, in the same order), a fraction
    as ``"n/d"``, ``shared`` when another line holds the same rank. 10,000 lines in a few milliseconds: the values
    written by hand (:func:`_value_json`), the document joined once."""
    lines = ranked.lines
    names = [name for name, _ in lines[0].metrics] if lines else []
    counts: dict[int, int] = defaultdict(int)
    for line in lines:
        counts[line.rank] += 1
    value = _value_json
    rows: list[str] = []
    append = rows.append
    for line in lines:
        metrics = line.metrics
        if [name for name, _ in metrics] != names:
            raise ValueError(f"line of {line.entry!r}: metrics {[n for n, _ in metrics]} where the ranking has "
                             f"{names}")
        append("[" + ",".join([str(line.rank), "true" if counts[line.rank] > 1 else "false", value(line.entry),
                               *[value(v) for _, v in metrics]]) + "]")
    header = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
    return '{"metrics":' + header + ',"rows":[' + ",".join(rows) + "]}"


def _value_json(value: Any) -> str:
    kind = type(value)
    if kind is int:
        return str(value)
    if value is None:
        return "null"
    if kind is Fraction:
        return f'"{value.numerator}/{value.denominator}"'
    return json.dumps(_metric_json(value), ensure_ascii=False)


def _metric_json(value: Any) -> Any:
    return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else value


def ranking_refresh(*, tournament_id: int) -> RankingSnapshot | None:
    """Consume the queued claim, then publish (no lease: the refresh task's loop,
    :func:`tournaments.standings.tasks.ranking_refresh`, holds one around this)."""
    RankingClock.objects.filter(tournament_id=tournament_id).update(queued_at=None)
    return ranking_publish(tournament_id=tournament_id)


# --------------------------------------------------------------------------------------------
# Reading: status, regeneration, comparison
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingStatus:
    snapshot: RankingSnapshot | None
    version: int

    @property
    def up_to_date(self) -> bool:
        """False when entries were saved after the snapshot (no worker, or a refresh under way)."""
        if self.snapshot is None:
            return self.version == 0
        return self.snapshot.input_version >= self.version


def ranking_status(tournament: Tournament) -> RankingStatus:
    return RankingStatus(latest_snapshot(tournament.pk), _current_version(tournament.pk))


class Unit(StrEnum):
    """Whose lines: the entries', or the teams' (a team tournament)."""

    ENTRY = "entry"
    TEAM = "team"


class Line(NamedTuple):
    """One line of a published ranking: its place in the order (from 1), its rank, whether another line holds the
    same rank, the entry's id (or the team's), and every metric as stored — ``(name, value)``, a fraction as
    ``"n/d"`` (:func:`metric_value` gives the number)."""

    position: int
    rank: int
    shared: bool
    entry_id: int | None
    team_id: int | None
    metrics: tuple[tuple[str, Any], ...]

    def value(self, name: str) -> int | Fraction | None:
        """A metric as a number (None when the line has no such metric)."""
        return metric_value(dict(self.metrics).get(name))


#: (snapshot, unit) lines kept in each process: a snapshot never changes
_LINES_KEPT = 8
_lines_memo: OrderedDict[tuple[Any, ...], tuple[tuple[Line, ...], dict[Any, int]]] = OrderedDict()
_lines_lock = Lock()


def _lines_key(snapshot: RankingSnapshot, unit: str) -> tuple[Any, ...]:
    # the time too: a test database may give a rolled-back snapshot's id to a new one
    return snapshot._state.db, snapshot.pk, snapshot.created_at, str(unit)


def _lines_kept(snapshot: RankingSnapshot, unit: str) -> tuple[tuple[Line, ...], dict[Any, int]]:
    key = _lines_key(snapshot, unit)
    with _lines_lock:
        kept = _lines_memo.get(key)
        if kept is not None:
            _lines_memo.move_to_end(key)
            return kept
    field = "team_lines" if unit == Unit.TEAM else "lines"
    if field in snapshot.__dict__:
        document = snapshot.__dict__[field]
    else:  # its own column alone: not the inputs (megabytes) a whole snapshot would read
        document = (RankingSnapshot.objects.using(snapshot._state.db).filter(pk=snapshot.pk)
                    .values_list(field, flat=True).first())
    lines = lines_of(document, unit)
    where: dict[Any, int] = {(line.team_id if unit == Unit.TEAM else line.entry_id): i for i, line in enumerate(lines)}
    kept = (lines, where)
    with _lines_lock:
        _lines_memo[key] = kept
        while len(_lines_memo) > _LINES_KEPT:
            _lines_memo.popitem(last=False)
    return kept


def lines_of(document: Any, unit: str = Unit.ENTRY) -> tuple[Line, ...]:
    """The lines of a stored document (:func:`lines_json`; None: no lines). A ``null`` row is a line whose entry
    was deleted before the lines became a document (migration 0025): its place is kept, the line is not."""
    if not document:
        return ()
    names = tuple(document["metrics"])
    width = len(names)
    team = unit == Unit.TEAM
    out = []
    for position, row in enumerate(document["rows"], start=1):
        if row is None:
            continue
        ident = row[2]
        values = row[3:]
        if len(values) != width:
            raise ValueError(f"line {position}: {len(values)} values for the metrics {list(names)}")
        out.append(Line(position, row[0], bool(row[1]), None if team else ident, ident if team else None,
                        tuple(zip(names, values, strict=True))))
    return tuple(out)


def snapshot_lines(snapshot: RankingSnapshot, unit: str = Unit.ENTRY) -> tuple[Line, ...]:
    """A published snapshot's lines (``unit``: the entries', or the teams'), in order; read once per snapshot in
    each process (its ``lines`` column alone) and kept. Lines whose entry was deleted since are still here: the
    readers skip them (see the module's docstring)."""
    return _lines_kept(snapshot, unit)[0]


def snapshot_line(snapshot: RankingSnapshot, ident: int, unit: str = Unit.ENTRY) -> Line | None:
    """One entry's (or team's) line of a snapshot, or None when it has none."""
    lines, where = _lines_kept(snapshot, unit)
    i = where.get(ident)
    return lines[i] if i is not None else None


@dataclass(frozen=True)
class Place:
    """An entry's place as the public ranking shows it: its line, its rank among the lines with a result (None:
    shown « — », listed last: not played yet, or its match still in play), whether that rank is shared, and the
    count of lines shown (the « sur n » of the ranking's explanations)."""

    snapshot: RankingSnapshot
    line: Line
    rank: int | None
    shared: bool
    field: int
    in_play: bool = False


#: per snapshot (:func:`_lines_key`): each ranked entry's shown rank, how many hold each rank, the lines shown
_shown_memo: OrderedDict[tuple[Any, ...], tuple[dict[int, int], dict[int, int], int]] = OrderedDict()


def _shown_ranks(snapshot: RankingSnapshot) -> tuple[dict[int, int], dict[int, int], int]:
    """The entries' ranks as the public ranking shows them (:func:`scoring.ranking.shown_ranks`): the lines with no
    result (:func:`scoring.ranking.played`) and those whose entry was deleted since left out; computed once per
    snapshot in this process."""
    key = _lines_key(snapshot, Unit.ENTRY)
    with _lines_lock:
        kept = _shown_memo.get(key)
    if kept is not None:
        return kept
    existing = set(Entry.objects.using(snapshot._state.db).filter(tournament_id=snapshot.tournament_id)
                   .values_list("id", flat=True))
    ranks: dict[int, int] = {}
    first_at: dict[int, int] = {}
    shown = 0
    for line in snapshot_lines(snapshot):  # in ranking order
        if line.entry_id not in existing:
            continue
        shown += 1
        if pure.played(dict(line.metrics)):
            ranks[line.entry_id] = first_at.setdefault(line.rank, len(ranks) + 1)
    holders: dict[int, int] = defaultdict(int)
    for rank in ranks.values():
        holders[rank] += 1
    kept = (ranks, dict(holders), shown)
    with _lines_lock:
        _shown_memo[key] = kept
        while len(_shown_memo) > _LINES_KEPT:
            _shown_memo.popitem(last=False)
    return kept


def entry_place(tournament_id: int, entry_id: int) -> Place | None:
    """An entry's place in the latest published ranking as the public ranking shows it (:class:`Place`); None
    before a ranking with a released round is published, or when it has no line of his. One small statement (the
    header by the tournament's index), the lines read once per snapshot in this process (:func:`snapshot_line`):
    cheap enough for a player's own page, polled from a phone."""
    snapshot = (RankingSnapshot.objects.filter(tournament_id=tournament_id)
                .only("id", "created_at", "tournament_id", "input_version", "kind", "options", "released_rounds")
                .order_by("-input_version").first())
    if snapshot is None or not snapshot.released_rounds:
        return None  # nothing released: no rank yet (every line at 0, « 1er ex aequo » said nothing)
    line = snapshot_line(snapshot, entry_id)
    if line is None:
        return None
    ranks, holders, field = _shown_ranks(snapshot)
    rank = ranks.get(entry_id)
    if rank is None:
        return Place(snapshot, line, None, False, field, entry_id in in_play(snapshot))
    return Place(snapshot, line, rank, holders[rank] > 1, field)


def in_play(snapshot: RankingSnapshot, unit: str = Unit.ENTRY) -> set[int]:
    """The entries (or the teams of the entries) seated at a match still in play in the snapshot's rounds: a table
    of two seats or more with a deal entered (not annulled) and no forfeit record, whose result the snapshot does
    not count yet. A game of deals (Tarot, duplicate) counts each deal: none there."""
    if snapshot.kind not in (pure.MATCHES_KIND, pure.TEAM_KINDS[pure.MATCHES_KIND]) or not snapshot.released_rounds:
        return set()
    tables = set(Deal.objects.filter(table__round__tournament_id=snapshot.tournament_id,
                                     table__round__number__in=list(snapshot.released_rounds),
                                     table__forfeit__isnull=True)
                 .exclude(status=Deal.Status.ANNULLED).values_list("table_id", flat=True))
    if not tables:
        return set()
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in Seat.objects.filter(table_id__in=tables).values_list("table_id", "entry_id"):
        seated[table_id].append(entry_id)
    entries = {e for ids in seated.values() if len(ids) >= 2 for e in ids}
    if unit != Unit.TEAM:
        return entries
    return set(Entry.objects.filter(pk__in=entries, team__isnull=False).values_list("team_id", flat=True))


def snapshot_ranking(snapshot: RankingSnapshot, *, teams: bool = False) -> pure.RankingSnapshot:
    """The pure ranking of a stored snapshot, rebuilt from its own inputs with
    :func:`scoring.snapshots.regenerate`; raises if it does not come out with the stored digest."""
    if teams:
        kind = pure.TEAM_KINDS.get(snapshot.kind, pure.TEAM_KINDS[pure.MATCHES_KIND])
        inputs, options, digest = snapshot.team_inputs, snapshot.team_options, snapshot.team_digest
    else:
        kind, inputs, options, digest = snapshot.kind, snapshot.inputs, snapshot.options, snapshot.digest
    stub = pure.RankingSnapshot(kind, tuple(snapshot.criteria), (), decode(inputs), decode(options), digest)
    rebuilt = snapshots.regenerate(stub)
    if rebuilt.digest != digest:
        raise ValueError(f"snapshot {snapshot.pk}: inputs do not match the stored digest")
    object.__setattr__(rebuilt, "encoded", None)  # its JSON text is in the database: not kept in a page's memory
    return rebuilt


def snapshot_compare(old: RankingSnapshot, new: RankingSnapshot) -> pure.RankingDiff:
    return pure.diff(snapshot_ranking(old), snapshot_ranking(new))


# --------------------------------------------------------------------------------------------
# JSON encoding of the pure inputs (dataclasses by name and fields, Fractions as "n/d")
# --------------------------------------------------------------------------------------------

_CLASSES = {cls.__name__: cls for cls in (pure.TarotTotals, pure.ScoreRow, pure.MatchResult, pure.MatchPoints,
                                          pure_duplicate.BoardResult)}


def encode(obj: Any) -> Any:
    if is_dataclass(obj) and not isinstance(obj, type):
        return [type(obj).__name__, *(encode(getattr(obj, f.name)) for f in fields(obj))]
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, tuple | list):
        return [encode(x) for x in obj]
    return obj


def decode(obj: Any) -> Any:
    if isinstance(obj, list):
        if obj and isinstance(obj[0], str) and obj[0] in _CLASSES:
            return _CLASSES[obj[0]](*(decode(x) for x in obj[1:]))
        return tuple(decode(x) for x in obj)
    return obj


def metric_value(value: Any) -> int | Fraction | None:
    """A stored metric back to a number ("7/2" → Fraction(7, 2))."""
    if isinstance(value, str) and "/" in value:
        n, d = value.split("/")
        return Fraction(int(n), int(d))
    return value


def line_played(metrics: Mapping[str, Any]) -> bool:
    """Whether a line's entry has played (its metrics as stored): a deal (Tarot), a match or a bye (the games played
    to a target), an étui (duplicate: a player on a bye, or at a table of 3 that entered nothing, has none). One who
    has not is listed after those who have, without a rank (« — »)."""
    return pure.played(metrics)


def metrics_dict(line: Line) -> dict[str, Any]:
    return {name: metric_value(value) for name, value in line.metrics}


def released_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The rounds whose results are published, in order."""
    return tournament.rounds.filter(Q(released=True) | Q(number__lte=tournament.released_round)).order_by("number")
