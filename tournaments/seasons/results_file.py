"""The results file's season extension (``levee.season/1``, docs/results-format.md "Extension: seasons"): the
club that ran the tournament, the seasons and championships it counts in (with their published rankings,
regenerable from their inputs), and each player's history across the club's events.

* :func:`tournament_extension` — what a tournament's ``levee.results/1`` file carries under
  ``extensions["levee.season/1"]``;
* :func:`season_document` — a whole season on its own (``format: "levee.season/1"``), for a federation that
  gathers its clubs' seasons (``/api/seasons/{id}/export/``).

A person (a player across events) is ``people[].person``; in a tournament's file, ``people[].entries`` names his
``players[].id`` of that file. Personal data (licence, birth date) are never written here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db.models import Max
from django.utils import timezone

from scoring import championship as pure
from tournaments.clubs.models import Club
from tournaments.event.models import Entry, Player, Tournament
from tournaments.seasons import championships, history
from tournaments.seasons.models import Championship, ChampionshipSnapshot, Season

EXTENSION = "levee.season/1"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "season.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema of the extension and of a season's document."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def club_doc(club: Club | None) -> dict[str, Any] | None:
    if club is None:
        return None
    grouping = club.grouping
    return {"name": club.name, "slug": club.slug, "city": club.city or None,
            "federation_number": club.federation_number or None,
            "grouping": {"name": grouping.name, "kind": grouping.kind} if grouping is not None else None}


def championship_doc(champ: Championship) -> dict[str, Any]:
    snap = championships.latest_snapshot(champ.pk)
    ranking: dict[str, Any] | None = None
    if snap is not None:
        ranked = championships.snapshot_ranking(snap)
        ranking = {
            "version": snap.version, "digest": snap.digest, "published_at": _iso(snap.created_at),
            "criteria": list(snap.criteria), "inputs": snap.inputs, "options": snap.options,
            "lines": [{"rank": ln.rank, "shared": ln.shared, "person": ln.player_id,
                       "metrics": {k: v for k, v in ln.metrics}} for ln in snap.lines.order_by("position")],
            "waiting": [{"person": s.player, "points": history.json_value(s.points), "played": len(s.results),
                         "missing": s.missing} for s in pure.pending(ranked)],
        }
    return {
        "name": champ.name, "slug": champ.slug,
        "tournaments": list(champ.tournaments.order_by("date", "id").values_list("slug", flat=True)),
        "table": championships.rules_of(champ).table.as_data(), "best": champ.best, "minimum": champ.minimum,
        "tie_breaks": list(champ.tie_breaks or []), "categories": list(champ.categories or []),
        "ranking": ranking,
    }


def season_doc(season: Season) -> dict[str, Any]:
    return {
        "name": season.name, "slug": season.slug, "starts_on": _iso(season.starts_on), "ends_on": _iso(season.ends_on),
        "club": season.club.slug if season.club is not None else None,
        "grouping": season.grouping.name if season.grouping is not None else None,
        "championships": [championship_doc(c) for c in season.championships.order_by("name", "id")],
    }


def people_doc(players: Iterable[Player], entries: dict[int, list[int]] | None = None) -> list[dict[str, Any]]:
    """Each person's public history (tournaments, ranks, totals) and, in a tournament's file, his entries there."""
    people = sorted(players, key=lambda p: p.pk)
    played = history.tournaments_played_by(people)  # together: three statements for all, not three a person
    out = []
    for player in people:
        doc = history.history_doc(player, played[player.pk])
        out.append({"person": player.pk, "name": doc["name"], "club": doc["club"],
                    **({"entries": entries.get(player.pk, [])} if entries is not None else {}),
                    "history": doc["tournaments"]})
    return out


def _counting_seasons(tournament: Tournament) -> Any:
    """The public seasons with a championship that counts the tournament (the extension's seasons)."""
    return Season.objects.filter(championships__tournaments=tournament, is_public=True).distinct()


def extension_versions(tournament: Tournament) -> tuple[tuple[int, int], ...]:
    """What the extension shows moves with: the published version of every championship of the seasons counting the
    tournament, as (championship, version) — a part of the results file's key, so that a championship published
    again (a correction elsewhere, a player made anonymous) makes the file anew."""
    rows = (ChampionshipSnapshot.objects.filter(championship__season__in=_counting_seasons(tournament))
            .values("championship_id").annotate(version=Max("version")).order_by("championship_id"))
    return tuple((row["championship_id"], row["version"]) for row in rows)


def tournaments_showing(championship_id: int) -> list[str]:
    """The slugs of the tournaments whose results file shows this championship: those its public season's
    championships count (the extension lists every championship of such a season)."""
    season = Season.objects.filter(championships=championship_id, is_public=True).values("pk")
    return list(Tournament.objects.filter(championships__season__in=season).distinct().order_by("slug")
                .values_list("slug", flat=True))


def tournament_extension(tournament: Tournament) -> dict[str, Any]:
    """The ``levee.season/1`` extension of a tournament's results file."""
    seasons = _counting_seasons(tournament).select_related("club", "grouping").order_by("starts_on", "id")
    entries: dict[int, list[int]] = {}
    for entry_id, player_id in Entry.objects.filter(tournament=tournament).values_list("id", "player_id"):
        entries.setdefault(player_id, []).append(entry_id)
    players = Player.objects.filter(pk__in=list(entries)).select_related("home_club")
    return {"club": club_doc(tournament.club), "seasons": [season_doc(s) for s in seasons],
            "people": people_doc(players, entries)}


def season_document(season: Season) -> dict[str, Any]:
    """A season on its own: its club, its championships with their rankings, and every person ranked or waiting."""
    doc = season_doc(season)
    persons = {line["person"] for c in doc["championships"] if c["ranking"]
               for line in (*c["ranking"]["lines"], *c["ranking"]["waiting"])}
    players = Player.objects.filter(pk__in=persons).select_related("home_club")
    return {"format": EXTENSION, "generated_at": timezone.now().isoformat(), "club": club_doc(season.club),
            "season": doc, "people": people_doc(players)}


def with_extension(document: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """A ``levee.results/1`` document with its season extension added."""
    return {**document, "extensions": {EXTENSION: tournament_extension(tournament)}}
