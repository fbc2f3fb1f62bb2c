"""The kept files behind a proxy (issue 22: nginx in front, deploy/nginx-levee.conf): with ``LEVEE_ACCEL_REDIRECT``
set, the request still decides who reads which file, its ETag, the 304 and « en préparation », but answers an empty
body naming the file (``X-Accel-Redirect``) that nginx sends; without it (no proxy), the web process sends the file
as before. And what a web worker reads first after a publication: the bytes the publication stored in the shared
cache (Redis), not a render of its own."""

from __future__ import annotations

import gzip
import os
import uuid
from pathlib import Path

import brotli
import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common import files, kept
from tournaments.event.models import TournamentRole
from tournaments.public import lines, pages, published, queries, tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db

REDIS_URL = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@pytest.fixture
def day():
    """4 players, round 1 released, one deal: Ana +90, Bruno, Chloé, David −30 each."""
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug="accel")
    (table,) = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")]])
    add_deal(table, [90, -30, -30, -30], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()  # what publication queued: each test asks for what it needs
    return t, e


def _ready(client, url: str, **extra):
    """Ask, let the worker render what the request queued, ask again."""
    first = client.get(url, **extra)
    if first.status_code == 202:
        tasks.run_pending()
        first = client.get(url, **extra)
    return first


@override_settings(LEVEE_ACCEL_REDIRECT="/_kept/")
def test_a_pdf_is_named_to_the_proxy_not_streamed(client, day):
    t, _ = day
    url = reverse("print-ranking", args=[t.slug])
    served = _ready(client, url)
    assert served.status_code == 200 and not served.streaming and served.content == b""
    target = served["X-Accel-Redirect"]
    assert target.startswith(f"/_kept/{t.pk}/ranking-fr-0-1--") and target.endswith(".pdf")
    on_disk = Path(files.root()) / target.removeprefix("/_kept/")
    assert on_disk.is_file() and on_disk.read_bytes().startswith(b"%PDF")  # the very file nginx's alias reaches
    assert served["Content-Type"] == "application/pdf"
    assert served["Content-Disposition"] == 'inline; filename="accel-classement.pdf"'
    assert served["ETag"] == f'"{on_disk.name.split("--", 1)[1].removesuffix(".pdf")}"'
    assert served["Cache-Control"] == "public, no-cache"
    # the 304 is still the request's: no file named
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=served["ETag"])
    assert not_modified.status_code == 304 and "X-Accel-Redirect" not in not_modified


@pytest.mark.parametrize(("accept", "coding", "suffix", "unpack"), [
    ("gzip", "gzip", ".gz", gzip.decompress), ("gzip, deflate, br", "br", ".br", brotli.decompress)])
@override_settings(LEVEE_ACCEL_REDIRECT="/_kept/")
def test_a_download_names_its_compressed_copy_to_who_accepts_it(client, day, accept, coding, suffix, unpack):
    t, _ = day
    url = reverse("public-results-csv", args=[t.slug])
    packed = _ready(client, url, HTTP_ACCEPT_ENCODING=accept)
    plain = client.get(url)
    assert packed.status_code == plain.status_code == 200 and packed.content == plain.content == b""
    assert packed["Content-Encoding"] == coding and "Content-Encoding" not in plain
    copy, csv = (Path(files.root()) / r["X-Accel-Redirect"].removeprefix("/_kept/") for r in (packed, plain))
    assert copy.name == csv.name + suffix and csv.name.startswith("results-csv--")
    text = unpack(copy.read_bytes()).decode("utf-8-sig")
    assert text == csv.read_bytes().decode("utf-8-sig") and "1;1;1;valide;1;Ana;90" in text
    assert packed["ETag"] == plain["ETag"] and packed["Content-Type"] == "text/csv; charset=utf-8"
    assert plain["Content-Disposition"] == 'attachment; filename="accel-resultats.csv"'


def test_without_a_proxy_the_web_sends_the_file_itself(client, day):
    t, _ = day
    served = _ready(client, reverse("print-ranking", args=[t.slug]))
    assert served.status_code == 200 and served.streaming and "X-Accel-Redirect" not in served
    assert b"".join(served.streaming_content).startswith(b"%PDF")
    csv = _ready(client, reverse("public-ranking-csv", args=[t.slug]))
    assert csv.status_code == 200 and "X-Accel-Redirect" not in csv
    assert b"".join(csv.streaming_content).decode("utf-8-sig").splitlines()[1].startswith("1;non;Ana;;90;")


@override_settings(LEVEE_ACCEL_REDIRECT="/_kept/")
def test_a_private_tournaments_files_and_waiting_page_are_kept_by_no_one(client, day, django_user_model):
    t, _ = day
    t.is_public = False
    t.save()
    url = reverse("print-ranking", args=[t.slug])
    assert client.get(url).status_code == 404  # a stranger is told nothing, named no file
    staff = django_user_model.objects.create_user("arbitre", password="x")
    TournamentRole.objects.create(tournament=t, user=staff, role=TournamentRole.Role.ARBITER)
    client.force_login(staff)
    waiting = client.get(url)
    assert waiting.status_code == 202 and waiting["Cache-Control"] == "private, no-store"
    tasks.run_pending()
    served = client.get(url)
    assert served.status_code == 200 and served["Cache-Control"] == "private, no-cache"
    assert served["X-Accel-Redirect"].startswith(f"/_kept/{t.pk}/")


def test_the_ranking_csv_is_never_rendered_in_the_request(client, day, monkeypatch):
    t, _ = day
    url = reverse("public-ranking-csv", args=[t.slug])
    rendered = []
    real = queries.ranking
    monkeypatch.setattr(queries, "ranking", lambda *a, **k: rendered.append(1) or real(*a, **k))
    waiting = client.get(url)
    assert waiting.status_code == 202 and rendered == []  # before: rendered here, 10,000 lines at a big event
    assert "en préparation" in waiting.content.decode()
    tasks.run_pending()
    assert rendered  # by the worker
    assert client.get(url).status_code == 200


def test_publication_writes_the_ranking_csv(client, day, monkeypatch):
    t, _ = day
    add_deal(t.rounds.get(number=1).tables.get(), [-15, 5, 5, 5], taker=0)  # Ana 90 − 15 = 75
    standings_tasks.ranking_refresh(t.pk)
    assert tasks.run_pending(include_delayed=False) == 1  # the publication's first pass
    monkeypatch.setattr(queries, "ranking", lambda *a, **k: pytest.fail("rendered in the request"))
    served = client.get(reverse("public-ranking-csv", args=[t.slug]))
    assert served.status_code == 200
    assert b"".join(served.streaming_content).decode("utf-8-sig").splitlines()[1].startswith("1;non;Ana;;75;")


def _forget_this_process() -> None:
    """What a web worker that never served this tournament holds: nothing of it."""
    published._pages.clear()
    published._recent.clear()
    queries._rows_memo.clear()
    queries._shown_memo.clear()
    lines._memo.clear()


def test_a_web_workers_first_ranking_page_is_the_publications_bytes_from_redis(client, day, monkeypatch):
    """A worker that did not publish (another process: its memory is empty) reads the page the publication stored
    in Redis: one statement (the published state), no template, no ranking line read."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception:
        if os.environ.get("LEVEE_REQUIRE_SERVICES"):
            raise
        pytest.skip("no Redis")
    t, _ = day
    prefix = f"levee-test-accel-{uuid.uuid4().hex}"  # a prefix of its own: the database may be shared, never flushed
    shared = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": prefix}}
    with override_settings(CACHES=shared):
        kept.reset()
        add_deal(t.rounds.get(number=1).tables.get(), [-15, 5, 5, 5], taker=0)
        standings_tasks.ranking_refresh(t.pk)
        assert tasks.run_pending(include_delayed=False) == 1  # the publication's renders (the prints worker)
        _forget_this_process()
        renders = []
        real = pages.render_to_string
        monkeypatch.setattr(pages, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
        for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
            with CaptureQueriesContext(connection) as statements:
                page = client.get(reverse("public-ranking", args=[t.slug]), **extra)
            assert page.status_code == 200 and "Ana" in page.content.decode()
            assert len(statements) == 1, [s["sql"] for s in statements]
        for url in (reverse("public-home", args=[t.slug]), reverse("public-ranking-print", args=[t.slug])):
            assert client.get(url).status_code == 200
        assert renders == []
    client_ = redis.Redis.from_url(REDIS_URL)
    for key in client_.scan_iter(f"{prefix}:*"):
        client_.delete(key)
