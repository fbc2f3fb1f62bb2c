"""Duplicate Tarot in the database: movement and étuis set up, deals tied to their étuis, fouled étuis
caught, the ranking by percentage (A-T13)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.etui import deal_etui
from tests.tournaments.duplicate.events import sixteen, table_of
from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, tarot_summary
from tournaments.common.errors import InvalidInput
from tournaments.deals.models import Ruling
from tournaments.deals.record import deal_correct, deal_record
from tournaments.duplicate.models import DuplicateTable, Etui, EtuiPlay
from tournaments.duplicate.results import board_results, traveller
from tournaments.duplicate.service import duplicate_create, etuis_import
from tournaments.event.models import Table
from tournaments.standings import rankings

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return sixteen(rounds_planned=3)


_table = table_of


def test_setup_builds_rounds_tables_and_etuis(event):
    assert event.rounds.count() == 3 and event.deals_per_round == 2
    assert Table.objects.filter(round__tournament=event).count() == 12
    assert Etui.objects.filter(tournament=event).count() == 6  # 2 étuis a round, every table plays both
    etui = Etui.objects.get(tournament=event, number=3)
    assert etui.round_number == 2 and etui.source == "generated"
    assert etui.hands == [list(h) for h in deal_etui("test", 3).hands]  # the same seed gives the same étuis
    assert DuplicateTable.objects.get(table=_table(event, 2, 2)).boards == [4, 3]


def test_results_are_compared_by_orientation_and_ranked_by_percentage(event):
    user = UserFactory(username="chief")
    # étui 1 (dealer North, seat 0), four tables: the taker East (seat 1) in garde, 49, 45, 36, 56 points
    # → East's marks: 3·(25 + 3 + 10)·2… computed by the scoring module; compare the order only:
    # relay: tables 1 and 3 start with étui 1, tables 2 and 4 with étui 2 (dealt by East, seat 1)
    for table_no, points in ((1, 49), (2, 45), (3, 36), (4, 56)):
        table = _table(event, 1, table_no)
        if table_no % 2 == 0:
            deal_record(table=table, user=user, record=tarot_summary(taker=2, points=50, dealer=1))
        deal_record(table=table, user=user, record=tarot_summary(taker=1, points=points, dealer=0))
    assert not EtuiPlay.objects.filter(fouled=True).exists()
    results = [r for r in board_results(event) if r.board == 1 and r.orientation == 1]
    assert sorted(r.mark for r in results)[0] < 0  # 36 with 2 bouts (41 needed) fails
    trav = traveller(event, Etui.objects.get(tournament=event, number=1))
    east = {line.table: line.percentages[1] for line in trav.lines}
    # East's ranks among the four tables: 56 > 49 > 45 > 36 → 6, 4, 2, 0 of 6
    assert east == {4: 100, 1: Fraction(200, 3), 2: Fraction(100, 3), 3: 0}
    assert all(not line.fouled for line in trav.lines)
    event.rounds.filter(number=1).update(released=True)
    computed = rankings.ranking_compute(tournament=event)
    assert computed.individual.kind == "duplicate"
    top = computed.individual.lines[0]
    # the East of table 4 (100 % as taker) and the North/South/West who held the defence at table 3 lead
    assert top.metric("score") == 100
    snapshot = rankings.ranking_publish(tournament_id=event.pk)
    assert rankings.snapshot_ranking(snapshot).digest == snapshot.digest


def test_a_deal_that_contradicts_its_etui_is_fouled_and_calls_the_arbiter(event):
    user = UserFactory(username="chief")
    deal_record(table=_table(event, 1, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=2))
    play = EtuiPlay.objects.get(table=_table(event, 1, 1))
    assert play.fouled and play.problem[0]["what"] == "dealer"
    from tournaments.links.models import ArbiterCall

    call = ArbiterCall.objects.get(table=_table(event, 1, 1))  # a call to the arbiter, not a ruling
    assert call.reason == "fouled_etui" and call.note.startswith("Étui 1 (donne 1) : ")
    assert not Ruling.objects.filter(table=_table(event, 1, 1)).exists()
    deal_record(table=_table(event, 1, 3), user=user, record=tarot_summary(taker=1, points=60, dealer=0))
    fouled = [r for r in board_results(event) if r.fingerprint]
    assert {r.table for r in fouled} == {1}  # only table 1's results are set apart


def test_first_table_keys_in_an_unknown_etui(event):
    from tests.tournaments.factories import tarot_full_deal

    Etui.objects.filter(tournament=event).update(hands=[], dog=[], fingerprint="", source="empty")
    fields = tarot_full_deal(seed=5, dealer=0)
    table = _table(event, 1, 1)
    deal = deal_record(table=table, user=UserFactory(username="chief"), record=fields)
    etui = Etui.objects.get(tournament=event, number=1)
    assert etui.source == "keyed" and etui.keyed_from_id == deal.pk and len(etui.fingerprint) == 64
    assert not EtuiPlay.objects.get(deal=deal).fouled
    # the keying deal corrected with other cards: the étui follows it, it is not fouled by its own correction
    first_fingerprint = etui.fingerprint
    other = tarot_full_deal(seed=6, dealer=0)
    deal_correct(deal=deal, record=other, expected_version=deal.version, reason="relu", user=deal.created_by)
    etui.refresh_from_db()
    assert etui.hands != [] and not EtuiPlay.objects.get(deal=deal).fouled
    assert etui.fingerprint not in ("", first_fingerprint)


def test_import_refuses_a_record_that_is_not_a_pack(event):
    record = {"format": "levee.deal/1", "game": "tarot", "hands": [["KS"] * 18] * 4, "dog": ["EX"] * 6, "dealer": 0}
    with pytest.raises(InvalidInput) as exc:
        etuis_import(tournament=event, records=[record])
    assert exc.value.field == "records[0].hands"
    good = deal_etui("other", 1).as_json() | {"format": "levee.deal/1", "game": "tarot"}
    (etui,) = etuis_import(tournament=event, records=[good], first=2)
    assert etui.number == 2 and etui.source == "imported"


def test_artificial_result_replaces_the_played_one_and_is_refused_without_a_reason(event):
    from tournaments.duplicate.models import ArtificialResult
    from tournaments.duplicate.service import artificial_result_set

    user = UserFactory(username="chief")
    table = _table(event, 1, 1)
    north = table.seats.get(position=0).entry_id
    deal_record(table=table, user=user, record=tarot_summary(taker=1, points=49, dealer=0))
    with pytest.raises(InvalidInput) as exc:
        artificial_result_set(table=table, etui_number=1, entry_id=north, kind="plus", reason=" ", user=user)
    assert exc.value.field == "reason"
    with pytest.raises(InvalidInput):
        artificial_result_set(table=table, etui_number=5, entry_id=north, kind="plus", reason="x", user=user)
    artificial_result_set(table=table, etui_number=1, entry_id=north, kind="plus", reason="carte exposée", user=user)
    (mine,) = [r for r in board_results(event) if r.entry == north and r.board == 1]
    assert mine.artificial == "plus" and mine.mark is None
    artificial_result_set(table=table, etui_number=1, entry_id=north, kind="", reason="", user=user)
    assert not ArtificialResult.objects.exists()


def test_import_page_gives_the_etuis_their_cards(event, client):
    import json

    from tests.tournaments.factories import role

    chief = UserFactory(username="chief")
    role(event, chief, "chief_arbiter")
    client.force_login(chief)
    url = f"/t/{event.slug}/etuis/import/"
    bad = client.post(url, {"records": "[{", "first": 1})
    assert bad.status_code == 200 and "JSON" in bad.content.decode()
    record = deal_etui("imported", 3).as_json() | {"format": "levee.deal/1", "game": "tarot"}
    not_a_pack = {"format": "levee.deal/1", "game": "tarot", "hands": [["KS"] * 18] * 4, "dog": ["EX"] * 6}
    refused = client.post(url, {"records": json.dumps([not_a_pack]), "first": 3}).content.decode()
    assert "Donne 1" in refused and "records[" not in refused  # no JSON path on the page
    ok = client.post(url, {"records": json.dumps([record]), "first": 3})
    assert ok.status_code == 302
    assert Etui.objects.get(tournament=event, number=3).source == "imported"


def test_tables_of_three_play_other_etuis():
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=2)
    for i in range(18):  # 3 tables of 4 and 2 tables of 3
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="trois")
    threes = [t for t in Table.objects.filter(round__tournament=tournament, round__number=1) if t.seats.count() == 3]
    assert len(threes) == 2
    boards = DuplicateTable.objects.get(table=threes[0]).boards
    assert boards == [5, 6]  # after the 2 rounds × 2 étuis of 4
    etui = Etui.objects.get(tournament=tournament, number=5)
    assert etui.players == 3 and [len(h) for h in etui.hands] == [24, 24, 24]
    deal_record(table=threes[0], user=UserFactory(username="chief"),
                         record={**tarot_summary(taker=0, points=50, dealer=etui.dealer)})
    assert not EtuiPlay.objects.get(table=threes[0]).fouled
    ranked = rankings.ranking_compute(tournament=tournament, rounds="all").individual
    assert len(ranked.lines) == 18


def test_setup_page_declares_tie_breaks(client):
    from tests.tournaments.factories import role

    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=2)
    for i in range(8):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i}")
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    response = client.post(f"/t/{tournament.slug}/duplicate/", {
        "boards_per_round": 3, "seed": "s", "method": "matchpoints", "score": "mean", "short": "auto",
        "tie_breaks": "tops,best_board"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["tops", "best_board"] and tournament.deals_per_round == 3
    assert rankings.ranking_compute(tournament=tournament, rounds="all").individual.criteria == (
        "score", "tops", "best_board")
    assert Etui.objects.filter(tournament=tournament).count() == 6


def test_results_of_no_round_or_of_one_round(event):
    # board_results reads its rows on a plain cursor: no round chosen (nothing released yet) is no result, not an
    # error (Django's ``round__in=[]`` has no SQL), and a round chosen keeps only its étuis
    user = UserFactory(username="chief")
    deal_record(table=_table(event, 1, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=0))
    deal_record(table=_table(event, 2, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=0))
    assert board_results(event, []) == []
    first = event.rounds.get(number=1)
    assert {r.board for r in board_results(event, [first.pk])} == {1}  # table 1 of round 1 starts with étui 1
    assert len(board_results(event, [first.pk])) == 4
    assert {r.board for r in board_results(event)} == {1, 3}
    computed = rankings.ranking_compute(tournament=event)  # no round released
    assert all(line.metric("boards") == 0 for line in computed.individual.lines)


def test_the_rows_the_ranking_reads_are_the_results_as_objects(event):
    # board_rows (what the ranking reads: one tuple a result, no object) against board_results (a BoardResult
    # each): the same results with a fouled étui, an artificial result and a plain deal; the same ranking from both
    from scoring.duplicate import ResultRows, rank_duplicate
    from tournaments.duplicate.results import board_rows
    from tournaments.duplicate.service import artificial_result_set

    user = UserFactory(username="chief")
    deal_record(table=_table(event, 1, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=2))  # fouled
    deal_record(table=_table(event, 1, 3), user=user, record=tarot_summary(taker=1, points=60, dealer=0))
    table = _table(event, 1, 2)
    deal_record(table=table, user=user, record=tarot_summary(taker=2, points=50, dealer=1))
    north = table.seats.get(position=0).entry_id
    artificial_result_set(table=table, etui_number=2, entry_id=north, kind="minus", reason="carte exposée", user=user)
    objects = board_results(event)
    rows = board_rows(event)
    assert isinstance(rows, ResultRows) and len(rows) == len(objects) == 12
    assert rows.results() == tuple(objects)
    assert {r.fingerprint != "" for r in objects} == {True, False}
    assert [r.artificial for r in objects if r.artificial] == ["minus"]
    assert rows.boards() == {1, 2}
    assert board_rows(event, []).rows == []
    assert rank_duplicate(rows) == rank_duplicate(objects)
    assert rank_duplicate(rows).encoded == rank_duplicate(objects).encoded


def _rows_by_loop(tournament):
    """The reader as it was written before its C passes (main at 947161d): one Python loop over the score rows."""
    from tournaments.deals.models import Deal, ScoreRow
    from tournaments.duplicate.models import ArtificialResult
    from tournaments.event.models import Seat

    plan = {t: (b, rn, tn) for t, b, rn, tn in DuplicateTable.objects.filter(
        table__round__tournament_id=tournament.pk).values_list("table_id", "boards", "table__round__number",
                                                               "table__number")}
    positions = {(t, e): p for t, e, p in Seat.objects.filter(table_id__in=plan).values_list("table_id", "entry_id",
                                                                                               "position")}
    fouled = dict(EtuiPlay.objects.filter(table_id__in=plan, fouled=True).values_list("deal_id", "fingerprint"))
    artificial = {(n, e): (k, t) for n, e, k, t in ArtificialResult.objects.filter(
        etui__tournament_id=tournament.pk).values_list("etui__number", "entry_id", "kind", "table_id")}
    out = []
    for table_id, entry_id, points, deal_id, number in ScoreRow.objects.filter(
            tournament_id=tournament.pk, deal__isnull=False, counts=True).exclude(
            deal__status=Deal.Status.ANNULLED).values_list("table_id", "entry_id", "points", "deal_id", "deal__number"):
        planned = plan.get(table_id)
        if planned is None:
            continue
        order, round_no, table_no = planned
        if not 0 < number <= len(order):
            continue
        board = order[number - 1]
        if (board, entry_id) in artificial:
            continue
        out.append(("BoardResult", board, positions[(table_id, entry_id)], entry_id, points,
                    fouled.get(deal_id, ""), None, round_no, table_no))
    for (board, entry_id), (kind, table_id) in artificial.items():
        if table_id in plan:
            _order, round_no, table_no = plan[table_id]
            out.append(("BoardResult", board, positions.get((table_id, entry_id), 0), entry_id, None, "", kind,
                        round_no, table_no))
    return out


def test_the_reader_in_c_passes_keeps_the_rows_the_loop_kept(event):
    # a fouled deal, an artificial result replacing a played one, a deal numbered off its table's card (left out)
    # and a table taken out of the movement (left out): the same rows as the loop over the score rows
    from tournaments.deals.models import Deal
    from tournaments.duplicate.results import board_rows
    from tournaments.duplicate.service import artificial_result_set

    user = UserFactory(username="chief")
    deal_record(table=_table(event, 1, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=2))  # fouled
    deal_record(table=_table(event, 1, 3), user=user, record=tarot_summary(taker=1, points=60, dealer=0))
    deal_record(table=_table(event, 1, 3), user=user, record=tarot_summary(taker=2, points=30, dealer=1))
    table = _table(event, 1, 2)
    deal_record(table=table, user=user, record=tarot_summary(taker=2, points=50, dealer=1))
    north = table.seats.get(position=0).entry_id
    artificial_result_set(table=table, etui_number=2, entry_id=north, kind="minus", reason="carte exposée", user=user)
    deal_record(table=_table(event, 2, 1), user=user, record=tarot_summary(taker=1, points=70, dealer=0))
    deal_record(table=_table(event, 2, 2), user=user, record=tarot_summary(taker=3, points=40, dealer=0))
    before = sorted(board_rows(event).rows, key=repr)
    assert before == sorted(_rows_by_loop(event), key=repr) and len(before) == 24
    Deal.objects.filter(table=_table(event, 1, 3), number=2).update(number=3)  # off the card of 2 étuis
    DuplicateTable.objects.filter(table=_table(event, 2, 2)).delete()  # out of the movement
    after = sorted(board_rows(event).rows, key=repr)
    assert after == sorted(_rows_by_loop(event), key=repr) and len(after) == 16
    assert {r[5] != "" for r in after} == {True, False} and [r[6] for r in after if r[6]] == ["minus"]
    first = event.rounds.get(number=1)
    assert {r.board for r in board_results(event, [first.pk], [2])} == {2}


def test_a_snapshot_published_in_form_one_still_verifies(event):
    # a snapshot written before form 2 (one BoardResult a result, no ``form`` option) is rebuilt from its stored
    # inputs to its digest; the ranking published now is in form 2 and verifies too
    from scoring import duplicate as pure_duplicate
    from tournaments.duplicate.results import board_rows, expected_tables
    from tournaments.standings.models import RankingSnapshot

    user = UserFactory(username="chief")
    for table_no, points in ((1, 49), (2, 45), (3, 36)):
        deal_record(table=_table(event, 1, table_no), user=user,
                    record=tarot_summary(taker=1, points=points, dealer=0 if table_no % 2 else 1))
    event.rounds.filter(number=1).update(released=True)
    first = [event.rounds.get(number=1).pk]
    rows = board_rows(event, first)
    expected = {b: e for b, e in expected_tables(event, first).items() if b in rows.boards()}  # as the app ranks
    old = pure_duplicate.rank_duplicate(rows, form=1, expected=expected,
                                        entries=event.entries.values_list("id", flat=True))
    assert "form" not in dict(old.options) and old.encoded[0].startswith('[["BoardResult",')
    stored = RankingSnapshot.objects.create(
        tournament=event, input_version=1, kind="duplicate", criteria=["score"], released_rounds=[1],
        inputs=rankings.JSONText(old.encoded[0], as_text=True), options=rankings.JSONText(old.encoded[1]),
        digest=old.digest)
    again = rankings.snapshot_ranking(RankingSnapshot.objects.get(pk=stored.pk))
    assert again.digest == old.digest and again.lines == old.lines
    published = rankings.ranking_publish(tournament_id=event.pk)
    assert dict(rankings.decode(published.options))["form"] == 2
    assert rankings.snapshot_ranking(published).lines == old.lines
    assert published.digest != old.digest


def test_the_entry_page_names_the_etui_it_enters(event, client):
    # a walk: the desk's entry page said « Donne 1 » while the table's page said « À suivre : étui 7 »
    table = _table(event, 1, 2)
    dup = DuplicateTable.objects.get(table=table)
    organizer = UserFactory(username="orga-etui")
    from tests.tournaments.factories import role

    role(event, organizer, "organizer")
    client.force_login(organizer)
    page = client.get(f"/desk/tables/{table.pk}/deal/play/?mode=summary").content.decode()
    heading = page.split("<h1>", 1)[1].split("</h1>", 1)[0]
    assert heading == f"Étui {dup.boards[0]} · Donne 1"


def test_the_setup_offers_the_deals_a_round_the_tournament_was_made_with(client):
    """A tournament made with 3 deals a round: its duplicate set-up offers 3 étuis a round (it offered 4, and saving
    turned the tournament into 4 deals a round without a word)."""
    from django.urls import reverse

    from tests.tournaments.factories import role

    tournament = TournamentFactory(game="tarot", deals_per_round=3)
    organizer = UserFactory(username="orga-etuis")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    page = client.get(reverse("duplicate_setup", args=[tournament.slug])).content.decode()
    field = page.split('name="boards_per_round"', 1)[1].split(">", 1)[0]
    assert 'value="3"' in field, field
