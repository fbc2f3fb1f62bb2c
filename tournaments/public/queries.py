"""What the public pages and exports read: only released rounds, only counting marks in totals."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Q

from tournaments import rankings
from tournaments.models import Entry, Round, ScoreRow, Table, Tournament
from tournaments.models_ranking import RankingLine, RankingSnapshot

LABELS_FR = {
    "marks": "Total", "best_deal": "Meilleure donne", "won_as_taker": "Contrats réussis", "deals": "Donnes",
    "rounds": "Manches", "members": "Membres", "match_points": "Points de match", "buchholz": "Buchholz",
    "sonneborn_berger": "Sonneborn-Berger", "margin": "Écart", "wins": "Victoires", "draws": "Nuls",
    "losses": "Défaites", "byes": "Exempts", "played": "Parties", "points_for": "Points pour",
    "points_against": "Points contre",
}
#: columns shown on the ranking, per kind of snapshot
COLUMNS = {"tarot": ("marks", "deals", "best_deal"), "tarot_teams": ("marks", "members", "deals"),
           "matches": ("match_points", "wins", "draws", "losses", "byes", "buchholz", "sonneborn_berger", "margin")}


def released_rounds(tournament: Tournament):
    return tournament.rounds.filter(Q(released=True) | Q(number__lte=tournament.released_round)).order_by("number")


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


@dataclass
class Ranking:
    snapshot: RankingSnapshot | None
    up_to_date: bool
    version: int
    columns: list[tuple[str, str]] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    team_columns: list[tuple[str, str]] = field(default_factory=list)
    team_rows: list[Row] = field(default_factory=list)


def _fmt(value: Any) -> str:
    value = rankings.metric_value(value)
    if value is None:
        return "—"
    return str(value)


def _rows(snapshot: RankingSnapshot, unit: str, columns: tuple[str, ...]) -> list[Row]:
    """The lines of a snapshot with names and the words explaining each rank (cached: snapshots never change)."""
    key = f"levee:ranking:{snapshot.pk}:{snapshot.digest}:{snapshot.created_at.timestamp()}:{unit}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    pure = rankings.snapshot_ranking(snapshot, teams=unit == RankingLine.Unit.TEAM)
    lines = snapshot.lines.filter(unit=unit).select_related("entry__player", "team").order_by("position")
    out = []
    for line in lines:
        metrics = dict(line.metrics)
        if line.entry_id:
            name, club, ident = line.entry.player.name, line.entry.player.club, line.entry_id
        else:
            name, club, ident = line.team.name, "", line.team_id
        explain = pure.explain(ident)
        out.append(Row(line.position, line.rank, line.shared, name, club, line.entry_id, line.team_id,
                       [_fmt(metrics.get(c)) for c in columns], _named(explain, snapshot, unit),
                       bool(line.entry_id and line.entry.withdrawn)))
    cache.set(key, out, 3600)
    return out


_ID_IN_EXPLAIN = re.compile(r"(with |Ahead of |Behind |, )(\d+)(?=[ ,.:])")


def _named(text: str, snapshot: RankingSnapshot, unit: str) -> str:
    """``scoring.ranking.explain`` names entries by id (``with 12, 15``); give people's names instead."""
    ids = {int(m.group(2)) for m in _ID_IN_EXPLAIN.finditer(text)}
    if not ids:
        return text
    if unit == RankingLine.Unit.TEAM:
        names = dict(snapshot.tournament.teams.filter(pk__in=ids).values_list("pk", "name"))
    else:
        names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    return _ID_IN_EXPLAIN.sub(lambda m: m.group(1) + names.get(int(m.group(2)), m.group(2)), text)


def ranking(tournament: Tournament) -> Ranking:
    status = rankings.ranking_status(tournament)
    out = Ranking(status.snapshot, status.up_to_date, status.version)
    snap = status.snapshot
    if snap is None:
        return out
    cols = COLUMNS.get(snap.kind, tuple(snap.criteria))
    out.columns = [(c, LABELS_FR.get(c, c)) for c in cols]
    out.rows = _rows(snap, RankingLine.Unit.ENTRY, cols)
    if snap.team_digest:
        tcols = COLUMNS["tarot_teams"]
        out.team_columns = [(c, LABELS_FR.get(c, c)) for c in tcols]
        out.team_rows = _rows(snap, RankingLine.Unit.TEAM, tcols)
    return out


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

    @property
    def has_adjustments(self) -> bool:
        return any(self.adjustments)


def round_results(rnd: Round) -> list[TableResult]:
    tables = list(rnd.tables.prefetch_related("seats__entry__player", "deals").order_by("number"))
    rows = defaultdict(dict)
    ruling_rows: dict[tuple[int, int], int] = defaultdict(int)
    for table_id, deal_id, ruling_id, entry_id, points, counts in ScoreRow.objects.filter(round=rnd).values_list(
            "table_id", "deal_id", "ruling_id", "entry_id", "points", "counts"):
        if ruling_id is None:
            rows[deal_id][entry_id] = points
        elif counts:
            ruling_rows[(table_id, entry_id)] += points
    out = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda s: s.position)
        ids = [s.entry_id for s in seats]
        deals = []
        totals = [0] * len(ids)
        for deal in sorted(table.deals.all(), key=lambda d: d.number):
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
        out.append(TableResult(table, [s.entry.player.name for s in seats], ids, deals, totals, adj,
                               table.match_totals, winner))
    return out


@dataclass
class PlayerHistory:
    entry: Entry
    lines: list[dict[str, Any]]  # round, table, deal, points, running, note
    per_round: list[tuple[int, int]]
    points: list[int]
    breaks: list[int]
    total: int


def player_history(entry: Entry) -> PlayerHistory:
    tournament = entry.tournament
    numbers = list(released_rounds(tournament).values_list("number", flat=True))
    rows = (ScoreRow.objects.filter(entry=entry, counts=True, round__number__in=numbers)
            .select_related("round", "table", "deal", "ruling")
            .order_by("round__number", "table__number", "deal__number", "id"))
    lines, per_round, points, breaks = [], {}, [], []
    running, last_round = 0, None
    for row in rows:
        if last_round is not None and row.round.number != last_round:
            breaks.append(len(points))
        last_round = row.round.number
        running += row.points
        points.append(row.points)
        per_round[row.round.number] = per_round.get(row.round.number, 0) + row.points
        lines.append({"round": row.round.number, "table": row.table.number,
                      "deal": row.deal.number if row.deal_id else None,
                      "ruling": row.ruling.get_kind_display() if row.ruling_id else "",
                      "points": row.points, "running": running})
    return PlayerHistory(entry, lines, sorted(per_round.items()), points, breaks, running)
