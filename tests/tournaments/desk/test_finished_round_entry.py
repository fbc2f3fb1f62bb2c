"""A finished round's table: its table arbiter no longer enters deals there, by any route (the desk's pages, the
card-by-card page, the offline outbox, the API), as the table's own link already did not; he is told to call the
chief arbiter. The organizer and the chief arbiter still may (a forgotten deal), and a deal added once the round's
results are official is a line of the public ledger, as a correction is.

Marks by hand (FFT, four players): Bruno's garde with 2 bouts and 49 points (41 needed) is (25 + 8) × 2 = 66 a
defender, +198 the taker; the same garde taken by Chloé gives Chloé +198 and the others −66.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.event.models import Round
from tournaments.links.models import RoundClosing
from tournaments.standings import appeal, tasks
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(tarot_table, staff):
    """Round 1 with Bruno's garde saved, then finished by the organizer (its appeal window open)."""
    deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["arbiter"])
    round_set_status(round=tarot_table.round, status="finished")
    tarot_table.round.refresh_from_db()
    return tarot_table


def _form(**over):
    return {"mode": "record", "record": json.dumps(tarot_summary(**over))}


def test_the_table_arbiter_is_told_the_round_is_over_instead_of_the_way_to_enter_a_deal(client, finished, staff):
    client.force_login(staff["arbiter"])
    page = client.get(reverse("table_detail", args=[finished.pk])).content.decode()
    assert reverse("deal_enter", args=[finished.pk]) not in page
    assert 'id="round-closed"' in page and "Cette manche est finie" in page and "arbitre principal" in page


@pytest.mark.parametrize("name", ["deal_enter", "deal_play"])
def test_the_table_arbiter_cannot_open_the_entry_pages(client, finished, staff, name):
    client.force_login(staff["arbiter"])
    assert client.get(reverse(name, args=[finished.pk])).status_code == 403


def test_the_table_arbiter_cannot_save_a_deal_by_the_desk_or_the_api(client, finished, staff):
    client.force_login(staff["arbiter"])
    assert client.post(reverse("deal_enter", args=[finished.pk]), _form(taker=2)).status_code == 403
    answer = client.post(reverse("api:table-deals", args=[finished.pk]), {"record": tarot_summary(taker=2)},
                         content_type="application/json")
    assert answer.status_code == 403
    assert Deal.objects.filter(table=finished).count() == 1


def test_a_deal_the_outbox_sends_after_the_round_is_over_is_refused_with_the_reason(client, finished, staff):
    client.force_login(staff["arbiter"])
    answer = client.post(reverse("deal_offline", args=[finished.pk]), _form(taker=2),
                         headers={"Idempotency-Key": "late-1"})
    assert answer.status_code == 409
    assert answer.json()["message"] == ("Cette manche est finie : plus aucune donne ne se saisit à cette table. "
                                        "Appelez l’arbitre principal ; la donne reste sur cet appareil.")
    assert Deal.objects.filter(table=finished).count() == 1


@pytest.mark.parametrize("who", ["organizer", "chief"])
def test_the_referees_still_enter_a_forgotten_deal(client, finished, staff, who):
    client.force_login(staff[who])
    page = client.get(reverse("table_detail", args=[finished.pk])).content.decode()
    assert reverse("deal_enter", args=[finished.pk]) in page and 'id="round-closed"' not in page
    answer = client.post(reverse("deal_offline", args=[finished.pk]), _form(taker=2),
                         headers={"Idempotency-Key": f"late-{who}"})
    assert answer.status_code == 201
    assert Deal.objects.filter(table=finished).count() == 2


def test_a_deal_added_once_the_results_are_official_is_in_the_ledger(client, finished, staff):
    tournament = finished.round.tournament
    # inside the appeal window: the results are not official yet, nothing for the ledger
    deal_record(table=finished, record=tarot_summary(taker=2), user=staff["chief"])
    tasks.ranking_refresh(tournament.pk)
    assert appeal.ledger(tournament) == []
    RoundClosing.objects.filter(round=finished.round).update(official_at=timezone.now())
    deal_record(table=finished, record=tarot_summary(taker=2), user=staff["chief"])
    tasks.ranking_refresh(tournament.pk)
    (entry,) = appeal.ledger(tournament)
    assert (entry.kind, entry.round, entry.table, entry.deal) == ("added", 1, finished.number, 3)
    assert entry.who == "chief"
    Round.objects.filter(pk=finished.round_id).update(released=True)  # the public reads the released rounds
    page = client.get(reverse("public-ledger", args=[tournament.slug])).content.decode()
    assert "Donne ajoutée" in page and "manche 1, table 1, donne 3" in page


# -- what an arbiter reads when a deal cannot be saved: the words of the table, no code ------------------------


class _Verdict:
    def to_json(self, lang: str) -> dict:
        return {"violations": []}


@pytest.mark.parametrize(("why", "said"), [
    ("unfinished", "La donne ne peut pas être marquée : la donne n'est pas finie."),
    ("after_end", "La donne ne peut pas être marquée : la partie était déjà finie."),
    (None, "La donne ne peut pas être marquée : la donne n'est pas finie."),
    ("some_new_code", "La donne ne peut pas être marquée : la donne n'est pas finie."),
    ("le résumé ne compte que 17 plis", "La donne ne peut pas être marquée : le résumé ne compte que 17 plis."),
])
def test_a_deal_without_marks_says_why_in_words(why, said):
    from tournaments.deals.record import _unscored

    rejected = _unscored(0, ["Ana", "Bruno", "Chloé", "David"], _Verdict(), why)  # type: ignore[arg-type]
    assert rejected.to_json("fr")["message"] == said


def test_a_tarot_summary_without_its_taker_says_what_to_choose(tarot_table):
    from rules.errors import MalformedRecord
    from tournaments.deals.record import judge_tarot_deal

    fields = tarot_summary(taker=1)
    del fields["bid"]  # the tap page's summary, nothing chosen yet
    with pytest.raises(MalformedRecord) as found:
        judge_tarot_deal(tarot_table, fields)
    assert found.value.fr == "choisissez le preneur et le contrat (et, à cinq, le roi appelé)"


def test_back_after_a_save_asks_for_the_tap_page_again(client, tarot_table, staff):
    """The tap page is never kept by the browser (« Back » after a save showed the saved deal as still to enter),
    and a page the browser restores from memory reloads itself."""
    from django.contrib.staticfiles import finders

    client.force_login(staff["arbiter"])
    page = client.get(reverse("deal_play", args=[tarot_table.pk]))
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    script = Path(finders.find("js/deal-entry.js")).read_text(encoding="utf-8")
    assert 'addEventListener("pageshow"' in script and "event.persisted" in script


def test_a_table_arbiter_reads_who_corrects_a_deal(client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["arbiter"])
    client.force_login(staff["arbiter"])
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert 'id="who-corrects"' in page and "l’arbitre principal la corrige" in page
    assert reverse("deal_correct", args=[deal.pk]) not in page
    client.force_login(staff["chief"])
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert 'id="who-corrects"' not in page and reverse("deal_correct", args=[deal.pk]) in page


def test_the_organizer_finds_the_next_round_on_the_finished_rounds_page(client, finished, staff):
    tournament = finished.round.tournament
    tournament.rounds_planned = 2
    tournament.save(update_fields=["rounds_planned"])
    client.force_login(staff["organizer"])
    url = reverse("round_detail", args=[tournament.slug, 1])
    page = client.get(url).content.decode()
    assert 'id="next-round"' in page and reverse("round_create", args=[tournament.slug]) in page
    client.post(reverse("round_create", args=[tournament.slug]))
    assert 'id="next-round"' not in client.get(url).content.decode()  # round 2 exists: its page is the next step
    Round.objects.filter(tournament=tournament, number=2).update(status=Round.Status.FINISHED)
    page = client.get(reverse("round_detail", args=[tournament.slug, 2])).content.decode()
    assert 'id="next-round"' not in page  # the two rounds planned are made


def test_the_players_page_leads_on_to_the_round(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    client.force_login(staff["organizer"])
    page = client.get(reverse("players", args=[tournament.slug])).content.decode()
    step = page.split('id="next-step"', 1)[1].split("</p>", 1)[0]
    assert reverse("round_detail", args=[tournament.slug, 1]) in step and "Manche 1 : tables et tirage" in step
