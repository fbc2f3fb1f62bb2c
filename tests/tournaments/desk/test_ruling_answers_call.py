"""A ruling recorded from a table's call answers it (a phone walk: the table called « maldonne, donne 3 », the chief
annulled deal 3 from « Enregistrer une décision », and the table still read « Arbitre appelé — maldonne (donne 3) ·
en attente »; the form did not start from the call's reason either)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.links import service as links
from tournaments.links.models import ArbiterCall

pytestmark = pytest.mark.django_db


def test_annulling_the_deal_from_the_call_answers_it(client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    call = links.call_create(table=tarot_table, reason="misdeal", deal=deal)
    client.force_login(staff["chief"])
    chief = client.get(reverse("chief_page", args=[tarot_table.round.tournament.slug])).content.decode()
    url = f"{reverse('ruling_create', args=[tarot_table.pk])}?deal={deal.pk}&call={call.pk}"
    assert url.replace("&", "&amp;") in chief
    form = client.get(url).content.decode()
    kind = form.split('name="kind" value="misdeal"', 1)[1].split(">", 1)[0]
    assert "checked" in kind  # the call's reason is the ruling's kind to start with
    answer = client.post(url, {"kind": "misdeal", "reason": "maldonne constatée", "annuls_deal": "on"})
    assert answer.status_code == 302
    call.refresh_from_db()
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED
    assert call.state == ArbiterCall.State.RESOLVED and call.outcome == ArbiterCall.Outcome.RULING
    assert "maldonne constatée" in call.answer


def test_a_call_without_a_deal_is_answered_by_the_ruling_made_from_it(client, tarot_table, staff):
    call = links.call_create(table=tarot_table, reason="other")
    other = links.call_create(table=tarot_table, reason="exposed_card")
    client.force_login(staff["chief"])
    url = f"{reverse('ruling_create', args=[tarot_table.pk])}?call={call.pk}"
    seats = list(tarot_table.seats.order_by("position"))
    answer = client.post(url, {"kind": "other", "reason": "jeu trop lent", "is_penalty": "on",
                               f"adj_{seats[0].entry_id}": "-10"})
    assert answer.status_code == 302
    call.refresh_from_db()
    other.refresh_from_db()
    assert call.state == ArbiterCall.State.RESOLVED and other.state == ArbiterCall.State.OPEN
