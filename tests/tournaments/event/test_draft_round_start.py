"""A draft tournament's deals (a phone walk: the organizer created round 1 of a tournament still « brouillon »,
drew it, printed the tables' codes; the arbiter entered a whole deal and read « la donne enfreint une règle … les
donnes se saisissent pendant le tournoi (il est brouillon) », a sentence he could do nothing about). Now the table
says so before any entry, and « Commencer la manche » starts the tournament too."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(tarot_table):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.DRAFT)
    Round.objects.filter(pk=tarot_table.round_id).update(status=Round.Status.PLANNED)
    tarot_table.round.refresh_from_db()
    tarot_table.round.tournament.refresh_from_db()
    return tarot_table


def test_the_table_says_the_tournament_has_not_begun_before_any_entry(client, draft, staff):
    client.force_login(staff["arbiter"])
    page = html.unescape(client.get(reverse("table_detail", args=[draft.pk])).content.decode())
    assert 'id="why-not"' in page and "Le tournoi n'a pas commencé" in page and "« Commencer la manche »" in page
    assert reverse("deal_enter", args=[draft.pk]) not in page
    sent_back = client.get(reverse("deal_play", args=[draft.pk]), follow=True)
    assert sent_back.redirect_chain[-1][0] == reverse("table_detail", args=[draft.pk])


def test_starting_the_round_starts_the_tournament(client, draft, staff):
    tournament = draft.round.tournament
    client.force_login(staff["organizer"])
    answer = client.post(reverse("round_status", args=[tournament.slug, 1]), {"status": "running"}, follow=True)
    said = html.unescape(answer.content.decode())
    assert "Manche 1 : en cours. Le tournoi passe à « en cours »." in said
    tournament.refresh_from_db()
    draft.round.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and draft.round.status == Round.Status.RUNNING
    client.force_login(staff["arbiter"])
    page = client.get(reverse("table_detail", args=[draft.pk])).content.decode()
    assert 'id="why-not"' not in page and reverse("deal_enter", args=[draft.pk]) in page
