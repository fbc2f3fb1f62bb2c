"""One idempotency mechanism for every entry (issue 19, item 3): a table link's key is kept with the link by the
deals service, as an account's ``Idempotency-Key`` is kept with the account.

Before: ``deal_record`` dropped the key when nobody was logged in, so two POSTs of one form on ``/k/<token>/deal/``
(a double tap, a resend under load) made two deals; the offline outbox of a link kept its keys in a table of its
own (``LinkDealKey``) with its own transaction.

Marks by hand (FFT): Bruno takes a garde, 2 bouts, 49 points (41 needed): (25 + 8) × 2 = 66 per defender, the
taker + 3 × 66 = +198 at four.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tests.tournaments.threads import run_together
from tournaments.common.errors import IdempotencyMismatch
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy


def summary_post(**over):
    """Bruno's garde, 2 bouts, 49 points, as the link's tap page sends it (the record, form-encoded)."""
    return {"mode": "record", "record": json.dumps(tarot_summary(**over))}


def _open_link(tarot_table):
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    return sheet.link_for_table(table=tarot_table)


@pytest.mark.django_db
def test_two_posts_of_one_link_form_make_one_deal(client, tarot_table):
    """The link's tap page saves with its deal's key: sent twice (a double tap, a resend under load), one deal."""
    link = _open_link(tarot_table)
    page = client.get(reverse("link_enter", args=[link.token]))
    assert page.status_code == 200
    url = reverse("link_deal_offline", args=[link.token])
    first = client.post(url, summary_post(), headers={"Idempotency-Key": "tap-1"})
    again = client.post(url, summary_post(), headers={"Idempotency-Key": "tap-1"})
    deal = Deal.objects.get(table=tarot_table)
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["url"] == again.json()["url"] and again.json()["replay"] is True
    assert deal.number == 1 and deal.created_by is None
    assert sorted(ScoreRow.objects.filter(deal=deal).values_list("points", flat=True)) == [-66, -66, -66, 198]
    key = IdempotencyKey.objects.get()
    assert (key.link_id, key.user_id, key.deal_id) == (link.pk, None, deal.pk)


@pytest.mark.django_db
def test_a_link_form_changed_and_sent_again_is_refused_in_french(client, tarot_table):
    link = _open_link(tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    assert client.post(url, summary_post(), headers={"Idempotency-Key": "tap-2"}).status_code == 201
    changed = client.post(url, summary_post(points=50), headers={"Idempotency-Key": "tap-2"})
    assert changed.status_code == 409
    assert changed.json()["message"] == "Cette clé a déjà servi pour une autre donne."
    assert Deal.objects.filter(table=tarot_table).count() == 1
    assert client.post(url, summary_post(points=50), headers={"Idempotency-Key": "tap-3"}).status_code == 201
    assert list(Deal.objects.filter(table=tarot_table).values_list("number", flat=True)) == [1, 2]


@pytest.mark.django_db
def test_the_offline_outbox_replay_answers_the_first_response(client, tarot_table):
    link = _open_link(tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    first = client.post(url, summary_post(), headers={"Idempotency-Key": "outbox-1"})
    replays = [client.post(url, summary_post(), headers={"Idempotency-Key": "outbox-1"}) for _ in range(3)]
    assert first.status_code == 201 and first.json()["replay"] is False
    for again in replays:
        assert again.status_code == 200
        body = again.json()
        assert body["replay"] is True
        assert (body["number"], body["url"], body["status"]) == (1, first.json()["url"], "valid")
    assert Deal.objects.filter(table=tarot_table).count() == 1


@pytest.mark.django_db
def test_a_key_whose_deal_is_gone_is_refused_in_french(client, tarot_table):
    link = _open_link(tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    assert client.post(url, summary_post(), headers={"Idempotency-Key": "gone"}).status_code == 201
    Deal.objects.all().delete()
    again = client.post(url, summary_post(), headers={"Idempotency-Key": "gone"})
    assert again.status_code == 409
    assert again.json()["message"] == "La donne d’abord enregistrée avec cette clé n’existe plus."
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_key_is_kept_per_owner(tarot_table, staff):
    """The same key from two owners (a link, another link, an account) is three entries; from one owner, one."""
    link = sheet.link_for_table(table=tarot_table)
    a = deal_record(table=tarot_table, record=tarot_summary(), user=None, idempotency_key="same", link=link)
    b = deal_record(table=tarot_table, record=tarot_summary(), user=None, idempotency_key="same", link=link)
    c = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], idempotency_key="same")
    assert a.pk == b.pk and b.idempotent_replay and not a.idempotent_replay
    assert c.pk != a.pk and not c.idempotent_replay and c.number == 2
    with pytest.raises(IdempotencyMismatch):
        deal_record(table=tarot_table, record=tarot_summary(points=60), user=None, idempotency_key="same", link=link)
    sheet.link_revoke(link=link, user=None)
    other = sheet.link_for_table(table=tarot_table)  # the table's new card
    assert other.pk != link.pk
    d = deal_record(table=tarot_table, record=tarot_summary(), user=None, idempotency_key="same", link=other)
    assert d.number == 3 and not d.idempotent_replay
    assert IdempotencyKey.objects.filter(key="same").count() == 3


@pytest.mark.django_db
def test_a_key_without_an_owner_is_never_dropped(tarot_table):
    """Nobody logged in and no link: the service refuses to save a deal whose key it could not keep."""
    with pytest.raises(ValueError, match="per user or per table's link"):
        deal_record(table=tarot_table, record=tarot_summary(), user=None, idempotency_key="orphan")
    assert not Deal.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks: PostgreSQL")
def test_the_link_form_posted_twice_at_once_saves_one_deal(tarot_table):
    link = _open_link(tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    answers = run_together(*[lambda c=c: c.post(url, summary_post(), headers={"Idempotency-Key": "double-tap"})
                             for c in (Client(), Client(), Client())])
    assert sorted(a.status_code for a in answers) == [200, 200, 201], answers
    assert len({a.json()["url"] for a in answers}) == 1
    assert Deal.objects.filter(table=tarot_table).count() == 1 and ScoreRow.objects.count() == 4
    assert connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks: PostgreSQL")
def test_the_outbox_sent_twice_at_once_saves_one_deal(tarot_table):
    link = _open_link(tarot_table)
    url = reverse("link_deal_offline", args=[link.token])
    answers = run_together(*[lambda c=c: c.post(url, summary_post(), headers={"Idempotency-Key": "twin"})
                             for c in (Client(), Client())])
    assert sorted(a.status_code for a in answers) == [200, 201], answers
    assert {a.json()["number"] for a in answers} == {1}
    assert Deal.objects.filter(table=tarot_table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_the_links_keys_into_the_one_table(tarot_table):
    """0011-0012: each LinkDealKey becomes an IdempotencyKey owned by its link, replayed like any other key."""
    from django.db.migrations.executor import MigrationExecutor

    before = ("tournaments", "0010_player_history")
    after = ("tournaments", "0012_link_keys_into_idempotency")
    link = sheet.link_for_table(table=tarot_table)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    try:
        old = executor.loader.project_state([before]).apps
        old.get_model("tournaments", "LinkDealKey").objects.create(
            link_id=link.pk, key="offline-1", request_hash="h" * 64, deal_id=deal.pk)
        executor = MigrationExecutor(connection)
        executor.migrate([after])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    key = IdempotencyKey.objects.get()
    assert (key.link_id, key.user_id, key.key, key.deal_id, key.status_code) == (link.pk, None, "offline-1", deal.pk,
                                                                                201)
