"""Issue 23: a player made anonymous on request leaves no trace of his old name in what Levée keeps or shows — the
public pages (cached or not), the CSVs, the results files (public and staff), the PDFs, the championship's documents,
the API, the files kept on disk, the pages' cache and the published snapshots — while his results are kept: the
rankings rank him as before, under his anonymous name, and every older snapshot still regenerates and explains.

The season is tests/tournaments/seasons/builders.py's: Bruno played T1 (2nd shared of 4) and T2 (1st of 4); the
championship (best 2 of 10, 6, 4, 2 points, shared places averaged) gives him (4 + 2 + 1)/… — worked by hand there:
14 points, 2nd (Chloé 16, Bruno 14, Ana 12, David 10, Émile 6)."""

from __future__ import annotations

import gzip
import io
import pickle
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from scoring import championship as pure
from tournaments.common import runner
from tournaments.event import register
from tournaments.event.models import Entry, TournamentRole
from tournaments.links import service as links
from tournaments.public import published, queries
from tournaments.seasons import championships
from tournaments.seasons.models import ChampionshipLine, ChampionshipSnapshot
from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot

from .builders import season_of_three

pytestmark = pytest.mark.django_db

OLD = "Bruno"


def _text(data: bytes) -> str:
    """What a reader finds in a body: a PDF's text, a gzip copy uncompressed, else the bytes as text."""
    if data.startswith(b"%PDF"):
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data.decode("utf-8", "replace")


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _urls(s: dict, token: str) -> list[str]:
    """Every public page, export, file, PDF and API read of the season, its tournaments and its players."""
    champ, base = s["championship"], reverse("public-championship", args=["saison-2025", "challenge"])
    urls = [reverse("public-club", args=["vanves"]), reverse("public-season", args=["saison-2025"]), base,
            base + "?categorie=dames", base + "?categorie=serie-2", base + "classement.csv",
            base + "classement.csv?categorie=dames", base + "classement.csv?categorie=serie-2",
            base + "classement.pdf", reverse("player-history-private", args=[token]),
            reverse("api:seasons"), reverse("api:season", args=[s["season"].pk]),
            reverse("api:season-export", args=[s["season"].pk]), reverse("api:championship-ranking", args=[champ.pk]),
            reverse("api:championship-ranking-diff", args=[champ.pk]) + "?from=1",
            reverse("api:club", args=[s["club"].pk]), reverse("api:club-members", args=[s["club"].pk]),
            reverse("api:players")]
    urls += [reverse("api:championship-ranking-version", args=[champ.pk, v])
             for v in ChampionshipSnapshot.objects.filter(championship=champ).values_list("version", flat=True)]
    for player in s["players"].values():
        urls += [reverse("public-player-history", args=[player.pk]), reverse("api:person-history", args=[player.pk]),
                 reverse("api:player", args=[player.pk])]
    for t in s["tournaments"]:
        slug = t.slug
        urls += [reverse(name, args=[slug]) for name in (
            "public-home", "public-ranking", "public-ranking-csv", "public-ranking-print", "public-screen",
            "public-screen-seating", "public-results-csv", "public-results-print", "public-results-file",
            "public-ledger", "print-ranking")]
        urls += [reverse(name, args=[slug, 1]) for name in (
            "public-round", "print-round-results", "print-score-sheets", "print-seating", "public-score-sheets")]
        urls += [reverse("public-player", args=[slug, e]) for e in t.entries.values_list("pk", flat=True)]
        urls += [reverse(name, args=[t.pk]) for name in (
            "api:tournament", "api:tournament-export", "api:ranking", "api:registrations", "api:players-csv")]
    return urls


def _read_all(client, s: dict, token: str) -> dict[str, tuple[int, str]]:
    """Each URL read in French and in English: (status, text)."""
    out = {}
    for lang in ("fr", "en"):
        client.cookies["django_language"] = lang
        for url in _urls(s, token):
            response = client.get(url)
            out[f"{lang} {url}"] = (response.status_code, _text(_body(response)))
    return out


def _kept_everywhere(tmp_root: Path) -> dict[str, str]:
    """Every file kept on disk and every page in the cache (this process's copies too), as text."""
    out = {str(p): _text(p.read_bytes()) for p in tmp_root.rglob("*") if p.is_file() and p.suffix != ".claim"}
    for key in list(getattr(cache, "_cache", {})):
        value = pickle.loads(cache._cache[key])
        if isinstance(value, tuple) and value and isinstance(value[0], bytes):
            out[key] = _text(value[0])
    for key, (body, _compressed) in published._pages.items():
        out[f"process {key}"] = _text(body)
    return out



def _lines_of(player):
    """(snapshot, rank) of every published line of ``player``, in the order of the snapshots."""
    entries = set(Entry.objects.filter(player=player).values_list("id", flat=True))
    return [(snap.pk, line.rank)
            for snap in RankingSnapshot.objects.filter(tournament__entries__player=player).order_by("pk")
            for line in rankings.snapshot_lines(snap) if line.entry_id in entries]

def test_an_anonymised_players_old_name_appears_nowhere_and_his_results_are_kept(
        client, settings, tmp_path, django_capture_on_commit_callbacks):
    settings.LEVEE_PDF_ROOT = str(tmp_path / "kept")
    published.forget_kept([""])  # this process's copies of the pages of earlier tests (their players too)
    queries.forget_rows([""])
    s = season_of_three()
    bruno, champ = s["players"][OLD], s["championship"]
    staff = get_user_model().objects.create_superuser("direction", password="x")
    for t in s["tournaments"]:
        TournamentRole.objects.create(tournament=t, user=staff, role=TournamentRole.Role.ARBITER)
    token = links.link_for_entry(entry=Entry.objects.filter(player=bruno).first()).token
    client.force_login(staff)  # the staff sees every variant (the staff's results file, the score sheets)
    runner.run_pending()
    _read_all(client, s, token)  # what is missing is queued: every document of every state is rendered
    runner.run_pending()
    before = _read_all(client, s, token)
    kept_before = _kept_everywhere(tmp_path / "kept")
    # the test can fail: the old name was in the pages, the files, the PDFs and the cache
    shown = [u for u, (_code, text) in before.items() if OLD in text]
    assert any("classement.pdf" in u for u in shown) and any("results.json" in u for u in shown)
    assert any(k.endswith(".pdf") for k, text in kept_before.items() if OLD in text)
    assert any(k.startswith("levee:1:levee:") for k, text in kept_before.items() if OLD in text)
    old_snapshot = championships.latest_snapshot(champ.pk)
    ranked_lines = _lines_of(bruno)
    assert ranked_lines

    with django_capture_on_commit_callbacks(execute=True):
        register.player_anonymize(player=bruno, reason="à sa demande")
    bruno.refresh_from_db()
    assert bruno.name.startswith("Joueur anonyme")

    # at once, before any render: nothing shows the old name (a document being rendered again is « en préparation »)
    during = _read_all(client, s, token)
    leaks = [u for u, (_code, text) in during.items() if OLD in text]
    assert not leaks, "\n".join(leaks)
    assert [k for k, text in _kept_everywhere(tmp_path / "kept").items() if OLD in text] == []
    runner.run_pending()
    _read_all(client, s, token)
    runner.run_pending()
    after = _read_all(client, s, token)
    assert [u for u, (_code, text) in after.items() if OLD in text] == []
    # everything served again as before (and the championship's new version too)
    assert {u: code for u, (code, _t) in after.items() if code != before.get(u, (200,))[0]} == {}
    assert [k for k, text in _kept_everywhere(tmp_path / "kept").items() if OLD in text] == []
    # the database: no row keeps the old name (his history wiped, the deals' records renamed, the snapshots hold ids)
    dump = io.StringIO()
    call_command("dumpdata", "tournaments", stdout=dump)
    assert OLD not in dump.getvalue()

    # his results kept: 14 points, 2nd of the championship, under his anonymous name; every older snapshot of the
    # championship still regenerates from its inputs (the digest checked) and explains his rank under that name
    csv = after["fr " + reverse("public-championship", args=["saison-2025", "challenge"]) + "classement.csv"][1]
    assert "2;non;Joueur anonyme;;14;" in csv
    newest = championships.latest_snapshot(champ.pk)
    assert newest.version == old_snapshot.version + 1 and newest.digest == old_snapshot.digest
    line = ChampionshipLine.objects.get(snapshot=newest, player=bruno)
    assert (line.rank, championships.metric(line, "points")) == (2, 14)
    for snap in ChampionshipSnapshot.objects.filter(championship=champ):
        ranked = championships.snapshot_ranking(snap)  # raises if the inputs no longer give the digest
        names, titles = championships.names_of(ranked)
        if bruno.pk in {r.player for r in ranked.inputs}:
            assert names[bruno.pk] == "Joueur anonyme"
            for who in {r.player for r in ranked.inputs}:  # « pourquoi ce rang », his and the others'
                assert OLD not in pure.explain(ranked, who, "fr", names, titles)
    assert [line for line in _lines_of(bruno) if line in ranked_lines] == ranked_lines  # the older snapshots kept
