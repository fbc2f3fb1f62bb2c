"""Concurrent submissions on PostgreSQL: the same Idempotency-Key from two threads saves one deal; two
corrections based on the same version: one wins, the other gets a VersionConflict (no lost update)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.tournaments.factories import tarot_summary
from tests.tournaments.threads import run_together
from tournaments.common.errors import VersionConflict
from tournaments.deals.models import Deal
from tournaments.deals.record import DealNumberTaken, deal_correct, deal_record

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs PostgreSQL row locks"),
]


def test_same_key_twice_at_once_saves_one_deal(tarot_table, staff):
    assert connection.vendor == "postgresql"

    def post():
        return deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"],
                                    idempotency_key="same")

    first, second = run_together(post, post)
    assert not isinstance(first, Exception) and not isinstance(second, Exception), (first, second)
    assert first.pk == second.pk
    assert sorted([first.idempotent_replay, second.idempotent_replay]) == [False, True]
    assert Deal.objects.count() == 1


def test_two_corrections_of_the_same_version(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])

    def correct(points):
        return lambda: deal_correct(deal=deal, record=tarot_summary(points=points), expected_version=1,
                                             reason="recompte", user=staff["chief"])

    results = run_together(correct(50), correct(55))
    conflicts = [r for r in results if isinstance(r, VersionConflict)]
    saved = [r for r in results if isinstance(r, Deal)]
    assert len(conflicts) == 1 and len(saved) == 1, results
    deal.refresh_from_db()
    assert deal.version == 2 and deal.record["summary"]["points"] == saved[0].record["summary"]["points"]


def test_the_same_deal_from_two_phones_at_once_is_saved_once(tarot_table, staff):
    # both pages said « Donne 1 » (after=0); each with its own key: the table's lock lets one in, the other sees
    # the deal it saved and is refused (a phone walk saved both, as deals 1 and 2)
    def post(user, key):
        return lambda: deal_record(table=tarot_table, record=tarot_summary(), user=staff[user], idempotency_key=key,
                                   after=0)

    results = run_together(post("arbiter", "table-phone"), post("chief", "chief-phone"))
    refused = [r for r in results if isinstance(r, DealNumberTaken)]
    saved = [r for r in results if isinstance(r, Deal)]
    assert len(refused) == 1 and len(saved) == 1, results
    assert saved[0].number == 1 and refused[0].last_number == 1
    assert Deal.objects.count() == 1
