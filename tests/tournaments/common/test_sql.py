"""The plain SQL of the deal-entry path (tournaments/sql.py) gives what the ORM gives.

Reads: every concrete field of every model read by ``table_for_entry`` and by the token look-up equals
the ORM's value (types included: aware datetimes, dicts for JSON). Writes: a deal entered through the
service has exactly the history row django-simple-history writes on ``save()``, and values written
by ``sql.insert`` read back through the ORM as they were given.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tests.tournaments.factories import TableFactory, UserFactory, tarot_full_deal, tarot_summary
from tournaments.api.auth import token_user
from tournaments.common import sql
from tournaments.deals import selectors
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Table, Tournament
from tournaments.standings import rankings
from tournaments.standings.models import RankingClock

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_table_for_entry_reads_every_field_as_the_orm_does(tarot_table):
    tournament = tarot_table.round.tournament
    Tournament.objects.filter(pk=tournament.pk).update(options={"players": 4, "chelem": "fft"}, tie_breaks=["best"])
    fast = selectors.table_for_entry(tarot_table.pk)
    orm = Table.objects.select_related("round__tournament").get(pk=tarot_table.pk)
    assert _fields(fast) == _fields(orm)
    assert _fields(fast.round) == _fields(orm.round)
    assert _fields(fast.round.tournament) == _fields(orm.round.tournament)
    assert fast.round.tournament.options == {"players": 4, "chelem": "fft"}
    assert timezone.is_aware(fast.round.tournament.created_at)
    seats = list(orm.seats.select_related("entry__player").order_by("position"))
    fast_seats = selectors.table_seats(fast)
    # the timestamps an entry never uses are deferred: read from the database only if asked for
    entry = fast_seats[0].entry
    assert entry.get_deferred_fields() == {"created_at"} == entry.player.get_deferred_fields()
    assert not fast.get_deferred_fields() and not fast.round.tournament.get_deferred_fields()
    assert [_fields(s) for s in fast_seats] == [_fields(s) for s in seats]
    assert [_fields(s.entry) for s in fast_seats] == [_fields(s.entry) for s in seats]
    assert [_fields(s.entry.player) for s in fast_seats] == [_fields(s.entry.player) for s in seats]
    assert selectors.table_players(fast) == ["Ana", "Bruno", "Chloé", "David"]
    assert not fast._state.adding and fast.round.tournament.is_match_game is False


def test_table_for_entry_without_seats_or_without_table(tarot_table):
    empty = TableFactory(round=tarot_table.round, number=7)
    fast = selectors.table_for_entry(empty.pk)
    assert fast.pk == empty.pk and selectors.table_seats(fast) == []
    assert selectors.table_for_entry(10**9) is None


def test_a_deal_entered_has_the_history_row_simple_history_writes(tarot_table, staff):
    deal = deal_record(table=selectors.table_for_entry(tarot_table.pk), record=tarot_full_deal(11),
                                user=staff["chief"])
    # the same deal saved through the ORM, so that django-simple-history writes its own row
    twin = Deal(**{f.attname: getattr(deal, f.attname) for f in Deal._meta.concrete_fields if not f.primary_key})
    twin.number = 99
    twin._history_user = staff["chief"]
    twin._change_reason = "saisie"
    twin.save()
    ours, theirs = deal.history.get(), twin.history.get()
    skip = {"id", "number", "history_id", "history_date", "created_at", "updated_at"}
    assert {k: v for k, v in _fields(ours).items() if k not in skip} == \
           {k: v for k, v in _fields(theirs).items() if k not in skip}
    assert ours.id == deal.pk and ours.history_type == "+" and ours.history_user == staff["chief"]
    assert ours.history_date == deal.created_at
    stored = Deal.objects.get(pk=deal.pk)
    assert _fields(stored) == _fields(deal)
    assert [v["change"] for v in selectors.deal_versions(stored)] == ["created"]


def test_insert_converts_values_as_the_orm_does(tarot_table, staff):
    deal = deal_record(table=selectors.table_for_entry(tarot_table.pk), record=tarot_summary(),
                                user=staff["chief"])
    when = dt.datetime(2026, 11, 22, 9, 30, tzinfo=dt.UTC)
    sql.insert(IdempotencyKey, {"user_id": staff["chief"].pk, "key": "k", "request_hash": "h" * 64, "deal": deal.pk,
                                "status_code": 201, "response": '{"id":1}', "created_at": when}, returning=None)
    key = IdempotencyKey.objects.get(key="k")
    assert key.response == '{"id":1}' and key.created_at == when and key.deal_id == deal.pk
    options = {"players": 5, "variant": "called_king", "a": [1, 2.5, None, "é"], "b": {"c": True}}
    values = {"name": "Zoé", "slug": "zoe", "game": "tarot", "options": options, "format": "individual",
              "rounds_planned": 3, "deals_per_round": None, "target": None, "status": Tournament.Status.DRAFT,
              "is_public": False, "tie_breaks": [], "released_round": 0, "created_by": None,
              "created_at": when, "updated_at": when, "date": None, "venue": "", "start_time": None,
              "separate_clubs": False, "round_minutes": 60}
    pk = sql.insert(Tournament, values)  # every column: the database has no defaults
    stored = Tournament.objects.get(pk=pk)
    assert stored.options == options and stored.created_at == when and stored.status == "draft"
    assert stored.deals_per_round is None and stored.rounds_planned == 3
    # JSON serialised beforehand is written as it is, not as a JSON string
    pk = sql.insert(Tournament, {**values, "slug": "yann", "options": sql.JSONText('{"players": 3, "nom": "é"}')})
    assert Tournament.objects.get(pk=pk).options == {"players": 3, "nom": "é"}


def test_insert_many_writes_every_row(tarot_table, staff):
    deal = deal_record(table=selectors.table_for_entry(tarot_table.pk), record=tarot_summary(),
                                user=staff["chief"])
    rows = dict(ScoreRow.objects.filter(deal=deal).values_list("entry_id", "points"))
    # a garde with 2 bouts (41 needed) and 49 points at four: (25 + 8) x 2 = 66 from each defender to the taker
    assert sorted(rows.values()) == [-66, -66, -66, 198]
    assert sum(rows.values()) == 0


def test_token_user_reads_the_user_as_the_orm_does(db):
    user = UserFactory(username="scorer", first_name="Zoé")
    token = Token.objects.create(user=user)
    found, found_token = token_user(token.key)
    assert _fields(found) == _fields(type(user).objects.get(pk=user.pk))
    assert found_token.key == token.key and found_token.user is found
    assert token_user("no-such-token") is None


def test_api_token_errors_are_drf_errors(api_client, db):
    user = UserFactory(username="gone", is_active=False)
    token = Token.objects.create(user=user)
    # 401 with the scheme to use: token authentication comes first (DRF answers with its header)
    response = api_client.post("/api/tables/1/deals/", {}, format="json", HTTP_AUTHORIZATION="Token nope",
                               HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 401 and response.json()["detail"] == "Invalid token."
    assert response["WWW-Authenticate"] == "Token"
    response = api_client.post("/api/tables/1/deals/", {}, format="json", HTTP_AUTHORIZATION=f"Token {token.key}",
                               HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 401 and response.json()["detail"] == "User inactive or deleted."
    # anonymous: 401 too; a session user without the right: 403
    assert api_client.post("/api/tables/1/deals/", {}, format="json").status_code == 401


def test_the_clock_bump_returns_the_version_and_the_queue_state(tarot_table):
    tid = tarot_table.round.tournament_id
    first = rankings.ranking_inputs_changed(tournament_id=tid)
    again = rankings.ranking_inputs_changed(tournament_id=tid)
    assert again.version == first.version + 1 and again.queued_at is None and not again.refresh_waiting
    RankingClock.objects.filter(tournament_id=tid).update(queued_at=timezone.now())
    assert rankings.ranking_inputs_changed(tournament_id=tid).refresh_waiting
    RankingClock.objects.filter(tournament_id=tid).update(queued_at=timezone.now() - dt.timedelta(minutes=5))
    stale = rankings.ranking_inputs_changed(tournament_id=tid)
    assert stale.queued_at is not None and not stale.refresh_waiting  # a lost claim: queue again
    assert RankingClock.objects.get(tournament_id=tid).version == stale.version == first.version + 3


def test_round_and_clock_names_come_from_the_models():
    assert sql.column(Round, "tournament") == sql.quote("tournament_id")
    assert sql.table(RankingClock) == sql.quote(RankingClock._meta.db_table)
    assert sql.width(Tournament) == len(Tournament._meta.concrete_fields)


def test_the_stored_first_response_is_the_deal_as_json(tarot_table, staff):
    """The first response, assembled from the texts written to the database, is json_body(deal_to_json(deal))."""
    import json

    deal = deal_record(table=selectors.table_for_entry(tarot_table.pk), record=tarot_full_deal(12),
                                user=staff["chief"], idempotency_key="body")
    assert deal.idempotent_response == selectors.json_body(selectors.deal_to_json(deal))
    assert '"Chloé"' in deal.idempotent_response  # the players' names, UTF-8 as they are
    stored = Deal.objects.get(pk=deal.pk)
    stored.__dict__["_levee_scores"] = deal.__dict__["_levee_scores"]
    assert json.loads(deal.idempotent_response) == json.loads(selectors.deal_body(stored))
    assert json.loads(deal.idempotent_response)["record"] == stored.record
