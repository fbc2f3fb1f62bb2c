"""The results file's season extension (levee.season/1) and the read-only season endpoints."""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.urls import reverse

from tests.integration.builders import correct_deal, downloaded
from tournaments.deals.models import Deal
from tournaments.seasons.models import Season
from tournaments.seasons.results_file import schema as season_schema
from tournaments.standings import tasks
from tournaments.standings.results_file import schema as results_schema

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def test_a_tournament_results_file_carries_its_season(client):
    s = season_of_three()
    response = downloaded(client.get, reverse("public-results-file", args=["t3"]))
    doc = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
    jsonschema.validate(doc, results_schema(), format_checker=jsonschema.FormatChecker())
    ext = doc["extensions"]["levee.season/1"]
    jsonschema.validate(ext, season_schema(), format_checker=jsonschema.FormatChecker())
    assert ext["club"] == {"name": "Tarot Club de Vanves", "slug": "vanves", "city": "Vanves",
                           "federation_number": "9201", "grouping": None}
    (season,) = ext["seasons"]
    (champ,) = season["championships"]
    assert champ["tournaments"] == ["t1", "t2", "t3"] and champ["best"] == 2 and champ["minimum"] == 2
    players = s["players"]
    assert [(line["rank"], line["person"], line["metrics"]["points"]) for line in champ["ranking"]["lines"]] == [
        (1, players["Chloé"].pk, 16), (2, players["Bruno"].pk, 14), (3, players["Ana"].pk, 12),
        (4, players["David"].pk, 10), (5, players["Émile"].pk, 6)]
    # the people of T3 (Ana, Chloé, David, Émile), each with his entry in this file and his history
    people = {p["name"]: p for p in ext["people"]}
    assert sorted(people) == ["Ana", "Chloé", "David", "Émile"]
    ana_entry = next(pl["id"] for pl in doc["players"] if pl["name"] == "Ana")
    assert people["Ana"]["entries"] == [ana_entry]
    assert [(h["slug"], h["rank"], h["field"], h["total"]) for h in people["Ana"]["history"]] == [
        ("t1", 1, 4, 90), ("t3", 4, 4, -60)]
    assert "licence" not in json.dumps(ext)


def test_season_endpoints_read_the_published_rankings(client):
    s = season_of_three()
    season = Season.objects.get()
    seasons = client.get(reverse("api:seasons")).json()
    assert [x["slug"] for x in seasons] == ["saison-2025"]
    doc = downloaded(client.get, reverse("api:season-export", args=[season.pk])).json()
    jsonschema.validate(doc, season_schema(), format_checker=jsonschema.FormatChecker())
    assert doc["format"] == "levee.season/1" and len(doc["people"]) == 5
    champ = s["championship"]
    ranking = client.get(reverse("api:championship-ranking", args=[champ.pk])).json()
    assert [(ln["rank"], ln["name"]) for ln in ranking["lines"]][:2] == [(1, "Chloé"), (2, "Bruno")]
    dames = client.get(reverse("api:championship-ranking", args=[champ.pk]) + "?categorie=dames").json()
    assert [(ln["rank"], ln["name"]) for ln in dames["lines"]] == [(1, "Chloé"), (2, "Ana")]
    assert client.get(reverse("api:championship-ranking", args=[champ.pk]) + "?categorie=x").status_code == 404
    # a correction of T3 (Ana 1st, Chloé 4th): the diff between the two versions
    t3 = s["tournaments"][2]
    correct_deal(Deal.objects.get(table__round__tournament=t3), [60, -60, 20, -20])
    tasks.ranking_refresh(t3.pk)
    diff = client.get(reverse("api:championship-ranking-diff", args=[champ.pk]) + f"?from={ranking['version']}")
    moved = {m["name"]: (m["from"], m["to"]) for m in diff.json()["moved"]}
    assert moved == {"Ana": (3, 1), "Chloé": (1, 3), "David": (4, 3)}
    assert client.get(reverse("api:championship-ranking-version", args=[champ.pk, 99])).status_code == 404
    assert client.get(reverse("api:championship-ranking-diff", args=[champ.pk]) + "?from=x").status_code == 400
    person = client.get(reverse("api:person-history", args=[s["players"]["Ana"].pk])).json()
    assert person["championships"][0]["rank"] == 1 and "licence" not in json.dumps(person)
    club = client.get(reverse("api:club", args=[s["club"].pk])).json()
    assert club["federation_number"] == "9201" and club["seasons"][0]["slug"] == "saison-2025"


def test_a_private_season_is_not_served(client):
    s = season_of_three()
    Season.objects.update(is_public=False)
    assert client.get(reverse("api:season", args=[s["season"].pk])).status_code == 404
    assert client.get(reverse("api:championship-ranking", args=[s["championship"].pk])).status_code == 404
    assert client.get(reverse("public-championship", args=["saison-2025", "challenge"])).status_code == 404
    assert client.get(reverse("api:seasons")).json() == []


def test_a_tournaments_results_file_follows_its_championships_new_version(client):
    """The walk: a correction published the championship's version 4 while the tournament's results file still
    carried version 3 (its key followed the tournament's own state only). The file's key now follows the published
    versions of its seasons' championships: a new version, a new file."""
    from tournaments.common import downloads
    from tournaments.public import tasks as tasks_public
    from tournaments.seasons.championships import championship_publish
    from tournaments.seasons.models import Championship
    from tournaments.seasons.results_file import tournaments_showing

    season_of_three()

    def championship_version() -> int:
        response = downloaded(client.get, reverse("public-results-file", args=["t3"]))
        doc = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
        (season,) = doc["extensions"]["levee.season/1"]["seasons"]
        (champ,) = season["championships"]
        return champ["ranking"]["version"]

    before = championship_version()
    champ = Championship.objects.get()
    assert championship_publish(champ.pk, force=True).version == before + 1
    # the publication queued the new file's render: a reader just after it waits for the new file (« en
    # préparation »), never the older one without a word
    response = client.get(reverse("public-results-file", args=["t3"]))
    assert response.status_code == 202
    tasks_public.run_pending(only=downloads.TASK)
    assert championship_version() == before + 1
    assert tournaments_showing(champ.pk) == ["t1", "t2", "t3"]


def test_the_championship_ranking_is_computed_once_per_snapshot(client, monkeypatch):
    """2,000 lines with their explanations take a second: the API computes a snapshot's ranking (per category) once
    and keeps it; a new version is computed anew."""
    from tournaments.api import seasons as api

    s = season_of_three()
    champ = s["championship"]
    computed: list[str] = []
    real = api.ranking_json
    monkeypatch.setattr(api, "ranking_json", lambda c, snap, cat="": computed.append(cat) or real(c, snap, cat))
    url = reverse("api:championship-ranking", args=[champ.pk])
    first = client.get(url).json()
    assert client.get(url).json() == first and computed == [""]
    assert [ln["name"] for ln in client.get(url + "?categorie=dames").json()["lines"]] == ["Chloé", "Ana"]
    client.get(url + "?categorie=dames")
    assert computed == ["", "dames"]
    t3 = s["tournaments"][2]
    correct_deal(Deal.objects.get(table__round__tournament=t3), [60, -60, 20, -20])
    tasks.ranking_refresh(t3.pk)
    assert client.get(url).json()["version"] == first["version"] + 1 and computed == ["", "dames", ""]
