"""La Triomphe par équipes after creation: the settings page offers the create form's « Jeu par équipes : les
partenaires jouent ensemble » until the first round begins (the sides of a table of 4: partners side by side,
RULES.md §2.2 rule 3, ``options.teams`` [[0, 1], [2, 3]]); a round drawn but not begun is drawn again (its tables,
drawn for the sides of before, are dropped and the organizer told so); the change is refused in clear French once
a round has begun."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.common.errors import StateConflict
from tournaments.event import setup
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db

LABEL = "Jeu par équipes : les partenaires jouent ensemble"
FROZEN = "La première manche a commencé : le jeu par équipes ne change plus."
REDRAW = "Le jeu par équipes a changé : les tables de la manche 1 sont effacées, tirez-la de nouveau."


@pytest.fixture
def triomphe():
    tournament = TournamentFactory(name="Triomphe de Blois", game="triomphe", options={"players": 4},
                                   status=Tournament.Status.OPEN, rounds_planned=3)
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    return tournament, organizer


def post(client, tournament, **extra):
    data = {"name": tournament.name, "rounds_planned": "3", "round_minutes": "60", "partners_shown": "1", **extra}
    return client.post(reverse("tournament_settings", args=[tournament.slug]), data)


def test_the_settings_offer_the_partners_and_set_the_sides(client, triomphe):
    tournament, organizer = triomphe
    client.force_login(organizer)
    page = html.unescape(client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode())
    assert LABEL in page and 'name="partners"' in page
    assert post(client, tournament, partners="on").status_code == 302
    tournament.refresh_from_db()
    assert tournament.options == {"players": 4, "teams": [[0, 1], [2, 3]]}
    page = client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode()
    assert 'name="partners" checked' in page or ('name="partners"' in page and "checked" in page)
    assert post(client, tournament).status_code == 302  # unticked: each plays alone again
    tournament.refresh_from_db()
    assert tournament.options == {"players": 4}


def test_a_table_of_two_cannot_play_by_partners(client, triomphe):
    tournament, organizer = triomphe
    Tournament.objects.filter(pk=tournament.pk).update(options={"players": 2})
    client.force_login(organizer)
    refused = post(client, tournament, partners="on")
    assert refused.status_code == 422
    assert "le jeu par équipes se joue à 4 joueurs par table (deux contre deux) ou à 6 (trois contre trois), pas à 2" \
        in html.unescape(refused.content.decode())
    assert Tournament.objects.get(pk=tournament.pk).options == {"players": 2}


def test_a_round_drawn_not_begun_still_lets_the_partners_change_and_is_drawn_again(client, triomphe):
    """Frozen as soon as a table was drawn before: the organizer who drew round 1 and then saw the partners were
    not set could not set them any more, though nobody had played."""
    tournament, organizer = triomphe
    table = seated_table(tournament, players=4)
    client.force_login(organizer)
    page = html.unescape(client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode())
    assert LABEL in page and "disabled" not in page.split('name="partners"')[1].split(">")[0]
    assert "changer le jeu par équipes les efface, la manche sera à tirer de nouveau" in page
    done = post(client, tournament, partners="on")
    assert done.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).options == {"players": 4, "teams": [[0, 1], [2, 3]]}
    assert not Round.objects.get(pk=table.round_id).tables.exists()  # drawn for each alone: to draw again
    said = html.unescape(client.get(done["Location"]).content.decode())
    assert REDRAW in said


def test_once_a_round_has_begun_the_partners_are_fixed_and_said_so(client, triomphe):
    tournament, organizer = triomphe
    table = seated_table(tournament, players=4)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.RUNNING)
    client.force_login(organizer)
    page = html.unescape(client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode())
    assert LABEL in page and FROZEN in page and "disabled" in page.split('name="partners"')[1].split(">")[0]
    refused = post(client, tournament, partners="on")  # a page opened before the round began, sent after
    assert refused.status_code == 422
    assert FROZEN in html.unescape(refused.content.decode())
    assert Tournament.objects.get(pk=tournament.pk).options == {"players": 4}
    assert Round.objects.get(pk=table.round_id).tables.exists()
    with pytest.raises(StateConflict) as exc:
        setup.tournament_set_partners(tournament=tournament, partners=True)
    assert exc.value.field == "partners" and str(exc.value.message).startswith(FROZEN)


def test_a_running_tournament_without_tables_may_still_choose(triomphe):
    tournament, _organizer = triomphe
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    Round.objects.create(tournament=tournament, number=1)  # created, not drawn
    tournament.refresh_from_db()
    setup.tournament_set_partners(tournament=tournament, partners=True)
    assert Tournament.objects.get(pk=tournament.pk).options["teams"] == [[0, 1], [2, 3]]


def test_a_game_without_partners_does_not_offer_them(client):
    tournament = TournamentFactory(game="tarot", options={"players": 4}, status=Tournament.Status.OPEN)
    organizer = UserFactory(username="orga-tarot")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    page = client.get(reverse("tournament_settings", args=[tournament.slug])).content.decode()
    assert 'name="partners"' not in page
