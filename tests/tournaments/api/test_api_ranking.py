"""The ranking in the REST API: the latest published, a snapshot by version, the difference between two."""

from __future__ import annotations

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.standings import tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_versions():
    t, e = make_tournament("ABCD", slug="api-rk")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [90, -30, -30, -30], taker=0)       # A 90, B C D -30
    tasks.ranking_refresh(t.pk)
    first = RankingSnapshot.objects.filter(tournament=t).latest()
    add_deal(t1, [-60, 180, -60, -60], taker=1)      # A 30, B 150, C D -90
    tasks.ranking_refresh(t.pk)
    second = RankingSnapshot.objects.filter(tournament=t).latest()
    assert first.input_version < second.input_version
    return t, e, first, second


def test_the_latest_ranking(api_client, two_versions):
    t, _e, _first, second = two_versions
    body = api_client.get(f"/api/tournaments/{t.pk}/ranking/").json()
    assert (body["version"], body["digest"], body["up_to_date"]) == (second.input_version, second.digest, True)
    assert [(ln["rank"], ln["name"], ln["metrics"]["marks"]) for ln in body["lines"]] == [
        (1, "B", 150), (2, "A", 30), (3, "C", -90), (3, "D", -90)]
    assert body["lines"][2]["shared"] is True


def test_a_snapshot_by_version_and_an_unknown_one(api_client, two_versions):
    t, _e, first, second = two_versions
    body = api_client.get(f"/api/tournaments/{t.pk}/ranking/{first.input_version}/").json()
    assert body["version"] == first.input_version and body["up_to_date"] is False
    assert body["lines"][0]["name"] == "A"
    missing = api_client.get(f"/api/tournaments/{t.pk}/ranking/{second.input_version + 50}/")
    assert missing.status_code == 404


def test_the_difference_says_who_moved_by_how_much_and_why(api_client, two_versions):
    t, _e, first, second = two_versions
    body = api_client.get(f"/api/tournaments/{t.pk}/ranking/diff/?from={first.input_version}").json()
    assert (body["from"], body["to"], body["same_inputs"]) == (first.input_version, second.input_version, False)
    moved = {m["name"]: m for m in body["moved"]}
    # before: A 1, B C D 2= ; after: B 1, A 2, C D 3=
    assert (moved["B"]["from"], moved["B"]["to"], moved["B"]["by"]) == (2, 1, 1)
    assert (moved["A"]["from"], moved["A"]["to"], moved["A"]["by"]) == (1, 2, -1)
    assert (moved["C"]["from"], moved["C"]["to"], moved["C"]["by"]) == (2, 3, -1)
    marks = next(w for w in moved["B"]["why"] if w["metric"] == "marks")
    assert (marks["from"], marks["to"], marks["label"]) == (-30, 150, "points au total")
    assert moved["B"]["explain"]


def test_a_bad_version_is_a_400(api_client, two_versions):
    t, *_ = two_versions
    response = api_client.get(f"/api/tournaments/{t.pk}/ranking/diff/?from=abc")
    assert response.status_code == 400 and response.json()["field"] == "from"


def test_the_ranking_has_an_etag_tied_to_the_published_snapshot_and_answers_304(api_client, two_versions):
    t, _e, first, second = two_versions
    url = f"/api/tournaments/{t.pk}/ranking/"
    got = api_client.get(url)
    etag = got["ETag"]
    assert got.status_code == 200 and etag and str(second.input_version) in etag
    again = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert api_client.get(url, HTTP_IF_NONE_MATCH=f'W/{etag}, "autre"').status_code == 304
    assert api_client.get(url, HTTP_IF_NONE_MATCH='"autre"').status_code == 200
    # a deal entered and not yet published: the same snapshot, no longer up to date — a new ETag, a full answer
    (table,) = t.rounds.get(number=1).tables.all()
    add_deal(table, [-30, -30, 90, -30], taker=2)
    stale = api_client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert stale.status_code == 200 and stale.json()["up_to_date"] is False and stale["ETag"] != etag
    # published: a new snapshot, a new ETag
    tasks.ranking_refresh(t.pk)
    fresh = api_client.get(url, HTTP_IF_NONE_MATCH=stale["ETag"])
    assert fresh.status_code == 200 and fresh.json()["version"] > second.input_version
    assert fresh["ETag"] not in (etag, stale["ETag"])
    # a snapshot by version: its own ETag, 304 too
    by_version = api_client.get(f"{url}{first.input_version}/")
    assert api_client.get(f"{url}{first.input_version}/",
                          HTTP_IF_NONE_MATCH=by_version["ETag"]).status_code == 304
