"""A table arbiter keeps his tables from one round to the next (a phone walk: given tables 1 and 2 of round 1, the
arbiter found nothing under « Mes tables » at round 2, the table page offered no entry and said nothing, and the
organizer was never told). Table 3 is the same table of the hall from one round to the next: the draw of the next
round gives him the same numbers, a seating made again keeps them, a duplicate's rounds made at once get them when
he is given round 1's. Where he still has none, his pages say who gives them."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.event import setup
from tournaments.event.models import TournamentRole
from tournaments.links import service as links
from tournaments.standings.draw import round_draw

pytestmark = pytest.mark.django_db

NAMES = [f"Joueur {i}" for i in range(1, 9)]


@pytest.fixture
def event():
    t, entries = make_tournament(NAMES, slug="suite-arbitre")
    e = [entries[n] for n in NAMES]
    tables = make_round(t, 1, [e[:4], e[4:]])
    arbiter = UserFactory(username="arbitre-suite")
    setup.role_assign(tournament=t, user=arbiter, role="arbiter", tables=[tables[1]])  # table 2 of round 1
    return t, e, arbiter


def numbers(arbiter, t, round_number):
    role = TournamentRole.objects.get(tournament=t, user=arbiter, role="arbiter")
    return sorted(role.tables.filter(round__number=round_number).values_list("number", flat=True))


def test_the_next_round_drawn_gives_him_the_same_table_numbers(event):
    t, _e, arbiter = event
    rnd = setup.round_create(tournament=t)
    round_draw(round=rnd, method="random", seed=3)
    assert numbers(arbiter, t, 2) == [2]


def test_a_seating_made_again_keeps_his_tables(event):
    t, e, arbiter = event
    rnd = setup.round_create(tournament=t)
    setup.round_seat(round=rnd, tables=[[x.pk for x in e[:4]], [x.pk for x in e[4:]]])
    assert numbers(arbiter, t, 2) == [2]
    setup.round_seat(round=rnd, tables=[[x.pk for x in e[4:]], [x.pk for x in e[:4]]])  # seated again
    assert numbers(arbiter, t, 2) == [2]


def test_rounds_made_at_once_follow_when_he_is_given_round_ones(event):
    t, e, _arbiter = event
    later = make_round(t, 2, [e[:4], e[4:]]) + make_round(t, 3, [e[:4], e[4:]])
    other = UserFactory(username="arbitre-deux")
    first = t.rounds.get(number=1).tables.get(number=1)
    setup.role_assign(tournament=t, user=other, role="arbiter", tables=[first])
    assert [numbers(other, t, r) for r in (1, 2, 3)] == [[1], [1], [1]]
    assert later  # rounds 2 and 3 existed before he was named


def test_an_arbiter_without_this_table_is_told_who_gives_it(client, event):
    t, _e, arbiter = event
    table_one = t.rounds.get(number=1).tables.get(number=1)
    client.force_login(arbiter)
    page = html.unescape(client.get(reverse("table_detail", args=[table_one.pk])).content.decode())
    assert 'id="not-assigned"' in page and "Cette table ne vous est pas confiée pour la manche 1" in page
    assert reverse("deal_enter", args=[table_one.pk]) not in page


def test_an_arbiter_who_scans_the_tables_code_gets_his_entry(client, event):
    t, _e, arbiter = event
    mine = t.rounds.get(number=1).tables.get(number=2)
    client.force_login(arbiter)
    page = client.get(reverse("link_home", args=[links.link_for_table(table=mine).token])).content.decode()
    assert reverse("deal_enter", args=[mine.pk]) in page  # tables do not enter their deals here: his own entry
    other = t.rounds.get(number=1).tables.get(number=1)
    page = html.unescape(client.get(reverse("link_home", args=[links.link_for_table(table=other).token]))
                         .content.decode())
    assert 'id="not-assigned"' in page and reverse("deal_enter", args=[other.pk]) not in page
