"""API: « Appeler l'arbitre », as on the chief arbiter's page and the table's link.

``GET /api/tournaments/{id}/calls/`` (``?state=open|taken|resolved``), ``POST /api/calls/{id}/take/``, ``POST
/api/calls/{id}/resolve/`` (``outcome``, ``answer``): the chief arbiter or the organizer
(``permissions.can_referee``), as the chief's page. ``POST /api/k/{token}/calls/`` opens a call through the
table's private link (no account, as the link's « Appeler l'arbitre » page); the deal is named by its number at
the table.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, paged, visible_tournament
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.models import Deal
from tournaments.event import permissions
from tournaments.links import service
from tournaments.links.models import ArbiterCall, PrivateLink


class CallOut(serializers.ModelSerializer):
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    deal_number = serializers.SerializerMethodField()
    called_by = serializers.SerializerMethodField()
    taken_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    resolved_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = ArbiterCall
        fields = ["id", "table", "round", "table_number", "deal", "deal_number", "reason", "note", "called_by",
                  "state", "created_at", "taken_by", "taken_at", "resolved_by", "resolved_at", "outcome", "answer"]

    def get_deal_number(self, obj: ArbiterCall) -> int | None:
        return obj.deal.number if obj.deal_id is not None else None

    def get_called_by(self, obj: ArbiterCall) -> str | None:
        return obj.entry.player.name if obj.entry_id is not None else None


class CallIn(serializers.Serializer):
    reason = serializers.ChoiceField(choices=ArbiterCall.Reason.choices)
    deal = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                    help_text="the deal's number at the table, when the call is about one")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)


class ResolveIn(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=ArbiterCall.Outcome.choices)
    answer = serializers.CharField(max_length=2000, help_text="what was decided: the table reads it")


def _calls(tournament: object) -> object:
    return (ArbiterCall.objects.filter(tournament=tournament)
            .select_related("table__round", "deal", "entry__player", "taken_by", "resolved_by"))


class CallListView(Api):
    @extend_schema(responses={200: CallOut(many=True), 403: s.ErrorOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        tournament = visible_tournament(request, pk)
        self.allow(permissions.can_referee(request.user, tournament))
        qs = _calls(tournament).order_by("created_at", "id")
        state = request.query_params.get("state")
        if state:
            if state not in ArbiterCall.State.values:
                raise InvalidInput(_("open, taken or resolved"), field="state")
            qs = qs.filter(state=state)
        return paged(self, qs, CallOut)


def _referee_call(view: Api, request: Request, pk: int) -> ArbiterCall:
    call = get_object_or_404(ArbiterCall.objects.select_related("tournament"), pk=pk)
    if not permissions.can_view_tournament(request.user, call.tournament):
        raise exceptions.NotFound()
    view.allow(permissions.can_referee(request.user, call.tournament))
    return call


def _out(call: ArbiterCall) -> dict:
    return CallOut(_calls(call.tournament_id).get(pk=call.pk)).data


class CallTakeView(Api):
    @extend_schema(request=None, responses={200: CallOut, 403: s.ErrorOut, 404: s.ErrorOut, 409: s.ErrorOut},
                   description="Take the call (the table sees someone is coming); 409 once it is answered.")
    def post(self, request: Request, pk: int) -> Response:
        call = _referee_call(self, request, pk)
        return Response(_out(service.call_take(call=call, user=request.user)))


class CallResolveView(Api):
    @extend_schema(request=ResolveIn, responses={200: CallOut, 400: s.ErrorOut, 403: s.ErrorOut, 404: s.ErrorOut,
                                                 409: s.ErrorOut},
                   description="Close the call with what was done and the answer the table reads; 409 when it "
                               "was already answered.")
    def post(self, request: Request, pk: int) -> Response:
        call = _referee_call(self, request, pk)
        data = self.valid(ResolveIn)
        return Response(_out(service.call_resolve(call=call, user=request.user, outcome=data["outcome"],
                                                  answer=data["answer"])))


class LinkGone(StateConflict):
    """A revoked link: 410, as its pages."""

    status = 410
    code = "link_revoked"


def live_link(token: str, *, table: bool) -> PrivateLink:
    """The live link of ``token`` (a table's or a player's): 404 when unknown or of the other kind, 410 when
    revoked."""
    link = service.link_by_token(token)
    if link is None or (link.table_id is not None) != table:
        raise exceptions.NotFound(_("this link opens no table") if table else _("this link opens no player"))
    if not link.is_live:
        raise LinkGone(_("this link was revoked: ask the arbiter for the new card"), field="token")
    return link


class LinkCallView(Api):
    permission_classes = [AllowAny]

    @extend_schema(request=CallIn, responses={201: CallOut, 400: s.ErrorOut, 404: s.ErrorOut, 410: s.ErrorOut},
                   description="« Appeler l'arbitre » through the table's link: one open call per reason and "
                               "deal (a second one is the same call, 200).")
    def post(self, request: Request, token: str) -> Response:
        link = live_link(token, table=True)
        data = self.valid(CallIn)
        deal = None
        if data.get("deal") is not None:
            deal = Deal.objects.filter(table_id=link.table_id, number=data["deal"]).exclude(
                status=Deal.Status.ANNULLED).first()
            if deal is None:
                raise InvalidInput(_("no such deal at this table"), field="deal")
        before = set(ArbiterCall.objects.filter(table_id=link.table_id).values_list("pk", flat=True))
        call = service.call_create(table=link.table, reason=data["reason"], deal=deal, link=link, note=data["note"])
        code = status.HTTP_200_OK if call.pk in before else status.HTTP_201_CREATED
        return Response(_out(call), status=code)


urlpatterns = [
    path("tournaments/<id:pk>/calls/", CallListView.as_view(), name="calls"),
    path("calls/<id:pk>/take/", CallTakeView.as_view(), name="call-take"),
    path("calls/<id:pk>/resolve/", CallResolveView.as_view(), name="call-resolve"),
    path("k/<str:token>/calls/", LinkCallView.as_view(), name="link-calls"),
]
