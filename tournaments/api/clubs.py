"""API: a club's members, read-only (``/api/clubs/{id}/members/``).

A club's staff read its members with their personal data (licence, birth date, série, validity); a comité's or
ligue's viewers read their names; anyone else gets a 404, as for a club that does not exist. The clubs themselves
(name, city, federation number: public, as their page ``/c/<club>/``) are listed by ``/api/clubs/`` and
``/api/clubs/{id}/`` (the seasons' endpoints, ``tournaments/api/seasons.py``, on the branch ``seasons``)."""

from __future__ import annotations

from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api import serializers as s
from tournaments.api.base import Api
from tournaments.clubs import permissions as clubs
from tournaments.clubs.models import Club
from tournaments.event.club_reads import club_members


def _readable(user) -> Q:
    """The clubs the user works for or reads as a comité's or ligue's viewer."""
    if user.is_superuser:
        return Q()
    return Q(pk__in=sorted(clubs.club_roles(user))) | Q(pk__in=clubs.read_clubs(user).values("pk"))


def _club(request: Request, pk: int) -> Club:
    club = Club.objects.filter(_readable(request.user), pk=pk).select_related("grouping").first()
    if club is None:
        raise Http404
    return club


class ClubMembersView(Api):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.MemberOut(many=True),
                   description="The club's members: with their licence, birth date, série and validity for the "
                               "club's staff; names only for a comité's or ligue's viewer.")
    def get(self, request: Request, pk: int) -> Response:
        club = _club(request, pk)
        members = club_members(club)
        if not clubs.is_club_staff(request.user, club):
            return Response(s.PublicMemberOut([m.player for m in members], many=True).data)
        today = timezone.localdate()
        return Response([s.MemberOut.of(m, today) for m in members])
