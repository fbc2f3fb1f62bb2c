"""Services: deals recorded through judge(), rejected without partial saves, corrected as versions,
annulled, approved (the FFT visa), rulings, setup and CSV import."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from tests.tournaments.factories import (
    TournamentFactory,
    UserFactory,
    role,
    seated_table,
    tarot_full_deal,
    tarot_illegal_deal,
    tarot_summary,
)
from tournaments.common.errors import (
    DealRejected,
    IdempotencyMismatch,
    InvalidInput,
    MalformedDeal,
    StateConflict,
    VersionConflict,
)
from tournaments.deals.models import Deal, IdempotencyKey, ScoreRow
from tournaments.deals.record import deal_annul, deal_approve, deal_correct, deal_record
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Round, Table, Tournament
from tournaments.event.setup import (
    player_create,
    player_register,
    players_import_csv,
    role_assign,
    round_create,
    round_seat,
    tournament_create,
    tournament_set_status,
)

pytestmark = pytest.mark.django_db


def rows(deal: Deal) -> list[int]:
    """The deal's marks in seat order."""
    qs = ScoreRow.objects.filter(deal=deal, ruling__isnull=True).order_by("entry__seats__position")
    return [r.points for r in qs]


# -- deal_record -----------------------------------------------------------------------------------

def test_summary_deal_scores_by_fft_arithmetic(tarot_table, staff):
    # Garde, 2 bouts, 49 points: needed 41, won by 8; S = (25 + 8) × 2 = 66; taker (seat 1) +3S at 4 players.
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=1, points=49), user=staff["arbiter"])
    assert deal.number == 1 and deal.version == 1 and deal.status == Deal.Status.VALID
    assert rows(deal) == [-66, 198, -66, -66]
    assert deal.record["players"] == ["Ana", "Bruno", "Chloé", "David"]
    assert deal.record["format"] == "levee.deal/1" and deal.record["game"] == "tarot"
    assert deal.verdict["legal"] is True
    history = list(deal.history.all())
    assert len(history) == 1 and history[0].history_user == staff["arbiter"]


def test_fallen_petite(tarot_table, staff):
    # Petite (coef 1), 1 bout, 45 points: needed 51, fallen by 6: S = −(25 + 6) = −31; taker (seat 3) −93.
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=3, contract="petite", oudlers=1,
                                                                       points=45), user=staff["chief"])
    assert rows(deal) == [31, 31, 31, -93]


def test_full_deal_is_saved_with_zero_sum_rows(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_full_deal(7), user=staff["arbiter"])
    marks = rows(deal)
    assert len(marks) == 4 and sum(marks) == 0 and any(marks)
    assert len(deal.record["tricks"]) == 18
    assert deal_record(table=tarot_table, record=tarot_full_deal(8), user=staff["arbiter"]).number == 2


def test_illegal_deal_is_rejected_and_nothing_saved(tarot_table, staff):
    fields, trick, seat, card = tarot_illegal_deal(3)
    with pytest.raises(DealRejected) as caught:
        deal_record(table=tarot_table, record=fields, user=staff["arbiter"])
    first = caught.value.violations_json("fr")[0]
    assert (first["trick"], first["seat"], first["card"]) == (trick, seat, card)
    assert first["message"].startswith(f"Pli {trick + 1}")
    assert Deal.objects.count() == 0 and ScoreRow.objects.count() == 0
    assert Deal.history.count() == 0


def test_malformed_deal_names_the_field(tarot_table, staff):
    with pytest.raises(MalformedDeal) as caught:
        deal_record(table=tarot_table, record={**tarot_summary(), "dealer": 7}, user=staff["arbiter"])
    assert caught.value.field == "dealer"
    with pytest.raises(MalformedDeal) as caught:
        deal_record(table=tarot_table, record=["not", "a", "deal"], user=staff["arbiter"])
    assert caught.value.field == "$"
    assert Deal.objects.count() == 0


def test_posted_record_cannot_change_the_players(tarot_table, staff):
    record = {**tarot_summary(), "players": ["Ana", "Bruno", "Chloé", "Zoé"]}
    with pytest.raises(MalformedDeal) as caught:
        deal_record(table=tarot_table, record=record, user=staff["arbiter"])
    assert caught.value.field == "players"
    same = {**tarot_summary(), "format": "levee.deal/1", "game": "tarot", "players": ["Ana", "Bruno", "Chloé", "David"]}
    assert deal_record(table=tarot_table, record=same, user=staff["arbiter"]).pk


def test_deals_only_while_running(tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.OPEN)
    with pytest.raises(StateConflict):
        deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])


def test_deals_per_round_limit(tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=1)
    tarot_table.refresh_from_db()
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    with pytest.raises(DealRejected) as caught:
        deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    assert caught.value.violations[0].rule == "table_full"


# -- idempotency -----------------------------------------------------------------------------------

def test_idempotency_key_returns_the_first_deal(tarot_table, staff):
    first = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"],
                                 idempotency_key="k-1")
    again = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"],
                                 idempotency_key="k-1")
    assert again.pk == first.pk and again.idempotent_replay is True
    assert again.idempotent_response == first.idempotent_response
    assert Deal.objects.count() == 1 and IdempotencyKey.objects.count() == 1
    with pytest.raises(IdempotencyMismatch):
        deal_record(table=tarot_table, record=tarot_summary(points=60), user=staff["arbiter"],
                             idempotency_key="k-1")


def test_rejected_deal_does_not_burn_the_key(tarot_table, staff):
    with pytest.raises(MalformedDeal):
        deal_record(table=tarot_table, record={"dealer": 9}, user=staff["arbiter"], idempotency_key="k")
    assert IdempotencyKey.objects.count() == 0
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"], idempotency_key="k")
    assert deal.idempotent_replay is False


# -- corrections, annulment, visa ------------------------------------------------------------------

def test_correction_is_a_new_version_with_reason(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(points=49), user=staff["arbiter"])
    fixed = deal_correct(deal=deal, record=tarot_summary(points=51), expected_version=1,
                                  reason="erreur de pointage", user=staff["chief"])
    # won by 10: S = (25 + 10) × 2 = 70
    assert fixed.version == 2 and rows(fixed) == [-70, 210, -70, -70]
    versions = list(fixed.history.order_by("history_date"))
    assert [v.version for v in versions] == [1, 2]
    assert versions[1].history_change_reason == "erreur de pointage" and versions[1].history_user == staff["chief"]
    assert versions[0].record["summary"]["points"] == 49


def test_stale_correction_conflicts(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    deal_correct(deal=deal, record=tarot_summary(points=50), expected_version=1, reason="a",
                          user=staff["chief"])
    with pytest.raises(VersionConflict) as caught:
        deal_correct(deal=deal, record=tarot_summary(points=52), expected_version=1, reason="b",
                              user=staff["organizer"])
    assert caught.value.current_version == 2 and caught.value.status == 409
    deal.refresh_from_db()
    assert deal.record["summary"]["points"] == 50


def test_correction_needs_a_reason_and_a_legal_record(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    with pytest.raises(InvalidInput) as caught:
        deal_correct(deal=deal, record=tarot_summary(), expected_version=1, reason=" ", user=staff["chief"])
    assert caught.value.field == "reason"
    fields, *_ = tarot_illegal_deal(5)
    with pytest.raises(DealRejected):
        deal_correct(deal=deal, record=fields, expected_version=1, reason="x", user=staff["chief"])
    deal.refresh_from_db()
    assert deal.version == 1 and rows(deal) == [-66, 198, -66, -66]


def test_annul_keeps_the_deal_but_not_its_marks(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    deal_annul(deal=deal, reason="maldonne", user=staff["chief"])
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED and deal.version == 2
    assert ScoreRow.objects.filter(counts=True).count() == 0
    with pytest.raises(StateConflict):
        deal_correct(deal=deal, record=tarot_summary(), expected_version=2, reason="x", user=staff["chief"])


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_garde_sans_by_table_arbiter_waits_for_the_visa(tarot_table, staff, contract):
    deal = deal_record(table=tarot_table, record=tarot_summary(contract=contract), user=staff["arbiter"])
    assert deal.status == Deal.Status.PENDING
    assert ScoreRow.objects.filter(deal=deal, counts=True).count() == 0
    approved = deal_approve(deal=deal, user=staff["chief"])
    assert approved.status == Deal.Status.VALID and approved.approved_by == staff["chief"]
    assert ScoreRow.objects.filter(deal=deal, counts=True).count() == 4
    with pytest.raises(StateConflict):
        deal_approve(deal=approved, user=staff["chief"])


@pytest.mark.parametrize("made", [True, False])
def test_an_announced_chelem_waits_for_the_visa(tarot_table, staff, made):
    """RULES.md §1.3 rule 14: a chelem announcement calls the arbiter, as a garde sans or a garde contre. A walk saw a
    Garde with a chelem announced saved « valide » at once. Made: 3 bouts, 91 points, every trick; S =
    (25 + 91 − 36) × 2 + 400 = 560 (taker 3 × 560). Failed: 2 bouts, 49 points (8 over 41): S = 33 × 2 − 200 = −134."""
    record = tarot_summary(oudlers=3 if made else 2, points=91 if made else 49)
    record["chelem_announced"] = True
    if made:
        record["summary"]["chelem"] = "attack"
    deal = deal_record(table=tarot_table, record=record, user=staff["arbiter"])
    assert deal.status == Deal.Status.PENDING
    assert ScoreRow.objects.filter(deal=deal, counts=True).count() == 0
    approved = deal_approve(deal=deal, user=staff["chief"])
    assert approved.status == Deal.Status.VALID
    assert rows(approved) == ([-560, 1680, -560, -560] if made else [134, -402, 134, 134])


def test_garde_sans_by_chief_arbiter_is_approved_at_once(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(contract="garde_sans"), user=staff["chief"])
    assert deal.status == Deal.Status.VALID and deal.approved_by == staff["chief"]
    # garde sans (coef 4), won by 8: S = 33 × 4 = 132
    assert rows(deal) == [-132, 396, -132, -132]


def test_a_recorded_deal_tells_the_one_hook_inside_its_transaction(tarot_table, staff, monkeypatch):
    from django.db import connection

    from tournaments.common import hooks

    called = []
    monkeypatch.setattr(hooks, "_subscribers", [lambda tid: called.append((tid, connection.in_atomic_block))])
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    assert called == [(tarot_table.round.tournament_id, True)]


def test_the_standings_subscribe_to_the_hook():
    from tournaments.common import hooks
    from tournaments.standings import tasks

    assert hooks.subscribers() == (tasks.ranking_refresh_on_commit,)


def test_duplicate_subscribes_to_the_deals_saved():
    from tournaments.common import hooks
    from tournaments.duplicate import service
    from tournaments.duplicate.models import DuplicateTable

    # … and checks a deal before it is saved (a summary's poignées against the étui's hands)
    assert hooks.deal_saved_subscribers() == (hooks.DealSavedSubscriber(service.deal_saved, DuplicateTable,
                                                                        service.deal_check),)


@pytest.mark.parametrize("change", ["release", "register", "withdraw", "team", "tie_breaks"])
def test_every_ranking_input_tells_the_hook(tarot_table, staff, monkeypatch, change):
    """What the four model signals did: a round released, an entry registered or withdrawn, a team's members,
    the tie-breaks changed each tell the standings (no signal does it behind the writer's back)."""
    from tournaments.common import hooks
    from tournaments.event import setup, teams
    from tournaments.event.models import Player

    tournament = tarot_table.round.tournament
    called = []
    monkeypatch.setattr(hooks, "_subscribers", [called.append])
    if change == "release":
        tournament.status = "running"
        tournament.save()
        setup.round_release(round=tarot_table.round, confirm_unfinished=True)  # no deal entered: confirmed
    elif change == "register":
        setup.player_register(tournament=tournament, player=Player.objects.create(name="Nouvelle Venue"))
    elif change == "withdraw":
        teams.entry_set_withdrawn(entry=tournament.entries.first(), withdrawn=True)
    elif change == "team":
        setup.team_create(tournament=tournament, name="Les Atouts", entries=list(tournament.entries.all()[:2]))
    else:
        setup.tournament_update(tournament=tournament, tie_breaks=[])
    assert called == [tournament.pk]


# -- rulings ---------------------------------------------------------------------------------------

def test_ruling_transfers_points_zero_sum(tarot_table, staff):
    seats = list(tarot_table.seats.order_by("position"))
    a, b = seats[0].entry_id, seats[1].entry_id
    with pytest.raises(InvalidInput) as caught:
        ruling_record(table=tarot_table, kind="renonce", reason="renonce au pli 4", user=staff["chief"],
                               adjustments={a: -20, b: 10})
    assert caught.value.field == "adjustments"
    ruling = ruling_record(table=tarot_table, kind="renonce", reason="renonce au pli 4",
                                    user=staff["chief"], adjustments={str(a): -20, str(b): 20})
    assert ScoreRow.objects.filter(ruling=ruling).aggregate(s=Sum("points"))["s"] == 0
    penalty = ruling_record(table=tarot_table, kind="slow_play", reason="jeu lent", user=staff["chief"],
                                     adjustments={a: -10}, is_penalty=True)
    assert list(ScoreRow.objects.filter(ruling=penalty).values_list("points", flat=True)) == [-10]


def test_ruling_rejects_an_entry_from_another_table(tarot_table, staff):
    other = seated_table(tarot_table.round.tournament, number=5)
    stranger = other.seats.first().entry_id
    with pytest.raises(InvalidInput) as caught:
        ruling_record(table=tarot_table, kind="other", reason="x", user=staff["chief"],
                               adjustments={stranger: 5}, is_penalty=True)
    assert caught.value.field == f"adjustments.{stranger}"


def test_ruling_can_annul_a_deal(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    ruling_record(table=tarot_table, deal=deal, kind="misdeal", reason="cartes mal distribuées",
                           user=staff["chief"], annuls_deal=True)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED


# -- setup -----------------------------------------------------------------------------------------

def test_tournament_lifecycle():
    user = UserFactory()
    t = tournament_create(name="Open de Lyon", game="tarot", user=user, options={"players": 4})
    assert t.status == "draft" and t.slug == "open-de-lyon"
    assert t.roles.get().role == "organizer"
    with pytest.raises(StateConflict):
        tournament_set_status(tournament=t, status="running")
    for status in ("open", "running", "finished"):
        tournament_set_status(tournament=t, status=status)
    assert tournament_create(name="Open de Lyon", game="tarot", user=user).slug == "open-de-lyon-2"
    with pytest.raises(InvalidInput) as caught:
        tournament_create(name="X", game="belote", user=user)
    assert caught.value.field == "game"
    with pytest.raises(InvalidInput) as caught:
        tournament_create(name="X", game="tarot", user=user, options={"players": 4, "colour": "red"})
    assert caught.value.field == "options.colour"


def test_round_seat_checks_the_seating():
    t = TournamentFactory(status="open")
    ids = [player_register(tournament=t, player=player_create(name=f"P{i}")).pk for i in range(9)]
    rnd = round_create(tournament=t)
    with pytest.raises(InvalidInput) as caught:
        round_seat(round=rnd, tables=[ids[:4], ids[3:7]])
    assert caught.value.field == "tables[1][0]"
    with pytest.raises(InvalidInput) as caught:
        round_seat(round=rnd, tables=[ids[:2]])
    assert caught.value.field == "tables[0]"
    with pytest.raises(InvalidInput) as caught:
        round_seat(round=rnd, tables=[[ids[0], ids[1], 99999]])
    assert caught.value.field == "tables[0][2]"
    tables = round_seat(round=rnd, tables=[ids[:4], ids[4:9]])
    assert [t.seats.count() for t in tables] == [4, 5]
    assert list(tables[1].seats.order_by("position").values_list("entry_id", flat=True)) == ids[4:9]
    assert round_create(tournament=t).number == 2
    assert Round.objects.filter(tournament=t).count() == 2 and Table.objects.filter(round=rnd).count() == 2


def test_players_csv_import_reports_each_bad_line():
    t = TournamentFactory(status="open")
    text = ("nom;club;licence\n"
            "Anne Moreau;Lyon;123456\n"
            ";Lyon;1\n"
            "Bruno Lefèvre;Nantes;123456\n"
            "Chloé;Nantes;12/34\n")
    result = players_import_csv(tournament=t, text=text)
    assert [(e["line"], e["field"]) for e in result.errors] == [(3, "name"), (4, "licence"), (5, "licence")]
    assert result.errors[0]["message"] == "Le nom est vide."  # CSV import errors in French
    assert t.entries.count() == 0
    ok = players_import_csv(tournament=t, text="name,club,licence,team\nAnne,Lyon,1,A\nBruno,,,A\n")
    assert ok.ok and [e.player.name for e in ok.entries] == ["Anne", "Bruno"]
    assert t.teams.get().entries.count() == 2
    again = players_import_csv(tournament=t, text=b"name,club,licence\nAnne,Lyon,1\n")
    assert again.ok and t.entries.count() == 2  # found by licence, registered once


def test_players_csv_without_name_column():
    t = TournamentFactory(status="open")
    result = players_import_csv(tournament=t, text="club,licence\nLyon,1\n")
    assert result.errors == [{"line": 1, "field": "name",
                              "message": "La première ligne doit nommer une colonne « nom » (ou « name »)."}]


def test_role_assign_for_table_arbiter(tarot_table):
    t = tarot_table.round.tournament
    user = UserFactory()
    obj = role_assign(tournament=t, user=user.username, role="arbiter", tables=[tarot_table])
    assert list(obj.tables.all()) == [tarot_table]
    with pytest.raises(InvalidInput):
        role_assign(tournament=t, user="nobody", role="arbiter")
    role(t, user, "arbiter")


def test_an_anonymous_entry_keeps_its_key_with_the_table_link(tarot_table):
    """Idempotency keys are kept per owner: an entry without an account keeps its key with the table's link it
    came through (before, the key was dropped and a form sent twice made two deals); with neither an account
    nor a link the key could not be kept, and nothing is saved."""
    from django.contrib.auth.models import AnonymousUser

    from tournaments.links.service import link_for_table

    link = link_for_table(table=tarot_table)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=AnonymousUser(),
                                idempotency_key="desk:abc", link=link)
    again = deal_record(table=tarot_table, record=tarot_summary(), user=AnonymousUser(),
                                 idempotency_key="desk:abc", link=link)
    assert deal.number == 1 and again.pk == deal.pk and again.idempotent_replay
    assert list(IdempotencyKey.objects.values_list("link_id", "user_id")) == [(link.pk, None)]
    with pytest.raises(ValueError):
        deal_record(table=tarot_table, record=tarot_summary(points=60), user=AnonymousUser(),
                             idempotency_key="desk:def")
    assert Deal.objects.count() == 1
