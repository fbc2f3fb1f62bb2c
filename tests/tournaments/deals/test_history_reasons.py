"""Nothing a user typed is lost: the reason of a deal's creation, correction or annulment and of a ruling or its
withdrawal is kept whole in the history (the history's column held 100 characters and the rest was cut)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.rulings import ruling_record, ruling_withdraw

pytestmark = pytest.mark.django_db

# 262 characters, with the « Œ » of a real name and the end that was cut
LONG = ("Feuille relue avec les quatre joueurs : le preneur, M. BŒUF, avait compté 49 points mais la défense en "
        "a recompté 47 après vérification des plis ; l'arbitre principal a confirmé le décompte de la défense "
        "et la table a signé la feuille corrigée — FIN DU MOTIF")


def test_a_long_correction_reason_is_kept_whole_in_the_versions(api_client, tarot_table, staff):
    api_client.force_authenticate(staff["chief"])
    deal = api_client.post(f"/api/tables/{tarot_table.pk}/deals/", tarot_summary(), format="json").json()
    fixed = api_client.put(f"/api/deals/{deal['id']}/", {"record": tarot_summary(points=47), "reason": LONG,
                                                         "version": 1}, format="json")
    assert fixed.status_code == 200, fixed.json()
    annulled = api_client.post(f"/api/deals/{deal['id']}/annul/", {"reason": LONG + " (annulée)", "version": 2},
                               format="json")
    assert annulled.status_code == 200, annulled.json()
    versions = api_client.get(f"/api/deals/{deal['id']}/versions/").json()
    assert [v["reason"] for v in versions[:2]] == [LONG + " (annulée)", LONG]
    assert Deal.objects.get(pk=deal["id"]).history.filter(history_change_reason=LONG).count() == 1


def test_a_long_ruling_reason_and_its_withdrawal_are_kept_whole(tarot_table, staff):
    seats = list(tarot_table.seats.order_by("position"))
    ruling = ruling_record(table=tarot_table, deal=None, kind=Ruling.Kind.SLOW_PLAY, reason=LONG,
                           user=staff["chief"], adjustments={seats[0].entry_id: -10}, is_penalty=True)
    ruling = ruling_withdraw(ruling=ruling, reason="retirée : " + LONG, user=staff["chief"])
    reasons = list(ruling.history.order_by("history_id").values_list("history_change_reason", flat=True))
    assert reasons == [LONG, "retirée : " + LONG]
