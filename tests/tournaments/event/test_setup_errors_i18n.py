"""An organizer's mistakes explained in French by default and in English on request: tournament settings,
seating, teams, roles, forfeits (the API, and the services the pages call)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.common.errors import InvalidInput
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Round
from tournaments.event.setup import role_assign, round_seat, tournament_create
from tournaments.standings import draw as seating_service

pytestmark = pytest.mark.django_db


def _refusal(call, lang):
    with translation.override(lang), pytest.raises(InvalidInput) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "le format est l'un de individual, teams"),
    ("en", "format is one of individual, teams"),
])
def test_an_unknown_format(lang, expected, staff):
    error = _refusal(lambda: tournament_create(name="Open", game="tarot", user=staff["organizer"],
                                                        format="doublette"), lang)
    assert error.field == "format" and str(error.message) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "une table de Tarot compte 3 ou 4 joueurs"),
    ("en", "a table of Tarot seats 3 or 4 players"),
])
def test_a_table_of_the_wrong_size(lang, expected, tarot_table):
    """The fixture's Tarot is played « à 4 »: tables of 4, and of 3 when needed (issue 20, ``games.table_sizes``)."""
    tournament = tarot_table.round.tournament
    entries = list(tournament.entries.values_list("pk", flat=True))
    round_2 = Round.objects.create(tournament=tournament, number=2)
    error = _refusal(lambda: round_seat(round=round_2, tables=[entries[:2]]), lang)
    assert error.field == "tables[0]" and str(error.message) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "impossible de placer 2 joueurs à des tables de 3 ou 4 joueurs. Pour tirer les tables : inscrivez ou "
           "retirez des joueurs (page « Joueurs »), ou déclarez un forfait (page « Équipes et forfaits »)."),
    ("en", "cannot seat 2 players at tables of 3 or 4. To draw the tables: register or remove players (page "
           "“Players”), or record a withdrawal (page “Teams and withdrawals”)."),
])
def test_a_draw_that_cannot_be_made_comes_from_the_seating_rules_in_both_languages(lang, expected, tarot_table):
    tournament = tarot_table.round.tournament  # two of its four entries withdraw: 2 players left
    tournament.entries.filter(pk__in=list(tournament.entries.values_list("pk", flat=True))[2:]).update(withdrawn=True)
    round_2 = Round.objects.create(tournament=tournament, number=2)
    error = _refusal(lambda: seating_service.round_draw(round=round_2, method="random"), lang)
    assert error.field == "method" and str(error.message) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "le rôle est l'un de organizer, chief_arbiter, arbiter"),
    ("en", "role is one of organizer, chief_arbiter, arbiter"),
])
def test_an_unknown_role(lang, expected, tarot_table, staff):
    error = _refusal(lambda: role_assign(tournament=tarot_table.round.tournament, user=staff["outsider"],
                                                  role="king"), lang)
    assert str(error.message) == expected


def test_the_api_answers_in_french_by_default(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["organizer"])
    url = f"/api/tournaments/{tarot_table.round.tournament_id}/status/"
    # the input's shape is checked by DRF's serializers, whose messages are translated too
    fr = api_client.post(url, {"status": "paused"}, format="json")
    assert fr.status_code == 400 and fr.json()["field"] == "status"
    assert fr.json()["message"] == "«\xa0paused\xa0» n'est pas un choix valide."
    en = api_client.post(url, {"status": "paused"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert en.json()["message"] == '"paused" is not a valid choice.'

    forfeit = api_client.delete(f"/api/tables/{tarot_table.pk}/forfeit/")
    assert forfeit.status_code == 404 and "aucun forfait ni absence à cette table" in forfeit.content.decode()


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "des ajustements qui transfèrent des points font zéro au total (ici 5) ; sinon, marquez la décision "
           "comme une pénalité"),
    ("en", "adjustments transfer points and must sum to zero (they sum to 5); mark the ruling as a penalty "
           "otherwise"),
])
def test_a_ruling_that_is_not_zero_sum(lang, expected, tarot_table, staff):
    a, b = tarot_table.seats.order_by("position").values_list("entry_id", flat=True)[:2]
    error = _refusal(lambda: ruling_record(table=tarot_table, kind="renonce", reason="renonce au pli 3",
                                                    user=staff["chief"], adjustments={a: -10, b: 15}), lang)
    assert error.field == "adjustments" and str(error.message) == expected
