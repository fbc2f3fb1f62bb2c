"""The appeal window of a round's results and the public ledger of what changed after they became official.

Marks by hand (FFT, four players): a garde made with 2 bouts and 49 points (41 needed) is (25 + 8) × 2 = 66 per
defender, +198 the taker. Bruno takes: Bruno 198, the others -66. Corrected to Chloé taking: Chloé 198, others -66.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.integration.builders import make_round, make_tournament
from tests.tournaments.factories import UserFactory, tarot_summary
from tournaments.deals.record import deal_correct, deal_record
from tournaments.event.models import Round
from tournaments.links.models import RoundClosing, TablePolicy
from tournaments.standings import appeal, tasks
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug="appel")
    (table,) = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")]])
    TablePolicy.objects.create(tournament=t, appeal_minutes=20)
    deal = deal_record(table=table, record=tarot_summary(taker=1), user=None)
    tasks.ranking_refresh(t.pk)
    return t, table, deal


def test_finishing_a_round_opens_its_appeal_window_and_reopening_closes_it(played):
    _t, table, _deal = played
    rnd = table.round
    before = timezone.now()
    round_set_status(round=rnd, status="finished")
    closing = RoundClosing.objects.get(round=rnd)
    assert closing.official_at - closing.finished_at == timedelta(minutes=20)
    assert closing.finished_at >= before
    state = appeal.appeal_state(rnd)
    assert state.state == "provisional" and 19 * 60 < state.seconds_left <= 20 * 60
    RoundClosing.objects.filter(round=rnd).update(official_at=timezone.now() - timedelta(seconds=1))
    assert appeal.appeal_state(rnd).state == "official"
    round_set_status(round=rnd, status="running")
    assert not RoundClosing.objects.filter(round=rnd).exists()
    assert appeal.appeal_state(rnd).state == "playing"


def test_a_correction_after_publication_is_in_the_ledger_with_the_ranks_it_moved(client, played):
    t, table, deal = played
    chief = UserFactory(username="chef", first_name="Claire", last_name="Arbitre")
    round_set_status(round=table.round, status="finished")
    # a correction inside the appeal window is not a change of official results
    deal = deal_correct(deal=deal, record=tarot_summary(taker=1, points=50), expected_version=1,
                                 reason="un point oublié", user=chief)
    tasks.ranking_refresh(t.pk)
    assert appeal.ledger(t) == []
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now())
    deal = deal_correct(deal=deal, record=tarot_summary(taker=2), expected_version=2,
                                 reason="le preneur était Chloé", user=chief)
    tasks.ranking_refresh(t.pk)
    (entry,) = appeal.ledger(t)
    assert (entry.kind, entry.round, entry.table, entry.deal) == ("correction", 1, 1, 1)
    assert entry.who == "Claire Arbitre" and entry.why == "le preneur était Chloé"
    assert sorted(entry.moved) == [("Bruno", 1, 2), ("Chloé", 2, 1)]
    page = client.get(reverse("public-ledger", args=[t.slug])).content.decode()
    assert "le preneur était Chloé" in page and "Chloé 2 → 1" in page
    chloe = table.seats.get(position=2).entry
    page = client.get(reverse("public-player", args=[t.slug, chloe.pk])).content.decode()
    assert "le preneur était Chloé" in page


def test_the_public_round_page_shows_the_countdown(client, played):
    t, table, _deal = played
    round_set_status(round=table.round, status="finished")
    Round.objects.filter(pk=table.round_id).update(released=True)
    page = client.get(reverse("public-round", args=[t.slug, 1])).content.decode()
    assert 'id="appeal-1"' in page and "data-deadline" in page
    page = client.get(reverse("public-screen", args=[t.slug])).content.decode()
    assert "data-deadline" in page


def test_a_ruling_that_annuls_a_deal_is_one_entry_and_a_correction_quoting_a_ruling_stays_listed(played):
    """The annulment made by a ruling is the ruling's entry (not an « annulment » besides it); a correction typed
    later whose reason happens to start like a ruling's is still a correction of its own."""
    from tournaments.deals.rulings import ruling_record

    t, table, deal = played
    chief = UserFactory(username="chef", first_name="Claire", last_name="Arbitre")
    round_set_status(round=table.round, status="finished")
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now() - timedelta(seconds=1))
    ruling_record(table=table, kind="misdeal", reason="maldonne", user=chief, deal=deal, annuls_deal=True)
    assert [e.kind for e in appeal.ledger(t)] == ["ruling"]
    other = deal_record(table=table, record=tarot_summary(taker=1), user=None)
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now() - timedelta(seconds=1))
    deal_correct(deal=other, record=tarot_summary(taker=2), expected_version=1,
                 reason="décision d'arbitrage mal saisie : le preneur était Chloé", user=chief)
    # ``other`` itself was added after the round was finished and official: a line of its own (« Donne ajoutée »)
    assert sorted(e.kind for e in appeal.ledger(t)) == ["added", "correction", "ruling"]
