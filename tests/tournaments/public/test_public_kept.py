"""Every public and staff page rendered once per published state (issue 22, item 1): the round results, the
printable results, the CSV files, the results file, the ledger and the score sheets come from the cache at the
second request (nothing rendered again), answer 304 to a conditional request, and a round's results come in
pages; the PDFs are never rendered in the request (« en préparation » until a worker made the file); the pages
are rendered at publication; a cache that cannot be reached is no cache, not a 500 (issue 21)."""

from __future__ import annotations

import gzip
import logging

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.integration.builders import add_deal, downloaded, make_round, make_tournament
from tournaments.common import files, kept
from tournaments.event.models import TournamentRole
from tournaments.public import pages, pdf, tasks, views
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    """How many templates the pages rendered (every cached page renders through ``pages.html``)."""
    count = {"n": 0}
    real = pages.render_to_string

    def counting(*args, **kwargs):
        count["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(pages, "render_to_string", counting)
    return count


@pytest.fixture
def day():
    """8 players, two tables of round 1 (released), two deals at table 1, one at table 2. By hand, table 1:
    Ana +90 −20 = 70, Bruno −30 −20 = −50, Chloé −30 +60 = 30, David −50; table 2: Élise +60, the others −20."""
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David", "Élise", "Fanny", "Gaston", "Hugo"], slug="kept")
    t1, t2 = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")],
                               [e[n] for n in ("Élise", "Fanny", "Gaston", "Hugo")]])
    add_deal(t1, [90, -30, -30, -30], taker=0)
    add_deal(t1, [-20, -20, 60, -20], taker=2)
    add_deal(t2, [60, -20, -20, -20], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()  # what publication queued: each test asks for what it needs
    return t, e


def _urls(slug: str) -> list[str]:
    """The pages served from the cache (the CSV files and the results file are kept files instead:
    test_public_downloads.py)."""
    return [reverse("public-round", args=[slug, 1]), reverse("public-results-print", args=[slug]),
            reverse("public-ledger", args=[slug]),
            reverse("public-ranking-print", args=[slug])]


def test_each_page_is_rendered_once_then_served_from_the_cache_and_304(client, day, renders):
    t, _ = day
    for url in _urls(t.slug):
        first = client.get(url)
        assert first.status_code == 200, url
        rendered = renders["n"]
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url)
        assert again.status_code == 200 and again.content == first.content, url
        assert renders["n"] == rendered, f"{url} rendered again"
        assert len(queries) == 1, (url, [q["sql"] for q in queries])  # the published state, nothing else
        etag = first["ETag"]
        assert etag.startswith('"' + t.ranking_snapshots.get().digest[:16]), url
        with CaptureQueriesContext(connection) as queries:
            not_modified = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert not_modified.status_code == 304 and not not_modified.content and len(queries) == 1, url


def test_the_files_keep_their_type_and_name_and_are_compressed(client, day):
    t, _ = day
    csv = downloaded(client.get, reverse("public-results-csv", args=[t.slug]), HTTP_ACCEPT_ENCODING="gzip")
    assert csv["Content-Type"] == "text/csv; charset=utf-8" and csv["Content-Encoding"] == "gzip"
    assert csv["Content-Disposition"] == 'attachment; filename="kept-resultats.csv"'
    text = gzip.decompress(csv.content).decode("utf-8-sig")
    assert "1;1;1;valide;1;Ana;90" in text and "1;2;1;valide;1;Élise;60" in text
    ranking = downloaded(client.get, reverse("public-ranking-csv", args=[t.slug])).content.decode("utf-8-sig")
    assert ranking.splitlines()[1].startswith("1;non;Ana;;70;")
    results = downloaded(client.get, reverse("public-results-file", args=[t.slug]))
    assert results["Content-Type"] == "application/json; charset=utf-8"


def test_a_correction_makes_a_new_page(client, day):
    t, _ = day
    url = reverse("public-round", args=[t.slug, 1])
    first = client.get(url)
    table = t.rounds.get(number=1).tables.get(number=2)
    add_deal(table, [-45, 15, 15, 15], taker=0)  # a deal entered in the released round: Élise 60 − 45 = 15
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "<th>15</th>" in again.content.decode().replace(" ", "") or ">15<" in again.content.decode()


def test_a_round_in_pages_of_tables(client, day, monkeypatch):
    monkeypatch.setattr(views, "TABLES_PER_PAGE", 1)
    t, _ = day
    url = reverse("public-round", args=[t.slug, 1])
    top = client.get(url).content.decode()
    assert "Ana" in top and "Élise" not in top
    assert "Tables 1 à 1 sur 2" in top and f'href="{url}?page=2"' in top
    second = client.get(url + "?page=2").content.decode()
    assert "Élise" in second and "Ana" not in second
    assert client.get(reverse("public-round", args=[t.slug, 2])).status_code == 404  # no round 2


def test_the_score_sheets_are_kept_per_seating_and_for_the_staff(client, day, renders):
    t, e = day
    url = reverse("public-score-sheets", args=[t.slug, 1])
    assert client.get(url).status_code == 302  # log in first
    user = get_user_model().objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    client.force_login(user)
    first = client.get(url)
    assert first.status_code == 200 and "private" in first["Cache-Control"]
    rendered = renders["n"]
    assert client.get(url).content == first.content and renders["n"] == rendered
    seat = e["Ana"].seats.get()
    seat.substitute = "Yann Remplaçant"
    seat.save()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200 and renders["n"] == rendered + 1


# -- PDFs ----------------------------------------------------------------------------------------------


def test_a_pdf_is_prepared_by_a_worker_never_in_the_request(client, day, monkeypatch):
    t, _ = day
    url = reverse("print-ranking", args=[t.slug])

    def never(*args, **kwargs):
        raise AssertionError("a PDF rendered in the request")

    monkeypatch.setattr(pdf, "to_pdf", never)
    waiting = client.get(url)
    assert waiting.status_code == 202 and waiting["Retry-After"] == "3"
    assert waiting["Cache-Control"] == "public, no-cache" and "Cookie" in waiting["Vary"]
    html = waiting.content.decode()
    assert "Document en préparation" in html and '<meta http-equiv="refresh" content="3">' in html
    assert "Le classement (PDF) : en cours de préparation" in html
    assert client.get(url).status_code == 202
    assert [name for name, _ in tasks.pending()] == ["tournaments.public_render_pdf"]  # one render, not two
    monkeypatch.undo()
    assert tasks.run_pending() == 1
    ready = client.get(url)
    body = b"".join(ready.streaming_content)
    assert ready.status_code == 200 and body.startswith(b"%PDF")
    assert ready["Content-Disposition"] == 'inline; filename="kept-classement.pdf"'
    assert client.get(url, HTTP_IF_NONE_MATCH=ready["ETag"]).status_code == 304
    # a new ranking: a new document, prepared again; the old file removed once the new one is written
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)
    tasks.forget()
    assert client.get(url).status_code == 202
    tasks.run_pending()
    assert client.get(url).status_code == 200
    assert len(list((files.root() / str(t.pk)).glob("ranking-fr-0-1--*.pdf"))) == 1


def test_one_render_at_a_time_per_document(day):
    t, _ = day
    from tournaments.public import published

    state = published.read(t.slug)
    doc = pdf.document(state, "ranking", "fr")
    assert files.claim(doc.path)
    assert pdf.produce(state, doc) is False and not files.ready(doc.path)  # another render holds it
    files.release(doc.path)
    assert pdf.produce(state, doc) is True and files.ready(doc.path)
    assert pdf.produce(state, doc) is False  # there already


def test_a_ranking_parts_are_counted_without_building_its_rows(client, day, monkeypatch):
    """Counting a ranking PDF's parts built the ranking's rows (their words, the French sort of the names): 490 ms
    at 10,000 players at each web process's first request for a part, or a wait on another process building them —
    a burst on the parts held every web thread. The parts are now counted from the snapshot's lines: the same count
    as the rows."""
    from tournaments.public import published, queries

    monkeypatch.setattr(pdf, "RANKING_LINES_PER_PART", 3)
    t, _ = day
    url = reverse("print-ranking", args=[t.slug])
    snapshot = published.read(t.slug).snapshot
    assert queries.ranking_size(snapshot) == len(queries.ranking(t, "fr").rows) == 8  # 8 lines: 3 parts
    monkeypatch.setattr(queries, "_compute_rows", lambda *a: (_ for _ in ()).throw(AssertionError("rows built")))
    monkeypatch.setattr(queries, "_shown", lambda *a: (_ for _ in ()).throw(AssertionError("rows shown")))
    queries._sizes.clear()  # counted again, from the lines alone
    assert client.get(url + "?partie=3").status_code == 202 and client.get(url + "?partie=4").status_code == 404


def test_a_long_pdf_comes_in_parts(client, day, monkeypatch):
    monkeypatch.setattr(pdf, "RANKING_LINES_PER_PART", 3)
    t, _ = day
    url = reverse("print-ranking", args=[t.slug])
    assert client.get(url + "?partie=4").status_code == 404  # 8 lines: 3 parts
    assert client.get(url + "?partie=3").status_code == 202
    tasks.run_pending()
    from io import BytesIO

    from pypdf import PdfReader

    ready = client.get(url + "?partie=3")
    assert ready["Content-Disposition"] == 'inline; filename="kept-classement-partie-3.pdf"'
    text = "".join(PdfReader(BytesIO(b"".join(ready.streaming_content))).pages[0].extract_text().split())
    assert "Partie3sur3" in text
    # the last part: the 7th and 8th lines (Bruno and David, −50, after Fanny, Gaston, Hugo at −20)
    assert "Bruno" in text and "David" in text and "Ana" not in text


def test_the_staff_pdfs_stay_the_staffs(client, day):
    t, _ = day
    assert client.get(reverse("print-score-sheets", args=[t.slug, 1])).status_code == 404
    assert not tasks.pending()


# -- at publication ------------------------------------------------------------------------------------


def test_the_pages_are_rendered_at_publication_not_by_the_first_reader(client, day, renders):
    t, _ = day
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)
    standings_tasks.ranking_refresh(t.pk)  # what the commit of an entry runs
    queued = tasks.pending()
    assert [name for name, _ in queued] == ["tournaments.public_render_published"] * 2
    assert tasks.run_pending(include_delayed=False) == 1  # the pages now, the PDFs once the state is quiet
    rendered = renders["n"]
    for url in (reverse("public-home", args=[t.slug]), reverse("public-ranking", args=[t.slug]),
                reverse("public-ranking-print", args=[t.slug]), reverse("public-round", args=[t.slug, 1]),
                reverse("public-ranking-csv", args=[t.slug])):
        assert client.get(url).status_code == 200
    assert client.get(reverse("public-ranking", args=[t.slug]), HTTP_HX_REQUEST="true").status_code == 200
    assert renders["n"] == rendered  # every one of them was in the cache already
    assert tasks.run_pending() == 1  # the delayed one: the ranking PDF and the round's results PDF
    for name in ("print-ranking",):
        response = client.get(reverse(name, args=[t.slug]))
        assert response.status_code == 200 and b"".join(response.streaming_content).startswith(b"%PDF")
    response = client.get(reverse("print-round-results", args=[t.slug, 1]))
    assert response.status_code == 200


def test_a_superseded_publication_renders_nothing(day):
    t, _ = day
    version = t.ranking_snapshots.get().input_version
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)
    standings_tasks.ranking_refresh(t.pk)  # a newer ranking published before the older one's render ran
    assert tasks.render_published(t.pk, version) == 0
    assert tasks.render_published(t.pk, version + 1) > 0


# -- the cache down ------------------------------------------------------------------------------------


CLOSED = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                      "LOCATION": "redis://127.0.0.1:9/0", "KEY_PREFIX": "levee",
                      "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}


def test_the_public_pages_answer_while_the_cache_is_down(client, day, caplog):
    t, e = day
    caplog.set_level(logging.WARNING, logger="tournaments.common.kept")
    urls = [reverse("public-home", args=[t.slug]), reverse("public-ranking", args=[t.slug]),
            reverse("public-ranking", args=[t.slug]) + f"?me={e['Ana'].pk}",
            reverse("public-player", args=[t.slug, e["Ana"].pk]), reverse("public-screen", args=[t.slug]),
            *_urls(t.slug)]
    with override_settings(CACHES=CLOSED):
        kept.reset()
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
        assert "Ana" in client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    warnings = [r for r in caplog.records if r.name == "tournaments.common.kept"]
    assert len(warnings) == 1 and "cannot be reached" in warnings[0].getMessage()  # once, not per request


def test_without_a_broker_the_work_runs_in_a_thread_of_its_own(settings):
    """No broker: a PDF is rendered by the web process's render thread, after the request that asked for it."""
    import threading

    settings.LEVEE_RENDER_IN = "thread"
    seen: list[str] = []
    done = threading.Event()

    class Job:
        name = "job"

        def __call__(self, word: str) -> None:
            seen.append(threading.current_thread().name)
            done.set()

    tasks.later(Job(), "x")  # any callable
    assert done.wait(5) and seen == ["levee-render"]


def test_a_render_that_fails_is_not_tried_again_at_every_reload(client, day, monkeypatch):
    t, _ = day
    url = reverse("print-ranking", args=[t.slug])

    def broken(*args, **kwargs):
        raise RuntimeError("pango missing")

    monkeypatch.setattr(pdf, "to_pdf", broken)
    assert client.get(url).status_code == 202
    with pytest.raises(RuntimeError):
        tasks.run_pending()
    assert client.get(url).status_code == 202 and not tasks.pending()  # held a minute, not queued again
    monkeypatch.setattr(files, "CLAIM_STALE", 30)  # a minute later (the claim held 60 s of the 600: now stale)
    assert client.get(url).status_code == 202 and len(tasks.pending()) == 1


# -- dropping what is kept (a player made anonymous) ---------------------------------------------------------


def _redis_cache() -> dict:
    import os

    url = os.environ.get("LEVEE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url,
                        "KEY_PREFIX": "levee-drop-test", "OPTIONS": {"socket_connect_timeout": 1}}}


@pytest.mark.parametrize("backend", ["locmem", "redis"])
def test_dropping_by_prefix_removes_those_entries_and_no_other(backend):
    """The entries of tournament 12 go, those of tournament 120 (a longer id with the same digits) and of another
    kind stay; a glob character in a key is taken literally."""
    from django.core.cache import caches

    settings_cm = override_settings(CACHES=_redis_cache()) if backend == "redis" else override_settings()
    with settings_cm:
        if backend == "redis":
            redis = pytest.importorskip("redis")
            try:
                caches["default"].get("ping")
            except redis.exceptions.ConnectionError as exc:
                pytest.skip(f"Redis is unreachable: {exc}")
        cache = caches["default"]
        cache.clear()
        kept.reset()
        for key in ("levee:public:12:a", "levee:public:12:b", "levee:public:120:a", "levee:player:12:a",
                    "levee:ranking:[7]:x"):
            cache.set(key, b"x", 60)
        assert kept.drop(["levee:public:12:", "levee:ranking:[7]:"]) == 3
        assert [k for k in ("levee:public:12:a", "levee:public:12:b", "levee:public:120:a", "levee:player:12:a",
                            "levee:ranking:[7]:x") if cache.get(k) is not None] == ["levee:public:120:a",
                                                                                     "levee:player:12:a"]
        assert kept.drop([]) == 0
        cache.clear()
