"""What the public pages and exports read: only released rounds, only counting marks in totals."""

from __future__ import annotations

import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from threading import Lock
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from scoring import ranking as pure
from scoring.sheets import deal_columns
from tournaments.common import games
from tournaments.common import kept as cache  # the cache, or none when it is down
from tournaments.common.collation import french_key
from tournaments.common.elision import with_name
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Forfeit, Ruling, ScoreRow
from tournaments.event.models import Entry, Round, Seat, Table, Team, Tournament
from tournaments.standings import rankings
from tournaments.standings.formats import metric_text, percent_columns, percent_text
from tournaments.standings.models import RankingSnapshot

LABELS = {
    "marks": _("Total"), "best_deal": _("Best deal"), "won_as_taker": _("Contracts made"), "deals": _("Deals"),
    "rounds": _("Rounds"), "members": _("Members"), "match_points": _("Match points"), "buchholz": _("Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"), "margin": _("Margin"), "wins": _("Wins"), "draws": _("Draws"),
    "losses": _("Losses"), "byes": _("Byes"), "played": _("Played"), "points_for": _("Points for"),
    "points_against": _("Points against"),
    "score": _("Result"), "boards": _("Étuis played"), "best_board": _("Best étui"), "tops": _("Tops"),
}
#: columns shown on the ranking, per kind of snapshot
COLUMNS = {
    pure.MARKS_KIND: ("marks", "deals", "best_deal"),
    pure.TEAM_KINDS[pure.MARKS_KIND]: ("marks", "members", "deals"),
    pure.MATCHES_KIND: ("match_points", "wins", "draws", "losses", "byes", "buchholz", "sonneborn_berger", "margin"),
    pure.TEAM_KINDS[pure.MATCHES_KIND]: ("match_points", "members", "wins", "draws", "losses", "buchholz", "margin"),
    pure.DUPLICATE_KIND: ("score", "boards", "best_board", "tops"),
    pure.TEAM_KINDS[pure.DUPLICATE_KIND]: ("score", "boards", "tops"),
}
#: the team columns that go with each kind of individual snapshot
TEAM_KINDS = pure.TEAM_KINDS


@dataclass
class Row:
    position: int
    rank: int
    shared: bool
    name: str
    club: str
    entry_id: int | None
    team_id: int | None
    values: list[Any]
    explain: str
    withdrawn: bool = False
    played: bool = True
    """False for an entry with no deal, match or bye yet: listed last, without a rank (« — »)."""
    figures: list[Any] = field(default_factory=list)
    """The ``values`` without their unit (« 83,33 » for « 83,33 % »): what the CSV writes."""


@dataclass
class Ranking:
    snapshot: RankingSnapshot | None
    up_to_date: bool
    version: int
    columns: list[tuple[str, str]] = field(default_factory=list)
    criteria: list[tuple[str, str]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    team_columns: list[tuple[str, str]] = field(default_factory=list)
    team_rows: list[Row] = field(default_factory=list)
    by_entry: dict[int, Row] = field(default_factory=dict)
    """Each entry's row (of ``rows``) by its id."""
    percent: frozenset[str] = frozenset()
    """The columns (of ``columns``) that are percentages: their values read « 83,33 % »."""


#: bump when the rows' words change (the explanations: a large level group counted since « 2 »; the percentages'
#: unit and the bare figures since « 3 »; the étuis and artificial results of a duplicate player's page since « 4 »;
#: « 1 point » in the singular since « 5 »; « 1 match point » in English since « 6 »; the ranks shown, never an
#: unranked line's, in the explanations, a match in play said, a duplicate entry without an étui unranked since « 7 »;
#: « Aucun étui joué » for it since « 8 »; a match left unfinished when its round was ended ranked, « Partie non
#: terminée » said, since « 9 »)
ROWS_VERSION = "9"


def rows_key(snapshot: RankingSnapshot, unit: str, lang: str) -> str:
    """What identifies a snapshot's rows in one language (snapshots never change)."""
    return (f"levee:ranking:{snapshot.pk}:{snapshot.digest}:{snapshot.created_at.timestamp()}:{unit}:{lang}:"
            f"{ROWS_VERSION}")


#: rows kept in each process, so that a page does not unpickle 1,000 rows from the cache at every request
_ROWS_KEPT = 16
_rows_memo: OrderedDict[str, list[Row]] = OrderedDict()
_rows_lock = Lock()


def forget_rows(prefixes: Iterable[str]) -> int:
    """Drop this process's copies of the snapshots' rows whose keys begin with one of ``prefixes``; how many."""
    starts = tuple(prefixes)
    with _rows_lock:
        gone = [key for key in _rows_memo if key.startswith(starts)] if starts else []
        for key in gone:
            del _rows_memo[key]
    return len(gone)


def _rows(snapshot: RankingSnapshot, unit: str, columns: tuple[str, ...], lang: str) -> list[Row]:
    """The lines of a snapshot with names and the words explaining each rank, in ``lang`` (computed once:
    kept in this process and in Django's cache, shared by the processes when it is Redis; by one process at a
    time: :func:`_computed_once`)."""
    key = rows_key(snapshot, unit, lang)
    with _rows_lock:
        kept = _rows_memo.get(key)
    if kept is not None:
        return kept
    cached = cache.get(key)
    if cached is None:
        cached = _computed_once(key, lambda: _compute_rows(snapshot, unit, columns, lang))
    with _rows_lock:
        _rows_memo[key] = cached
        while len(_rows_memo) > _ROWS_KEPT:
            _rows_memo.popitem(last=False)
    return cached


#: how long a snapshot's rows are kept in the cache (a snapshot never changes: this only bounds the memory)
ROWS_TIMEOUT = 3600
#: seconds a process may hold the lock on computing a snapshot's rows (then it is let go: a process that died)
ROWS_LOCK_SECONDS = 30.0
#: seconds a reader waits for the rows another process is computing before computing them itself
ROWS_WAIT_SECONDS = 10.0
#: how often a waiting reader looks for them
ROWS_POLL_SECONDS = 0.02


#: False in the print worker's renders (:func:`alone`): they compute what they miss themselves, neither taking the lock
#: nor waiting for it (a web request waiting on a render of the print worker, which runs below the web, waited seconds)
_share_lock: ContextVar[bool] = ContextVar("levee_rows_lock", default=True)


@contextmanager
def alone() -> Iterator[None]:
    """Within it, rows missing from the cache are computed here, without the lock: for the background renders."""
    token = _share_lock.set(False)
    try:
        yield
    finally:
        _share_lock.reset(token)


def _computed_once(key: str, compute: Callable[[], list[Row]]) -> list[Row]:
    """A snapshot's rows that are not in the cache, computed by one process at a time and put there: the first to
    take the lock (``<key>:computing``) computes them (a web request); the others (the other web processes and
    threads, asking for the same new ranking) wait for them
    in the cache, at most :data:`ROWS_WAIT_SECONDS`, then compute them themselves (a holder that died). A cache that
    cannot be reached: computed here, nothing waited for."""
    if not _share_lock.get():
        found = compute()
        cache.set(key, found, ROWS_TIMEOUT)
        return found
    lock = f"{key}:computing"
    give_up = time.monotonic() + ROWS_WAIT_SECONDS
    while not cache.add(lock, 1, ROWS_LOCK_SECONDS):
        if time.monotonic() >= give_up:
            return compute()
        time.sleep(ROWS_POLL_SECONDS)
        found = cache.get(key)
        if found is not None:
            return found
    try:
        found = cache.get(key)  # put there between this process's miss and its lock
        if found is None:
            found = compute()
            cache.set(key, found, ROWS_TIMEOUT)
        return found
    finally:
        cache.delete(lock)


def _compute_rows(snapshot: RankingSnapshot, unit: str, columns: tuple[str, ...], lang: str) -> list[Row]:
    """The rows of a snapshot's lines, with the names of today (a line whose entry or team was deleted since is
    left out, as its row once was by the foreign key's cascade)."""
    ranked = rankings.snapshot_ranking(snapshot, teams=unit == rankings.Unit.TEAM)
    lines = rankings.snapshot_lines(snapshot, unit)
    if unit == rankings.Unit.TEAM:
        teams = {pk: (name, "", False) for pk, name in
                 Team.objects.filter(tournament_id=snapshot.tournament_id).values_list("id", "name")}
        known = [(line, line.team_id, teams.get(line.team_id)) for line in lines]
    else:  # plain values: 10,000 entries, no model instances
        entries = {pk: (name, club or "", withdrawn) for pk, name, club, withdrawn in
                   Entry.objects.filter(tournament_id=snapshot.tournament_id).values_list(
                       "id", "player__name", "player__club", "withdrawn")}
        known = [(line, line.entry_id, entries.get(line.entry_id)) for line in lines]
    names = {ident: who[0] for _line, ident, who in known if who is not None}
    percent = percent_columns(snapshot, unit)
    # the lines with no result yet are shown without a rank: the others' explanations say the ranks shown, and
    # never name nor compare with one of them (a walk read « Devant X (rang 5) » where X was « — »)
    unranked = {ident for line, ident, _who in known if not _played(dict(line.metrics))}
    gone = {ident for _line, ident, who in known if who is None}  # not shown at all
    ranks = pure.shown_ranks(ranked, unranked | gone) if unranked or gone else None
    in_play = rankings.in_play(snapshot, unit) & unranked if unranked else set()
    out = []
    for line, ident, who in known:
        if who is None:
            continue
        name, club, withdrawn = who
        values = dict(line.metrics)
        figures = [metric_text(values.get(c)) for c in columns]
        shown = [percent_text(values.get(c)) if c in percent else figure for c, figure in zip(columns, figures,
                                                                                             strict=True)]
        if ident in unranked:
            words = pure.unranked_words(snapshot.kind, ident in in_play, lang)
        else:
            words = ranked.explain(ident, lang, names, ranks)
        out.append(Row(line.position, line.rank, line.shared, name, club, line.entry_id, line.team_id,
                       shown, words, withdrawn, ident not in unranked, figures))
    return out


def _played(metrics: dict[str, Any]) -> bool:
    """Whether a line's entry (or team) has a result: a deal (Tarot), an étui (duplicate), a match or a bye."""
    return pure.played(metrics)


NOT_PLAYED = {lang: pure.EXPLAIN_TEXTS["not_played"][lang] for lang in ("fr", "en")}


def _not_played_last(rows: list[Row], lang: str, kind: str = "") -> list[Row]:
    """Those who have not played yet go last with no rank (never « 3= » with 0 marks); the others' ranks
    and ties are counted among those who played (competition ranking: 1, 2, 2, 4)."""
    # ex aequo in the order French sorts their names (the snapshot keeps them in registration order)
    played = sorted((row for row in rows if row.played), key=lambda row: (row.rank, french_key(row.name)))
    out: list[Row] = []
    first_at: dict[Any, int] = {}
    sizes: dict[Any, int] = {}
    for row in played:
        sizes[row.rank] = sizes.get(row.rank, 0) + 1
    for i, row in enumerate(played, start=1):
        rank = first_at.setdefault(row.rank, i)
        out.append(replace(row, rank=rank, shared=sizes[row.rank] > 1))
    # their words (not played yet, or a match still in play) are the rows' own (:func:`_compute_rows`)
    out += [replace(row, rank="—", shared=False)
            for row in sorted((row for row in rows if not row.played), key=lambda row: french_key(row.name))]
    return out


#: the rows as the pages show them (:func:`_not_played_last` applied), kept per snapshot and language in each process
_shown_memo: OrderedDict[str, tuple[list[Row], dict[int, Row]]] = OrderedDict()


def _shown(snapshot: RankingSnapshot, columns: tuple[str, ...], lang: str) -> tuple[list[Row], dict[int, Row]]:
    """The entries' rows in the order shown, and each entry's row by its id: computed once per snapshot and
    language in this process (sorting 10,000 names the French way took ~0.7 s, at every page rendered, every
    player page and every PDF request among them)."""
    key = rows_key(snapshot, rankings.Unit.ENTRY, lang) + ":shown"
    with _rows_lock:
        kept = _shown_memo.get(key)
        if kept is not None:
            _shown_memo.move_to_end(key)
            return kept
    rows = _not_played_last(_rows(snapshot, rankings.Unit.ENTRY, columns, lang), lang, snapshot.kind)
    shown = (rows, {row.entry_id: row for row in rows if row.entry_id is not None})
    with _rows_lock:
        _shown_memo[key] = shown
        while len(_shown_memo) > _ROWS_KEPT:
            _shown_memo.popitem(last=False)
    return shown


_sizes: OrderedDict[int, int] = OrderedDict()


def ranking_size(snapshot: RankingSnapshot) -> int:
    """How many rows a snapshot's ranking shows — its entries' lines whose entry still exists, as
    :func:`_compute_rows` keeps them — without building the rows: what a PDF's parts are counted by. Building them
    (their words, the French sort of the names) took 490 ms at 10,000 players at each web process's first request
    for a part, or waited for another process building them: a burst of requests on the parts held every web
    thread. Kept per snapshot in this process, as the rows are."""
    with _rows_lock:
        size = _sizes.get(snapshot.pk)
    if size is not None:
        return size
    existing = set(Entry.objects.filter(tournament_id=snapshot.tournament_id).values_list("id", flat=True))
    size = sum(1 for line in rankings.snapshot_lines(snapshot) if line.entry_id in existing)
    with _rows_lock:
        _sizes[snapshot.pk] = size
        while len(_sizes) > _ROWS_KEPT:
            _sizes.popitem(last=False)
    return size


def ranking(tournament: Tournament, lang: str = "fr", status: rankings.RankingStatus | None = None) -> Ranking:
    """The latest published ranking with names, the columns to show and each rank explained in ``lang``
    (``status``: the ranking's status when the caller has read it already)."""
    lang = "en" if lang == "en" else "fr"
    status = status or rankings.ranking_status(tournament)
    out = Ranking(status.snapshot, status.up_to_date, status.version)
    snap = status.snapshot
    if snap is None:
        return out
    cols = COLUMNS.get(snap.kind, tuple(snap.criteria))
    out.columns = [(c, LABELS.get(c, c)) for c in cols]
    out.criteria = [(c, LABELS.get(c, c)) for c in snap.criteria]
    out.rows, out.by_entry = _shown(snap, cols, lang)  # shared by every page: read, never changed
    out.percent = percent_columns(snap)
    if snap.team_digest:
        tcols = COLUMNS[TEAM_KINDS.get(snap.kind, "matches_teams")]
        out.team_columns = [(c, LABELS.get(c, c)) for c in tcols]
        # a team with no result yet is shown as its members are: « — », listed last (never « 3= » at 0)
        out.team_rows = _not_played_last(_rows(snap, rankings.Unit.TEAM, tcols, lang), lang)
    return out


def mark_counts(status: str) -> bool:
    """Whether a deal's marks count in its table's total: played (valid), or irregular and counted by the chief."""
    return status in (Deal.Status.VALID, selectors.COUNTED)


def mark_cell(status: str, points: int | None) -> tuple[str, str]:
    """One seat's marks on a deal's line as the round's results show them (the web page, the printable page, the
    PDF: one rule), with the cell's class: a deal that counts (played, or irregular and counted by the chief) its
    marks as points; one that does not count (irregular, awaiting the visa) its marks as played in brackets, so
    that the column adds up to the total; an annulled deal none (« — »)."""
    if status == Deal.Status.ANNULLED:
        return "—", "not-counted"
    if not mark_counts(status):
        return ("—" if points is None else f"({points})"), "not-counted"
    return ("—" if points is None else str(points)), ("neg" if points is not None and points < 0 else "")


@dataclass
class TableResult:
    table: Table
    names: list[str]
    entry_ids: list[int]
    deals: list[tuple[int, str, list[int | None]]]  # (number, status, points per seat)
    totals: list[int]
    adjustments: list[int]
    match_totals: list[Any] | None = None
    winner: str = ""
    forfeit: str = ""  # "forfeit" or "absence"
    absent: list[str] = field(default_factory=list)
    ruling_kinds: list[str] = field(default_factory=list)
    """The kinds of the rulings whose points are on the rulings' row (« renonce »), in the order recorded."""
    etui_rows: list[dict[str, Any]] = field(default_factory=list)
    """Duplicate: :attr:`deals` with each deal's étui and, for the seats an artificial result replaced, its words
    (« 40 % »; their marks not counted in :attr:`totals`)."""
    carried: dict[int, list[str]] = field(default_factory=dict)
    """L'Impériale (a game whose deals leave more than their scores: ``Game.carries_marks``): by deal number, each
    seat's jetons after that deal in the table's words (« 2 jetons »), under the impériales it gained — a deal
    that won jetons and no impériale read « 0 0 » (RULES.md §4.2: 6 jetons make an impériale, an opponent's
    impériale erases them)."""
    carried_now: list[int] | None = None
    """L'Impériale: each seat's jetons now (after the last deal that counts): the sheet's « Jetons » line."""
    carried_label: str = ""
    """« Jetons »: the head of that line (the registry's ``carried_unit``)."""
    score_unit: str = ""
    """« Impériales »: what the deals' numbers count, said when the jetons are beside them."""
    round_over: bool = False
    """The round is finished: a match not ended is then « non terminée » (over, worth nothing: docs/ranking.md),
    no longer « en cours »."""

    @property
    def has_adjustments(self) -> bool:
        return any(self.adjustments)

    @property
    def bye(self) -> bool:
        """A table of a single seat: its player is on a bye (« exempt »), with no match and no deal."""
        return len(self.entry_ids) == 1

    @property
    def nothing_played(self) -> bool:
        """No deal entered, no ruling, no forfeit (a duplicate table of 3 that entered no étui): its players are
        named with no score sheet and no « Total 0 0 0 »."""
        return not self.deals and not self.has_adjustments and not self.forfeit

    @property
    def deal_lines(self) -> list[tuple[int, str, list[tuple[str, str, str]]]]:
        """:attr:`deals` with each seat's cell as :func:`mark_cell` shows it and, at L'Impériale, the jetons it
        held after the deal (:attr:`carried`, « » elsewhere): (number, status, [(words, class, jetons)])."""
        return [(number, status, [(*mark_cell(status, p), carried)
                                  for p, carried in zip(points, self.carried.get(number) or [""] * len(points),
                                                        strict=True)])
                for number, status, points in self.deals]


def round_results(rnd: Round, first: int = 0, count: int | None = None) -> list[TableResult]:
    """The tables of ``rnd`` in order, with their deals and totals; ``count`` tables from the ``first`` (a page)."""
    tables = list(rnd.tables.prefetch_related("seats__entry__player", "deals").order_by("number")[
        first:None if count is None else first + count])
    forfeit_qs, row_qs = Forfeit.objects.filter(table__round=rnd), ScoreRow.objects.filter(round=rnd)
    if first or count is not None:
        ids = [table.pk for table in tables]
        forfeit_qs, row_qs = forfeit_qs.filter(table_id__in=ids), row_qs.filter(table_id__in=ids)
    forfeits: dict[int, tuple[str, list[str]]] = {}
    for table_id, kind, name in (forfeit_qs
                                 .values_list("table_id", "kind", "absent__player__name").order_by("absent__id")):
        forfeits.setdefault(table_id, (kind, []))[1].append(name)
    rows = defaultdict(dict)
    ruling_rows: dict[tuple[int, int], int] = defaultdict(int)
    ruling_ids: set[int] = set()
    for table_id, deal_id, ruling_id, entry_id, points, counts in row_qs.values_list(
            "table_id", "deal_id", "ruling_id", "entry_id", "points", "counts"):
        if ruling_id is None:
            rows[deal_id][entry_id] = points
        elif counts:
            ruling_rows[(table_id, entry_id)] += points
            ruling_ids.add(ruling_id)
    # an irregular deal the chief counted: its ruling's marks on the deal's line, as points, and out of the
    # rulings' row (each point shown once; the totals add them once, as the ranking does)
    counted = selectors.counted_by_ruling([d for table in tables for d in table.deals.all()], rnd.tournament.game)
    # the rulings' row names the kinds of the rulings whose rows count (« ⚖ renonce »)
    kinds: dict[int, list[str]] = defaultdict(list)
    for ruling in Ruling.objects.filter(pk__in=ruling_ids).only("table_id", "kind", "decision").order_by(
            "created_at", "id"):
        if ruling.kind_words not in kinds[ruling.table_id]:
            kinds[ruling.table_id].append(ruling.kind_words)
    game = rnd.tournament.game
    carries = games.carries_marks(game)
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        ids = [s.entry_id for s in seats]
        deals = []
        totals = [0] * len(ids)
        carried: dict[int, list[str]] = {}
        carried_now: list[int] | None = None
        for deal in sorted(table.deals.all(), key=lambda d: d.number):
            # L'Impériale: the jetons each one holds after a deal that counts, as the table's sheet shows them
            jetons = games.carried_after(game, deal.verdict) if carries and deal.counts else None
            if jetons is not None and len(jetons) == len(ids):
                carried[deal.number] = [games.carried_words(game, j) for j in jetons]
                carried_now = jetons
            ruling = counted.get(deal.pk)
            if ruling is not None:
                shown = selectors.counted_marks(ruling, rows.get(deal.pk, {}), ids)
                for e in ids:
                    ruling_rows[(table.pk, e)] -= shown[e]
                pts: list[int | None] = [shown[e] for e in ids]
                deals.append((deal.number, selectors.COUNTED, pts))
                totals = [t + (p or 0) for t, p in zip(totals, pts, strict=True)]
                continue
            pts = [rows.get(deal.pk, {}).get(e) for e in ids]
            deals.append((deal.number, deal.status, pts))
            if deal.counts:
                totals = [t + (p or 0) for t, p in zip(totals, pts, strict=True)]
        adj = [ruling_rows.get((table.pk, e), 0) for e in ids]
        totals = [t + a for t, a in zip(totals, adj, strict=True)]
        winner = ""
        if isinstance(table.match_winner, int) and 0 <= table.match_winner < len(seats):
            winner = seats[table.match_winner].entry.player.name
        elif isinstance(table.match_winner, list):
            winner = " & ".join(seats[i].entry.player.name for i in table.match_winner if 0 <= i < len(seats))
        kind, absent = forfeits.get(table.pk, ("", []))
        if kind == Forfeit.Kind.FORFEIT:
            winner = " & ".join(s.entry.player.name for s in seats if s.entry.player.name not in absent)
        out.append(TableResult(table, [s.entry.player.name for s in seats], ids, deals, totals, adj,
                               table.match_totals, winner, kind, absent, ruling_kinds=kinds.get(table.pk, []),
                               carried=carried, carried_now=carried_now,
                               carried_label=games.carried_label(game) if carried_now is not None else "",
                               score_unit=games.score_unit(game, get_language() or "fr").capitalize()
                               if carried_now is not None else "",
                               round_over=rnd.status == Round.Status.FINISHED))
    _with_etuis(rnd, out)
    return out


def sheet_lines(tournament: Tournament) -> range:
    """The numbered lines of a blank score sheet: the round's deals, or twelve for a game played to a target."""
    return range(1, 13) if tournament.is_match_game else range(1, (tournament.deals_per_round or 8) + 1)


def sheet_tables(tournament: Tournament, tables: Iterable[Table]) -> list[dict[str, Any]]:
    """The blank score sheets of ``tables`` (their seats prefetched): each table's players in order of play and
    the columns its game writes before the marks (:func:`scoring.sheets.deal_columns`); a bye has no sheet."""
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        if len(seats) < 2:
            continue  # a bye (« exempt »): no match, no sheet
        out.append({"table": table, "seats": seats,
                    "columns": deal_columns(tournament.game, len(seats), tournament.options),
                    # « Signature d'Anaïs », not « de Anaïs »
                    "signatures": [with_name(gettext("Signature de %(name)s"), s.entry.player.name) for s in seats]})
    return out


#: an artificial result in words (the percentages of A-T13, or « non joué »)
ARTIFICIAL_WORDS = {"plus": "60 %", "even": "50 %", "minus": "40 %", "absent": _("non joué")}


def _with_etuis(rnd: Round, results: list[TableResult]) -> None:
    """A duplicate round's tables: each deal's étui (the table's n-th deal is the n-th étui of its card), and the
    seats whose deal an artificial result replaced, said so (« 40 % ») with their marks out of the totals."""
    from tournaments.duplicate.results import round_boards

    order, given = round_boards(rnd.pk)
    if not order:
        return
    for result in results:
        boards = order.get(result.table.pk, [])
        for number, status, points in result.deals:
            board = boards[number - 1] if 0 < number <= len(boards) else None
            replaced = given.get((result.table.pk, board), {}) if board is not None else {}
            words = [str(ARTIFICIAL_WORDS.get(replaced[e], replaced[e])) if e in replaced else None
                     for e in result.entry_ids]
            if replaced and status in (Deal.Status.VALID, selectors.COUNTED):  # the marks counted in the totals
                result.totals = [t - (p or 0) if w is not None else t
                                 for t, p, w in zip(result.totals, points, words, strict=True)]
            result.etui_rows.append({
                "number": number, "status": status, "etui": board, "replaced": bool(replaced),
                # (words of an artificial result, or None; the marks as :func:`mark_cell` shows them)
                "cells": [(w, *mark_cell(status, p)) for p, w in zip(points, words, strict=True)],
                "words": " / ".join(w if w is not None else ("—" if p is None else str(p))
                                    for p, w in zip(points, words, strict=True))})


@dataclass
class PlayerHistory:
    entry: Entry
    lines: list[dict[str, Any]]  # round, table, deal, points, running, note
    per_round: list[tuple[int, Any]]
    """Each released round's points, or « exempt » for a round he sat out (a bye)."""
    points: list[int]
    breaks: list[int]
    total: int


def player_history(entry: Entry) -> PlayerHistory:
    """The player's counting rows of the released rounds, in order, with the running total (one statement)."""
    tournament = entry.tournament
    released = Q(round__released=True) | Q(round__number__lte=tournament.released_round)
    rows = (ScoreRow.objects.filter(released, entry=entry, counts=True)
            .order_by("round__number", "table__number", "deal__number", "id")
            .values_list("round__number", "table__number", "deal__number", "ruling__kind", "ruling__decision",
                         "points"))
    lines: list[dict[str, Any]] = []
    per_round: dict[int, Any] = {}
    points: list[int] = []
    breaks: list[int] = []
    running, last_round = 0, None
    for round_number, table_number, deal_number, ruling_kind, decision, pts in rows:
        if last_round is not None and round_number != last_round:
            breaks.append(len(points))
        last_round = round_number
        running += pts
        points.append(pts)
        per_round[round_number] = per_round.get(round_number, 0) + pts
        # a ruling that counted its irregular deal as played (or let it stand) holds the deal's marks: read as the
        # deal, « comptée par l'arbitre »
        counted = bool(ruling_kind) and decision in ("as_played", "let_stand")
        lines.append({"round": round_number, "table": table_number, "deal": deal_number,
                      "ruling": Ruling(kind=ruling_kind, decision=decision or "").kind_words
                      if ruling_kind and not counted else "",
                      "counted": counted, "points": pts, "running": running})
    # a round he sat out (a bye: alone at a table of one seat) has no score row: said « exempt » in its place
    byes = (Seat.objects.filter(entry=entry).filter(Q(table__round__released=True)
                                                    | Q(table__round__number__lte=tournament.released_round))
            .annotate(seated=Count("table__seats")).filter(seated=1).values_list("table__round__number", flat=True))
    for number in byes:
        per_round.setdefault(number, _("exempt"))
    return PlayerHistory(entry, lines, sorted(per_round.items()), points, breaks, running)


#: a duplicate event score that is not a percentage, in words after its value
SCORE_WORDS = {"sum": _("points de match"), "datum": _("d'écart à la moyenne")}


@dataclass
class DuplicatePlayer:
    """A player's page in duplicate: his event score in its unit (« 58,33 % »), per round the étuis he played, his
    mean percentage and his raw marks; his history's lines with their étui and percentage, the marks of a deal an
    artificial result replaced set apart (not counted in the raw marks)."""

    score: str
    per_round: list[tuple[int, int | None, str, int]]
    """Per round: its number, the étuis played (None: a round he sat out, « exempt »), his mean, his raw marks."""
    history: PlayerHistory
    replaced: bool = False
    """Whether an artificial result replaced one of his deals (its marks in brackets)."""


def duplicate_player(entry: Entry, history: PlayerHistory,
                     snapshot: RankingSnapshot | None) -> DuplicatePlayer | None:
    """:class:`DuplicatePlayer` of ``entry`` (None: not a duplicate), over the released rounds as its history."""
    from fractions import Fraction

    from tournaments.duplicate.results import entry_boards, sat_out, setup_of

    tournament = entry.tournament
    setup = setup_of(tournament)
    if setup is None:
        return None
    released = list(rankings.released_rounds(tournament).values_list("number", flat=True))
    boards = entry_boards(tournament, entry.pk, released)
    lines: list[dict[str, Any]] = []
    points: list[int] = []
    breaks: list[int] = []
    raw: dict[int, int] = {}
    running, last_round = 0, None
    for line in history.lines:
        # a ruling's own line (« ⚖ renonce ») is no étui: no percentage of its deal beside it (a walk read « ⚖ renonce
        # 0 % -30 »); a deal the chief counted as played is its étui
        board = boards.get((line["round"], line["deal"])) if line["deal"] and not line["ruling"] else None
        replaced = board is not None and board.artificial is not None
        if not replaced:
            if last_round is not None and line["round"] != last_round:
                breaks.append(len(points))
            last_round = line["round"]
            running += line["points"]
            points.append(line["points"])
        raw[line["round"]] = raw.get(line["round"], 0) + (0 if replaced else line["points"])
        lines.append({**line, "running": running, "replaced": replaced,
                      "etui": board.board if board else None,
                      "percent": percent_text(board.percentage) if board and board.percentage is not None else ""})
    per_round: list[tuple[int, int | None, str, int]] = []
    for number in sorted({b.round for b in boards.values()} | set(raw)):
        played = [b.percentage for b in boards.values() if b.round == number and b.percentage is not None]
        mean = sum(played, Fraction(0)) / len(played) if played else None
        per_round.append((number, len(played), percent_text(mean) if mean is not None else "—", raw.get(number, 0)))
    # a released round he sat out (at no table: a player over a multiple of four) is said « exempt »
    exempt = set(sat_out(tournament, released, entry_id=entry.pk)) - {number for number, *_rest in per_round}
    per_round = sorted([*per_round, *((number, None, "", 0) for number in exempt)], key=lambda r: r[0])
    score = "—"
    if snapshot is not None:  # its line as published (no ranking rebuilt)
        mine = next((ln for ln in rankings.snapshot_lines(snapshot) if ln.entry_id == entry.pk), None)
        value = dict(mine.metrics).get("score") if mine is not None else None
        if value is not None:
            words = SCORE_WORDS["datum" if setup.method == "datum" else "sum"]
            score = percent_text(value) if "score" in percent_columns(snapshot) else f"{metric_text(value)} {words}"
    return DuplicatePlayer(score, per_round, replace(history, lines=lines, points=points, breaks=breaks,
                                                     total=running), any(ln["replaced"] for ln in lines))
