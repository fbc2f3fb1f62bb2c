"""Deals sent again with their Idempotency-Key (offline-first entry): saved once, refused with a reason."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal, IdempotencyKey
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db


def summary_post(**over):
    """Bruno's garde, 2 bouts, 49 points, as the tap page sends it through a link (the record, form-encoded)."""
    return {"mode": "record", "record": json.dumps(tarot_summary(**over))}


def test_a_deal_sent_twice_through_a_table_link_is_saved_once(client, tarot_table):
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    link = sheet.link_for_table(table=tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    first = client.post(url, summary_post(), headers={"Idempotency-Key": "k-1"})
    again = client.post(url, summary_post(), headers={"Idempotency-Key": "k-1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["number"] == again.json()["number"] == 1 and again.json()["replay"] is True
    assert Deal.objects.filter(table=tarot_table).count() == 1
    other = client.post(url, summary_post(points=50), headers={"Idempotency-Key": "k-1"})
    assert other.status_code == 409
    assert other.json()["message"] == "Cette clé a déjà servi pour une autre donne."
    assert client.post(url, summary_post(), headers={"Idempotency-Key": "k-2"}).json()["number"] == 2
    assert IdempotencyKey.objects.filter(link=link, user=None).count() == 2


def test_refusals_say_why(client, tarot_table):
    link = sheet.link_for_table(table=tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    assert client.post(url, summary_post(), headers={"Idempotency-Key": "a"}).status_code == 403  # arbiters enter
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    assert client.post(url, summary_post()).status_code == 400  # no key
    refused = client.post(url, summary_post(points=95), headers={"Idempotency-Key": "b"})
    assert refused.status_code == 422 and "91" in refused.json()["problems"][0]["message"]
    sheet.link_revoke(link=link, user=None)
    gone = client.post(url, summary_post(), headers={"Idempotency-Key": "c"})
    assert gone.status_code == 410 and "carte" in gone.json()["message"]
    assert not Deal.objects.exists()


def test_an_arbiter_sending_twice_gets_one_deal(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    url = reverse("deal_offline", args=[tarot_table.pk])
    a = client.post(url, summary_post(), headers={"Idempotency-Key": "x"})
    b = client.post(url, summary_post(), headers={"Idempotency-Key": "x"})
    assert (a.status_code, b.status_code) == (201, 200) and Deal.objects.count() == 1
    client.force_login(staff["other_arbiter"])
    assert client.post(url, summary_post(), headers={"Idempotency-Key": "y"}).status_code == 403


def test_the_table_page_is_installable(client, tarot_table):
    link = sheet.link_for_table(table=tarot_table)
    manifest = client.get(reverse("link_manifest", args=[link.token])).json()
    assert manifest["start_url"] == reverse("link_home", args=[link.token]) and manifest["display"] == "standalone"
    sw = client.get(reverse("link_sw", args=[link.token]))
    assert sw["Content-Type"].startswith("text/javascript")
    assert reverse("link_home", args=[link.token]) in sw.content.decode()
    page = client.get(reverse("link_home", args=[link.token])).content.decode()
    assert 'rel="manifest"' in page and "js/table-sw.js" in page


def test_the_desk_entry_pages_have_their_own_service_worker(client, tarot_table, staff):
    """The desk's entry pages of a table reload without network: their service worker, for who enters the table's
    deals only, with copies of its own (never deleting a table link's, nor another table's)."""
    url = reverse("deal_sw", args=[tarot_table.pk])
    assert client.get(url).status_code == 403  # not logged in
    client.force_login(staff["other_arbiter"])
    assert client.get(url).status_code == 403  # not this table's arbiter
    client.force_login(staff["arbiter"])
    sw = client.get(url)
    scope = reverse("deal_enter", args=[tarot_table.pk])
    assert sw.status_code == 200 and sw["Content-Type"].startswith("text/javascript")
    assert sw["Service-Worker-Allowed"] == scope and sw["Cache-Control"] == "no-cache"
    body = sw.content.decode()
    assert reverse("deal_play", args=[tarot_table.pk]) in body
    assert f'const FAMILY = "levee-desk-{tarot_table.pk}-";' in body
    page = client.get(reverse("deal_play", args=[tarot_table.pk])).content.decode()
    assert f'data-sw="{url}"' in page and f'data-scope="{scope}"' in page
