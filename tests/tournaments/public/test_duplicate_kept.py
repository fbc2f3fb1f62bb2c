"""A duplicate's étuis and their travellers are rendered in the quiet pass after a publication (issue 22: new pages
are rendered at publication, not by each web worker's first reader; a traveller took 1.6 – 2.0 s at 1,000 players):
afterwards a reader's request renders nothing, in French or in English."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Table
from tournaments.public import duplicate, tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db


def test_the_travellers_are_rendered_in_the_quiet_pass_not_by_their_first_reader(monkeypatch):
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=3, status="running",
                                   is_public=True)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="test")
    user = UserFactory(username="chief")
    for number in (1, 2, 3, 4):  # round 1: every table plays both étuis (tables 2 and 4 start with étui 2)
        table = Table.objects.get(round__tournament=tournament, round__number=1, number=number)
        if number % 2 == 0:
            deal_record(table=table, user=user, record=tarot_summary(taker=2, points=50, dealer=1))
        deal_record(table=table, user=user, record=tarot_summary(taker=1, points=40 + number, dealer=0))
        if number % 2 == 1:
            deal_record(table=table, user=user, record=tarot_summary(taker=2, points=50, dealer=1))
    tournament.rounds.filter(number=1).update(released=True)
    standings_tasks.ranking_refresh(tournament.pk)
    tasks.run_pending()  # the publication's pages, then its quiet pass
    made: list[int] = []
    real = duplicate.traveller
    monkeypatch.setattr(duplicate, "traveller", lambda t, etui, **k: made.append(etui.number) or real(t, etui, **k))
    for lang in ("fr", "en"):
        client = Client()
        client.cookies["django_language"] = lang
        index = client.get(reverse("public-etuis", args=[tournament.slug]))
        assert index.status_code == 200
        for number in (1, 2):
            page = client.get(reverse("public-etui", args=[tournament.slug, number]))
            assert page.status_code == 200 and "Joueur" in page.content.decode()
        assert client.get(reverse("public-etui", args=[tournament.slug, 3])).status_code == 404  # round 2's
    assert made == []  # every page was in the cache before its first reader
