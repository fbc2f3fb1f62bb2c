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

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


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
