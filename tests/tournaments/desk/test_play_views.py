"""The tap-to-play page's JSON endpoints: where the play stands, and the save through the same service.

La Triomphe at two, the deal of docs/deal-record.md: Bruno deals, hearts trump (retourne 9♥), Ana leads.
Forcée (RULES.md §2.3): a seat holding the suit led must follow it.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db

HANDS = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]
TRICKS = [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["QS", "8S"], ["7C", "JC"]]


@pytest.fixture
def table():
    tournament = TournamentFactory(game="triomphe", options={"mode": "forcee", "target": 5})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    return table


def post(client, url, body, **headers):
    return client.post(url, data=json.dumps(body), content_type="application/json", **headers)


def login(client):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="arbitre"))


def test_state_names_the_seat_to_play_its_forbidden_cards_and_the_trick_winner(client, table):
    login(client)
    url = reverse("deal_play_state", args=[table.pk])
    fields = {"dealer": 1, "turn_up": "9H", "hands": HANDS}
    # Ana has led the king of spades: Bruno must follow with a spade; his diamond and club are forbidden
    answer = post(client, url, {"fields": {**fields, "cards": ["KS"]}}).json()
    assert answer["ready"] and answer["seat"] == 1 and answer["trick_size"] == 2
    assert answer["current"] == ["KS"] and answer["current_seats"] == [0]
    assert sorted(f["card"] for f in answer["forbidden"]) == ["8C", "JC", "KD"]
    assert all("pique" in f["reason"] for f in answer["forbidden"])
    # the renonce entered anyway: reported at trick 1, Bruno, the king of diamonds; Ana won the trick and leads
    answer = post(client, url, {"fields": {**fields, "cards": ["KS", "KD"]}}).json()
    assert answer["trick_complete"] and answer["winner"] == 0 and answer["seat"] == 0
    (problem,) = answer["problems"]
    assert (problem["trick"], problem["seat"], problem["card"]) == (0, 1, "KD")
    # the declarations not yet given: the page is told what is missing, in French
    answer = post(client, url, {"fields": {"dealer": 1, "cards": []}}).json()
    assert answer["ready"] is False and answer["field"] == "turn_up"


def test_state_refuses_a_body_it_cannot_read_and_a_stranger(client, table):
    login(client)
    url = reverse("deal_play_state", args=[table.pk])
    assert post(client, url, [1, 2]).status_code == 400
    assert client.post(url, data=b"{not json", content_type="application/json").status_code == 400
    client.force_login(UserFactory(username="someone"))
    assert post(client, url, {"fields": {"cards": []}}).status_code == 403


def test_save_is_judged_by_the_service_and_a_retry_saves_one_deal(client, table):
    login(client)
    url = reverse("deal_play_save", args=[table.pk])
    fields = {"dealer": 1, "turn_up": "9H", "tricks": TRICKS}
    # a renonce: refused in French, nothing saved
    bad = post(client, url, {"fields": {**fields, "hands": HANDS, "tricks": [["KS", "KD"], *TRICKS[1:]]}})
    assert bad.status_code == 422 and Deal.objects.count() == 0
    assert any("Pli 1" in p["where"] and "Bruno" in p["where"] for p in bad.json()["problems"])
    # the legal deal, sent twice with the same key (a double tap, a retry after a lost answer): one deal
    first = post(client, url, {"fields": fields}, HTTP_IDEMPOTENCY_KEY="deal-1")
    again = post(client, url, {"fields": fields}, HTTP_IDEMPOTENCY_KEY="deal-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["url"] == again.json()["url"]
    deal = Deal.objects.get()
    assert [row.points for row in deal.score_rows.order_by("entry__seats__position")] == [1, 0]
