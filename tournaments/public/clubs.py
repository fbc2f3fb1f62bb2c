"""A club's public page (``/c/<club>/``): its name and city, its public seasons with their championships, its public
tournaments running, upcoming and past, and its members' names, each to his page across events (``/joueurs/<id>/``) —
nothing personal (no licence, no birth date: those are the staff's, ``/clubs/<club>/``).

The page is the same for every reader of a language, so it is rendered once per state and kept
(:func:`published.respond_keyed`: ETag, 304, gzip, marked public so that the proxy in front keeps it a second). Its
state is what it shows, read in four small statements and hashed: the club's fields, its public seasons and their
championships, its public tournaments (with their players' count) and its members' names. What a request saves is
the page's rendering and the French sort of its members (a club of 1,000 members: most of its time). A player made
anonymous leaves the page at once: his name changes the state, and :data:`PREFIX` is dropped with his pages.
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string

from tournaments.clubs.models import Club
from tournaments.common.access import lang_of
from tournaments.event.club_reads import club_members, club_tournaments
from tournaments.event.models import Player
from tournaments.public import published
from tournaments.seasons.models import Championship, Season

#: bump when the club's template changes: every key changes
RENDER_VERSION = "2"
#: every kept club page's key begins so (a player made anonymous drops them all: :mod:`anonymous`)
PREFIX = "levee:clubs:"


def club(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    # the same page for everyone, whoever is logged in: what the public may read
    seasons = list(Season.objects.filter(club=club, is_public=True).order_by("-starts_on", "id"))
    champs = list(Championship.objects.filter(season__in=seasons).order_by("season_id", "name", "id")
                  .values_list("season_id", "name", "slug"))
    tournaments = club_tournaments(club, AnonymousUser())
    members = list(Player.objects.filter(home_club=club, anonymized_at__isnull=True).order_by("pk")
                   .values_list("pk", "name"))
    state = (RENDER_VERSION, lang_of(request), club.pk, club.name, club.slug, club.city,
             [(s.pk, s.name, s.slug) for s in seasons], champs,
             [(t.pk, t.slug, t.name, t.date, t.game, t.venue, t.status, t.entry_count, t.created_at.date())
              for t in (*tournaments.running, *tournaments.upcoming, *tournaments.past)], members)
    etag = hashlib.sha256(repr(state).encode()).hexdigest()[:32]

    def render() -> str:
        by_season: dict[int, list[dict[str, str]]] = {}
        for season_id, name, champ_slug in champs:
            by_season.setdefault(season_id, []).append({"name": name, "slug": champ_slug})
        return render_to_string("public/club.html", {
            "club": club, "tournaments": tournaments, "messages": (),
            "seasons": [{"name": s.name, "slug": s.slug, "championships": by_season.get(s.pk, [])} for s in seasons],
            "members": [m.player for m in club_members(club)]})

    return published.respond_keyed(request, f"{PREFIX}{club.pk}:{etag}", etag, render)
