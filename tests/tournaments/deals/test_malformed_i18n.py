"""An unreadable deal is explained in the reader's language: the REST API follows Accept-Language
(French by default), the pages the language chosen (French by default), ``manage.py arbitrate`` its
``--lang`` (French by default). Expected sentences are written by hand."""

from __future__ import annotations

import html
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = ["Ana", "Bruno", "Chloé", "David"]

CONTRACT_FR = "'grande' n'est pas un contrat connu (petite, garde, garde_sans, garde_contre)"
CONTRACT_EN = "'grande' is not one of petite, garde, garde_sans, garde_contre"


def bad_contract() -> dict:
    fields = tarot_summary()
    return {**fields, "bid": {**fields["bid"], "contract": "grande"}}


def bad_record() -> dict:
    return {"format": "levee.deal/1", "game": "tarot", "options": {"players": 4}, "players": PLAYERS,
            **bad_contract()}


# -- the REST API ------------------------------------------------------------------------------------------

def test_api_malformed_deal_in_the_request_language(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    url = f"/api/tables/{tarot_table.pk}/deals/"
    french = api_client.post(url, bad_contract(), format="json", HTTP_ACCEPT_LANGUAGE="fr")
    english = api_client.post(url, bad_contract(), format="json", HTTP_ACCEPT_LANGUAGE="en")
    default = api_client.post(url, bad_contract(), format="json")
    assert french.status_code == english.status_code == default.status_code == 400
    assert french.json() == {"error": "malformed", "field": "bid.contract", "message": CONTRACT_FR}
    assert english.json() == {"error": "malformed", "field": "bid.contract", "message": CONTRACT_EN}
    assert default.json()["message"] == CONTRACT_FR
    query = api_client.post(url + "?lang=en", bad_contract(), format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert query.json()["message"] == CONTRACT_EN
    assert Deal.objects.count() == 0


def test_api_dealer_out_of_range_in_both_languages(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    url = f"/api/tables/{tarot_table.pk}/deals/"
    body = {**tarot_summary(), "dealer": 9}
    french = api_client.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").json()
    english = api_client.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").json()
    assert french["field"] == english["field"] == "dealer"
    assert french["message"] == "le donneur est une place de 0 à 3"
    assert english["message"] == "the dealer is a seat from 0 to 3"


def test_api_import_names_the_deal_in_both_languages(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["arbiter"])
    url = f"/api/tables/{tarot_table.pk}/import/"
    record = {"format": "levee.match/1", "game": "tarot", "players": PLAYERS, "deals": [tarot_summary(), 7]}
    french = api_client.post(url, record, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()
    english = api_client.post(url, record, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert french == {"error": "malformed", "field": "deals[1]", "message": "une donne est un objet JSON"}
    assert english == {"error": "malformed", "field": "deals[1]", "message": "a deal is a JSON object"}
    assert Deal.objects.count() == 0


def test_arbitrate_endpoint_in_the_request_language(api_client):
    french = api_client.post("/api/arbitrate/", bad_record(), format="json", HTTP_ACCEPT_LANGUAGE="fr")
    english = api_client.post("/api/arbitrate/", bad_record(), format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 400
    assert french.json() == {"error": "malformed", "field": "bid.contract", "message": CONTRACT_FR}
    assert english.json() == {"error": "malformed", "field": "bid.contract", "message": CONTRACT_EN}
    pack = {"format": "levee.deal/1", "game": "ecarte", "players": ["Ana", "Bruno"], "dealer": 0, "turn_up": "T5"}
    french = api_client.post("/api/arbitrate/", pack, format="json").json()
    english = api_client.post("/api/arbitrate/", pack, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert french["field"] == english["field"] == "turn_up"
    assert french["message"] == "T5 n'appartient pas au jeu de 32 cartes de cette partie"
    assert english["message"] == "T5 is not a card of this game's 32-card pack"


def test_tournament_options_in_the_request_language(api_client, staff):
    from django.contrib.auth.models import Permission

    user = staff["outsider"]
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    api_client.force_authenticate(user)
    body = {"name": "Coupe", "game": "tarot", "options": {"players": 6}}
    french = api_client.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    english = api_client.post("/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert french.status_code == english.status_code == 400
    assert french.json()["field"] == english.json()["field"] == "options.players"
    assert french.json()["message"] == "tarot se joue à 3, 4 ou 5 joueurs, pas à 6"
    assert english.json()["message"] == "tarot is played at 3 or 4 or 5 players, not 6"


# -- the pages ---------------------------------------------------------------------------------------------

def _post_record(client, table) -> str:
    fields = bad_contract()
    response = client.post(reverse("deal_enter", args=[table.pk]), {"mode": "record", "record": json.dumps(fields)})
    assert response.status_code == 422
    return html.unescape(response.content.decode())


def test_entry_page_shows_the_french_message_by_default(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    page = _post_record(client, tarot_table)
    assert CONTRACT_FR in page
    assert CONTRACT_EN not in page
    assert Deal.objects.count() == 0


def test_entry_page_in_english_when_chosen(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = _post_record(client, tarot_table)
    assert CONTRACT_EN in page
    assert CONTRACT_FR not in page


def test_entry_check_shows_the_french_message(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    url = reverse("deal_check", args=[tarot_table.pk])
    page = html.unescape(client.post(url, {"mode": "record", "record": json.dumps(bad_contract())},
                                     HTTP_HX_REQUEST="true").content.decode())
    assert CONTRACT_FR in page


# -- manage.py arbitrate ----------------------------------------------------------------------------------

def arbitrate(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "arbitrate", "-", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("args", "line"), [
    ((), f"record illisible : bid.contract : {CONTRACT_FR}"),
    (("--lang", "fr"), f"record illisible : bid.contract : {CONTRACT_FR}"),
    (("--lang", "en"), f"malformed record: bid.contract: {CONTRACT_EN}"),
], ids=["default French", "French", "English"])
def test_arbitrate_command_speaks_its_lang(args, line):
    done = arbitrate(*args, stdin=json.dumps(bad_record()))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == line
