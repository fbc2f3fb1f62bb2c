"""Match games: a table is one match; every entry re-judges the match so far, the table keeps its result."""

from __future__ import annotations

import random

import pytest

from scoring.verdict import judge
from tests.tournaments.factories import TournamentFactory, UserFactory, seated_table
from tournaments.common.errors import DealRejected
from tournaments.deals import selectors
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_annul, deal_record
from tournaments.management.commands.seed_demo import random_match_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def match_table():
    tournament = TournamentFactory(game="triomphe", options={"mode": "forcee"}, target=5)
    return seated_table(tournament, players=2, names=["Ana", "Bruno"])


def marks(deal):
    return [r.points for r in ScoreRow.objects.filter(deal=deal, ruling__isnull=True)
            .order_by("entry__seats__position")]


def play_until_over(table, user, rng):
    deals = []
    dealer = 0
    while True:
        table.refresh_from_db()
        if table.match_ended:
            return deals
        fields = random_match_deal("triomphe", {"mode": "forcee"}, 2, dealer, rng)
        deals.append(deal_record(table=table, record=fields, user=user))
        dealer = 1 - dealer
        assert len(deals) < 20


def test_rows_follow_the_match_verdict_and_the_table_keeps_the_result(match_table):
    user = UserFactory(is_superuser=True)
    deals = play_until_over(match_table, user, random.Random(5))
    verdict = judge(selectors.table_match_record(match_table))
    assert verdict.legal
    assert [marks(d) for d in deals] == [list(d.scores) for d in verdict.deals]
    match_table.refresh_from_db()
    assert match_table.match_totals == verdict.totals and match_table.match_ended
    assert match_table.match_winner == verdict.winner and max(verdict.totals) >= 5
    # every deal is saved as a full levee.deal/1 record with the table's players
    assert all(d.record["players"] == ["Ana", "Bruno"] and d.record["options"]["target"] == 5 for d in deals)


def test_no_deal_after_the_match_is_over(match_table):
    user = UserFactory(is_superuser=True)
    rng = random.Random(9)
    deals = play_until_over(match_table, user, rng)
    with pytest.raises(DealRejected) as caught:
        deal_record(table=match_table, record=random_match_deal("triomphe", {}, 2, len(deals) % 2, rng),
                             user=user)
    assert caught.value.violations[0].rule in ("match_over", "match_ended", "deal_after_end")
    said = caught.value.violations[0].message("fr", ["Ana", "Bruno"])
    assert "?" not in said and "terminée" in said, said  # one code, one text: no placeholder left unfilled
    assert Deal.objects.count() == len(deals)


def test_annulling_a_deal_rejudges_the_rest(match_table):
    user = UserFactory(is_superuser=True)
    rng = random.Random(3)
    first = deal_record(table=match_table, record=random_match_deal("triomphe", {}, 2, 0, rng), user=user)
    second = deal_record(table=match_table, record=random_match_deal("triomphe", {}, 2, 1, rng), user=user)
    before = marks(first)
    deal_annul(deal=first, reason="maldonne", user=user)
    match_table.refresh_from_db()
    assert match_table.match_totals == marks(second)
    assert not ScoreRow.objects.filter(deal=first, counts=True).exists()
    assert marks(first) == before  # kept, not counted


def test_illegal_deal_in_a_match_saves_nothing(match_table):
    user = UserFactory(is_superuser=True)
    rng = random.Random(1)
    fields = random_match_deal("triomphe", {}, 2, 0, rng)
    fields["tricks"][0][1] = fields["tricks"][0][0]  # the leader's card played again by the other seat
    with pytest.raises(DealRejected) as caught:
        deal_record(table=match_table, record=fields, user=user)
    assert caught.value.violations[0].trick == 0 and caught.value.violations[0].seat is not None
    assert Deal.objects.count() == 0 and ScoreRow.objects.count() == 0
    match_table.refresh_from_db()
    assert match_table.match_totals is None
