"""A phone's Chromium downloads the results CSV and the results file as the kept files are now served: the brotli
copy (Chromium asks « gzip, deflate, br, zstd »), saved unpacked, byte for byte the file, « Œ » and long names
intact. Through the ranking page's links, at 390 px, as a player would."""

from __future__ import annotations

import json

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common import downloads
from tournaments.public import tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Œdipe Lœwenbrück", "Marie-Bernadette Delacroix-Montfort", "Chloé Dupré", "David Ñúñez"]


def test_chromium_downloads_the_brotli_copies_unpacked(chromium, live_server, tmp_path):
    t, e = make_tournament(NAMES, slug="brotli")
    (table,) = make_round(t, 1, [[e[n] for n in NAMES]])
    add_deal(table, [90, -30, -30, -30], taker=0)  # a garde made: Œdipe +90, each defender −30
    standings_tasks.ranking_refresh(t.pk)
    tasks.run_pending()  # the quiet pass: the downloads and their copies, by the print worker
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True, accept_downloads=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/p/brotli/ranking/")
        for link, kind in (("Résultats (CSV)", "results.csv"), ("Résultats complets (fichier ouvert)", "results.json")):
            doc = downloads.Download(kind, t.pk, t.slug, "", "", "", "")  # its folder: the kept files of this state
            kept = list(doc.path.parent.glob(f"{doc.path.name.split('--')[0]}--*.{kind.split('.')[1]}"))
            assert len(kept) == 1 and kept[0].with_name(kept[0].name + ".br").is_file(), kind
            answer = page.request.get(f"{live_server.url}/p/brotli/{kind}")  # what the link is answered, its headers
            assert answer.headers.get("content-encoding") == "br", kind
            with page.expect_download() as got:
                page.get_by_role("link", name=link, exact=True).click()
            saved = tmp_path / kind
            got.value.save_as(saved)
            assert saved.read_bytes() == kept[0].read_bytes(), kind  # unpacked by the browser, byte for byte
        text = (tmp_path / "results.csv").read_text("utf-8-sig")
        assert "1;1;1;valide;1;Œdipe Lœwenbrück;90" in text
        assert "Marie-Bernadette Delacroix-Montfort;-30" in text
        players = {p["name"] for p in json.loads((tmp_path / "results.json").read_text("utf-8"))["players"]}
        assert {"Œdipe Lœwenbrück", "David Ñúñez"} <= players
    finally:
        context.close()
