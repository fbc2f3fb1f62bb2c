"""A club's public page (``/c/<club>/``): its name and city, its public seasons with their championships, its public
tournaments upcoming and past, and its members' names, each to his page across events (``/joueurs/<id>/``) —
nothing personal (no licence, no birth date: those are the staff's, ``/clubs/<club>/``)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.clubs.models import Club
from tournaments.event.club_reads import club_members, club_tournaments
from tournaments.seasons.models import Season


def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    # the same page for everyone, whoever is logged in: what the public may read
    seasons = (Season.objects.filter(club=club, is_public=True).prefetch_related("championships")
               .order_by("-starts_on", "id"))
    return render(request, "public/club.html", {
        "club": club, "tournaments": club_tournaments(club, AnonymousUser()), "seasons": seasons,
        "members": [m.player for m in club_members(club)]})
