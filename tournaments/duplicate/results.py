"""Duplicate Tarot, the reading side: the results of a duplicate as ``scoring.duplicate`` inputs.

A seat's result on an étui is its score row for the deal the table played as that étui (the
table's n-th deal is the n-th étui of its movement card); its orientation is its seat's
position; a fouled deal carries the fingerprint of the cards really played; the arbiter's
artificial results replace the played ones. Rulings' point adjustments do not enter a duplicate
comparison (A-T13 gives artificial results instead): the one exception is the ruling that decides an irregular
deal (``Ruling.decision``), whose rows stand for the deal's own, which never count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext_lazy

from scoring import duplicate as pure
from tournaments.common import games
from tournaments.common.collation import french_key
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.duplicate.models import ArtificialResult, DuplicateSetup, DuplicateTable, Etui, EtuiPlay
from tournaments.event.models import Entry, Seat, Tournament

#: the seats of a duplicate table, in the order of play
ORIENTATIONS = (gettext_lazy("North"), gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"))

def setup_of(tournament: Tournament) -> DuplicateSetup | None:
    return DuplicateSetup.objects.filter(tournament_id=tournament.pk).first()


def sat_out(tournament: Tournament, numbers: Sequence[int] | None = None, *, entry_id: int | None = None
            ) -> dict[int, list[Entry]]:
    """Who sits out of each seated round of a duplicate tournament (« exempt »: the players over a multiple of four
    when « Joueurs en surnombre » is « exempts », or one over a table of 3): round number → the entries registered
    for it (not withdrawn, arrived by then) with no seat at any of its tables, by name as French sorts it; only the
    rounds ``numbers`` (all when None), only ``entry_id``'s when given. Empty for a tournament that is not duplicate
    (a game of two seats its bye alone at a table of one seat)."""
    if not games.duplicate_deals(tournament.game) or not DuplicateSetup.objects.filter(
            tournament_id=tournament.pk).exists():  # a game of two: no statement at all
        return {}
    seats = Seat.objects.filter(table__round__tournament_id=tournament.pk)
    if numbers is not None:
        seats = seats.filter(table__round__number__in=list(numbers))
    seated: dict[int, set[int]] = {}
    if entry_id is not None:  # one player (his link, polled): his seats and the seated rounds, not every seat
        for number in seats.order_by().values_list("table__round__number", flat=True).distinct():
            seated[number] = set()
        for number in seats.filter(entry_id=entry_id).values_list("table__round__number", flat=True):
            seated[number].add(entry_id)
    else:
        for number, entry in seats.values_list("table__round__number", "entry_id"):
            seated.setdefault(number, set()).add(entry)
    if not seated:
        return {}
    entries = Entry.objects.filter(tournament_id=tournament.pk, withdrawn=False).select_related("player")
    if entry_id is not None:
        entries = entries.filter(pk=entry_id)
    everyone = sorted(entries, key=lambda e: french_key(e.player.name))
    out = {number: [e for e in everyone if e.from_round <= number and e.pk not in seated[number]]
           for number in sorted(seated)}
    return {number: entries_ for number, entries_ in out.items() if entries_}


def board_results(tournament: Tournament, round_ids: Sequence[int] | None = None,
                  boards: Sequence[int] | None = None) -> list[pure.BoardResult]:
    """Every result of the duplicate (of the rounds ``round_ids``, of the étuis ``boards``)."""
    return [pure.BoardResult(*row[1:]) for row in _result_rows(tournament, round_ids, boards)]


def board_rows(tournament: Tournament, round_ids: Sequence[int] | None = None) -> pure.ResultRows:
    """:func:`board_results` as rows (``scoring.duplicate.ResultRows``): what the ranking reads, without an object
    per result (262,144 at 1,024 players, built at each publication before)."""
    return pure.ResultRows(_result_rows(tournament, round_ids, None))


def _result_rows(tournament: Tournament, round_ids: Sequence[int] | None,
                 boards: Sequence[int] | None) -> list[tuple[Any, ...]]:
    """The results as rows: ("BoardResult", board, orientation, entry, mark, fingerprint, artificial, round, table).

    A score row counts when its table is in the movement (``DuplicateTable``), its deal number is on the table's
    card (the n-th deal is the n-th étui), its étui is wanted, the arbiter gave that seat no artificial result on
    it, and it is the deal's own row or the row of the ruling that decided the (irregular) deal; the artificial
    results follow."""
    tables = DuplicateTable.objects.filter(table__round__tournament_id=tournament.pk)
    seats = Seat.objects.filter(table__round__tournament_id=tournament.pk)
    plays = EtuiPlay.objects.filter(table__round__tournament_id=tournament.pk, fouled=True)
    if round_ids is not None:  # a join on the round, not ``table_id IN (2,048 ids)`` (a query not cached, 2,048 params)
        tables = tables.filter(table__round_id__in=round_ids)
        seats = seats.filter(table__round_id__in=round_ids)
        plays = plays.filter(table__round_id__in=round_ids)
    plan = {t: (b, rn, tn) for t, b, rn, tn in tables.values_list("table_id", "boards", "table__round__number",
                                                                  "table__number")}
    if not plan:
        return []
    positions = {(t, e): p for t, e, p in seats.values_list("table_id", "entry_id", "position") if t in plan}
    fouled = dict(plays.values_list("deal_id", "fingerprint"))
    artificial = {(number, entry): (kind, table) for number, entry, kind, table in ArtificialResult.objects.filter(
        etui__tournament_id=tournament.pk).values_list("etui__number", "entry_id", "kind", "table_id")}
    wanted = set(boards) if boards is not None else None
    # a seat's result is its deal's own row — or, for an irregular deal (its own rows never count), the row of the
    # ruling that decided it; any other ruling's points stay out of the comparison (one result a seat, A-T13)
    deciding = list(Ruling.objects.filter(tournament_id=tournament.pk, deal__isnull=False, withdrawn_at__isnull=True)
                    .exclude(decision="").values_list("pk", flat=True))
    own = Q(ruling__isnull=True) | Q(ruling_id__in=deciding) if deciding else Q(ruling__isnull=True)
    rows = ScoreRow.objects.filter(own, tournament_id=tournament.pk, deal__isnull=False, counts=True)
    if round_ids is not None:
        rows = rows.filter(round_id__in=round_ids)
    # no order (the model's default one joined five tables and sorted 262,144 rows on disk): the ranking sorts
    rows = (rows.exclude(deal__status=Deal.Status.ANNULLED).order_by()
            .values_list("table_id", "entry_id", "points", "deal_id", "deal__number"))
    try:
        sql, params = rows.query.sql_with_params()
    except EmptyResultSet:  # no round chosen (``round__in=[]``): what the queryset would have given
        fetched: list[tuple[Any, ...]] = []
    else:
        with connection.cursor() as cursor:  # the query's SQL on a plain cursor: 262,144 rows at 1,024 players
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
    out: list[tuple[Any, ...]] = []
    add = out.append
    name = pure.BoardResult.__name__
    for table_id, entry_id, points, deal_id, number in fetched:  # a loop: quicker here than C passes over columns
        planned = plan.get(table_id)
        if planned is None:
            continue  # a table outside the movement
        order, round_no, table_no = planned
        if not 0 < number <= len(order):
            continue
        board = order[number - 1]
        if (wanted is not None and board not in wanted) or (board, entry_id) in artificial:
            continue
        add((name, board, positions[(table_id, entry_id)], entry_id, points, fouled.get(deal_id, ""), None,
             round_no, table_no))
    for (board, entry_id), (kind, table_id) in artificial.items():
        if table_id in plan and (wanted is None or board in wanted):
            _order, round_no, table_no = plan[table_id]
            add((name, board, positions.get((table_id, entry_id), 0), entry_id, None, "", kind, round_no, table_no))
    return out


def expected_tables(tournament: Tournament, round_ids: Sequence[int] | None = None) -> dict[int, int]:
    """E per étui: the tables of the movement that play it."""
    counts: Counter[int] = Counter()
    tables = DuplicateTable.objects.filter(table__round__tournament_id=tournament.pk)
    if round_ids is not None:
        tables = tables.filter(table__round_id__in=round_ids)
    for boards in tables.values_list("boards", flat=True):
        counts.update(boards)
    return dict(counts)


def rank(tournament: Tournament, setup: DuplicateSetup, round_ids: Sequence[int], tie_breaks: Sequence[str],
         members: dict[int, list[int]] | None = None) -> tuple[pure.RankingSnapshot, pure.RankingSnapshot | None]:
    """The duplicate ranking of the rounds ``round_ids`` (and of the teams, when ``members``)."""
    results = board_rows(tournament, round_ids)
    expected = expected_tables(tournament, round_ids)
    used = results.boards()
    expected = {b: e for b, e in expected.items() if b in used}
    entries = tournament.entries.values_list("id", flat=True)
    individual = pure.rank_duplicate(results, method=setup.method, score=setup.score, tie_breaks=tie_breaks,
                                     expected=expected, entries=entries)
    teams = None
    if members is not None:
        teams = pure.rank_duplicate_teams(results, members, method=setup.method, score=setup.score,
                                          tie_breaks=tie_breaks, expected=expected)
    return individual, teams


@dataclass(frozen=True)
class TravellerLine:
    """One line of an étui's traveller: the table, the four players, the marks, the seat's percentage."""

    table: int
    round: int
    names: tuple[str, ...]
    marks: tuple[int | None, ...]
    percentages: tuple[Fraction | None, ...]
    fouled: bool
    mine: bool = False


@dataclass(frozen=True)
class Traveller:
    etui: Etui
    lines: tuple[TravellerLine, ...]
    expected: int


def traveller(tournament: Tournament, etui: Etui, *, mine_table: int | None = None, so_far: bool = False) -> Traveller:
    """The « feuille ambulante » of an étui: every table that played it, best North result first.

    ``so_far``: the percentages compare the tables that have played it so far (the table's view
    right after its entry); otherwise on the full field with Neuberg (the published traveller).
    """
    return travellers(tournament, [etui], mine_table=mine_table, so_far=so_far)[etui.number]


def travellers(tournament: Tournament, etuis: Sequence[Etui], *, mine_table: int | None = None,
               so_far: bool = False) -> dict[int, Traveller]:
    """:func:`traveller` of each of ``etuis`` by number, their results read once for all (a table's étuis page
    read every result of the tournament once per étui)."""
    results = board_results(tournament, None, [etui.number for etui in etuis])
    by_board: dict[int, list[pure.BoardResult]] = {}
    for r in results:
        by_board.setdefault(r.board, []).append(r)
    field = expected_tables(tournament) if not so_far else {}
    names = dict(Entry.objects.filter(pk__in={r.entry for r in results})  # their players', not the tournament's
                 .values_list("pk", "player__name"))
    out = {}
    for etui in etuis:
        mine = by_board.get(etui.number, [])
        expected = None
        if not so_far:
            per_orientation = Counter(r.orientation for r in mine)
            expected = {etui.number: max([field.get(etui.number, 0), *per_orientation.values()])}
        scored = pure.score_results(mine, expected=expected) if mine else []
        by_table: dict[tuple[int, int], dict[int, pure.ScoredResult]] = {}
        for s in scored:
            by_table.setdefault((s.result.round, s.result.table), {})[s.result.orientation] = s
        lines = []
        for (round_no, table_no), seats in by_table.items():
            ordered = [seats.get(o) for o in range(max(seats) + 1)]
            lines.append(TravellerLine(
                table_no, round_no, tuple(names.get(s.result.entry, "") if s else "" for s in ordered),
                tuple(s.result.mark if s else None for s in ordered),
                tuple(s.percentage if s else None for s in ordered),
                any(s is not None and s.result.fingerprint != "" for s in ordered), table_no == mine_table))
        lines.sort(key=lambda ln: (ln.fouled, -(ln.marks[0] if ln.marks and ln.marks[0] is not None else -10**9),
                                   ln.round, ln.table))
        out[etui.number] = Traveller(etui, tuple(lines), (expected or {}).get(etui.number, len(lines)))
    return out


@dataclass(frozen=True)
class EntryBoard:
    """An étui a player played: where (round, table, the table's deal number), his percentage on it as the
    published traveller gives it (the full field, Neuberg), and the artificial result that replaced his deal."""

    round: int
    table: int
    deal: int
    board: int
    percentage: Fraction | None
    artificial: str | None


def entry_boards(tournament: Tournament, entry_id: int,
                 round_numbers: Sequence[int]) -> dict[tuple[int, int], EntryBoard]:
    """The étuis ``entry_id`` played in the rounds ``round_numbers``, by (round, the table's deal number)."""
    plan = list(DuplicateTable.objects.filter(table__round__tournament_id=tournament.pk,
                                              table__round__number__in=list(round_numbers),
                                              table__seats__entry_id=entry_id)
                .values_list("boards", "table__round__number", "table__number"))
    boards = sorted({b for order, _round, _table in plan for b in order})
    if not boards:
        return {}
    by_board: dict[int, list[pure.BoardResult]] = {}
    for r in board_results(tournament, None, boards):
        by_board.setdefault(r.board, []).append(r)
    field = expected_tables(tournament)
    mine: dict[int, pure.ScoredResult] = {}
    for board, results in by_board.items():  # as :func:`travellers` compares them, on the full field
        per_orientation = Counter(r.orientation for r in results)
        expected = {board: max([field.get(board, 0), *per_orientation.values()])}
        for scored in pure.score_results(results, expected=expected):
            if scored.result.entry == entry_id:
                mine[board] = scored
    out = {}
    for order, round_no, table_no in plan:
        for number, board in enumerate(order, start=1):
            s = mine.get(board)
            out[(round_no, number)] = EntryBoard(round_no, table_no, number, board, s.percentage if s else None,
                                                 s.result.artificial if s else None)
    return out


def round_boards(round_id: int) -> tuple[dict[int, list[int]], dict[tuple[int, int], dict[int, str]]]:
    """A duplicate round's tables: each table's étuis in the order it plays them (table id → étui numbers), and
    the artificial results given there ((table id, étui) → entry id → kind)."""
    order = dict(DuplicateTable.objects.filter(table__round_id=round_id).values_list("table_id", "boards"))
    given: dict[tuple[int, int], dict[int, str]] = {}
    for table_id, board, entry_id, kind in ArtificialResult.objects.filter(table__round_id=round_id).values_list(
            "table_id", "etui__number", "entry_id", "kind"):
        given.setdefault((table_id, board), {})[entry_id] = kind
    return order, given


def released_q(tournament: Tournament) -> Q:
    return Q(released=True) | Q(number__lte=tournament.released_round)
