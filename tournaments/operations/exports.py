"""The API's two whole exports, kept as files: a tournament's deals (``/api/tournaments/{id}/export/``, one
``levee.match/1`` record per table) and a season (``/api/seasons/{id}/export/``, a ``levee.season/1`` document).

Both grow with the event and the club (every deal of every table; every person's history across the club's
events): at 1,000 players they took seconds, at 10,000 minutes. So they are made like the results file
(:mod:`tournaments.common.downloads`): the prints worker renders each once per state (the task
``tournaments.render_export``, ``tournaments/public/tasks.py``), the file and its gzip copy are kept, and a request
serves the file with its ETag — or, the first time, says « en préparation » (202, ``Retry-After``) while the newest
state renders, and serves the latest file written meanwhile.

A state is what the export shows, hashed into its key:

* a tournament's: its own fields and its ranking clock's version, which every writer of a deal, a correction, a
  ruling, a forfeit or a round's release moves (:func:`tournaments.common.hooks.scores_changed`); the staff's
  export (every round) apart from the others' (the released rounds only);
* a season's: its fields and its club's, each championship's rules and latest published version, and the people it
  ranks — their names and clubs and the latest published ranking of every tournament they played (their
  histories are part of the document).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db.models import Max

from tournaments.common import downloads
from tournaments.deals import selectors
from tournaments.event.models import Entry, Player, Tournament
from tournaments.seasons import championships
from tournaments.seasons import results_file as season_file
from tournaments.seasons.models import Season
from tournaments.standings import rankings
from tournaments.standings.models import RankingClock, RankingSnapshot

#: the task that renders an export (``tournaments.public.tasks.render_export``: the prints worker's)
TASK = "tournaments.render_export"
#: bump when a document's shape changes: every key changes, every export is made anew
EXPORT_VERSION = "1"
JSON = "application/json; charset=utf-8"

Render = Callable[[], str]


def _key(*parts: object) -> str:
    return hashlib.sha256(repr((EXPORT_VERSION, *parts)).encode()).hexdigest()[:32]


def tournament_export(tournament: Tournament, staff: bool) -> tuple[downloads.Download, Render]:
    """The export of ``tournament``'s deals (the staff's: every round; else the released rounds) and its render."""
    version = RankingClock.objects.filter(tournament=tournament).values_list("version", flat=True).first() or 0
    rounds = None if staff else list(rankings.released_rounds(tournament).values_list("number", flat=True))
    key = _key(tournament.pk, tournament.name, tournament.slug, tournament.game, tournament.record_options(),
               version, staff, rounds)

    def render() -> str:
        fresh = Tournament.objects.get(pk=tournament.pk)
        return json.dumps(selectors.tournament_export(fresh, rounds=rounds), ensure_ascii=False)

    open_to_all = tournament.is_public and tournament.status != tournament.Status.DRAFT
    doc = downloads.Download("export.json", tournament.pk, tournament.slug, key,
                             f"{tournament.slug}-donnes.json", JSON, "L'export des donnes", staff=staff,
                             private=staff or not open_to_all, task=TASK,
                             task_args=("tournament", tournament.pk, staff), disposition="inline")
    return doc, render


def season_folder(season_id: int) -> str:
    """The sub-folder of the kept files where a season's export is kept."""
    return f"seasons/{season_id}"


def _season_state(season: Season) -> tuple[object, ...]:
    """What a season's document shows moves with (a few grouped statements; the document takes seconds)."""
    champs = list(season.championships.order_by("pk").values_list(
        "pk", "name", "slug", "table", "best", "minimum", "tie_breaks", "categories"))
    published = {c: championships.latest_snapshot(c) for c, *_ in champs}
    counted = sorted(season.championships.values_list("pk", "tournaments__slug"), key=repr)
    people = sorted({line_person for snap in published.values() if snap is not None
                     for line_person in (int(row[1]) for row in snap.inputs)})
    persons = list(Player.objects.filter(pk__in=people).order_by("pk").values_list(
        "pk", "name", "anonymized_at", "home_club_id", "home_club__name", "club"))
    played = Entry.objects.filter(player__in=people).values_list("tournament_id", flat=True).distinct()
    histories = list(RankingSnapshot.objects.filter(tournament_id__in=played).values("tournament_id")
                     .annotate(latest=Max("id")).order_by("tournament_id").values_list("tournament_id", "latest"))
    club = season.club
    return (season.pk, season.name, season.slug, season.starts_on, season.ends_on, season.is_public,
            season.grouping_id, club and (club.pk, club.name, club.slug, club.city, club.federation_number,
                                          club.grouping_id),
            champs, [(c, s.pk if s else 0) for c, s in published.items()], counted, persons, histories)


def season_export(season: Season) -> tuple[downloads.Download, Render]:
    """The export of ``season`` (public: a season's export shows no personal data) and its render."""
    key = _key(*_season_state(season))

    def render() -> str:
        fresh = Season.objects.select_related("club__grouping", "grouping").get(pk=season.pk)
        return json.dumps(season_file.season_document(fresh), ensure_ascii=False)

    doc = downloads.Download("season.json", 0, season.slug, key, f"{season.slug}-saison.json", JSON,
                             "L'export de la saison", folder=season_folder(season.pk), task=TASK,
                             task_args=("season", season.pk, False), disposition="inline")
    return doc, render


def render(what: str, pk: int, staff: bool = False, claimed: bool = False) -> str | None:
    """Render the export of tournament or season ``pk`` in its state now (``what``: « tournament » or « season »),
    unless it is kept already; ``claimed``: the request that queued it holds its claim. The file written, or None."""
    if what == "tournament":
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            return None
        doc, make = tournament_export(tournament, staff)
    else:
        season = Season.objects.select_related("club").filter(pk=pk).first()
        if season is None:
            return None
        doc, make = season_export(season)
    return str(doc.path) if downloads.produce(doc, make, claimed=claimed) else None
