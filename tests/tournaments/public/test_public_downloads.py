"""The big downloads (the results CSV, the results file) are never rendered in a web request (issue 22): the first
request queues their render on the prints worker and answers « en préparation » (202, Retry-After), like the PDFs;
the worker writes the file once per published state; the request serves the file with its ETag, 304 and gzip; a
new published state makes a new file; the bytes are those the render gives when called directly."""

from __future__ import annotations

import gzip
import json
import os
import threading

import brotli
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common import downloads, files
from tournaments.event.models import TournamentRole
from tournaments.public import exports, published, tasks, views
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db

URLS = ("public-results-csv", "public-results-file", "public-ranking-csv")


@pytest.fixture
def day():
    """8 players, round 1 released: table 1 Ana +90, Bruno −30, Chloé −30, David −30 (one deal); table 2 Élise
    +60, Fanny, Gaston, Hugo −20 each (one deal)."""
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David", "Élise", "Fanny", "Gaston", "Hugo"], slug="dl")
    t1, t2 = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")],
                               [e[n] for n in ("Élise", "Fanny", "Gaston", "Hugo")]])
    add_deal(t1, [90, -30, -30, -30], taker=0)
    add_deal(t2, [60, -20, -20, -20], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()  # what publication queued: each test asks for what it needs
    return t, e


@pytest.fixture
def render_threads(monkeypatch):
    """The threads in which the downloads' renders ran (the results CSV's render, ``results_file``)."""
    seen: list[str] = []
    real_page, real_file, real_ranking = views.results_csv_page, exports.results_file, views.ranking_csv_page

    def counting(real):
        def page(state):
            etag, render = real(state)

            def counted():
                seen.append(threading.current_thread().name)
                return render()

            return etag, counted

        return page

    def results_file(*args, **kwargs):
        seen.append(threading.current_thread().name)
        return real_file(*args, **kwargs)

    monkeypatch.setattr(views, "results_csv_page", counting(real_page))
    monkeypatch.setattr(views, "ranking_csv_page", counting(real_ranking))
    monkeypatch.setattr(exports, "results_file", results_file)
    return seen


@pytest.mark.parametrize("name", URLS)
def test_the_first_request_queues_the_render_and_answers_in_preparation(client, day, render_threads, name):
    t, _ = day
    url = reverse(name, args=[t.slug])
    first = client.get(url)
    # the same page for every reader: a proxy in front may keep it a second, a browser asks again (no-cache)
    assert first.status_code == 202 and first["Retry-After"] == "3" and first["Cache-Control"] == "public, no-cache"
    assert "Cookie" in first["Vary"]  # in the reader's language, from a cookie
    assert "en préparation" in first.content.decode()
    assert render_threads == []  # nothing rendered in the request
    assert [n for n, _ in tasks.pending()] == [downloads.TASK]
    again = client.get(url)  # a reload while the render is queued: not queued twice
    assert again.status_code == 202 and len(tasks.pending()) == 1 and render_threads == []
    assert tasks.run_pending() == 1
    assert render_threads  # the worker rendered it
    served = client.get(url)
    assert served.status_code == 200 and served["ETag"].startswith('"' + t.ranking_snapshots.get().digest[:16])
    assert b"".join(served.streaming_content)
    calls = len(render_threads)
    not_modified = client.get(url, HTTP_IF_NONE_MATCH=served["ETag"])
    assert not_modified.status_code == 304 and not not_modified.content
    assert len(render_threads) == calls and tasks.pending() == []


def test_the_file_holds_what_the_render_gives_called_directly(client, day):
    t, _ = day
    for name in URLS:
        client.get(reverse(name, args=[t.slug]))
    tasks.run_pending()
    state = published.read(t.slug)
    assert state is not None
    csv = client.get(reverse("public-results-csv", args=[t.slug]))
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv["Content-Disposition"] == 'attachment; filename="dl-resultats.csv"'
    body = b"".join(csv.streaming_content)
    assert body == views.results_csv_page(state)[1]().encode()
    text = body.decode("utf-8-sig")
    assert "1;1;1;valide;1;Ana;90" in text and "1;2;1;valide;1;Élise;60" in text
    results = client.get(reverse("public-results-file", args=[t.slug]))
    assert results["Content-Type"] == "application/json; charset=utf-8"
    kept, direct = json.loads(b"".join(results.streaming_content)), json.loads(
        exports.results_file_download(state, False)[1]())
    assert kept.pop("generated_at") <= direct.pop("generated_at")  # the one thing that is not the state's
    assert kept == direct and kept["format"] == "levee.results/1"


@pytest.mark.parametrize("name", URLS)
def test_the_file_is_served_compressed_to_who_accepts_it(client, day, name):
    """Brotli to a browser that takes it (every current one does: Safari sends « gzip, deflate, br »), else gzip,
    else the file; each copy unpacks to the file's bytes, and says how it is encoded."""
    t, _ = day
    url = reverse(name, args=[t.slug])
    client.get(url)
    tasks.run_pending()
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding")
    plain = b"".join(plain.streaming_content)
    unpack = {"br": brotli.decompress, "gzip": gzip.decompress}
    for header, coding in (("gzip, deflate, br", "br"), ("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"),
                           ("br;q=0, gzip", "gzip"), ("gzip;q=0.5, br;q=0.4", "gzip"), ("*", "br"),
                           ("identity", None), ("br;q=0, gzip;q=0", None)):
        packed = client.get(url, HTTP_ACCEPT_ENCODING=header)
        assert packed.get("Content-Encoding") == coding, header
        body = b"".join(packed.streaming_content)
        assert (unpack[coding](body) if coding else body) == plain, header
        assert "Accept-Encoding" in packed["Vary"]


def test_a_new_published_state_makes_a_new_file_and_removes_the_old(client, day, render_threads):
    t, _ = day
    url = reverse("public-results-csv", args=[t.slug])
    client.get(url)
    tasks.run_pending()
    first = client.get(url)
    old = downloads.Download("results.csv", t.pk, t.slug, first["ETag"].strip('"'), "", "", "").path
    assert old.is_file()
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)  # Élise −45
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    render_threads.clear()
    # the new state is not rendered yet: its render queued, and just after the change the reader waits for it
    # (« en préparation », 202) — the file of the state before, taken without a word, was a walk's stale CSV
    waiting = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert waiting.status_code == 202 and waiting["Retry-After"]
    assert [n for n, _ in tasks.pending()] == [downloads.TASK] and render_threads == []
    # a render that takes long (minutes at 10,000 players, deals coming all along): past FRESH_WAIT the latest file
    # written is served meanwhile, with its own ETag
    claim = files._claim_path(downloads.Download("results.csv", t.pk, t.slug, "", "", "", "").claim_path)
    stamp = claim.stat().st_mtime - downloads.FRESH_WAIT
    os.utime(claim, (stamp, stamp))
    meanwhile = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert meanwhile.status_code == 304 and meanwhile["ETag"] == first["ETag"]
    assert [n for n, _ in tasks.pending()] == [downloads.TASK]  # queued once
    tasks.run_pending()
    second = client.get(url)
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert "1;2;2;valide;1;Élise;-45" in b"".join(second.streaming_content).decode("utf-8-sig")
    assert not old.exists()
    assert not old.with_name(old.name + ".br").exists() and not old.with_name(old.name + ".gz").exists()


def test_publication_renders_the_downloads_in_the_quiet_pass(client, day, render_threads):
    t, _ = day
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)
    standings_tasks.ranking_refresh(t.pk)  # what the commit of an entry runs
    assert tasks.run_pending(include_delayed=False) == 1  # the pages now, and the ranking CSV's file
    assert len(render_threads) == 1  # the ranking CSV; not the results CSV and file: a new state may come soon
    assert tasks.run_pending() == 1  # the quiet pass: PDFs and downloads
    render_threads.clear()
    for name in URLS:
        assert client.get(reverse(name, args=[t.slug])).status_code == 200, name
    assert render_threads == [] and tasks.pending() == []


def test_the_staff_results_file_is_a_variant_of_its_own(client, day):
    t, _ = day
    user = get_user_model().objects.create_user("arbitre", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role=TournamentRole.Role.ARBITER)
    url = reverse("public-results-file", args=[t.slug])
    client.get(url)
    tasks.run_pending()
    public = client.get(url)
    client.force_login(user)
    assert client.get(url).status_code == 202  # the staff's copy is rendered apart
    tasks.run_pending()
    staff = client.get(url)
    assert staff.status_code == 200 and staff["ETag"] != public["ETag"]
    assert staff["Cache-Control"] == "private, no-cache"


def test_one_render_of_a_download_at_a_time_and_it_renders_the_newest_state(client, day):
    """During play a deal comes every few seconds and a big event's CSV takes minutes: a request per deal must not
    queue a render per deal."""
    t, _ = day
    url = reverse("public-results-csv", args=[t.slug])
    assert client.get(url).status_code == 202
    (_name, (kind, slug, staff, claimed)), = tasks.pending()  # the first request's message, in the worker's queue
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)  # a newer state
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    assert client.get(url).status_code == 202
    assert tasks.pending() == []  # nothing queued for the newer state while the first render is not done
    doc = views.results_csv_download(published.read(t.slug))[0]
    assert files.claimed(doc.claim_path)
    # the worker runs the first request's message: it renders the newest state
    assert tasks.render_download(kind, slug, staff, claimed) == str(doc.path)
    assert not files.claimed(doc.claim_path)
    served = client.get(url)
    assert served.status_code == 200 and served["ETag"] == f'"{doc.key}"'
    assert "1;2;2;valide;1;Élise;-45" in b"".join(served.streaming_content).decode("utf-8-sig")


def test_publication_renders_the_staff_results_file_too_and_only_the_staff_is_served_it(client, day):
    """Issue 23: the staff's results file (the licence numbers, personal data) is rendered in the quiet pass of a
    publication, kept per published state apart from the public one; a reader, a signed-in player and another
    tournament's arbiter get the public copy (no licence), the tournament's staff gets his at once (no 202)."""
    t, _ = day
    add_deal(t.rounds.get(number=1).tables.get(number=2), [-45, 15, 15, 15], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    assert tasks.run_pending() == 2  # the pages, then the quiet pass (PDFs, downloads, the staff's file)
    state = published.read(t.slug)
    staff_doc = exports.results_file_download(state, True)[0]
    public_doc = exports.results_file_download(state, False)[0]
    assert staff_doc.path.is_file() and public_doc.path.is_file() and staff_doc.path != public_doc.path
    assert "dl-Ana" in staff_doc.path.read_text() and "dl-Ana" not in public_doc.path.read_text()
    url = reverse("public-results-file", args=[t.slug])
    users = get_user_model().objects
    arbiter, stranger, other = (users.create_user(n, password="x") for n in ("arbitre", "joueur", "ailleurs"))
    TournamentRole.objects.create(tournament=t, user=arbiter, role=TournamentRole.Role.ARBITER)
    elsewhere, _e = make_tournament(["Zoé"], slug="ailleurs")
    TournamentRole.objects.create(tournament=elsewhere, user=other, role=TournamentRole.Role.ARBITER)
    for who in (None, stranger, other):
        client.logout()
        if who is not None:
            client.force_login(who)
        response = client.get(url)
        body = b"".join(response.streaming_content).decode()
        assert response.status_code == 200 and response["ETag"] == f'"{public_doc.key}"', who
        assert "dl-Ana" not in body and json.loads(body)["players"][0]["licence"] is None, who
    client.force_login(arbiter)
    response = client.get(url)
    assert response.status_code == 200 and response["ETag"] == f'"{staff_doc.key}"'
    assert response["Cache-Control"] == "private, no-cache"
    assert json.loads(b"".join(response.streaming_content))["players"][0]["licence"] == "dl-Ana"
    assert tasks.pending() == []  # served from the files written at publication: nothing rendered on request
