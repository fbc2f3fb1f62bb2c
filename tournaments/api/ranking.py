"""API: a tournament's published rankings (``/api/tournaments/{id}/ranking/…``).

* ``ranking/`` — the latest published snapshot: its version, digest, whether it is up to date (no deal
  entered since), the rounds it counts, its criteria and lines;
* ``ranking/{version}/`` — the snapshot published at that input version (404 when none was);
* ``ranking/diff/?from=V&to=W`` — what changed between two snapshots: who moved, by how many places, and
  why (the metrics that changed for him), who appeared or left (``to`` defaults to the latest).

``ranking/`` and ``ranking/{version}/`` send an ETag tied to the published snapshot (its version and digest) and
to whether it is still up to date; ``If-None-Match`` with it is a 304 without a body (a client polling the
ranking downloads it once per published state).

Only snapshots are read: nothing here computes a ranking. The public sees the ranking of a public
tournament, like the ranking page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import path
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import ranking as pure
from tournaments.api.base import Api, visible_tournament
from tournaments.event.models import Entry, Team, Tournament
from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot


def _value(value: Any) -> Any:
    metric = rankings.metric_value(value)
    return str(metric) if metric is not None and not isinstance(metric, int) else metric


def snapshot_json(tournament: Tournament, snap: RankingSnapshot, version: int) -> dict[str, Any]:
    names = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player__name"))
    teams = set(Team.objects.filter(tournament=tournament).values_list("id", flat=True))
    # a line whose entry (team) was deleted since is left out, as its row once was by the foreign key's cascade
    lines = [ln for ln in rankings.snapshot_lines(snap) if ln.entry_id in names]
    team_lines = [ln for ln in rankings.snapshot_lines(snap, rankings.Unit.TEAM) if ln.team_id in teams]
    return {
        "tournament": tournament.pk, "version": snap.input_version, "digest": snap.digest,
        "up_to_date": snap.input_version >= version, "computed_at": snap.created_at.isoformat(),
        "rounds": list(snap.released_rounds), "criteria": list(snap.criteria),
        "lines": [{"rank": ln.rank, "shared": ln.shared, "entry": ln.entry_id, "name": names.get(ln.entry_id),
                   "metrics": {k: _value(v) for k, v in ln.metrics}} for ln in lines],
        "team_lines": [{"rank": ln.rank, "shared": ln.shared, "team": ln.team_id,
                        "metrics": {k: _value(v) for k, v in ln.metrics}} for ln in team_lines],
    }


def diff_json(tournament: Tournament, old: RankingSnapshot, new: RankingSnapshot) -> dict[str, Any]:
    """Who moved and why, from :func:`scoring.ranking.diff` of the two snapshots rebuilt from their inputs."""
    names = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player__name"))
    change = rankings.snapshot_compare(old, new)
    rebuilt_new = rankings.snapshot_ranking(new)
    why: dict[Any, list[dict[str, Any]]] = {}
    for entry, metric, before, after in change.changed:
        why.setdefault(entry, []).append({"metric": metric, "label": pure.label(metric, "fr"),
                                          "from": _value(before), "to": _value(after)})
    moved = [{"entry": m.entry, "name": names.get(m.entry), "from": m.old_rank, "to": m.new_rank,
              "by": m.old_rank - m.new_rank, "why": why.get(m.entry, []),
              "explain": rebuilt_new.explain(m.entry, "fr", names)} for m in change.moved]
    moved.sort(key=lambda m: (m["to"], m["name"] or ""))
    return {
        "tournament": tournament.pk, "from": old.input_version, "to": new.input_version,
        "same_inputs": change.same_inputs, "moved": moved,
        "added": [{"entry": e, "name": names.get(e)} for e in change.added],
        "removed": [{"entry": e, "name": names.get(e)} for e in change.removed],
        "changed": [{"entry": e, "name": names.get(e), "changes": c} for e, c in why.items()],
    }


def snapshot_etag(snap: RankingSnapshot, version: int) -> str:
    """The ETag of a snapshot's answer: its version and digest, and whether entries came after it (the answer's
    ``up_to_date``); names and lines are the snapshot's own."""
    return f'"ranking-{snap.input_version}-{snap.digest[:16]}-{int(snap.input_version >= version)}"'


def _answer(request: Request, tournament: Tournament, snap: RankingSnapshot, version: int) -> Response | HttpResponse:
    """The snapshot as JSON with its ETag, or 304 when ``If-None-Match`` already names it."""
    etag = snapshot_etag(snap, version)
    wanted = parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
    if "*" in wanted or etag in wanted or f"W/{etag}" in wanted:
        response: Response | HttpResponse = HttpResponse(status=304)
    else:
        response = Response(snapshot_json(tournament, snap, version))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # kept by the client, asked again with If-None-Match
    return response


def _snapshot(tournament: Tournament, version: Any, field: str) -> RankingSnapshot:
    try:
        number = int(version)
    except (TypeError, ValueError):
        raise exceptions.ValidationError({field: [_("a ranking version is a whole number")]}) from None
    snap = RankingSnapshot.objects.filter(tournament=tournament, input_version=number).first()
    if snap is None:
        raise exceptions.NotFound(_("no ranking was published at version %(v)s") % {"v": number})
    return snap


class RankingLatestView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="The latest published ranking: version, digest, up to date.")
    def get(self, request: Request, pk: int) -> Response | HttpResponse:
        tournament = visible_tournament(request, pk)
        status = rankings.ranking_status(tournament)
        if status.snapshot is None:
            raise exceptions.NotFound(_("no ranking published yet"))
        return _answer(request, tournament, status.snapshot, status.version)


class RankingVersionView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="The ranking published at an input version.",
                   operation_id="tournaments_ranking_version_retrieve")  # one id per operation (check --deploy)
    def get(self, request: Request, pk: int, version: int) -> Response | HttpResponse:
        tournament = visible_tournament(request, pk)
        snap = _snapshot(tournament, version, "version")
        return _answer(request, tournament, snap, rankings.ranking_status(tournament).version)


class RankingDiffView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="Who moved between two published rankings, by how much, why.",
                   parameters=[OpenApiParameter("from", int, required=True),
                               OpenApiParameter("to", int, required=False, description="default: the latest")])
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        old = _snapshot(tournament, request.query_params.get("from"), "from")
        if request.query_params.get("to") is not None:
            new = _snapshot(tournament, request.query_params.get("to"), "to")
        else:
            new = rankings.latest_snapshot(tournament.pk)
        return Response(diff_json(tournament, old, new))


urlpatterns = [
    path("tournaments/<id:pk>/ranking/", RankingLatestView.as_view(), name="ranking"),
    path("tournaments/<id:pk>/ranking/diff/", RankingDiffView.as_view(), name="ranking-diff"),
    path("tournaments/<id:pk>/ranking/<id:version>/", RankingVersionView.as_view(), name="ranking-version"),
]
