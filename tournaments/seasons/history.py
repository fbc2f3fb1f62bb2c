"""A player's history across events: the tournaments he played (rank, field, total), his standing in each
championship, and his statistics from the stored records of his deals (:mod:`scoring.player_stats`).

Public reads show only public tournaments (not drafts); ``private=True`` (his own player link, or the staff) shows
every tournament he played. Released rounds only: what the public already sees.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from django.db.models import Max, Q

from scoring import player_stats
from tournaments.deals.models import Deal
from tournaments.event.models import Entry, Player, Seat, Tournament
from tournaments.seasons import championships
from tournaments.seasons.models import Championship, ChampionshipLine
from tournaments.standings import rankings
from tournaments.standings.formats import percent_columns
from tournaments.standings.models import RankingSnapshot
from tournaments.standings.rankings import metric_value


@dataclass(frozen=True)
class Played:
    """One tournament a player played: his rank among ``field`` (None before a ranking is published), whether the
    rank is shared, his total in the tournament's unit (``metric``: marks or match points)."""

    tournament: Tournament
    entry_id: int
    rank: int | None
    field: int
    shared: bool
    total: int | Fraction | None
    metric: str
    percent: bool = False
    """Whether ``total`` is a percentage (a duplicate ranked by mean percentage: « 83,33 % »)."""


@dataclass(frozen=True)
class Standing:
    """A player's line in a championship's latest ranking, or his waiting (not enough tournaments yet)."""

    championship: Championship
    rank: int | None
    points: int | Fraction
    field: int
    why: str


def _open(private: bool) -> Q:
    return Q() if private else Q(tournament__is_public=True) & ~Q(tournament__status=Tournament.Status.DRAFT)


def tournaments_played(player: Player, *, private: bool = False) -> list[Played]:
    """The tournaments ``player`` played, oldest first, with his rank in each latest published ranking."""
    return tournaments_played_by([player], private=private)[player.pk]


def tournaments_played_by(players: Sequence[Player], *, private: bool = False) -> dict[int, list[Played]]:
    """:func:`tournaments_played` of each of ``players`` (by id), read together: three statements and each latest
    snapshot's lines once, whatever their number (a season's export of 1,000 people read them person by person,
    every snapshot's lines again for each once more than a process keeps)."""
    entries = list(Entry.objects.filter(_open(private), player__in=[p.pk for p in players])
                   .select_related("tournament").order_by("tournament__date", "tournament_id", "id"))
    ids = {e.tournament_id for e in entries}
    latest = dict(RankingSnapshot.objects.filter(tournament_id__in=ids).values("tournament_id")
                  .annotate(v=Max("input_version")).values_list("tournament_id", "v"))
    snaps = {s.tournament_id: s for s in RankingSnapshot.objects.filter(
        tournament_id__in=ids, input_version__in=set(latest.values())).only(
        "id", "tournament_id", "input_version", "criteria", "created_at", "kind", "options")
        if latest.get(s.tournament_id) == s.input_version}
    # the latest snapshot of each tournament they played, and of none other: its lines by entry and its field
    published: dict[int, tuple[dict[int | None, rankings.Line], int]] = {}
    for kept in snaps.values():
        ranked = rankings.snapshot_lines(kept)
        published[kept.pk] = ({line.entry_id: line for line in ranked},
                              ranked[-1].position if ranked else 0)  # the field as published
    out: dict[int, list[Played]] = {p.pk: [] for p in players}
    for e in entries:
        snap = snaps.get(e.tournament_id)
        by_entry, field = published[snap.pk] if snap is not None else ({}, 0)
        line = by_entry.get(e.pk)
        metric = (snap.criteria or ["marks"])[0] if snap is not None else "marks"
        total = metric_value(dict(line.metrics).get(metric)) if line else None
        out[e.player_id].append(Played(e.tournament, e.pk, line.rank if line else None, field,
                                       bool(line and line.shared), total, metric,
                                       snap is not None and metric in percent_columns(snap)))
    return out


def standings(player: Player, *, private: bool = False, lang: str = "fr") -> list[Standing]:
    """His standing in every championship of a public season that counts a tournament he played (the latest
    published snapshot), with « pourquoi ce rang »."""
    champs = (Championship.objects.filter(tournaments__entries__player=player).distinct()
              .select_related("season").order_by("-season__starts_on", "name"))
    if not private:
        champs = champs.filter(season__is_public=True)
    out = []
    for champ in champs:
        snap = championships.latest_snapshot(champ.pk, light=True)  # its inputs read only if its words are not kept
        if snap is None:
            continue
        words = championships.standing_words(snap, lang)  # made once per snapshot, not at each player's page
        why = words.why.get(player.pk, "")
        line = ChampionshipLine.objects.filter(snapshot=snap, player=player).first()
        if line is not None:
            out.append(Standing(champ, line.rank, championships.metric(line, "points") or 0, words.field, why))
        elif player.pk in words.waiting:
            out.append(Standing(champ, None, words.waiting[player.pk], words.field, why))
    return out


def seen_deals(player: Player, *, private: bool = False) -> list[player_stats.SeenDeal]:
    """Every deal that counts in a released round of a tournament he played, with his seat (in the order of play)."""
    seats = list(Seat.objects.filter(_open_seat(private), entry__player=player, table__round__released=True)
                 .select_related("table__round__tournament"))
    table_ids = [s.table_id for s in seats]
    order: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in (Seat.objects.filter(table_id__in=table_ids).order_by("table_id", "position")
                               .values_list("table_id", "entry_id")):
        order[table_id].append(entry_id)
    mine = {s.table_id: s for s in seats}
    out = []
    for deal in (Deal.objects.filter(table_id__in=table_ids, status=Deal.Status.VALID)
                 .only("table_id", "record", "verdict").order_by("table_id", "number")):
        seat = mine[deal.table_id]
        game = seat.table.round.tournament.game
        record = deal.record or {}
        out.append(player_stats.SeenDeal(record.get("game") or game, record, deal.verdict or {},
                                         order[deal.table_id].index(seat.entry_id)))
    return out


def _open_seat(private: bool) -> Q:
    if private:
        return Q()
    return Q(table__round__tournament__is_public=True) & ~Q(table__round__tournament__status=Tournament.Status.DRAFT)


def statistics(player: Player, *, private: bool = False, lang: str = "fr") -> tuple[player_stats.GameStats, ...]:
    return player_stats.player_stats(seen_deals(player, private=private), lang)


def rank_points(played: list[Played], since: date | None = None) -> list[tuple[str, int, int]]:
    """The chart's points: (tournament's short name, rank, field) for each tournament ranked, oldest first."""
    return [(p.tournament.name, p.rank, p.field) for p in played
            if p.rank is not None and (since is None or (p.tournament.date and p.tournament.date >= since))]


def history_doc(player: Player, played: list[Played] | None = None) -> dict[str, Any]:
    """The player's public history as plain JSON (the results file's extension and the API); ``played``: his
    :func:`tournaments_played`, when read with others' (:func:`tournaments_played_by`)."""
    return {
        "id": player.pk,
        "name": player.name if player.anonymized_at is None else "Joueur anonyme",
        "club": player.home_club.name if player.home_club is not None else (player.club or None),
        "tournaments": [{
            "slug": p.tournament.slug, "name": p.tournament.name, "date": p.tournament.date.isoformat()
            if p.tournament.date else None, "game": p.tournament.game, "rank": p.rank, "shared": p.shared,
            "field": p.field, "metric": p.metric, "total": json_value(p.total),
        } for p in (tournaments_played(player) if played is None else played)],
    }


def json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value
