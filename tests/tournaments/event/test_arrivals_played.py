"""The arrivals page once rounds are played: a player seated at a table where a deal was played is there (a walk
read « 0 joueurs arrivés sur 8 », everyone « pas encore là », after two rounds). The draw says whom it seats
without their being checked in, once the organizer checks players in."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.event.models import Entry, Round, TournamentRole

pytestmark = pytest.mark.django_db

NAMES = ["Anaïs Bœuf", "Bruno", "Chloé", "David", "Élodie", "Karim", "Lucie", "Marie-Bernadette Delacroix-Montfort"]


@pytest.fixture
def organizer(client):
    user = get_user_model().objects.create_user("orga", password="x")
    client.force_login(user)
    return user


def _played(slug: str, organizer):
    t, e = make_tournament(NAMES, slug=slug)
    t.rounds_planned = 3
    t.save()
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    tables = make_round(t, 1, [[e[n] for n in NAMES[:4]], [e[n] for n in NAMES[4:]]])
    for table in tables:
        add_deal(table, [30, -10, -10, -10], taker=0)
    Round.objects.filter(tournament=t, number=1).update(status=Round.Status.FINISHED)
    return t, e


def test_players_who_played_are_there(client, organizer):
    t, _e = _played("arr-played", organizer)
    page = html.unescape(client.get(reverse("arrivals", args=[t.slug])).content.decode())
    assert "8 joueurs arrivés sur 8" in page
    assert "pas encore là" not in page
    assert page.count("a joué à la manche 1") == 8


def test_the_draw_names_those_placed_without_being_checked_in(client, organizer):
    t, e = make_tournament(NAMES, slug="arr-draw")
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    Entry.objects.filter(tournament=t).exclude(pk=e["Karim"].pk).update(checked_in_at=timezone.now())
    Round.objects.create(tournament=t, number=1)
    answer = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "random", "seed": "1"}, follow=True)
    page = html.unescape(answer.content.decode())
    assert "Tirage fait : 2 tables." in page
    assert "Placé sans être pointé à l'accueil : Karim." in page


def test_no_warning_when_nobody_is_checked_in_or_everyone_played(client, organizer):
    t, _e = _played("arr-draw2", organizer)
    Round.objects.create(tournament=t, number=2)
    page = html.unescape(client.post(reverse("round_draw", args=[t.slug, 2]), {"method": "rotation"},
                                     follow=True).content.decode())
    assert "Tirage fait : 2 tables." in page and "pointé" not in page
