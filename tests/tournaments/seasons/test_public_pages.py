"""The public season pages: the championship's ranking (cached, 304), its categories, its CSV and PDF; a player's
page across events, public and private (through his player link)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournaments.common import files, runner
from tournaments.links import service as links
from tournaments.public import seasons

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def test_championship_page_shows_the_ranking_with_why_and_answers_304(client):
    season_of_three()
    url = reverse("public-championship", args=["saison-2025", "challenge"])
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    # Chloé 16, Bruno 14, Ana 12, David 10, Émile 6 (tests/tournaments/seasons/test_championships.py)
    table = page.split("<tbody>")[1].split("</tbody>")[0]
    assert table.index("Chloé") < table.index("Bruno") < table.index("Ana") < table.index("David")
    assert "Pourquoi ce rang" in page and "Les 2 meilleurs résultats sur 3 comptent" in page
    assert "Barème par place : 10, 6, 4, 2 points pour les premières places, puis 0." in page
    etag = response["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    dames = client.get(url + "?categorie=dames").content.decode()
    rows = dames.split("<tbody>")[1].split("</tbody>")[0]
    assert "Classement Dames" in dames and "Chloé" in rows and "Ana" in rows and "Bruno" not in rows
    assert client.get(url + "?categorie=inconnue").status_code == 404


def _published_documents_rendered():
    """Run what the championship's publications queued on the prints worker (the tournaments' pages left queued)."""
    return runner.run_pending(only=seasons.RENDER_TASK)


def test_championship_csv_is_french(client):
    season_of_three()
    _published_documents_rendered()
    response = client.get(reverse("public-championship-csv", args=["saison-2025", "challenge"]))
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeffRang;Ex aequo;Joueur;Club;Points;Victoires;Résultats retenus;Tournois joués;")
    # Chloé: 16 points, 1 win among the results kept (T3), 2 kept, 3 played
    assert "1;non;Chloé;Tarot Club de Vanves;16;1;2;3;" in text


def test_championship_csv_is_sent_gzipped_to_a_browser_that_accepts_it(client):
    """The CSV of a big championship is mostly its « pourquoi » words (about 5 MB at 10,000 players): its gzip copy
    is kept beside it and sent to a browser that says it accepts gzip, the same bytes once unpacked."""
    import gzip

    season_of_three()
    _published_documents_rendered()
    url = reverse("public-championship-csv", args=["saison-2025", "challenge"])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"] and packed["ETag"] == plain["ETag"]
    body = b"".join(plain.streaming_content)
    assert gzip.decompress(b"".join(packed.streaming_content)) == body and "Chloé".encode() in body
    pdf = client.get(reverse("public-championship-pdf", args=["saison-2025", "challenge"]),
                     HTTP_ACCEPT_ENCODING="gzip")
    assert pdf.status_code == 200 and "Content-Encoding" not in pdf  # a PDF is sent as it is


def test_championship_pdf_and_csvs_are_rendered_by_the_prints_worker_at_publication(client, monkeypatch):
    """Issue 23: a championship's PDF and CSVs (general and each category) are rendered when its ranking is
    published, by the prints worker, and kept as files; a request serves the file and renders nothing."""
    made = season_of_three()
    champ = made["championship"]
    # each of the three publications queued its render (versions 1, 2, 3): the older two are superseded
    queued = [args for name, args in runner.pending() if name == seasons.RENDER_TASK]
    assert queued == [(champ.pk, 1), (champ.pk, 2), (champ.pk, 3)]
    # the PDF, the general CSV and one per category (juniors, seniors, women, séries 2 and 3): 7 files; and the
    # page in French and in English: 9
    assert [seasons.render_published(*args) for args in queued] == [0, 0, 9]
    assert len(list(seasons.folder(champ.pk).glob("*.pdf"))) == 1
    assert len(list(seasons.folder(champ.pk).glob("*.csv"))) == 6
    runner.forget()

    def no_render_in_a_request(*args, **kwargs):
        raise AssertionError("rendered in a web request")

    monkeypatch.setattr(seasons, "ranking_view", no_render_in_a_request)
    base = reverse("public-championship", args=["saison-2025", "challenge"])
    pdf = client.get(base + "classement.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    body = b"".join(pdf.streaming_content)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)
    # the ranking as the page shows it: Chloé 16, Bruno 14, Ana 12, David 10, Émile 6
    assert "Challenge du club" in text
    assert text.index("Chloé") < text.index("Bruno") < text.index("Ana") < text.index("David") < text.index("Émile")
    assert client.get(base + "classement.pdf", HTTP_IF_NONE_MATCH=pdf["ETag"]).status_code == 304
    for category in ("", "dames", "serie-2"):
        csv = client.get(base + "classement.csv" + (f"?categorie={category}" if category else ""))
        assert csv.status_code == 200, category
        assert csv["Content-Disposition"].startswith("attachment; filename=\"saison-2025-challenge"), category
    dames = b"".join(client.get(base + "classement.csv?categorie=dames").streaming_content).decode()
    assert "Chloé" in dames and "Ana" in dames and "Bruno" not in dames
    assert client.get(base + "classement.csv?categorie=inconnue").status_code == 404
    assert client.get(base).status_code == 200  # the page too, rendered into the cache at publication
    assert runner.pending() == []


def test_a_championship_document_not_rendered_yet_is_in_preparation_and_queued_once(client, monkeypatch):
    champ = season_of_three()["championship"]
    runner.forget()  # the publications' renders lost (a broker restarted, say)
    monkeypatch.setattr(seasons, "ranking_view", lambda *a, **k: (_ for _ in ()).throw(AssertionError("rendered")))
    url = reverse("public-championship-pdf", args=["saison-2025", "challenge"])
    first = client.get(url)
    assert first.status_code == 202 and "Document en préparation" in first.content.decode()
    # the same page for every reader of a public season: a proxy in front may keep it a second, a browser asks again
    assert first["Retry-After"] == "3" and first["Cache-Control"] == "public, no-cache" and "Cookie" in first["Vary"]
    csv = client.get(reverse("public-championship-csv", args=["saison-2025", "challenge"]))
    assert csv.status_code == 202
    assert runner.pending() == [(seasons.RENDER_TASK, (champ.pk, 3))]  # once for both, the version published now
    monkeypatch.undo()
    assert runner.run_pending() == 1
    assert client.get(url).status_code == 200
    assert runner.pending() == []


def test_player_page_public_and_private(client):
    s = season_of_three()
    ana = s["players"]["Ana"]
    page = client.get(reverse("public-player-history", args=[ana.pk])).content.decode()
    # T1 1st of 4 (+90), T3 4th of 4 (−60); the championship: 3rd of 5 with 12 points
    assert "1 sur 4" in page and "4 sur 4" in page and "<svg" in page
    assert "Challenge du club" in page and "3e sur 5" in page
    assert "Licence" not in page  # personal data: the private part only
    # statistics: Ana took a garde in T1 (made, with the petit au bout) and in T3 (fallen); the deals are
    # summaries: the tricks are not available
    stats = page.split("Statistiques des donnes")[1]
    assert "Tarot — 2 donnes" in stats
    assert "2 prises, 1 réussie (50 %)" in stats
    assert "Petits au bout gagnés</th><td>1</td>" in stats
    assert '<td class="na">non disponible</td>' in stats
    entry = ana.entries.get(tournament=s["tournaments"][0])
    link = links.link_for_entry(entry=entry)
    private = client.get(reverse("player-history-private", args=[link.token]))
    assert private.status_code == 200 and "Licence : L-Ana" in private.content.decode()
    assert private["Cache-Control"] == "private, no-store"
    assert client.get(reverse("player-history-private", args=["inconnu"])).status_code == 404


def test_the_season_page_is_public(client):
    season_of_three()
    response = client.get("/saisons/saison-2025/")  # by its address: no organizer's page may shadow it
    page = response.content.decode()
    assert response.status_code == 200 and "Challenge du club" in page and "Tournoi T2" in page
    assert reverse("public-season", args=["saison-2025"]) == "/saisons/saison-2025/"


def test_a_players_page_writes_its_dates_in_french():
    """The walk of issue 23: the tournaments played were dated « 8 Oct 2026 », « 5 Nov 2026 » on a French page."""
    from django.test import Client
    s = season_of_three()
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(
        reverse("public-player-history", args=[s["players"]["Ana"].pk])).content.decode()
    assert "1 octobre 2025" in page and "1 décembre 2025" in page  # T1 and T3
    assert "Oct 2025" not in page and "Dec 2025" not in page and "Déc 2025" not in page


def test_the_championships_column_headers_are_capitalised_like_the_others(client):
    """The walk of issue 23: « Rang, Joueur, Club, Points, victoires, résultats retenus, tournois joués »."""
    season_of_three()
    page = client.get(reverse("public-championship", args=["saison-2025", "challenge"])).content.decode()
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert ">Victoires</th>" in head and ">Résultats retenus</th>" in head and ">Tournois joués</th>" in head

def test_a_championship_render_that_fails_is_held_not_tried_at_every_reload(client, monkeypatch):
    champ = season_of_three()["championship"]
    runner.forget()

    def broken(*args, **kwargs):
        raise RuntimeError("WeasyPrint fell over")

    monkeypatch.setattr("tournaments.public.pdf.to_pdf", broken)
    url = reverse("public-championship-pdf", args=["saison-2025", "challenge"])
    assert client.get(url).status_code == 202
    assert runner.run_pending() == 1  # the PDF failed (logged); the CSVs are written all the same
    assert client.get(reverse("public-championship-csv", args=["saison-2025", "challenge"])).status_code == 200
    snap_pdf = seasons.pdf_file(champ, seasons.championships.latest_snapshot(champ.pk))
    assert files.claimed(snap_pdf.path)  # held a minute: the reloads do not render it again and again
    assert client.get(url).status_code == 202
    monkeypatch.undo()
    runner.run_pending()  # the render queued by that reload leaves the held PDF alone
    assert not snap_pdf.path.exists() and client.get(url).status_code == 202


def test_the_first_of_the_month_is_written_1er_in_french():
    """« Du 1er septembre 2026 », not « Du 1 septembre » (the walk); the English page keeps « 1 September »."""
    from datetime import date

    from django.utils import translation

    from tournaments.templatetags.french_words import long_date

    with translation.override("fr"):
        assert long_date(date(2026, 9, 1)) == "1er septembre 2026"
        assert long_date(date(2026, 9, 2)) == "2 septembre 2026"
    with translation.override("en"):
        assert long_date(date(2026, 9, 1)) == "1 September 2026"


def test_the_rules_of_one_tournament_and_one_result_read_in_the_singular():
    """The demo's challenge read « Classé à partir de 1 tournois joués »."""
    from django.utils import translation

    champ = season_of_three()["championship"]
    champ.best, champ.minimum = 1, 1
    with translation.override("fr"):
        words = seasons.rules_words(champ)
    assert "Le meilleur résultat compte." in words and "Classé dès le premier tournoi joué." in words
    champ.best, champ.minimum = 2, 3
    with translation.override("fr"):
        words = seasons.rules_words(champ)
    assert "Les 2 meilleurs résultats comptent." in words and "Classé à partir de 3 tournois joués." in words


def test_a_category_lists_its_own_players_not_ranked_yet(client):
    """With a minimum of 3 tournaments only Chloé and David (3 played) are ranked; Ana (Dames, 2 played: 10 points
    for T1's win and 2 for T3's 4th place, both kept) waits for one more — on the Dames page and in its CSV, where
    Bruno and Émile (2 played each, not Dames) do not appear."""
    season_of_three(minimum=3)
    url = reverse("public-championship", args=["saison-2025", "challenge"])
    dames = client.get(url + "?categorie=dames").content.decode()
    waiting = dames.split("Pas encore classés")[1]
    assert "Ana</a> : 12 points, 2 tournois joués, encore 1 pour être classé" in waiting
    assert "Bruno" not in waiting and "Émile" not in waiting and "Chloé" not in waiting
    everyone = client.get(url).content.decode().split("Pas encore classés")[1]
    assert "Ana" in everyone and "Bruno" in everyone and "Émile" in everyone
    _published_documents_rendered()
    csv = b"".join(client.get(url + "classement.csv?categorie=dames").streaming_content).decode()
    rows = csv.split("Pas encore classés")[1]
    assert "Ana;;12;2;1" in rows and "Bruno" not in rows and "Émile" not in rows


def test_a_players_private_page_is_rendered_once_per_state_and_never_stored(client, monkeypatch,
                                                                           django_assert_num_queries):
    """His own page through his link is kept per state like his public page (a phone reloading it costs no
    render), never stored by the browser (his licence, his birth date), and anew once a tournament he played
    publishes again or his licence changes."""
    from tests.integration.builders import correct_deal
    from tournaments.deals.models import Deal
    from tournaments.standings import tasks as standings_tasks

    s = season_of_three()
    ana = s["players"]["Ana"]
    link = links.link_for_entry(entry=ana.entries.get(tournament=s["tournaments"][0]))
    url = reverse("player-history-private", args=[link.token])
    renders: list[str] = []
    real = seasons.render_to_string
    monkeypatch.setattr(seasons, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-store"
    assert client.get(url).content == first.content and len(renders) == 1
    with django_assert_num_queries(1):  # his link, his player and his page's state in one statement (five before)
        assert client.get(url).status_code == 200
    # T3 corrected (Ana 1st there, +60): her rank in it changes on her page
    t3 = s["tournaments"][2]
    correct_deal(Deal.objects.get(table__round__tournament=t3), [60, -60, 20, -20])
    standings_tasks.ranking_refresh(t3.pk)
    second = client.get(url).content.decode()
    assert len(renders) == 2 and second != first.content.decode()
    type(ana).objects.filter(pk=ana.pk).update(licence="L-Ana-2")
    assert "Licence : L-Ana-2" in client.get(url).content.decode() and len(renders) == 3
    public = reverse("public-player-history", args=[ana.pk])
    assert client.get(public).status_code == 200
    with django_assert_num_queries(1):  # his public page the same way, once kept (four before)
        assert client.get(public).status_code == 200


def test_the_championships_words_are_made_once_per_snapshot_not_at_each_players_page(client, monkeypatch):
    """A player's page says his standing in each championship with « pourquoi ce rang »: the words need the whole
    championship ranked again (1.4 s at 10,000 players), and each player's page made them at its first visit. They
    are now made once per snapshot and language and kept; the players' pages and the championship's page read the
    same words."""
    from tournaments.seasons import championships

    s = season_of_three()
    ranked: list[int] = []
    real = championships.snapshot_ranking
    monkeypatch.setattr(championships, "snapshot_ranking", lambda snap: ranked.append(snap.pk) or real(snap))
    pages = {name: client.get(reverse("public-player-history", args=[p.pk])).content.decode()
             for name, p in s["players"].items()}
    assert len(ranked) == 1  # five pages, one ranking of the championship (French)
    # Ana: 10 (T1, 1st) + 2 (T3, 4th) = 12 points, 2 tournaments played: the words of the championship's page
    champ = client.get(reverse("public-championship", args=["saison-2025", "challenge"])).content.decode()
    assert len(ranked) == 2  # the championship's page ranks it for its lines; its words are the kept ones
    assert "Rang" in pages["Chloé"] and "Challenge du club" in pages["Ana"]
    why = championships.standing_words(championships.latest_snapshot(s["championship"].pk), "fr").why
    assert why[s["players"]["Chloé"].pk].split(" ")[0] in champ
    for name, page in pages.items():
        assert why[s["players"][name].pk].split(".")[0] in page.replace("&#x27;", "'"), name
    client.get(reverse("public-player-history", args=[s["players"]["Ana"].pk]), HTTP_ACCEPT_LANGUAGE="en",
               HTTP_COOKIE="django_language=en")
    assert len(ranked) == 3  # English: its own words, once


def test_a_championships_page_comes_in_pages(client, monkeypatch):
    """10,000 players made one championship page of 3 MB for a phone: it comes in pages of LINES_PER_PAGE lines
    with a pager (the CSV and the PDF keep every line); those not ranked yet are on the last page; a page number
    beyond the ranking is its last page (no page rendered and kept per number typed)."""
    monkeypatch.setattr(seasons, "LINES_PER_PAGE", 2)
    season_of_three()
    # by hand (builders.py, 10-6-4-2, best 2): Chloé 6 + 10 = 16; Bruno 4 (T1, places 2–4 shared: (6+4+2)/3) + 10
    # = 14; Ana 10 + 2 = 12; David 6 + 4 = 10; Émile 2 + 4 = 6
    url = reverse("public-championship", args=["saison-2025", "challenge"])

    def names(html: str) -> list[str]:
        return [n for n in ("Chloé", "Bruno", "Ana", "David", "Émile") if f">{n}</a>" in html]

    first = client.get(url).content.decode()
    assert "Lignes 1 à 2 sur 5" in first and f'href="{url}?page=2" rel="next"' in first and 'rel="prev"' not in first
    assert names(first) == ["Chloé", "Bruno"]
    second = client.get(url + "?page=2").content.decode()
    assert "Lignes 3 à 4 sur 5" in second and f'href="{url}" rel="prev"' in second
    assert f'href="{url}?page=3" rel="next"' in second and names(second) == ["Ana", "David"]
    last = client.get(url + "?page=3").content.decode()
    assert "Lignes 5 à 5 sur 5" in last and 'rel="next"' not in last and f'href="{url}">' in last
    assert names(last) == ["Émile"]
    beyond = client.get(url + "?page=999")
    assert beyond.content.decode() == last and beyond["ETag"] == client.get(url + "?page=3")["ETag"]
    assert client.get(url + "?page=abc").content.decode() == first
    assert client.get(url + "?page=0").content.decode() == first


def test_those_not_ranked_yet_are_on_the_last_page(client, monkeypatch):
    monkeypatch.setattr(seasons, "LINES_PER_PAGE", 1)
    season_of_three(minimum=3)  # ranked: Chloé and David (3 tournaments each); Ana, Bruno, Émile waiting
    url = reverse("public-championship", args=["saison-2025", "challenge"])
    first = client.get(url).content.decode()
    assert "Pas encore classés" not in first and "Lignes 1 à 1 sur 2" in first
    assert "Pas encore classés" in client.get(url + "?page=2").content.decode()
    dames = client.get(url + "?categorie=dames").content.decode()  # Chloé ranked, Ana waiting: one page
    assert "Pas encore classés" in dames and "Lignes" not in dames


def test_a_long_championships_pdf_comes_in_parts(client, monkeypatch):
    """20,000 players made one PDF of hundreds of pages (1.7 MB a request in the bench): past LINES_PER_PART lines it
    comes in parts, each a file the prints worker makes at publication, ``?partie=2`` …, listed on the page; those
    not ranked yet in the last part; a part beyond them is the last."""
    monkeypatch.setattr(seasons, "LINES_PER_PART", 2)
    made = season_of_three()
    champ = made["championship"]
    assert _published_documents_rendered()
    assert sorted(p.name.split("--")[0] for p in seasons.folder(champ.pk).glob("*.pdf")) == [
        "classement", "classement-partie-2", "classement-partie-3"]
    base = reverse("public-championship", args=["saison-2025", "challenge"])
    page = client.get(base).content.decode()
    for k in (2, 3):
        assert f'href="{base}classement.pdf?partie={k}">Imprimer (PDF), partie {k}</a>' in page

    def text(query: str) -> str:
        answer = client.get(base + "classement.pdf" + query)
        assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf", query
        body = b"".join(answer.streaming_content)
        return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages)

    # by hand (builders.py): Chloé 16, Bruno 14 | Ana 12, David 10 | Émile 6
    first, second, third = text(""), text("?partie=2"), text("?partie=3")
    assert "Chloé" in first and "Bruno" in first and "Ana" not in first
    assert "partie 2 sur 3" in second and "Ana" in second and "David" in second and "Chloé" not in second
    assert "Émile" in third and "David" not in third
    assert text("?partie=99") == third and text("?partie=x") == first


def test_the_championships_pdf_says_the_time_of_the_page_not_utc():
    """The walk: the PDF said « 27 novembre 2026 09:20 » (UTC) where the page said « à 10:20 » (Europe/Paris).
    A snapshot made at 09:20 UTC on 27 November (winter time, UTC+1) reads 10:20 in both."""
    from datetime import UTC, datetime

    from django.template.loader import render_to_string
    from django.utils import translation

    from tournaments.seasons.models import ChampionshipSnapshot

    made = season_of_three()
    champ = made["championship"]
    snap = seasons.championships.latest_snapshot(champ.pk)
    ChampionshipSnapshot.objects.filter(pk=snap.pk).update(created_at=datetime(2026, 11, 27, 9, 20, tzinfo=UTC))
    snap = seasons.championships.latest_snapshot(champ.pk)
    with translation.override("fr"):
        html = render_to_string("print/championship.html", seasons.ranking_view(champ, snap))
        page = render_to_string("public/championship.html", {**seasons.ranking_view(champ, snap), "messages": ()})
    assert "27 novembre 2026 à 10:20" in page
    assert "27 novembre 2026 à 10:20" in html and "09:20" not in html


def test_a_shared_place_in_the_championship_is_written_as_in_a_tournaments_ranking():
    """The walk: the championship wrote « 2 ex » where a tournament's ranking writes « 2= »."""
    from dataclasses import replace

    from django.template.loader import render_to_string
    from django.utils import translation

    made = season_of_three()
    champ = made["championship"]
    snap = seasons.championships.latest_snapshot(champ.pk)
    with translation.override("fr"):
        view = seasons.ranking_view(champ, snap)
        view["rows"] = [replace(row, rank=2, shared=True) if k in (1, 2) else row for k, row in enumerate(view["rows"])]
        page = render_to_string("public/championship.html", {**view, "messages": ()})
        pdf = render_to_string("print/championship.html", view)
    assert '<td>2<abbr title="ex aequo">=</abbr></td>' in page and " ex<" not in page and ">ex<" not in page
    assert "<td>2=</td>" in pdf and " ex<" not in pdf


def test_a_band_of_one_point_reads_in_the_singular():
    """A percentage table whose last band gives 1 point read « 1 points up to 100 % » (« 1 points jusqu'à 100 % »):
    ngettext now, in both languages."""
    from django.utils import translation

    champ = season_of_three()["championship"]
    champ.table = {"kind": "percent", "bands": [[50, 3], [100, 1]]}
    with translation.override("en"):
        words = " ".join(seasons.rules_words(champ))
    assert "Points by percentage of the field: 3 points up to 50 %, 1 point up to 100 %." in words, words
    with translation.override("fr"):
        words = " ".join(seasons.rules_words(champ))
    assert "3 points jusqu'à 50 %, 1 point jusqu'à 100 %" in words, words
