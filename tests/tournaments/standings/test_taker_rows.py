"""``ScoreRow.taker`` kept right by every writer of score rows, through the services (issue 22 §3).

The rankings count a contract made as taker from the taker's own row (``ScoreRow.taker``) of a counting deal, when it
is positive. The mark is written with the rows (``deals.record._write_rows``): a correction that changes the taker moves
it, annulling and restoring keep it, a ruling's rows never carry it, and the rows written before the column are marked
by the migration (``tests/integration/test_upgrade.py``).

Figures by hand (``tarot_summary``: 2 oudlers): 49 points, needed 41, made by 8: (25 + 8) × 2 = 66 a defender in a
garde, +198 to the taker; 30 points, fallen by 11: (25 + 11) × 2 = 72, −216 to the taker; a garde sans ×4: 132 a
defender, +396 to the taker. The revoke of ``tests/golden/tarot-revoke.json``: a garde by Chloé (seat 2) fallen,
−270 to her, +90 to each defender.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_annul, deal_approve, deal_correct, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.deals.rulings import irregular_rule, ruling_record, ruling_withdraw
from tournaments.standings import rankings

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def names(table) -> dict[int, str]:
    return {s.entry_id: s.entry.player.name for s in table.seats.select_related("entry__player")}


def made(table) -> dict[str, int]:
    """Player → contracts made as taker, for those who made one (the totals the ranking reads)."""
    t = table.round.tournament
    who = names(table)
    return {who[x.entry]: x.won_as_taker
            for x in rankings.tarot_totals(t, list(t.rounds.values_list("id", flat=True))) if x.won_as_taker}


def marked(deal: Deal) -> list[tuple[str, int, bool]]:
    """(player, points, counts) of the rows marked as the taker's, the deal's and its rulings'."""
    return sorted(ScoreRow.objects.filter(deal=deal, taker=True)
                  .values_list("entry__player__name", "points", "counts"))


def test_a_correction_that_changes_the_taker_moves_the_mark(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["chief"])
    assert marked(deal) == [("Bruno", 198, True)]
    assert made(tarot_table) == {"Bruno": 1}
    deal = deal_correct(deal=deal, record=tarot_summary(taker=2), expected_version=1, reason="preneur mal saisi",
                        user=staff["chief"])
    assert marked(deal) == [("Chloé", 198, True)]
    assert made(tarot_table) == {"Chloé": 1}
    deal = deal_correct(deal=deal, record=tarot_summary(taker=2, points=30), expected_version=2,
                        reason="points mal comptés", user=staff["chief"])
    assert marked(deal) == [("Chloé", -216, True)]  # still the taker's row, but the contract fell
    assert made(tarot_table) == {}


def test_annulled_then_restored_counts_again(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["chief"])
    deal_annul(deal=deal, reason="mauvaise table", user=staff["chief"])
    assert marked(deal) == [("Bruno", 198, False)]
    assert made(tarot_table) == {}
    deal = deal_restore(deal=deal, reason="annulée par erreur", user=staff["organizer"])
    assert marked(deal) == [("Bruno", 198, True)]
    assert made(tarot_table) == {"Bruno": 1}


def test_a_pending_deal_counts_once_approved(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=3, contract="garde_sans"), user=staff["arbiter"])
    assert deal.status == Deal.Status.PENDING
    assert marked(deal) == [("David", 396, False)]
    assert made(tarot_table) == {}
    deal_approve(deal=deal, user=staff["chief"])
    assert marked(deal) == [("David", 396, True)]
    assert made(tarot_table) == {"David": 1}


def test_a_rulings_rows_are_never_the_takers(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=1, points=30), user=staff["chief"])
    assert made(tarot_table) == {}  # Bruno fell: −216
    who = {name: entry for entry, name in names(tarot_table).items()}
    # a ruling on the deal giving Bruno 300: his marks go up, but a ruling's row is no contract made
    ruling = ruling_record(table=tarot_table, kind="other", reason="erreur de marque", user=staff["chief"], deal=deal,
                           adjustments={who["Bruno"]: 300, who["Ana"]: -300})
    assert ScoreRow.objects.filter(ruling=ruling, taker=True).count() == 0
    assert marked(deal) == [("Bruno", -216, True)]
    assert made(tarot_table) == {}
    # a ruling that annuls a made contract takes it away; withdrawn, the deal and the contract come back
    second = deal_record(table=tarot_table, record=tarot_summary(taker=2, dealer=1), user=staff["chief"])
    assert made(tarot_table) == {"Chloé": 1}
    annulling = ruling_record(table=tarot_table, kind="misdeal", reason="maldonne", user=staff["chief"], deal=second,
                              annuls_deal=True)
    assert made(tarot_table) == {}
    ruling_withdraw(ruling=annulling, reason="pas de maldonne", user=staff["chief"])
    assert marked(Deal.objects.get(pk=second.pk)) == [("Chloé", 198, True)]
    assert made(tarot_table) == {"Chloé": 1}


def test_a_decided_irregular_deal_is_no_contract_made(tarot_table, staff):
    record = json.loads((GOLDEN / "tarot-revoke.json").read_text())
    deal = deal_record(table=tarot_table, record=record, user=staff["arbiter"], irregular=True)
    assert marked(deal) == [("Chloé", -270, False)]  # her own row, counting nowhere
    who = {name: entry for entry, name in names(tarot_table).items()}
    irregular_rule(deal=deal, decision="adjustment", reason="renonce d'Ana : Chloé marque 120",
                   adjustments={who["Chloé"]: 120, who["Ana"]: -120}, user=staff["chief"])
    # the ruling's rows hold the marks; Chloé's +120 is a ruling's, not the deal's: no contract made
    assert made(tarot_table) == {}
    totals = {names(tarot_table)[x.entry]: (x.marks, x.deals, x.rounds)
              for x in rankings.tarot_totals(tarot_table.round.tournament, [tarot_table.round_id])}
    assert totals == {"Ana": (-120, 1, 1), "Bruno": (0, 1, 1), "Chloé": (120, 1, 1), "David": (0, 1, 1)}
