"""API: the forfeit or absence of a table (``/api/tables/{id}/forfeit/``).

GET reads it (404 when there is none), PUT records or replaces it, DELETE cancels it. Writes need
the chief arbiter or the organizer (``permissions.can_referee``); errors are the API's usual
``{"error", "field", "message"}`` bodies.
"""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api, visible_table
from tournaments.deals.forfeits import forfeit_cancel, forfeit_record
from tournaments.deals.models import Forfeit
from tournaments.event import permissions

# ``kind`` as a plain string (the service checks it): an enum here would collide with the rulings' "kind" in
# the OpenAPI schema.
KIND_HELP = "forfeit (the side present wins the match) or absence (no result)"


class ForfeitIn(serializers.Serializer):
    kind = serializers.CharField(max_length=10, help_text=KIND_HELP)
    absent = serializers.ListField(child=serializers.IntegerField(), allow_empty=False,
                                   help_text="entry ids of the absent players, seated at this table")
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class ForfeitOut(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text=KIND_HELP)
    absent = serializers.SerializerMethodField()

    class Meta:
        model = Forfeit
        fields = ["id", "tournament", "table", "kind", "absent", "reason", "created_by", "created_at"]

    def get_absent(self, obj: Forfeit) -> list[int]:
        return sorted(obj.absent.values_list("id", flat=True))


class TableForfeitView(Api):
    @extend_schema(responses={200: ForfeitOut, 404: s.ErrorOut})
    def get(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        forfeit = Forfeit.objects.filter(table=table).first()
        if forfeit is None:
            raise exceptions.NotFound(_("no forfeit or absence at this table"))
        return Response(ForfeitOut(forfeit).data)

    @extend_schema(request=ForfeitIn, responses={200: ForfeitOut, 400: s.ErrorOut, 403: s.ErrorOut})
    def put(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        self.allow(permissions.can_referee(request.user, table.round.tournament))
        data = self.valid(ForfeitIn)
        forfeit = forfeit_record(table=table, kind=data["kind"], absent=data["absent"], reason=data["reason"],
                                 user=request.user)
        return Response(ForfeitOut(forfeit).data)

    @extend_schema(responses={204: None, 403: s.ErrorOut, 404: s.ErrorOut})
    def delete(self, request: Request, pk: int) -> Response:
        table = visible_table(request, pk)
        self.allow(permissions.can_referee(request.user, table.round.tournament))
        if not forfeit_cancel(table=table, user=request.user):
            raise exceptions.NotFound(_("no forfeit or absence at this table"))
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [path("tables/<id:pk>/forfeit/", TableForfeitView.as_view(), name="table-forfeit")]
