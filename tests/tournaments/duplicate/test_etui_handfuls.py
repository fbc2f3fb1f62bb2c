"""A poignée the étui's hand cannot show is refused (RULES.md §1.5 rule 19: 10 trumps for a simple at 4, the
Excuse standing in for one; the taker of a petite or a garde shows after taking the chien). A walk saved a garde
of Hervé with « Simple (10 atouts) » on an étui where he held 9 trumps and no Excuse: « valide », +216."""

from __future__ import annotations

import pytest

from scoring.etui import deal_etui
from tests.tournaments.duplicate.events import sixteen, table_of
from tests.tournaments.factories import (
    UserFactory,
    role,
    tap_save,
    tarot_summary,
)
from tournaments.common.errors import DealRejected
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_correct, deal_record
from tournaments.duplicate.service import etuis_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return sixteen(rounds_planned=2)


_table = table_of


def _name(table, seat):
    return table.seats.get(position=seat).entry.player.name


# Étui 2 of the seed « test » (dealt by East): East holds T18 T11 T8 T7 T6 T5 T4 T3 — 8 trumps, no Excuse — and
# the chien (8S 8H 5H QD 9C 3C) no trump. Table 2 plays it first.

def test_a_poignee_the_hand_cannot_show_is_refused_and_nothing_is_saved(event):
    table = _table(event, 1, 2)
    record = tarot_summary(taker=1, oudlers=1, points=52, dealer=1, handfuls=[{"seat": 1, "size": "simple"}])
    with pytest.raises(DealRejected) as info:
        deal_record(table=table, user=UserFactory(username="arbitre"), record=record)
    (violation,) = info.value.violations
    assert violation.seat == 1
    text = violation.message("fr", [_name(table, s) for s in range(4)])
    assert text == (f"{_name(table, 1)} n'a que 8 atouts (Excuse comprise) dans cet étui : "
                    "pas de poignée simple (10).")
    assert not Deal.objects.filter(table=table).exists()


def test_the_same_deal_without_the_poignee_is_saved(event):
    table = _table(event, 1, 2)
    record = tarot_summary(taker=1, oudlers=1, points=52, dealer=1)
    assert deal_record(table=table, user=UserFactory(username="arbitre"), record=record).status == "valid"


def _etui_one_with_west_holding_eight():
    """Étui 1 of the seed « test » with North's T19 and West's 4S exchanged: West holds T20 T19 T14 T13 T12 T9 T8
    and the Excuse (8), the chien T18 and T17 (2)."""
    cards = deal_etui("test", 1)
    hands = [list(h) for h in cards.hands]
    hands[0][hands[0].index("T19")] = "4S"
    hands[3][hands[3].index("4S")] = "T19"
    return {"format": "levee.deal/1", "game": "tarot", "hands": hands, "dog": list(cards.dog), "dealer": 0}


def test_the_taker_of_a_garde_counts_the_chien_the_taker_of_a_garde_sans_does_not(event):
    etuis_import(tournament=event, records=[_etui_one_with_west_holding_eight()], first=1)
    user = UserFactory(username="arbitre")
    # a garde: West shows after taking the chien: 8 + 2 = 10, a simple poignée
    garde = tarot_summary(taker=3, points=50, dealer=0, handfuls=[{"seat": 3, "size": "simple"}])
    deal = deal_record(table=_table(event, 1, 1), user=user, record=garde)
    assert deal.status == "valid"
    # a garde sans at another table: the chien is not his: 8
    sans = tarot_summary(taker=3, contract="garde_sans", points=50, dealer=0,
                         handfuls=[{"seat": 3, "size": "simple"}])
    with pytest.raises(DealRejected) as info:
        deal_record(table=_table(event, 1, 3), user=user, record=sans)
    assert "n'a que 8 atouts" in info.value.violations[0].message("fr", ["N", "E", "S", "O"])
    # a defender's poignée never counts the chien: North holds 4 trumps (T16 T7 T6 T3) once T19 is gone
    north = tarot_summary(taker=3, points=50, dealer=0, handfuls=[{"seat": 0, "size": "simple"}])
    with pytest.raises(DealRejected) as info:
        deal_record(table=_table(event, 1, 3), user=user, record=north)
    assert "n'a que 4 atouts" in info.value.violations[0].message("fr", ["N", "E", "S", "O"])


def test_a_correction_that_adds_an_impossible_poignee_is_refused(event):
    table = _table(event, 1, 2)
    user = UserFactory(username="arbitre")
    deal = deal_record(table=table, user=user, record=tarot_summary(taker=1, oudlers=1, points=52, dealer=1))
    wrong = tarot_summary(taker=1, oudlers=1, points=52, dealer=1, handfuls=[{"seat": 1, "size": "double"}])
    with pytest.raises(DealRejected):
        deal_correct(deal=deal, record=wrong, expected_version=deal.version, reason="poignée oubliée", user=user)
    deal.refresh_from_db()
    assert deal.version == 1 and deal.record.get("handfuls") in (None, [])


def test_the_summary_page_refuses_it_in_words(event, client):
    table = _table(event, 1, 2)
    arbiter = UserFactory(username="arbitre")
    role(event, arbiter, "arbiter", tables=[table])
    event.status = "running"
    event.save(update_fields=["status"])
    client.force_login(arbiter)
    record = tarot_summary(taker=1, oudlers=1, points=52, dealer=1, handfuls=[{"seat": 1, "size": "simple"}])
    response = tap_save(client, table, record)
    assert response.status_code == 422
    text = str(response.json())
    assert f"{_name(table, 1)} n'a que 8 atouts (Excuse comprise) dans cet étui" in text
    assert "etui_handful" not in text.split("rule")[0]  # no rule code in the sentence
    assert not Deal.objects.filter(table=table).exists()
