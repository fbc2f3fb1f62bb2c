"""Publishing a round of a private tournament (a phone walk: a new tournament is private by default, « Publier »
answered « Manche 1 : publication mise à jour. » while its public pages were a 404 for everyone else). The answer
says the tournament is not public yet, with a link to its « Public » setting; a public tournament's is unchanged."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import tarot_summary
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db


def _publish(client, table, staff):
    deal_record(table=table, record=tarot_summary(), user=staff["chief"])
    client.force_login(staff["organizer"])
    slug = table.round.tournament.slug
    answer = client.post(reverse("round_release", args=[slug, 1]), {"released": "1"}, follow=True)
    assert Round.objects.get(pk=table.round_id).released
    return html.unescape(answer.content.decode())


def test_publishing_a_private_tournament_says_it_is_not_public_and_where_to_change_it(client, tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(is_public=False)
    said = _publish(client, tarot_table, staff)
    slug = tarot_table.round.tournament.slug
    assert "Manche 1 : publication mise à jour." in said
    assert "Le tournoi n'est pas encore public : seule son équipe voit cette manche." in said
    assert f'<a href="{reverse("tournament_settings", args=[slug])}#id_is_public">Le rendre public' in said
    settings = client.get(reverse("tournament_settings", args=[slug])).content.decode()
    assert 'id="id_is_public"' in settings
    client.logout()
    assert client.get(reverse("public-round", args=[slug, 1])).status_code == 404


def test_publishing_a_public_tournament_says_nothing_more(client, tarot_table, staff):
    said = _publish(client, tarot_table, staff)
    assert "Manche 1 : publication mise à jour." in said and "pas encore public" not in said
