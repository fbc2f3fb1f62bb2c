"""Players sign what they see (issue 19, items 2, 4, 6): the deal in the table's words before « Je confirme », a
dispute says why and the chief reads it, no dispute once the tournament is finished and its results official, no
database id on a link's pages, and the chief's page refreshes its lists in place instead of reloading itself.

Marks by hand (FFT): Bruno's garde, 2 bouts, 49 points (41 needed): (25 + 8) × 2 = 66 per defender, +198 the taker.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import tarot_summary
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Seat, Tournament
from tournaments.links import service as sheet
from tournaments.links.models import ArbiterCall, DealAnswer, RoundClosing, TablePolicy

pytestmark = pytest.mark.django_db


def _entries(table):
    return [s.entry for s in Seat.objects.filter(table=table).select_related("entry__player").order_by("position")]


def test_the_link_shows_the_deal_in_words_before_i_confirm(client, tarot_table):
    deal = deal_record(table=tarot_table, record=tarot_summary(petit_au_bout="attack"), user=None)
    link = sheet.link_for_table(table=tarot_table)
    page = client.get(reverse("link_deal", args=[link.token, 1])).content.decode()
    words = page[page.index('class="deal-words"'):page.index("I confirm" if "I confirm" in page else "Je confirme")]
    assert "Bruno" in words and "Garde" in words and "49" in words and "Petit au bout" in words
    player = sheet.link_for_entry(entry=_entries(tarot_table)[0])
    page = client.get(reverse("player_home", args=[player.token])).content.decode()
    assert 'class="deal-words"' in page and "Garde" in page and "49" in page
    assert deal.number == 1
    # Tarot's marks sum to zero (−66 × 3 + 198): the check is shown
    page = client.get(reverse("link_deal", args=[link.token, 1])).content.decode()
    total = page.split('class="row sheet-sum"', 1)[1].split("</li>", 1)[0]
    assert "Somme des marques" in total and ">0 ✓<" in total


def test_no_database_id_on_a_link_s_pages(client, tarot_table):
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    # ids far from the numbers a page shows (deal 1, table 1, round 1, seats 0-3)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    player = sheet.link_for_entry(entry=_entries(tarot_table)[0])
    pages = [f"/k/{link.token}/", f"/k/{link.token}/deal/", f"/k/{link.token}/deal/?mode=summary",
             f"/k/{link.token}/deal/?mode=record", f"/k/{link.token}/deals/1/", f"/k/{link.token}/call/",
             f"/j/{player.token}/"]
    for url in pages:
        page = client.get(url).content.decode()
        targets = re.findall(r'(?:href|action)="([^"#]+)"', page)
        mine = [t for t in targets if not t.startswith(("/static/", "/i18n/", "/accounts/login/")) and t != "/"]
        token = link.token if url.startswith("/k/") else player.token
        assert all(t.startswith((f"/k/{token}/", f"/j/{token}/")) for t in mine), (url, mine)
        assert "/desk/" not in page and f'name="entry" value="{_entries(tarot_table)[0].pk}"' not in page
    assert f"/deals/{deal.pk}/" not in client.get(f"/k/{link.token}/").content.decode() or deal.pk == deal.number


def test_a_dispute_says_why_and_the_chief_reads_it(client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    chloe = _entries(tarot_table)[2]
    with pytest.raises(InvalidInput) as no_reason:
        sheet.deal_answer(deal=deal, entry=chloe, answer="disputed", note="  ")
    assert no_reason.value.field == "note"
    link = sheet.link_for_table(table=tarot_table)
    url = reverse("link_deal", args=[link.token, 1])
    client.post(url, {"seat": 2, "answer": "disputed"})
    assert not DealAnswer.objects.exists() and not ArbiterCall.objects.exists()
    client.post(url, {"seat": 2, "answer": "disputed", "note": "49 points, pas 51"})
    call = ArbiterCall.objects.get()
    assert (call.entry, call.note) == (chloe, "49 points, pas 51")
    client.force_login(staff["chief"])
    page = client.get(reverse("chief_page", args=[tarot_table.round.tournament.slug])).content.decode()
    assert "« 49 points, pas 51 »" in page


def test_no_dispute_once_the_tournament_is_finished_and_its_results_official(client, tarot_table):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    rnd, tournament = tarot_table.round, tarot_table.round.tournament
    chloe = _entries(tarot_table)[2]
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    closing = RoundClosing.objects.create(round=rnd, finished_at=timezone.now(),
                                          official_at=timezone.now() + timedelta(minutes=10))
    deal.refresh_from_db()
    assert not sheet.dispute_closed(deal)  # provisional: still open to a dispute
    RoundClosing.objects.filter(pk=closing.pk).update(official_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(StateConflict):
        sheet.deal_answer(deal=deal, entry=chloe, answer="disputed", note="trop tard")
    link = sheet.link_for_table(table=tarot_table)
    page = client.get(reverse("link_deal", args=[link.token, 1])).content.decode()
    # nothing left to answer: neither button, the sheet says why (it asked « Je confirme » of a finished event)
    assert 'value="disputed"' not in page and 'value="confirmed"' not in page
    assert "la donne ne se confirme ni ne se conteste plus" in page
    mine = sheet.link_for_entry(entry=chloe)
    home = client.get(reverse("player_home", args=[mine.token])).content.decode()
    assert 'value="confirmed"' not in home and 'value="disputed"' not in home
    assert "la donne ne se confirme ni ne se conteste plus" in home and "player-deal\" open" not in home
    client.post(reverse("link_deal", args=[link.token, 1]), {"seat": 2, "answer": "disputed", "note": "trop tard"})
    assert not ArbiterCall.objects.exists()
    sheet.deal_answer(deal=deal, entry=chloe, answer="confirmed")  # the service still takes a confirmation (API)


def test_the_chief_s_page_refreshes_its_lists_in_place(client, tarot_table, staff):
    client.force_login(staff["chief"])
    page = client.get(reverse("chief_page", args=[tarot_table.round.tournament.slug])).content.decode()
    assert 'http-equiv="refresh"' not in page
    for part in ("calls", "visa", "disputed", "progress", "answered"):
        section = re.search(rf'<section id="{part}"[^>]*>', page).group(0)
        assert 'hx-trigger="every 30s"' in section and f'hx-select="#{part}"' in section
    assert "js/chief.js" in page


def test_a_table_asks_for_a_correction_of_a_deal_through_its_link(client, tarot_table):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    page = client.get(reverse("link_deal", args=[link.token, 1])).content.decode()
    ask = f"/k/{link.token}/call/?deal=1"
    assert ask in page
    form = client.get(ask).content.decode()
    assert re.search(r'<option value="1" selected>', form) and 'value="other"' in form
    client.post(f"/k/{link.token}/call/", {"reason": "other", "deal": "1", "note": "Chloé avait la poignée"})
    call = ArbiterCall.objects.get()
    assert (call.deal, call.note, call.link) == (deal, "Chloé avait la poignée", link)
