"""The rules engine in the browser, the server's side (issue 22, item 4): the function Pyodide calls
(:func:`scoring.tap.answer_json`, JSON text in and out) answers what the server's state view answers, for the
same cards, with the head and the match so far that the tap page is given; the zip of rules/ and scoring/; the
table's service worker keeps the engine.

La Triomphe at two, forcée, hearts trump (retourne 9♥), the deal of docs/deal-record.md (RULES.md §2.3-2.4).
Deal 1: Bruno deals, Ana leads and wins 3 tricks of 5: the point, 1 — scores 1, 0. Deal 2 (the match goes on):
Ana deals, Bruno leads with Ana's hand of deal 1 and plays her cards, so he wins the same 3 tricks: 0, 1; the
match stands at 1 + 0 = 1 and 0 + 1 = 1. Tarot: tests/golden/tarot-garde-4p.json, a garde made by 2 with 2 bouts:
(25 + 2) × 2 = 54 a defender, 3 × 54 = 162 the taker (RULES.md §1.10-1.11).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

from scoring.tap import answer_json
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals import selectors
from tournaments.desk.engine import engine_config, engine_zip
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db

HANDS = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]
TRICKS = [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["QS", "8S"], ["7C", "JC"]]
GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "golden" / "tarot-garde-4p.json").read_text())
INSTALLED = engine_config() is not None


def _table(game: str, options: dict, names: list[str]):
    tournament = TournamentFactory(game=game, options=options)
    table = seated_table(tournament, players=len(names), names=names)
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    return table


def _login(client) -> None:
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="arbitre"))


def _server(client, table, fields: dict, cards: list[str]) -> dict:
    response = client.post(reverse("deal_play_state", args=[table.pk]),
                           data=json.dumps({"fields": {**fields, "cards": cards}}), content_type="application/json")
    assert response.status_code == 200
    answer = response.json()
    assert answer.pop("engine") == "server"
    return answer


def _device(table, fields: dict, cards: list[str]) -> dict:
    """What the page asks Pyodide: the page's fields with the record head and the match so far it was given."""
    asked = {"record": {**fields, **selectors.record_head(table)}, "cards": cards, "lang": "fr",
             "match": selectors.match_so_far(table)}
    return json.loads(answer_json(json.dumps(asked)))


def _flat(tricks: list[list[str]]) -> list[str]:
    return [c for t in tricks for c in t]


def test_the_device_answers_as_the_server_at_la_triomphe_in_a_match(client):
    table = _table("triomphe", {"mode": "forcee", "target": 5}, ["Ana", "Bruno"])
    _login(client)
    first = {"dealer": 1, "turn_up": "9H", "hands": HANDS}
    cards = _flat(TRICKS)
    for n in (0, 1, 2, 5, 9, 10):
        assert _device(table, first, cards[:n]) == _server(client, table, first, cards[:n]), n
    end = _server(client, table, first, cards)
    assert end["over"] and end["score"]["scores"] == [1, 0] and end["score"]["totals"] == [1, 0]
    assert end["score"]["problems"] == []
    # a forbidden card with its French reason: Bruno must follow spades (RULES.md §2.3)
    after_ks = _device(table, first, ["KS"])
    assert sorted(f["card"] for f in after_ks["forbidden"]) == ["8C", "JC", "KD"]
    assert all("pique" in f["reason"] for f in after_ks["forbidden"])
    saved = client.post(reverse("deal_play_save", args=[table.pk]),
                        data=json.dumps({"fields": {**first, "tricks": TRICKS}}), content_type="application/json")
    assert saved.status_code == 201
    # deal 2: judged after deal 1, as the save judges it (the match so far comes with the page)
    second = {"dealer": 0, "turn_up": "9H", "hands": [HANDS[1], HANDS[0]]}
    for n in (0, 3, 10):
        assert _device(table, second, cards[:n]) == _server(client, table, second, cards[:n]), n
    end = _device(table, second, cards)
    assert end["score"]["scores"] == [0, 1] and end["score"]["totals"] == [1, 1]
    assert end["winner"] == 0  # trick 5: Bruno leads 7♣, Ana's V♣ wins it
    assert end["score"]["headline"] == _server(client, table, second, cards)["score"]["headline"]


def test_the_device_answers_as_the_server_at_tarot(client):
    table = _table("tarot", {"players": 4}, ["Ana", "Bruno", "Chloé", "David"])
    _login(client)
    fields = {"dealer": 3, "bid": {"taker": 3, "contract": "garde"}, "discard": GOLDEN["discard"]}
    cards = _flat(GOLDEN["tricks"])
    for n in (0, 1, 4, 33, 71, 72):
        assert _device(table, fields, cards[:n]) == _server(client, table, fields, cards[:n]), n
    end = _device(table, fields, cards)
    assert end["score"]["scores"] == [-54, -54, -54, 162] and end["score"]["totals"] is None
    # declarations not yet given: the same sentence from both
    assert _device(table, {"dealer": 3}, []) == _server(client, table, {"dealer": 3}, [])
    assert _device(table, {"dealer": 3}, [])["ready"] is False


def test_the_zip_holds_the_engine_and_is_kept_for_good(client):
    data, digest = engine_zip()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {"rules/tap.py", "scoring/tap.py", "rules/schema/deal-record.schema.json", "rules/__init__.py"} <= set(names)
    assert not any("__pycache__" in n for n in names)
    url = reverse("rules_engine_zip", args=[digest])
    response = client.get(url)
    assert response.status_code == 200 and response.content == data
    assert response["ETag"] == f'"{digest}"' and "immutable" in response["Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"{digest}"').status_code == 304
    assert client.get(reverse("rules_engine_zip", args=["0" * 16])).status_code == 404


@pytest.mark.skipif(not INSTALLED, reason="Pyodide is not installed (npm ci --prefix vendor/pyodide)")
def test_the_link_page_gives_the_engine_and_its_service_worker_keeps_it(client):
    table = _table("triomphe", {"mode": "forcee", "target": 5}, ["Ana", "Bruno"])
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    TablePolicy.objects.create(tournament=table.round.tournament, tables_enter=True)
    link = links.link_for_table(table=table)
    page = client.get(reverse("link_enter", args=[link.token])).content.decode()
    config = json.loads(page.split('id="deal-entry-config" type="application/json">')[1].split("</script>")[0])
    engine = config["engine"]
    assert engine["head"] == selectors.record_head(table) and engine["match"] == selectors.match_so_far(table)
    assert engine["worker"] == reverse("link_engine_worker", args=[link.token])  # under the service worker's scope
    assert "rules-engine.js" in page
    worker = client.get(engine["worker"])
    assert worker.status_code == 200 and b"answer_json" in worker.content
    sw = client.get(reverse("link_sw", args=[link.token])).content.decode()
    for url in engine["files"]:
        assert f'"{url}"' in sw
    assert any(u.endswith("pyodide.asm.wasm") for u in engine["files"])


def test_without_pyodide_the_page_asks_the_server_only(client):
    table = _table("triomphe", {"mode": "forcee", "target": 5}, ["Ana", "Bruno"])
    _login(client)
    with override_settings(PYODIDE_VERSION=None):
        page = client.get(reverse("deal_play", args=[table.pk])).content.decode()
    config = json.loads(page.split('id="deal-entry-config" type="application/json">')[1].split("</script>")[0])
    assert config["engine"] is None and "rules-engine.js" not in page
