"""API: clubs, seasons, championships and their published rankings, a player's history (read by anyone); a
season created or deleted, a championship deleted, by its managers (the pages' parity).

* ``clubs/``, ``clubs/{id}/`` — name, city, federation number, comité or ligue;
* ``seasons/``, ``seasons/{id}/`` — the public seasons with their championships (a private one: its managers);
  ``POST seasons/`` a season for a club (``club``) or a comité (``grouping``) the user manages;
  ``DELETE seasons/{id}/`` the season, its championships and their published rankings;
* ``championships/{id}/`` — a championship's rules; ``DELETE`` it with its published rankings;
* ``seasons/{id}/export/`` — the whole season as a ``levee.season/1`` document (docs/results-format.md);
* ``championships/{id}/ranking/`` — the latest published championship ranking (``?categorie=`` a category),
  ``…/ranking/{version}/`` one version, ``…/ranking/diff/?from=V&to=W`` who moved and why;
* ``people/{id}/history/`` — a player's public history (tournaments, ranks, totals) and championship standings.

Only published snapshots are read; nothing here computes a ranking. Personal data (licence, birth date) are
never written.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import championship as pure
from tournaments.api.base import Api, kept_download
from tournaments.clubs.models import Club, Grouping
from tournaments.common import kept
from tournaments.event.models import Player
from tournaments.operations import exports
from tournaments.seasons import championships, history, service
from tournaments.seasons import results_file as season_file
from tournaments.seasons.models import Championship, ChampionshipSnapshot, Season


def _public_season(pk: int, user: Any = None) -> Season:
    """A public season, or a private one for its managers (else 404)."""
    season = get_object_or_404(Season.objects.select_related("club", "grouping"), pk=pk)
    if not season.is_public and not (user is not None and service.manages(user, season)):
        raise exceptions.NotFound()
    return season


def _public_championship(pk: int, user: Any = None) -> Championship:
    champ = get_object_or_404(Championship.objects.select_related("season"), pk=pk)
    if not champ.season.is_public and not (user is not None and service.manages(user, champ.season)):
        raise exceptions.NotFound()
    return champ


def _may_change(season: Season, user: Any) -> None:
    """Writes: 401 without a login, 403 for whoever does not manage the season (its club's organizers, its
    comité's managers)."""
    if not user.is_authenticated:
        raise exceptions.NotAuthenticated()
    if not service.manages(user, season):
        raise exceptions.PermissionDenied(_("Seule la saison d'un club ou d'un comité que vous gérez se modifie."))


def loss_json(loss: service.Loss) -> dict[str, int]:
    return {"championships": loss.championships, "snapshots": loss.snapshots}


class SeasonIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    is_public = serializers.BooleanField(default=True)
    club = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    grouping = serializers.IntegerField(required=False, allow_null=True, min_value=1)


def season_json(season: Season) -> dict[str, Any]:
    return {"id": season.pk, "name": season.name, "slug": season.slug, "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(), "club": season.club_id, "grouping": season.grouping_id,
            "championships": [{"id": c.pk, "name": c.name, "slug": c.slug}
                              for c in season.championships.order_by("name", "id")]}


#: bump when :func:`ranking_json` changes: the kept documents are made anew
RANKING_VERSION = "2"


def ranking_json(champ: Championship, snap: ChampionshipSnapshot, category: str = "") -> dict[str, Any]:
    ranked = championships.snapshot_ranking(snap)
    names, titles = championships.names_of(ranked)
    cats = championships.categories(champ, list(names))
    lines = ranked.lines
    if category:
        chosen = next((c for c in cats if c.code == category), None)
        if chosen is None:
            raise exceptions.NotFound(_("no such category"))
        lines = pure.category_lines(ranked, chosen.members)
    why = pure.explain_all(ranked, "fr", names, titles)
    return {
        "championship": champ.pk, "version": snap.version, "digest": snap.digest,
        "published_at": snap.created_at.isoformat(), "criteria": list(snap.criteria), "category": category or None,
        "categories": [{"code": c.code, "label": c.label} for c in cats],
        "tournaments": [{"id": t, "version": v, "name": titles.get(t)} for t, v in snap.tournaments],
        "lines": [{"rank": ln.rank, "person": ln.entry, "name": names.get(ln.entry),
                   "metrics": {k: history.json_value(v) for k, v in ln.metrics},
                   "explain": why[ln.entry]} for ln in lines],
        "waiting": [{"person": s.player, "name": names.get(s.player), "points": history.json_value(s.points),
                     "played": len(s.results), "missing": s.missing} for s in pure.pending(ranked)],
    }


class ClubListView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="The clubs: name, city, federation number, comité or ligue.",
                   operation_id="clubs_list")
    def get(self, request: Request) -> Response:
        return Response([season_file.club_doc(c) | {"id": c.pk}
                         for c in Club.objects.select_related("grouping").order_by("name", "id")])


class ClubDetailView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="One club and its public seasons.")
    def get(self, request: Request, pk: int) -> Response:
        club = get_object_or_404(Club.objects.select_related("grouping"), pk=pk)
        seasons = club.seasons.filter(is_public=True).order_by("-starts_on", "id")
        return Response({**(season_file.club_doc(club) or {}), "id": club.pk,
                         "seasons": [season_json(s) for s in seasons]})


class SeasonListView(Api):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: dict}, description="The public seasons (?club= a club's id).",
                   parameters=[OpenApiParameter("club", int, required=False)], operation_id="seasons_list")
    def get(self, request: Request) -> Response:
        seasons = Season.objects.filter(is_public=True).order_by("-starts_on", "id")
        club = request.query_params.get("club")
        if club is not None:
            if not club.isdigit():
                raise exceptions.ValidationError({"club": [_("a club is given by its number")]})
            seasons = seasons.filter(club_id=int(club))
        return Response([season_json(s) for s in seasons])

    @extend_schema(request=SeasonIn, responses={201: dict}, operation_id="seasons_create",
                   description="A new season for a club (``club``) or a comité or ligue (``grouping``) you manage.")
    def post(self, request: Request) -> Response:
        data = self.valid(SeasonIn)
        club_id, grouping_id = data.get("club"), data.get("grouping")
        if (club_id is None) == (grouping_id is None):
            raise exceptions.ValidationError({"club": [_("Donnez un club (club) ou un comité (grouping), l'un des "
                                                         "deux.")]})
        owner: dict[str, Any]
        if club_id is not None:
            club = service.clubs_managed(request.user).filter(pk=club_id).first()
            if club is None:
                if Club.objects.filter(pk=club_id).exists():
                    raise exceptions.PermissionDenied(_("Vous n'êtes pas organisateur de ce club."))
                raise exceptions.ValidationError({"club": [_("Aucun club n° %(n)s.") % {"n": club_id}]})
            owner = {"club": club}
        else:
            grouping = service.groupings_managed(request.user).filter(pk=grouping_id).first()
            if grouping is None:
                if Grouping.objects.filter(pk=grouping_id).exists():
                    raise exceptions.PermissionDenied(_("Vous n'êtes pas responsable de ce comité."))
                raise exceptions.ValidationError({"grouping": [_("Aucun comité n° %(n)s.") % {"n": grouping_id}]})
            owner = {"grouping": grouping}
        season = service.season_create(**owner, name=data["name"], starts_on=data["starts_on"],
                                       ends_on=data["ends_on"], is_public=data["is_public"])
        return Response(season_json(season) | {"is_public": season.is_public}, status=status.HTTP_201_CREATED)


class SeasonDetailView(Api):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: dict}, description="One public season and its championships.")
    def get(self, request: Request, pk: int) -> Response:
        return Response(season_json(_public_season(pk, request.user)))

    @extend_schema(responses={200: dict}, description="Delete the season, its championships and their published "
                   "rankings (every version); the tournaments and their rankings stay. Says what went.")
    def delete(self, request: Request, pk: int) -> Response:
        season = _public_season(pk, request.user)
        _may_change(season, request.user)
        return Response({"deleted": "season", "id": pk, **loss_json(service.season_delete(season=season))})


class ChampionshipDetailView(Api):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: dict}, description="A championship's rules.")
    def get(self, request: Request, pk: int) -> Response:
        champ = _public_championship(pk, request.user)
        return Response({"id": champ.pk, "name": champ.name, "slug": champ.slug, "season": champ.season_id,
                         "tournaments": sorted(champ.tournaments.values_list("pk", flat=True)),
                         "table": champ.table, "best": champ.best, "minimum": champ.minimum,
                         "tie_breaks": list(champ.tie_breaks or ()), "categories": list(champ.categories or ())})

    @extend_schema(responses={200: dict}, description="Delete the championship and its published rankings (every "
                   "version); the tournaments and their rankings stay. Says what went.")
    def delete(self, request: Request, pk: int) -> Response:
        champ = _public_championship(pk, request.user)
        _may_change(champ.season, request.user)
        return Response({"deleted": "championship", "id": pk,
                         **loss_json(service.championship_delete(championship=champ))})


class SeasonExportView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict, 202: dict},
                   description="The whole season as a levee.season/1 document. Kept as a file per state: 202 with "
                               "Retry-After while the newest is being prepared and none was made before.")
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        return kept_download(request, exports.season_export(_public_season(pk))[0])


def _version(champ: Championship, value: Any, field: str) -> ChampionshipSnapshot:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise exceptions.ValidationError({field: [_("a ranking version is a whole number")]}) from None
    snap = ChampionshipSnapshot.objects.filter(championship=champ, version=number).first()
    if snap is None:
        raise exceptions.NotFound(_("no ranking was published at version %(v)s") % {"v": number})
    return snap


def kept_ranking(champ: Championship, version: int | None, category: str = "") -> HttpResponse:
    """The championship's ranking at ``version`` (None: the latest) as the API's JSON, computed once per snapshot,
    category and rules and kept in the cache as its bytes (2,000 lines with their explanations took a second a
    request; a snapshot never changes): a request reads the snapshot's id and the bytes. A player made anonymous
    drops the championship's keys (``levee:championship:{id}:``, ``tournaments.public.anonymous``)."""
    snaps = ChampionshipSnapshot.objects.filter(championship=champ)
    snap_id = (snaps.order_by("-version") if version is None else snaps.filter(version=version)).values_list(
        "pk", flat=True).first()
    if snap_id is None:
        raise exceptions.NotFound(_("no ranking published yet") if version is None
                                  else _("no ranking was published at version %(v)s") % {"v": version})
    rules = (champ.table, champ.best, champ.minimum, champ.tie_breaks, champ.categories)
    variant = hashlib.sha256(repr((RANKING_VERSION, category, rules)).encode()).hexdigest()[:16]
    key = f"levee:championship:{champ.pk}:api:{snap_id}:{variant}"
    body = kept.get(key)
    if body is None:
        document = ranking_json(champ, ChampionshipSnapshot.objects.get(pk=snap_id), category)
        body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        kept.set(key, body, 3600)
    return HttpResponse(body, content_type="application/json")


class ChampionshipRankingView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="The latest published championship ranking.",
                   parameters=[OpenApiParameter("categorie", str, required=False)])
    def get(self, request: Request, pk: int) -> HttpResponse:
        return kept_ranking(_public_championship(pk), None, request.query_params.get("categorie", "")[:40])


class ChampionshipVersionView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="The championship ranking published at a version.",
                   operation_id="championships_ranking_version_retrieve")
    def get(self, request: Request, pk: int, version: int) -> HttpResponse:
        return kept_ranking(_public_championship(pk), version)


class ChampionshipDiffView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="Who moved between two championship rankings, and why.",
                   parameters=[OpenApiParameter("from", int, required=True),
                               OpenApiParameter("to", int, required=False, description="default: the latest")])
    def get(self, request: Request, pk: int) -> Response:
        champ = _public_championship(pk)
        old = _version(champ, request.query_params.get("from"), "from")
        new = (_version(champ, request.query_params.get("to"), "to") if request.query_params.get("to") is not None
               else championships.latest_snapshot(champ.pk))
        assert new is not None  # a snapshot exists: ``old`` is one
        change = championships.snapshot_compare(old, new)
        ranked = championships.snapshot_ranking(new)
        names, titles = championships.names_of(ranked)
        why = pure.explain_all(ranked, "fr", names, titles)
        return Response({
            "championship": champ.pk, "from": old.version, "to": new.version, "same_inputs": change.same_inputs,
            "moved": [{"person": m.entry, "name": names.get(m.entry), "from": m.old_rank, "to": m.new_rank,
                       "explain": why[m.entry]} for m in change.moved],
            "added": [{"person": e, "name": names.get(e)} for e in change.added],
            "removed": [{"person": e} for e in change.removed],
        })


class PersonHistoryView(Api):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict}, description="A player's public history and championship standings.")
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player.objects.select_related("home_club"), pk=pk)
        doc = history.history_doc(player)
        doc["championships"] = [{"id": s.championship.pk, "name": s.championship.name, "rank": s.rank,
                                 "points": history.json_value(s.points), "field": s.field, "explain": s.why}
                                for s in history.standings(player)]
        return Response(doc)


urlpatterns = [
    path("clubs/", ClubListView.as_view(), name="clubs"),
    path("clubs/<id:pk>/", ClubDetailView.as_view(), name="club"),
    path("seasons/", SeasonListView.as_view(), name="seasons"),
    path("seasons/<id:pk>/", SeasonDetailView.as_view(), name="season"),
    path("seasons/<id:pk>/export/", SeasonExportView.as_view(), name="season-export"),
    path("championships/<id:pk>/", ChampionshipDetailView.as_view(), name="championship"),
    path("championships/<id:pk>/ranking/", ChampionshipRankingView.as_view(), name="championship-ranking"),
    path("championships/<id:pk>/ranking/diff/", ChampionshipDiffView.as_view(), name="championship-ranking-diff"),
    path("championships/<id:pk>/ranking/<id:version>/", ChampionshipVersionView.as_view(),
         name="championship-ranking-version"),
    path("people/<id:pk>/history/", PersonHistoryView.as_view(), name="person-history"),
]
