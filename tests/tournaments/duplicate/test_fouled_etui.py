"""A fouled étui (« étui faussé ») calls the chief arbiter: his page lists it with the way to the table's étuis,
where he gives the artificial results; finishing or publishing the round asks for a confirmation while it waits;
the cards are named in words, the problem as the table says it. A walk: the table read « l'arbitre est appelé »,
the chief's page « Aucune donne irrégulière n'attend de décision », the round was published without a word, and
the arbiter read « autre — Étui faussé (étui 3) : le chien diffère de l'étui (ND, NH) »."""

from __future__ import annotations

import html

import pytest

from scoring.etui import deal_etui
from tests.tournaments.duplicate.events import sixteen, table_of
from tests.tournaments.factories import UserFactory, role, tarot_summary
from tournaments.common.errors import StateConflict
from tournaments.deals.models import Ruling
from tournaments.deals.record import deal_correct, deal_record
from tournaments.duplicate.service import artificial_result_set
from tournaments.event.setup import round_release
from tournaments.links.models import ArbiterCall
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return sixteen(rounds_planned=2, status="running")


_table = table_of


def _fouled(event):
    """Table 1 plays étui 1 (chien KS 8S 10D 9D T18 T17) and enters the king of hearts for the king of spades."""
    dog = list(deal_etui("test", 1).dog)
    dog[dog.index("KS")] = "KH"
    record = {**tarot_summary(taker=1, points=49, dealer=0), "dog": dog}
    return deal_record(table=_table(event, 1, 1), user=UserFactory(username="arbitre"), record=record)


def _chief(event, client):
    chief = UserFactory(username="arbitre-principal")
    role(event, chief, "chief_arbiter")
    client.force_login(chief)
    return chief


def test_a_fouled_etui_is_a_call_on_the_chiefs_page_with_the_way_to_the_etuis(event, client):
    deal = _fouled(event)
    call = ArbiterCall.objects.get(deal=deal)
    assert call.reason == "fouled_etui" and call.state == "open"
    assert "roi de cœur" in call.note and "roi de pique" in call.note and "KH" not in call.note
    assert not Ruling.objects.filter(deal=deal).exists()  # a call, not a decision: nothing « autre — »
    _chief(event, client)
    page = client.get(f"/t/{event.slug}/arbiter/").content.decode()
    assert "étui faussé" in page.lower() and f"/desk/tables/{deal.table_id}/etuis/#etui-1" in page


def test_the_arbiters_pages_name_the_cards_and_the_problem_in_words(event, client):
    deal = _fouled(event)
    _chief(event, client)
    for url in (f"/desk/deals/{deal.pk}/", f"/desk/tables/{deal.table_id}/", f"/desk/tables/{deal.table_id}/etuis/"):
        page = client.get(url).content.decode()
        assert "autre —" not in page and "(KH" not in page and "KS)" not in page, url
    etuis = html.unescape(client.get(f"/desk/tables/{deal.table_id}/etuis/").content.decode())
    assert "le chien diffère de l'étui (saisi : roi de cœur ; dans l'étui : roi de pique)" in etuis
    assert "l'arbitre est appelé" in etuis


def test_finishing_or_publishing_the_round_asks_while_the_fouled_etui_waits(event):
    deal = _fouled(event)
    rnd = deal.table.round
    with pytest.raises(StateConflict) as info:
        round_release(round=rnd, released=True)
    assert info.value.code == "matches_unfinished"
    assert "étui 1 (table 1)" in info.value.message and "Confirmez pour continuer" in info.value.message
    with pytest.raises(StateConflict) as info:
        round_set_status(round=rnd, status="finished")
    assert "étui 1 (table 1)" in info.value.message
    round_set_status(round=rnd, status="finished", confirm_unfinished=True)


def test_the_artificial_results_answer_the_call_and_the_table_no_longer_reads_it_waits(event, client):
    deal = _fouled(event)
    chief = _chief(event, client)
    table = deal.table
    for seat in table.seats.all():
        artificial_result_set(table=table, etui_number=1, entry_id=seat.entry_id, kind="even",
                              reason="Chien mal reconstitué", user=chief)
    call = ArbiterCall.objects.get(deal=deal)
    assert call.state == "resolved" and call.outcome == "ruling" and "50 %" in call.answer
    for url in (f"/desk/tables/{table.pk}/etuis/", f"/desk/deals/{deal.pk}/"):
        page = html.unescape(client.get(url).content.decode())
        assert "l'arbitre est appelé" not in page and "Étui faussé" in page, url
    # nothing waits any more: the round is published without a question (its other tables' deals aside)
    from tournaments.event.setup import fouled_etuis_waiting

    assert fouled_etuis_waiting(table.round) == []


def test_a_correction_that_follows_the_etui_answers_the_call(event):
    deal = _fouled(event)
    right = {**tarot_summary(taker=1, points=49, dealer=0), "dog": list(deal_etui("test", 1).dog)}
    deal_correct(deal=deal, record=right, expected_version=deal.version, reason="chien relu", user=deal.created_by)
    call = ArbiterCall.objects.get(deal=deal)
    assert call.state == "resolved" and call.outcome == "correction"
