"""The same deal entered on two phones is saved once (a phone walk: the table's link and the arbiter both opened
« Donne 1 », both saved, and the ranking counted deal 1 and a « Donne 2 » with the same dealer).

Each entry page says which deal it enters (``after``: the table's last deal when it opened). A deal another device
saved since is refused with the deal and its time, nothing saved; sent again as it is, it is the next deal. A double
tap (the same key) still gets its first deal back. Through every route: the service, the tap page (desk and
table link), the form and the offline outbox."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import DealNumberTaken, deal_record
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db


def tap(client, url, fields, *, after, key):
    return client.post(url, json.dumps({"fields": fields, "after": after}), content_type="application/json",
                       headers={"Idempotency-Key": key})


def test_the_service_refuses_a_deal_opened_before_another_was_saved(tarot_table, staff):
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], after=0)
    with pytest.raises(DealNumberTaken) as info:
        deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"], after=0)
    assert info.value.last_number == 1 and info.value.status == 409
    assert "La donne 1 de cette table a déjà été enregistrée" in info.value.message
    assert "elle sera la donne 2" in info.value.message
    assert Deal.objects.filter(table=tarot_table).count() == 1
    again = deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"], after=1)
    assert again.number == 2
    # a tool that does not say (the API) is not checked
    assert deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"]).number == 3


def test_a_double_tap_with_the_same_key_gets_its_deal_not_a_refusal(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    url = reverse("deal_play_save", args=[tarot_table.pk])
    first = tap(client, url, tarot_summary(), after=0, key="same-key")
    again = tap(client, url, tarot_summary(), after=0, key="same-key")
    assert first.status_code == 201 and again.status_code in (200, 201)
    assert again.json()["url"] == first.json()["url"] and Deal.objects.filter(table=tarot_table).count() == 1


def test_the_tap_page_says_the_deal_was_saved_elsewhere_then_saves_the_next(client, tarot_table, staff):
    client.force_login(staff["chief"])
    page = client.get(reverse("deal_play", args=[tarot_table.pk]) + "?mode=summary").content.decode()
    assert '"after": 0' in page  # the page's config says which deal it enters
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], after=0)  # the other phone
    url = reverse("deal_play_save", args=[tarot_table.pk])
    refused = tap(client, url, tarot_summary(), after=0, key="chief-1")
    assert refused.status_code == 409 and refused.json()["after"] == 1
    assert "La donne 1 de cette table a déjà été enregistrée" in refused.json()["problems"][0]["message"]
    assert Deal.objects.filter(table=tarot_table).count() == 1
    saved = tap(client, url, tarot_summary(), after=refused.json()["after"], key="chief-2")
    assert saved.status_code == 201 and Deal.objects.filter(table=tarot_table).count() == 2


def test_the_table_link_and_its_outbox_refuse_the_same_deal(client, tarot_table, staff):
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    link = sheet.link_for_table(table=tarot_table)
    page = client.get(reverse("link_enter", args=[link.token]) + "?mode=summary").content.decode()
    assert '"after": 0' in page
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], after=0)
    url = reverse("link_deal_offline", args=[link.token])
    post = {"mode": "record", "record": json.dumps(tarot_summary()), "after": "0"}
    refused = client.post(url, post, headers={"Idempotency-Key": "link-1"})
    assert refused.status_code == 409 and refused.json()["after"] == 1 and refused.json()["saved"] is False
    assert "déjà été enregistrée" in refused.json()["message"]
    assert client.post(url, {**post, "after": "1"}, headers={"Idempotency-Key": "link-2"}).json()["number"] == 2


def test_the_expert_form_says_it_and_its_next_sending_is_the_next_deal(client, tarot_table, staff):
    client.force_login(staff["chief"])
    url = reverse("deal_enter", args=[tarot_table.pk])
    page = client.get(url + "?mode=record").content.decode()
    assert 'name="after" value="0"' in page
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], after=0)
    post = {"mode": "record", "record": json.dumps(tarot_summary()), "after": "0", "entry_key": "form-key-0001"}
    refused = client.post(url, post)
    text = html.unescape(refused.content.decode())
    assert refused.status_code == 422 and "La donne 1 de cette table a déjà été enregistrée" in text
    assert 'name="after" value="1"' in text and Deal.objects.filter(table=tarot_table).count() == 1
    saved = client.post(url, {**post, "after": "1", "entry_key": "form-key-0002"})
    assert saved.status_code == 302 and Deal.objects.filter(table=tarot_table).count() == 2


@pytest.mark.parametrize("value", ["", "x", "-1", "1e3", "9999999"])
def test_an_unreadable_after_is_not_checked(client, tarot_table, staff, value):
    client.force_login(staff["arbiter"])
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    url = reverse("deal_offline", args=[tarot_table.pk])
    post = {"mode": "record", "record": json.dumps(tarot_summary()), "after": value}
    assert client.post(url, post, headers={"Idempotency-Key": f"k{value}"}).json()["number"] == 2


def test_the_way_of_entering_is_remembered_for_the_next_deal(client, tarot_table, staff):
    # a phone walk: every deal opened card by card, even right after one entered as a summary
    client.force_login(staff["arbiter"])
    play = reverse("deal_play", args=[tarot_table.pk])
    assert '"mode": "play"' in client.get(play).content.decode()
    assert '"mode": "summary"' in client.get(play + "?mode=summary").content.decode()
    assert '"mode": "summary"' in client.get(play).content.decode()  # « Donne suivante »
    assert '"mode": "summary"' in client.get(reverse("deal_enter", args=[tarot_table.pk]), follow=True).content.decode()
    assert '"mode": "play"' in client.get(play + "?mode=play").content.decode()  # the tab « Carte par carte »
    assert '"mode": "play"' in client.get(play).content.decode()
