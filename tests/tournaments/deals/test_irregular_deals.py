"""Irregular deals (RULES.md §1.13 rules 37–40): a deal with a renonce is saved as played with its violations,
counts in no ranking, calls the arbiter, and the chief's ruling decides.

The Tarot deal is ``tests/golden/tarot-revoke.json``: a garde by Chloé (seat 2), 2 bouts, 21 points; Ana (seat 0)
fails to follow clubs at trick 3. Needed 41, fallen by 20: S = −(25 + 20) × 2 = −90; the taker −3 × 90 = −270, each
defender +90 (RULES.md §1.9 rule 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db.models import Sum

from tournaments.common.errors import DealRejected, InvalidInput, StateConflict
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import irregular_rule, irregular_waiting, ruling_withdraw
from tournaments.links.models import ArbiterCall

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def revoke() -> dict:
    return json.loads((GOLDEN / "tarot-revoke.json").read_text())


def counted(table) -> dict[str, int]:
    """Each player's counted marks at the table (what the Tarot ranking sums)."""
    qs = (ScoreRow.objects.filter(table=table, counts=True).values("entry__player__name")
          .annotate(total=Sum("points")))
    return {r["entry__player__name"]: r["total"] for r in qs}


def test_a_renonce_is_refused_without_the_flag_and_saved_irregular_with_it(tarot_table, staff):
    with pytest.raises(DealRejected):
        deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"])
    assert Deal.objects.count() == 0
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    assert deal.status == Deal.Status.IRREGULAR and deal.get_status_display() == "irrégulière"
    assert deal.verdict["legal"] is False
    first = deal.verdict["violations"][0]
    assert (first["trick"], first["seat"], first["card"]) == (2, 0, "8D")
    # scored as played, counting nowhere until ruled
    marks = dict(ScoreRow.objects.filter(deal=deal).values_list("entry__player__name", "points"))
    assert marks == {"Ana": 90, "Bruno": 90, "Chloé": -270, "David": 90}
    assert counted(tarot_table) == {}
    assert irregular_waiting(deal)
    # the arbiter is called
    call = ArbiterCall.objects.get(deal=deal)
    assert call.state == ArbiterCall.State.OPEN and call.reason == ArbiterCall.Reason.RENONCE
    assert "décision de l'arbitre attendue" in call.note


def test_a_malformed_deal_is_refused_even_with_the_flag(tarot_table, staff):
    from tournaments.common.errors import MalformedDeal

    with pytest.raises(MalformedDeal):
        deal_record(table=tarot_table, record={**revoke(), "dealer": 9}, user=staff["arbiter"], irregular=True)
    assert Deal.objects.count() == 0


def test_tarot_ruled_as_played_counts_the_marks_as_played(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="renonce vue trop tard", user=staff["chief"])
    assert counted(tarot_table) == {"Ana": 90, "Bruno": 90, "Chloé": -270, "David": 90}
    assert ruling.created_by == staff["chief"] and "telle que jouée" in ruling.reason
    assert "renonce vue trop tard" in ruling.reason and ruling.deal_id == deal.pk
    assert not irregular_waiting(deal)
    with pytest.raises(StateConflict):
        irregular_rule(deal=deal, decision="annul", reason="", user=staff["chief"])
    # withdrawn: the deal waits again and counts nowhere
    ruling_withdraw(ruling=ruling, reason="erreur", user=staff["chief"])
    assert counted(tarot_table) == {} and irregular_waiting(deal)


def test_tarot_annulled(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    irregular_rule(deal=deal, decision="annul", reason="", user=staff["chief"])
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED and counted(tarot_table) == {}


def test_tarot_adjustment_typed_by_the_arbiter_with_a_reason(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    entries = {s.entry.player.name: s.entry_id for s in tarot_table.seats.select_related("entry__player")}
    with pytest.raises(InvalidInput) as caught:
        irregular_rule(deal=deal, decision="adjustment", reason="", user=staff["chief"],
                       adjustments={entries["Ana"]: -60, entries["Chloé"]: 60})
    assert caught.value.field == "reason"
    with pytest.raises(InvalidInput) as caught:  # a transfer sums to zero (A-T10: no invented fixed sanction)
        irregular_rule(deal=deal, decision="adjustment", reason="renonce", user=staff["chief"],
                       adjustments={entries["Ana"]: -60})
    assert caught.value.field == "adjustments"
    irregular_rule(deal=deal, decision="adjustment", reason="renonce d'Ana", user=staff["chief"],
                   adjustments={entries["Ana"]: -60, entries["Chloé"]: 60})
    assert counted(tarot_table) == {"Ana": -60, "Chloé": 60}


def test_tarot_has_no_law_43_nor_preset(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    for decision in ("let_stand", "replay", "penalty", "bogus"):
        with pytest.raises(InvalidInput) as caught:
            irregular_rule(deal=deal, decision=decision, reason="x", user=staff["chief"])
        assert caught.value.field == "decision"
    assert Ruling.objects.count() == 0


# -- L'Écarté: law 43 (RULES.md §3.5 rule 20) ------------------------------------------------------

# Ana deals (seat 0), trumps hearts (7H turned); Bruno plays d'autorité. Trick 1: Bruno leads 8C, Ana plays 9S
# holding AC (a renonce: she must follow and beat). Ana then wins tricks 2–5: 4 tricks, the point (1) and, since
# Bruno declined the exchange, the point de refus (1): 2 as played (RULES.md §3.4 rules 12–13).
ECARTE_RENONCE = {"dealer": 0, "hands": [["AC", "QH", "JH", "10S", "9S"], ["8C", "7D", "9H", "8H", "10C"]],
                  "turn_up": "7H", "exchanges": [{"seat": 1, "action": "play"}],
                  "tricks": [["8C", "9S"], ["10C", "AC"], ["QH", "8H"], ["JH", "9H"], ["10S", "7D"]]}


@pytest.fixture
def ecarte_table(db):
    from tests.tournaments.factories import TournamentFactory, seated_table

    tournament = TournamentFactory(game="ecarte", options={"players": 2}, target=5)
    return seated_table(tournament, players=2, names=["Ana", "Bruno"])


@pytest.fixture
def chief(ecarte_table):
    from tests.tournaments.factories import UserFactory, role

    user = UserFactory(username="chef")
    role(ecarte_table.round.tournament, user, "chief_arbiter")
    return user


def ruling_points(ruling) -> dict[str, int]:
    return dict(ScoreRow.objects.filter(ruling=ruling).values_list("entry__player__name", "points"))


def test_ecarte_renonce_saved_irregular_out_of_the_match(ecarte_table, chief):
    with pytest.raises(DealRejected):
        deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief)
    deal = deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief, irregular=True)
    assert deal.status == Deal.Status.IRREGULAR
    assert deal.verdict["violations"][0]["seat"] == 0 and deal.verdict["violations"][0]["card"] == "9S"
    assert dict(ScoreRow.objects.filter(deal=deal).values_list("entry__player__name", "points")) == {
        "Ana": 2, "Bruno": 0}
    ecarte_table.refresh_from_db()
    assert not ecarte_table.match_totals and counted(ecarte_table) == {}
    assert ArbiterCall.objects.filter(deal=deal).exists()


def test_ecarte_let_stand_the_offender_marks_one_less(ecarte_table, chief):
    # law 43: the offender winning the point after the adversary played without proposing marks only 1
    deal = deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief, irregular=True)
    ruling = irregular_rule(deal=deal, decision="let_stand", reason="Bruno laisse la donne", user=chief)
    assert ruling_points(ruling) == {"Ana": 1}
    ecarte_table.refresh_from_db()
    assert ecarte_table.match_totals == [1, 0]
    # the next deal follows in the match (Bruno deals: the irregular deal passed the deal on)
    assert "loi 43" in ruling.reason and ruling.deal_id == deal.pk


def test_ecarte_replay_annuls_and_other_decisions(ecarte_table, chief):
    deal = deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief, irregular=True)
    with pytest.raises(InvalidInput) as caught:
        irregular_rule(deal=deal, decision="penalty", reason="", user=chief)
    assert caught.value.field == "decision"
    irregular_rule(deal=deal, decision="replay", reason="", user=chief)
    deal.refresh_from_db()
    ecarte_table.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED and not ecarte_table.match_totals


def test_ecarte_as_played_counts_two(ecarte_table, chief):
    deal = deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief, irregular=True)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="", user=chief)
    assert ruling_points(ruling) == {"Ana": 2}
    ecarte_table.refresh_from_db()
    assert ecarte_table.match_totals == [2, 0]


def test_withdrawing_a_replay_brings_the_irregular_deal_back_waiting(ecarte_table, chief):
    deal = deal_record(table=ecarte_table, record=ECARTE_RENONCE, user=chief, irregular=True)
    ruling = irregular_rule(deal=deal, decision="replay", reason="", user=chief)
    ruling_withdraw(ruling=ruling, reason="l'adversaire laisse la donne", user=chief)
    deal.refresh_from_db()
    assert deal.status == Deal.Status.IRREGULAR and irregular_waiting(deal)
    ecarte_table.refresh_from_db()
    assert not ecarte_table.match_totals and counted(ecarte_table) == {}
    irregular_rule(deal=deal, decision="let_stand", reason="", user=chief)
    ecarte_table.refresh_from_db()
    assert ecarte_table.match_totals == [1, 0]


# -- the ranking: a deal decided by the chief was played ------------------------------------------------

def ranked_deals(table) -> dict[str, tuple[int, int]]:
    """Each player's (marks, deals played) as the Tarot ranking aggregates them."""
    from tournaments.standings.rankings import tarot_totals

    tournament = table.round.tournament
    names = {s.entry_id: s.entry.player.name for s in table.seats.select_related("entry__player")}
    return {names[t.entry]: (t.marks, t.deals) for t in tarot_totals(tournament, [table.round_id])
            if t.entry in names}


def test_an_irregular_deal_decided_counts_as_a_deal_played_in_the_ranking(tarot_table, staff):
    # before the ruling: nobody has played a counted deal (« pas encore joué » on the ranking)
    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    assert ranked_deals(tarot_table) == {"Ana": (0, 0), "Bruno": (0, 0), "Chloé": (0, 0), "David": (0, 0)}
    # counted as played: each of the four played one deal, whatever its marks
    ruling = irregular_rule(deal=deal, decision="as_played", reason="", user=staff["chief"])
    assert ranked_deals(tarot_table) == {"Ana": (90, 1), "Bruno": (90, 1), "Chloé": (-270, 1), "David": (90, 1)}
    # the arbiter's marks leave Bruno and David at 0: they played the deal all the same
    ruling_withdraw(ruling=ruling, reason="erreur", user=staff["chief"])
    entries = {s.entry.player.name: s.entry_id for s in tarot_table.seats.select_related("entry__player")}
    ruling = irregular_rule(deal=deal, decision="adjustment", reason="renonce d'Ana", user=staff["chief"],
                            adjustments={entries["Ana"]: -60, entries["Chloé"]: 60})
    assert ranked_deals(tarot_table) == {"Ana": (-60, 1), "Bruno": (0, 1), "Chloé": (60, 1), "David": (0, 1)}
    # annulled: no deal played
    ruling_withdraw(ruling=ruling, reason="erreur", user=staff["chief"])
    irregular_rule(deal=deal, decision="annul", reason="", user=staff["chief"])
    assert ranked_deals(tarot_table) == {"Ana": (0, 0), "Bruno": (0, 0), "Chloé": (0, 0), "David": (0, 0)}


# -- a correction of an irregular deal -------------------------------------------------------------------

def _legal_fields() -> dict:
    """A legal deal at the same table: the golden revoke's record replayed without its renonce is not at hand, so
    a random legal deal of four (dealer 3, like the golden one)."""
    import random

    from rules.tarot import random_record

    record = random_record(random.Random(3), players=4, dealer=3)
    return {k: v for k, v in record.items() if k not in ("format", "game", "options", "players")}


def test_a_ruled_irregular_deal_is_corrected_only_once_its_ruling_is_withdrawn(tarot_table, staff):
    """Ruled « as played », the deal's marks count through the ruling (+90 +90 −270 +90); a correction then would
    make the deal valid, its own marks counting beside the ruling's (seen in the dress rehearsal: both counted).
    Refused, naming the ruling; withdrawn, the waiting deal is corrected and counts once, as corrected."""
    from tournaments.deals.record import deal_correct

    deal = deal_record(table=tarot_table, record=revoke(), user=staff["arbiter"], irregular=True)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="", user=staff["chief"])
    with pytest.raises(StateConflict) as caught:
        deal_correct(deal=deal, record=_legal_fields(), expected_version=deal.version, reason="recompté",
                     user=staff["chief"])
    assert caught.value.code == "irregular_ruled"
    assert counted(tarot_table) == {"Ana": 90, "Bruno": 90, "Chloé": -270, "David": 90}
    ruling_withdraw(ruling=ruling, reason="la donne est recomptée", user=staff["chief"])
    deal.refresh_from_db()
    corrected = deal_correct(deal=deal, record=_legal_fields(), expected_version=deal.version, reason="recompté",
                             user=staff["chief"])
    assert corrected.status == Deal.Status.VALID
    own = dict(ScoreRow.objects.filter(deal=deal, ruling__isnull=True).values_list("entry__player__name", "points"))
    assert counted(tarot_table) == own and sum(own.values()) == 0
