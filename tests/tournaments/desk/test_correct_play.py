"""Correcting a saved deal of the historical games on the tap page: pre-filled from the record, saved as a new
version with its reason through ``services.deal_correct``; a stale version a 409, a missing reason refused.

La Triomphe at two, forcée (RULES.md §2.1, §2.4), order R D V As 10 9 8 7, hearts trump (retourne 9♥); Bruno
deals, Ana leads. L'Impériale at two (§4), the deal of tests/browser/test_tap_entry.py.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record

pytestmark = pytest.mark.django_db

# Trick 1 R♠/7♠ Ana; 2 7♦/R♦ Bruno; 3 8♣/D♣ Ana; 4 D♠/8♠ Ana; 5 7♣/V♣ Bruno: Ana 3 of 5, the point: 1, 0
TRIOMPHE = {"dealer": 1, "turn_up": "9H",
            "tricks": [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["QS", "8S"], ["7C", "JC"]]}
# Ana shows the quatrième majeure in spades (1 impériale); the Point declared not counted; Ana 8 tricks of 12
IMPERIALE = {"dealer": 1, "turn_up": "8H",
             "announcements": {"imperiales": [{"seat": 0, "cards": ["AS", "KS", "QS", "JS"]}], "point": None},
             "tricks": [["KS", "7S"], ["QS", "8S"], ["JS", "9S"], ["AS", "10S"], ["KC", "7C"], ["QC", "8C"],
                        ["JC", "9C"], ["AC", "10C"], ["7D", "KD"], ["QD", "8D"], ["KH", "7H"], ["JD", "9D"]]}


def saved(game: str, options: dict, fields: dict) -> tuple[Deal, object]:
    tournament = TournamentFactory(game=game, options=options)
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    chief = UserFactory(username=f"chef-{game}")
    role(tournament, chief, "chief_arbiter")
    return deal_record(table=table, record=fields, user=chief), chief


def config_of(response) -> dict:
    return response.context["config"]


def post(client, deal, body):
    return client.post(reverse("deal_correct_play_save", args=[deal.pk]), data=json.dumps(body),
                       content_type="application/json")


def scores(deal) -> list[int]:
    """The deal's marks, Ana's then Bruno's."""
    from tournaments.deals.models import ScoreRow

    rows = ScoreRow.objects.filter(deal=deal, ruling__isnull=True).select_related("entry__player")
    points = {row.entry.player.name: row.points for row in rows}
    return [points["Ana"], points["Bruno"]]


def test_triomphe_correction_is_prefilled_and_saves_a_new_version_with_its_reason(client):
    deal, chief = saved("triomphe", {"mode": "forcee", "target": 5}, TRIOMPHE)
    client.force_login(chief)
    # the correction page of a historical game is the tap page (the expert JSON stays a tab away)
    response = client.get(reverse("deal_correct", args=[deal.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("deal_correct_play", args=[deal.pk])
    response = client.get(response["Location"])
    config = config_of(response)
    assert config["mode"] == "play"
    assert config["initial"]["values"]["dealer"] == 1 and config["initial"]["values"]["turn_up"] == "9H"
    assert config["initial"]["cards"] == [card for trick in TRIOMPHE["tricks"] for card in trick]
    assert config["correction"] == {"version": 1}
    # its draft is its own, never a new deal's at the same table
    # ... and the arbiter's own on a shared device (an opaque mark after the key)
    assert config["storageKey"].startswith(f"levee:correct:{deal.pk}:v1:play:")
    assert config["legacyStorageKey"] == f"levee:correct:{deal.pk}:v1:play"
    page = response.content.decode()
    assert "Corriger la donne 1 (version 1)" in page and "?mode=record" in page
    assert client.get(reverse("deal_correct", args=[deal.pk]) + "?mode=record").status_code == 200
    # trick 4 was mis-noted: Ana led the 8♠ and Bruno took it with the dame; trick 5 Bruno leads the valet de
    # trèfle, Ana follows with the 7: Bruno wins tricks 2, 4 and 5, 3 of 5: the point is his, 0 and 1
    fields = {"dealer": 1, "turn_up": "9H",
              "tricks": [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["8S", "QS"], ["JC", "7C"]]}
    missing = post(client, deal, {"fields": fields, "version": 1, "reason": "  "})
    assert missing.status_code == 422 and "motif" in missing.json()["problems"][0]["where"]
    answer = post(client, deal, {"fields": fields, "version": 1, "reason": "Pli 4 mal relevé"})
    assert answer.status_code == 200 and answer.json()["url"] == reverse("deal_detail", args=[deal.pk])
    deal.refresh_from_db()
    assert deal.version == 2 and scores(deal) == [0, 1]
    assert "Pli 4 mal relevé" in client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    # a second correction still based on version 1: refused as stale (409), in French, nothing changed
    stale = post(client, deal, {"fields": TRIOMPHE, "version": 1, "reason": "autre"})
    assert stale.status_code == 409
    message = stale.json()["problems"][0]["message"]
    assert "version 2" in message and "rechargez" in message
    deal.refresh_from_db()
    assert deal.version == 2


def test_triomphe_refused_correction_names_trick_and_seat_in_french(client):
    deal, chief = saved("triomphe", {"mode": "forcee", "target": 5}, TRIOMPHE)
    client.force_login(chief)
    # Bruno, holding the 8♠ (his hand given), plays the roi de carreau on the roi de pique: a renonce
    hands = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]
    fields = {**TRIOMPHE, "hands": hands, "tricks": [["KS", "KD"], ["7D", "7S"], *TRIOMPHE["tricks"][2:]]}
    answer = post(client, deal, {"fields": fields, "version": 1, "reason": "renonce"})
    assert answer.status_code == 422
    assert any("Pli 1" in p["where"] and "Bruno" in p["where"] for p in answer.json()["problems"])
    deal.refresh_from_db()
    assert deal.version == 1
    assert post(client, deal, {"fields": TRIOMPHE, "reason": "sans version"}).status_code == 422


def test_imperiale_correction_is_prefilled_with_its_announcements_and_saves_with_its_reason(client):
    deal, chief = saved("imperiale", {"target": 5}, IMPERIALE)
    client.force_login(chief)
    config = config_of(client.get(reverse("deal_correct_play", args=[deal.pk])))
    values = config["initial"]["values"]
    assert values["announcements.imperiales"] == [{"seat": 0, "cards": ["AS", "KS", "QS", "JS"]}]
    assert values["announcements.point"] is None
    assert len(config["initial"]["cards"]) == 24 and config["initial"]["cards"][:2] == ["KS", "7S"]
    # saved again as it was (a reason kept in the history): a new version, the same fiches, 1 and 0
    answer = post(client, deal, {"fields": {**IMPERIALE}, "version": 1, "reason": "Impériale vérifiée"})
    assert answer.status_code == 200
    deal.refresh_from_db()
    assert deal.version == 2 and scores(deal) == [1, 0]


def test_a_deal_saved_as_a_summary_is_corrected_on_the_summary_tab(client):
    deal, chief = saved("triomphe", {"mode": "forcee", "target": 5},
                        {"dealer": 1, "turn_up": "9H", "summary": {"tricks": [3, 2]}})
    client.force_login(chief)
    config = config_of(client.get(reverse("deal_correct_play", args=[deal.pk])))
    assert config["mode"] == "summary" and config["initial"]["values"]["summary.tricks"] == [3, 2]
    assert config["storageKey"].startswith(f"levee:correct:{deal.pk}:v1:summary:")
    # Bruno had three tricks, not two: the point is his (RULES.md §2.4): 0 and 1
    answer = post(client, deal, {"fields": {"dealer": 1, "turn_up": "9H", "summary": {"tricks": [2, 3]}},
                                 "version": 1, "reason": "Plis recomptés"})
    assert answer.status_code == 200
    deal.refresh_from_db()
    assert deal.version == 2 and scores(deal) == [0, 1]


def test_the_arbiter_of_the_table_cannot_correct(client):
    deal, _chief = saved("triomphe", {"mode": "forcee", "target": 5}, TRIOMPHE)
    arbiter = UserFactory(username="arbitre")
    role(deal.table.round.tournament, arbiter, "arbiter", [deal.table])
    client.force_login(arbiter)
    assert client.get(reverse("deal_correct_play", args=[deal.pk])).status_code == 403
    assert post(client, deal, {"fields": TRIOMPHE, "version": 1, "reason": "x"}).status_code == 403


def test_a_correction_answers_the_table_s_call_about_the_deal(client):
    """The table called about deal 1 (« litige »); the chief corrects it: the call is answered « donne corrigée »
    with the reason, and the table's link says so (a walk's table kept « Arbitre appelé — litige (donne 1) …
    arrive » after the correction, a second « Répondre à la table » needed)."""
    from tournaments.links import service as links_service
    from tournaments.links.models import ArbiterCall

    deal, chief = saved("triomphe", {"mode": "forcee", "target": 5}, TRIOMPHE)
    call = links_service.call_create(table=deal.table, reason=ArbiterCall.Reason.OTHER, deal=deal,
                                     note="le pli 4 est faux")
    links_service.call_take(call=call, user=chief)
    client.force_login(chief)
    fields = {"dealer": 1, "turn_up": "9H",
              "tricks": [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["8S", "QS"], ["JC", "7C"]]}
    assert post(client, deal, {"fields": fields, "version": 1, "reason": "Pli 4 mal relevé"}).status_code == 200
    call.refresh_from_db()
    assert (call.state, call.outcome) == (ArbiterCall.State.RESOLVED, ArbiterCall.Outcome.CORRECTION)
    assert call.answer == "Donne 1 corrigée (version 2) : Pli 4 mal relevé"
    link = links_service.link_for_table(table=deal.table)
    page = client.get(reverse("link_home", args=[link.token])).content.decode()
    assert "Arbitre appelé" not in page and "Donne 1 corrigée (version 2) : Pli 4 mal relevé" in page
