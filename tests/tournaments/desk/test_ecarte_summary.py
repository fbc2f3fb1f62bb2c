"""L'Écarté's « Résumé »: it asks only what a summary's marks depend on (the tricks won, the king turned or
announced, who declined the exchange), saves deals with the marks of RULES.md §3.4, and refuses in French words
naming the field — never a field code, a JSON fragment or a path (issue 20).

Expected marks by hand from RULES.md §3.4 rules 12-14 (the point 1, the vole 2, the point de refus 1, never on top
of the vole) and §3.1 rule 4 (a turned king: 1 to the dealer).
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table, tap_save
from tournaments.deals.models import Deal, ScoreRow

pytestmark = pytest.mark.django_db

#: what no refusal may show: a field code (snake_case), a JSON fragment, a record path, an English key
CODE = re.compile(r"[a-z]+_[a-z_]+|[{}\[\]\"]|\bdeals?\b|\bexchanges?\b|\bsummary\b|\bturn.?up\b|\bseat\b")


@pytest.fixture
def ecarte(client):
    tournament = TournamentFactory(game="ecarte", options={"players": 2})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    user = UserFactory(username="arb-ecarte-summary")
    role(tournament, user, "arbiter", [table])
    client.force_login(user)
    return table


def _config(client, table):
    page = client.get(reverse("deal_play", args=[table.pk]) + "?mode=summary").content.decode()
    found = re.search(r'<script id="deal-entry-config" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def _asked(config):
    """The fields the « Résumé » tab shows (the page leaves out the phase of the play and ``tricks_only`` fields)."""
    out = []

    def walk(fields):
        for f in fields:
            out.append(f)
            walk(f.get("fields", ()))
    for phase in config["form"]["phases"]:
        if phase["kind"] != "play":
            walk([f for f in phase["fields"] if not f.get("tricks_only")])
    return out


def _marks(deal):
    return {row.entry.player.name: row.points
            for row in ScoreRow.objects.filter(deal=deal, ruling__isnull=True).select_related("entry__player")}


def test_the_summary_asks_no_retourne_and_no_exchange_steps(client, ecarte):
    asked = _asked(_config(client, ecarte))
    names = {f["name"] for f in asked}
    labels = " ".join(f["label"] + " " + f.get("help", "") + " " + f.get("nullable", "") for f in asked)
    labels += " ".join(c["label"] for f in asked for c in f.get("choices", ()))
    assert "turn_up" not in names and "talon" not in names and "exchanges" not in names
    assert "Retourne" not in labels and "Je joue" not in labels and "Je propose" not in labels
    # what the marks depend on: the tricks, the king (turned or announced), who declined the exchange
    assert {"dealer", "summary.tricks", "summary.turned_king", "summary.declined_by", "king"} <= names
    # card by card still asks the retourne and the steps of the exchange
    play = client.get(reverse("deal_play", args=[ecarte.pk])).content.decode()
    assert '"turn_up"' in play and '"exchanges"' in play


def test_summary_deals_are_saved_with_the_marks_of_the_rules(client, ecarte):
    first = _config(client, ecarte)["dealer"]
    other = 1 - first
    # deal 1: the first hand plays d'autorité, the dealer wins 3 tricks: point 1 + point de refus 1 = 2 (§3.4 r13a)
    tricks = [0, 0]
    tricks[first], tricks[other] = 3, 2
    response = tap_save(client, ecarte, {"dealer": first, "summary": {
        "tricks": tricks, "turned_king": False, "declined_by": other}}, key="d1")
    assert response.status_code == 201, response.content.decode()
    # deal 2 (the deal passes): the dealer turns the king (1), cards were exchanged, the first hand makes the vole (2)
    tricks = [0, 0]
    tricks[first] = 5
    response = tap_save(client, ecarte, {"dealer": other, "summary": {
        "tricks": tricks, "turned_king": True, "declined_by": None}}, key="d2")
    assert response.status_code == 201, response.content.decode()
    # deal 3: the dealer refuses the first proposal, the first hand makes the vole: 2, the refusal not on top (r14)
    tricks = [0, 0]
    tricks[other] = 5
    response = tap_save(client, ecarte, {"dealer": first, "summary": {
        "tricks": tricks, "declined_by": first}}, key="d3")
    assert response.status_code == 201, response.content.decode()
    names = ["Ana", "Bruno"]
    dealer1, other1 = names[first], names[other]
    got = [_marks(d) for d in Deal.objects.filter(table=ecarte).order_by("number")]
    assert got == [{dealer1: 2, other1: 0}, {other1: 1, dealer1: 2}, {dealer1: 0, other1: 2}]
    # totals: dealer1 2 + 2 + 0 = 4, other1 0 + 1 + 2 = 3: nobody at 5 yet


@pytest.mark.parametrize("summary", [
    {"tricks": [3, 2]},                                     # who declined the exchange is not said
    {"tricks": [3, 3], "declined_by": None},                # six tricks
    {"tricks": [3, 2], "declined_by": 7},                   # nobody sits there
    {"tricks": [3, 2], "declined_by": None, "turned_king": "oui"},
    {"tricks": "trois", "declined_by": None},
    {"tricks": [3, 2, 0], "declined_by": 0},                # three players at a table of two
])
def test_every_refusal_names_the_field_in_words(client, ecarte, summary):
    response = tap_save(client, ecarte, {"dealer": 0, "summary": summary})
    assert response.status_code == 422, response.content.decode()
    problems = response.json()["problems"]
    assert problems
    for p in problems:
        text = f"{p['message']} {p.get('where', '')}"
        assert not CODE.search(text), text
        assert "carte 1" not in text, text
    assert not Deal.objects.filter(table=ecarte).exists()


def test_the_card_by_card_refusals_have_no_codes_either(client, ecarte):
    """Tricks without the retourne or without the exchange: the field in words."""
    tricks = [["KS", "7S"], ["QS", "8S"], ["JS", "9S"], ["AS", "10S"], ["KH", "7H"]]
    for fields in ({"dealer": 1, "tricks": tricks, "exchanges": [{"seat": 0, "action": "play"}]},
                   {"dealer": 1, "tricks": tricks, "turn_up": "9D"}):
        problems = tap_save(client, ecarte, fields).json()["problems"]
        for p in problems:
            text = f"{p['message']} {p.get('where', '')}"
            assert not CODE.search(text), text
