"""The complete results file of a tournament (``levee.results/1``): players, rounds and tables, every
deal with its full record and the marks it gave, the rulings, and the final ranking — one JSON document,
specified in docs/results-format.md and by the JSON Schema ``tournaments/standings/schema/results.schema.json``.

Only released rounds are written (what the public already sees); the ranking is the latest published
snapshot, with its version and digest so a reader can check it against ``scoring.snapshots.regenerate``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.utils import timezone

from tournaments.deals.models import Deal, Forfeit, Ruling, ScoreRow
from tournaments.event.models import Entry, Seat, Table, Tournament
from tournaments.standings import rankings
from tournaments.standings.rankings import released_rounds

FORMAT = "levee.results/1"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "results.schema.json"


def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _metrics(line: Any) -> dict[str, Any]:
    """A ranking line's metrics in plain JSON: a fraction as its ``"n/d"`` string (docs/results-format.md), a
    whole number as an integer."""
    out: dict[str, Any] = {}
    for name, value in rankings.metrics_dict(line).items():
        if isinstance(value, Fraction):
            value = value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
        out[name] = value
    return out


def results_file(tournament: Tournament, *, licences: bool = False) -> dict[str, Any]:
    """The whole tournament as a ``levee.results/1`` document (plain JSON types only). Licence numbers
    are personal data: written only when ``licences`` (the tournament's staff), null otherwise."""
    rounds = list(released_rounds(tournament))
    round_ids = [r.pk for r in rounds]
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player", "team").order_by("id"))
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round_id__in=round_ids).order_by("position"):
        seats[seat.table_id].append(seat)
    marks: dict[int, dict[int, int]] = defaultdict(dict)
    for deal_id, entry_id, points in ScoreRow.objects.filter(
            round_id__in=round_ids, deal__isnull=False, ruling__isnull=True).values_list("deal_id", "entry_id",
                                                                                      "points"):
        marks[deal_id][entry_id] = points
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(table__round_id__in=round_ids).order_by("number"):
        deals[deal.table_id].append(deal)
    forfeits = {f.table_id: f for f in Forfeit.objects.filter(table__round_id__in=round_ids)
                .prefetch_related("absent")}
    tables: dict[int, list[Table]] = defaultdict(list)
    for table in Table.objects.filter(round_id__in=round_ids).order_by("number"):
        tables[table.round_id].append(table)

    def table_doc(table: Table) -> dict[str, Any]:
        at = seats[table.pk]
        forfeit = forfeits.get(table.pk)
        doc: dict[str, Any] = {
            "number": table.number,
            "seats": [{"position": s.position, "player": s.entry_id, "substitute": s.substitute or None} for s in at],
            "deals": [{"number": d.number, "status": d.status, "version": d.version, "record": d.record,
                       "marks": [marks[d.pk].get(s.entry_id) for s in at]} for d in deals[table.pk]],
            "forfeit": None if forfeit is None else {
                "kind": forfeit.kind, "absent": sorted(e.pk for e in forfeit.absent.all()), "reason": forfeit.reason},
        }
        if tournament.is_match_game:
            doc["match"] = {"totals": table.match_totals, "winner": table.match_winner, "ended": table.match_ended}
        return doc

    rulings = []
    for ruling in (Ruling.objects.filter(tournament=tournament, table__round_id__in=round_ids)
                   .select_related("table__round", "deal").order_by("created_at", "id")):
        rulings.append({
            "id": ruling.pk, "round": ruling.table.round.number, "table": ruling.table.number,
            "deal": ruling.deal.number if ruling.deal else None, "kind": ruling.kind, "reason": ruling.reason,
            "adjustments": {str(k): v for k, v in (ruling.adjustments or {}).items()},
            "is_penalty": ruling.is_penalty, "annuls_deal": ruling.annuls_deal, "penalty": ruling.penalty or None,
            "offender": ruling.offender_id, "created_at": _iso(ruling.created_at),
            "withdrawn": ruling.is_withdrawn, "withdraw_reason": ruling.withdraw_reason or None,
        })

    status = rankings.ranking_status(tournament)
    snap = status.snapshot
    ranking: dict[str, Any] | None = None
    if snap is not None:
        # a line whose entry (team) was deleted since is left out, as its row once was by the foreign key's cascade
        known = {e.pk for e in entries}
        teams = set(tournament.teams.values_list("id", flat=True))
        ranking = {
            "version": snap.input_version, "digest": snap.digest, "up_to_date": status.up_to_date,
            "rounds": list(snap.released_rounds), "criteria": list(snap.criteria),
            "lines": [{"rank": ln.rank, "shared": ln.shared, "player": ln.entry_id,
                       "metrics": _metrics(ln)} for ln in rankings.snapshot_lines(snap) if ln.entry_id in known],
            "team_lines": [{"rank": ln.rank, "shared": ln.shared, "team": ln.team_id,
                            "metrics": _metrics(ln)}
                           for ln in rankings.snapshot_lines(snap, rankings.Unit.TEAM) if ln.team_id in teams],
        }
    return {
        "format": FORMAT,
        "generated_at": timezone.now().isoformat(),
        "tournament": {
            "name": tournament.name, "slug": tournament.slug, "game": tournament.game, "format": tournament.format,
            "status": tournament.status, "options": tournament.record_options(),
            "date": _iso(tournament.date), "start_time": tournament.start_time.strftime("%H:%M")
            if tournament.start_time else None, "venue": tournament.venue or None,
            "rounds_planned": tournament.rounds_planned, "deals_per_round": tournament.deals_per_round,
            "tie_breaks": list(tournament.tie_breaks or []),
        },
        "teams": [{"id": t.pk, "name": t.name} for t in tournament.teams.order_by("name")],
        "players": [{
            "id": e.pk, "name": e.player.name, "club": e.player.club or None,
            "licence": (e.player.licence or None) if licences else None,
            "team": e.team_id, "from_round": e.from_round, "withdrawn": e.withdrawn, "replaces": e.replaces_id,
        } for e in entries],
        "rounds": [{"number": r.number, "tables": [table_doc(t) for t in tables[r.pk]]} for r in rounds],
        "rulings": rulings,
        "ranking": ranking,
    }
