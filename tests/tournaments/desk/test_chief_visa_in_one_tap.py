"""The chief arbiter gives the visa from his own page: each garde sans / garde contre waiting for it has a
« Viser » button beside it, and the visa brings him back to his page (a walk: the row only led to the deal's page,
where the button was, two screens away from the queue he works through)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record

pytestmark = pytest.mark.django_db


def _pending(table, arbiter) -> Deal:
    deal = deal_record(table=table, user=arbiter, record=tarot_summary(taker=1, contract="garde_sans", points=49))
    assert deal.status == Deal.Status.PENDING
    return deal


def test_the_visa_queue_has_a_visa_button_per_deal(client, tarot_table, staff):
    deal = _pending(tarot_table, staff["arbiter"])
    client.force_login(staff["chief"])
    page = client.get(f"/t/{tarot_table.round.tournament.slug}/arbiter/").content.decode()
    visa = page.split('id="visa"')[1].split("</section>")[0]
    assert f'action="/desk/deals/{deal.pk}/approve/"' in visa
    assert ">Viser</button>" in visa and 'aria-label="Viser la donne 1 de la table 1"' in visa


def test_the_visa_from_the_queue_comes_back_to_the_queue(client, tarot_table, staff):
    deal = _pending(tarot_table, staff["arbiter"])
    slug = tarot_table.round.tournament.slug
    client.force_login(staff["chief"])
    answer = client.post(f"/desk/deals/{deal.pk}/approve/", {"back": "chief"})
    assert answer.status_code == 302 and answer["Location"] == f"/t/{slug}/arbiter/"
    deal.refresh_from_db()
    assert deal.status == Deal.Status.VALID
    page = client.get(answer["Location"]).content.decode()
    assert "Donne 1 visée : elle compte désormais." in page
    visa = page.split('id="visa"')[1].split("</section>")[0]
    assert "Aucune donne n’attend le visa." in visa


def test_the_visa_from_the_deal_page_stays_on_the_deal(client, tarot_table, staff):
    deal = _pending(tarot_table, staff["arbiter"])
    client.force_login(staff["chief"])
    answer = client.post(f"/desk/deals/{deal.pk}/approve/")
    assert answer.status_code == 302 and answer["Location"] == f"/desk/deals/{deal.pk}/"


def test_a_table_arbiter_cannot_give_the_visa_from_the_queue(client, tarot_table, staff):
    deal = _pending(tarot_table, staff["arbiter"])
    client.force_login(staff["arbiter"])
    answer = client.post(f"/desk/deals/{deal.pk}/approve/", {"back": "chief"})
    assert answer.status_code == 403
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING


def test_no_answered_call_says_so_in_words(client, tarot_table, staff):
    client.force_login(staff["chief"])
    page = client.get(f"/t/{tarot_table.round.tournament.slug}/arbiter/").content.decode()
    answered = page.split('id="answered"')[1].split("</section>")[0]
    assert "Aucun appel traité." in answered and '<li class="muted">—</li>' not in answered
