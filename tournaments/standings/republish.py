"""A published ranking brought up to date with this version's rules, after an upgrade.

A new version of Levée may count more in a ranking than the one that published it (the rounds played, the contracts
made as taker: an older ranking shows 0 for them until the tournament changes again). :func:`ranking_republish`
ranks the tournament again from its stored deals and compares with what is published (``scoring.ranking.diff``):

* nothing differs: nothing is done (``current``);
* only figures differ, every rank the same: published again, a new version of the ranking (``figures``);
* a rank would move: **left as published** (``order``), since an official ranking does not change by itself; the
  organizer republishes it knowingly (``force``: ``forced``), and the moves are listed for him.

``manage.py upgrade`` runs it for every published tournament after migrating; ``manage.py republish`` on demand.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from scoring import ranking as pure
from tournaments.event.models import Tournament
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

OUTCOMES = ("unpublished", "behind", "current", "figures", "order", "forced")


@dataclass(frozen=True)
class Republication:
    """What :func:`ranking_republish` found and did for one tournament."""

    tournament_id: int
    name: str
    outcome: str  # one of OUTCOMES
    moved: tuple[pure.Move, ...] = ()
    changed: int = 0  # figures that differ (metric values, every line)

    @property
    def published(self) -> bool:
        return self.outcome in ("figures", "forced")


@dataclass(frozen=True)
class _Differences:
    moved: tuple[pure.Move, ...]
    changed: int
    reordered: bool  # a rank moved, or an entry appeared or went
    differs: bool


def _differences(tournament: Tournament, snapshot: RankingSnapshot) -> _Differences:
    """Between the published ranking(s) and the ranking computed now from the stored deals."""
    computed = rankings.ranking_compute(tournament=tournament)
    pairs = [(rankings.snapshot_ranking(snapshot), computed.individual)]
    if computed.teams is not None and snapshot.team_digest:
        pairs.append((rankings.snapshot_ranking(snapshot, teams=True), computed.teams))
    moved: list[pure.Move] = []
    changed, reordered = 0, (computed.teams is None) != (not snapshot.team_digest)
    for old, new in pairs:
        diff = pure.diff(old, new)
        moved += diff.moved
        changed += len(diff.changed)
        reordered = reordered or bool(diff.moved or diff.added or diff.removed)
    return _Differences(tuple(moved), changed, reordered, reordered or changed > 0)


def ranking_republish(*, tournament_id: int, force: bool = False) -> Republication:
    """Publish the tournament's ranking again when this version ranks its stored deals differently (module doc)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    snapshot = rankings.latest_snapshot(tournament_id)
    if snapshot is None:
        return Republication(tournament_id, tournament.name, "unpublished")
    if snapshot.input_version < rankings.ranking_status(tournament).version:
        return Republication(tournament_id, tournament.name, "behind")  # a refresh publishes the changes anyway
    found = _differences(tournament, snapshot)
    if not found.differs:
        return Republication(tournament_id, tournament.name, "current")
    if found.reordered and not force:
        return Republication(tournament_id, tournament.name, "order", found.moved, found.changed)
    with transaction.atomic():  # a new input version, published here (not left to a worker that may not run yet)
        rankings.ranking_inputs_changed(tournament_id=tournament_id)
    tasks.refresh_leased(tournament_id)
    return Republication(tournament_id, tournament.name, "forced" if found.reordered else "figures", found.moved,
                         found.changed)


def republish_all(*, force: bool = False) -> list[Republication]:
    """:func:`ranking_republish` for every tournament with a published ranking, oldest first."""
    ids = (RankingSnapshot.objects.values_list("tournament_id", flat=True).distinct()
           .order_by("tournament_id"))
    return [ranking_republish(tournament_id=pk, force=force) for pk in ids]
