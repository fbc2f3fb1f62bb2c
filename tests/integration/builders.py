"""Small tournaments built straight in the database, the way the services leave them.

Score rows are written as the deal service writes them (one row per seat and deal, the deal's
marks), so the ranking tests do not depend on the rules engine; the real-service tests go through
the API instead. Like every writer, the builders tell the one hook that the scores changed
(``tournaments.common.hooks.scores_changed``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from tournaments.common import hooks
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import taker_seat
from tournaments.event.models import Entry, Player, Round, Seat, Table, Team, Tournament


def make_tournament(names: Sequence[str], *, game: str = "tarot", slug: str = "t", tie_breaks: Sequence[str] = (),
                    teams: dict[str, Sequence[str]] | None = None, public: bool = True) -> tuple[Tournament, dict]:
    """A running tournament; returns it and ``{name: Entry}``."""
    t = Tournament.objects.create(name=f"Tournoi {slug}", slug=slug, game=game, tie_breaks=list(tie_breaks),
                                  format="teams" if teams else "individual", status="running", is_public=public)
    team_of = {}
    for team_name, members in (teams or {}).items():
        team = Team.objects.create(tournament=t, name=team_name)
        team_of.update(dict.fromkeys(members, team))
    entries = {}
    for name in names:
        licence = f"{slug}-{name}"
        if len(licence) > 40:  # the column holds 40 characters: a long name gets a short, still unique, licence
            licence = f"{slug}-{hashlib.sha1(name.encode()).hexdigest()[:12]}"
        player, _ = Player.objects.get_or_create(name=name, licence=licence)
        entries[name] = Entry.objects.create(tournament=t, player=player, team=team_of.get(name))
    hooks.scores_changed(t.pk)
    return t, entries


def make_round(t: Tournament, number: int, tables: Sequence[Sequence[Entry]], *, released: bool = True) -> list[Table]:
    rnd = Round.objects.create(tournament=t, number=number, released=released, status="running")
    out = []
    for i, seated in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=i)
        Seat.objects.bulk_create([Seat(table=table, position=p, entry=e) for p, e in enumerate(seated)])
        out.append(table)
    hooks.scores_changed(t.pk)
    return out


def add_deal(table: Table, points: Sequence[int], *, taker: int | None = None, status: str = "valid") -> Deal:
    """A deal at ``table`` whose marks per seat (in order of play) are ``points``."""
    seats = list(table.seats.order_by("position"))
    assert len(points) == len(seats)
    number = table.deals.count() + 1
    record = {"format": "levee.deal/1", "game": "tarot", "players": [s.entry.player.name for s in seats],
              "bid": {"taker": taker, "contract": "garde"}}
    deal = Deal.objects.create(table=table, number=number, record=record, verdict={"totals": list(points)},
                               status=status)
    _rows(deal, seats, points)
    return deal


def correct_deal(deal: Deal, points: Sequence[int]) -> Deal:
    """A correction: the deal's rows are replaced, its version goes up."""
    seats = list(deal.table.seats.order_by("position"))
    deal.version += 1
    deal.verdict = {"totals": list(points)}
    deal.save()
    ScoreRow.objects.filter(deal=deal, ruling__isnull=True).delete()
    _rows(deal, seats, points)
    return deal


def _rows(deal: Deal, seats: list[Seat], points: Sequence[int]) -> None:
    """The deal's rows as the deal service writes them (``taker`` on the row of ``record.bid.taker``'s seat)."""
    table = deal.table
    taker = taker_seat(deal.record)
    ScoreRow.objects.bulk_create([
        ScoreRow(tournament_id=table.round.tournament_id, round_id=table.round_id, table=table, deal=deal,
                 entry_id=s.entry_id, points=points[s.position], counts=deal.counts, taker=s.position == taker)
        for s in seats])
    hooks.scores_changed(table.round.tournament_id)


def end_match(table: Table, totals: Sequence[int], winner: int | None) -> None:
    """A match game's table at the end of its match (what the deal service keeps on the table)."""
    table.match_totals, table.match_winner, table.match_ended = list(totals), winner, True
    table.save()
    hooks.scores_changed(table.round.tournament_id)


def downloaded(get: Callable[..., Any], url: str, **extra: Any) -> Any:
    """A kept download (the results CSV, the results file, the API's exports: tournaments/common/downloads.py) as
    a reader gets it:
    the first request answers 202 « en préparation » and queues the render; the worker's render is run here,
    then the file is asked again. Answered as a plain response (``content``, ``json()``) with the file's
    headers. ``get``: ``client.get``, or the events harness's ``get`` for one user."""
    from django.http import HttpResponse

    from tournaments.common import downloads
    from tournaments.operations import exports
    from tournaments.public import tasks

    response = get(url, **extra)
    if response.status_code == 202:
        tasks.run_pending(only=downloads.TASK)
        tasks.run_pending(only=exports.TASK)
        response = get(url, **extra)
    if not getattr(response, "streaming", False):
        return response
    body = b"".join(response.streaming_content)
    plain = HttpResponse(body, status=response.status_code)
    for header, value in response.items():
        plain[header] = value
    plain.json = lambda: json.loads(body)  # type: ignore[attr-defined]
    return plain


def named_lines(snapshot: Any, unit: str = "entry") -> list[tuple[str, Any]]:
    """A published snapshot's lines (``rankings.snapshot_lines``) with the name of each one's player (or team)."""
    from tournaments.standings import rankings

    if unit == "team":
        names = dict(Team.objects.filter(tournament_id=snapshot.tournament_id).values_list("id", "name"))
        return [(names[ln.team_id], ln) for ln in rankings.snapshot_lines(snapshot, unit)]
    names = dict(Entry.objects.filter(tournament_id=snapshot.tournament_id).values_list("id", "player__name"))
    return [(names[ln.entry_id], ln) for ln in rankings.snapshot_lines(snapshot, unit)]
