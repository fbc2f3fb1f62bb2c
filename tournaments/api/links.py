"""API: the private links of a tournament, as on the organizer's « Liens et règles des tables » page.

``GET /api/tournaments/{id}/links/`` lists them (``?kind=table|player``, ``?live=true``), ``POST
/api/links/{id}/revoke/`` revokes one at once (``{"renew": false}`` makes no successor), ``POST
/api/links/{id}/renew/`` revokes a live link and gives its successor (or gives the live successor of a revoked
one). Organizer only (``permissions.can_manage``), as the page; others: 403, or 404 when the tournament is not
visible to them.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, visible_tournament
from tournaments.common.errors import InvalidInput
from tournaments.event import permissions
from tournaments.links import service
from tournaments.links.models import PrivateLink


class LinkOut(serializers.ModelSerializer):
    kind = serializers.SerializerMethodField(help_text="table (one table of one round) or player (his own deals)")
    round = serializers.SerializerMethodField()
    table_number = serializers.SerializerMethodField()
    player = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField(help_text="the link's page, printed as a QR code on its card")
    live = serializers.SerializerMethodField()

    class Meta:
        model = PrivateLink
        fields = ["id", "kind", "table", "round", "table_number", "entry", "player", "token", "url", "live",
                  "created_at", "revoked_at"]

    def get_kind(self, obj: PrivateLink) -> str:
        return "table" if obj.table_id is not None else "player"

    def get_round(self, obj: PrivateLink) -> int | None:
        return obj.table.round.number if obj.table_id is not None else None

    def get_table_number(self, obj: PrivateLink) -> int | None:
        return obj.table.number if obj.table_id is not None else None

    def get_player(self, obj: PrivateLink) -> str | None:
        return obj.entry.player.name if obj.entry_id is not None else None

    def get_url(self, obj: PrivateLink) -> str:
        path_ = reverse("link_home" if obj.table_id is not None else "player_home", args=[obj.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path_) if request is not None else path_

    def get_live(self, obj: PrivateLink) -> bool:
        return obj.is_live


class RevokeIn(serializers.Serializer):
    renew = serializers.BooleanField(required=False, default=True,
                                     help_text="make the successor at once (default); false revokes only")


class RevokeOut(serializers.Serializer):
    revoked = LinkOut()
    new = LinkOut(allow_null=True)


def _links(tournament: Any) -> Any:
    return (PrivateLink.objects.filter(tournament=tournament)
            .select_related("table__round", "entry__player").order_by("id"))


class LinkListView(Api):
    @extend_schema(responses={200: LinkOut(many=True), 403: s.ErrorOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_manage(request.user, tournament))
        qs = _links(tournament)
        kind = request.query_params.get("kind")
        if kind not in (None, "", "table", "player"):
            raise InvalidInput(_("table or player"), field="kind")
        if kind == "table":
            qs = qs.filter(table__isnull=False)
        elif kind == "player":
            qs = qs.filter(entry__isnull=False)
        live = request.query_params.get("live")
        if live not in (None, "", "true", "false"):
            raise InvalidInput(_("true or false"), field="live")
        if live:
            qs = qs.filter(revoked_at__isnull=live == "true")
        paginator = self.paginator
        page = paginator.paginate_queryset(qs, request, view=self) if paginator else None
        if page is not None:
            return paginator.get_paginated_response(LinkOut(page, many=True, context={"request": request}).data)
        return Response(LinkOut(qs, many=True, context={"request": request}).data)


def _organizer_link(view: Api, request: Request, pk: int) -> PrivateLink:
    link = get_object_or_404(PrivateLink.objects.select_related("tournament", "table__round", "entry__player"),
                             pk=pk)
    if not permissions.can_view_tournament(request.user, link.tournament):
        raise exceptions.NotFound()
    view.allow(permissions.can_manage(request.user, link.tournament))
    return link


class LinkRevokeView(Api):
    @extend_schema(request=RevokeIn, responses={200: RevokeOut, 403: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut},
                   description="Revoke a link at once: its holder is refused from the next request (410 on its "
                               "pages). 409 when it was already revoked.")
    def post(self, request: Request, pk: int) -> Response:
        link = _organizer_link(self, request, pk)
        data = self.valid(RevokeIn)
        new = service.link_revoke(link=link, user=request.user, renew=data["renew"])
        context = {"request": request}
        return Response({"revoked": LinkOut(link, context=context).data,
                         "new": LinkOut(new, context=context).data if new is not None else None})


class LinkRenewView(Api):
    @extend_schema(request=None, responses={201: RevokeOut, 403: s.ErrorOut, 404: s.ErrorOut},
                   description="A new link for the same table or player: a live link is revoked and replaced; a "
                               "revoked one gives the live successor (made if there is none).")
    def post(self, request: Request, pk: int) -> Response:
        link = _organizer_link(self, request, pk)
        if link.is_live:
            new = service.link_revoke(link=link, user=request.user, renew=True)
        elif link.table_id is not None:
            new = service.link_for_table(table=link.table, user=request.user)
        else:
            new = service.link_for_entry(entry=link.entry, user=request.user)
        context = {"request": request}
        return Response({"revoked": LinkOut(link, context=context).data, "new": LinkOut(new, context=context).data},
                        status=status.HTTP_201_CREATED)


urlpatterns = [
    path("tournaments/<id:pk>/links/", LinkListView.as_view(), name="links"),
    path("links/<id:pk>/revoke/", LinkRevokeView.as_view(), name="link-revoke"),
    path("links/<id:pk>/renew/", LinkRenewView.as_view(), name="link-renew"),
]
