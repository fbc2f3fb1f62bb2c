"""La Triomphe par équipes (RULES.md §2.2 rule 3): the organizer chooses partners at the creation, the draw seats
each team as one side of a table of four, and a team that cannot fill a side is refused in words."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.integration.builders import make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.common.errors import InvalidInput
from tournaments.event.models import Round, Tournament
from tournaments.organizer.forms import TournamentForm
from tournaments.standings import draw as seating_service
from tournaments.templatetags.conventions import conventions

pytestmark = pytest.mark.django_db

FORM = {"name": "Open de la Triomphe", "game": "triomphe", "format": "teams", "rounds_planned": "2"}


def _creator(client):
    user = UserFactory(username="orga-sides")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)


def test_the_create_form_offers_partners_for_the_triomphe_only(client):
    assert TournamentForm.games_of("partners") == ["triomphe"]
    _creator(client)
    page = client.get(reverse("tournament_create")).content.decode()
    assert 'data-games="triomphe" data-field="partners"' in page
    assert "Jeu par équipes : les partenaires jouent ensemble" in page


@pytest.mark.parametrize(("players", "teams"), [("", [[0, 1], [2, 3]]), ("4", [[0, 1], [2, 3]]),
                                                ("6", [[0, 1, 2], [3, 4, 5]])])
def test_partners_make_the_sides_of_the_tables(client, players, teams):
    _creator(client)
    response = client.post(reverse("tournament_create"), {**FORM, "players_triomphe": players, "partners": "on"})
    assert response.status_code == 302, response.content.decode()[:3000]
    options = Tournament.objects.get(name=FORM["name"]).options
    assert options["teams"] == teams and options["players"] == len(teams) * len(teams[0])


def test_partners_at_three_a_table_are_refused_in_french_on_the_field(client):
    _creator(client)
    response = client.post(reverse("tournament_create"), {**FORM, "players_triomphe": "3", "partners": "on"})
    assert response.status_code == 200 and not Tournament.objects.filter(name=FORM["name"]).exists()
    assert response.context["form"].errors["partners"] == [
        "le jeu par équipes se joue à 4 joueurs par table (deux contre deux) ou à 6 (trois contre trois), pas à 3"]


def test_partners_ticked_for_another_game_change_nothing(client):
    _creator(client)
    response = client.post(reverse("tournament_create"), {**FORM, "game": "ecarte", "players_ecarte": "2",
                                                          "partners": "on"})
    assert response.status_code == 302
    assert "teams" not in Tournament.objects.get(name=FORM["name"]).options


def test_the_conventions_say_two_against_two_in_words():
    assert conventions({"players": 4, "teams": [[0, 1], [2, 3]]}) == ["Joueurs par table 4", "deux contre deux"]
    assert conventions({"teams": [[0, 1, 2], [3, 4, 5]]}) == ["trois contre trois"]


def _sides_event(slug: str, teams: dict[str, list[str]], names: list[str]) -> Tournament:
    t, _ = make_tournament(names, game="triomphe", slug=slug, teams=teams)
    t.options = {"players": 4, "teams": [[0, 1], [2, 3]], "mode": "forcee", "order": "1725"}
    t.save()
    return t


def test_the_draw_seats_each_team_as_one_side():
    t = _sides_event("tri-sides", {"Les Atouts": ["A", "B"], "La Retourne": ["C", "D"]}, list("ABCD"))
    rnd = Round.objects.create(tournament=t, number=1)
    (table,) = seating_service.round_draw(round=rnd, method="swiss")
    names = [s.entry.player.name for s in table.seats.order_by("position")]
    assert {frozenset(names[:2]), frozenset(names[2:])} == {frozenset("AB"), frozenset("CD")}


@pytest.mark.parametrize(("teams", "names", "said"), [
    ({"Les Atouts": ["A", "B", "C"], "La Retourne": ["D"]}, list("ABCD"),
     "l'équipe Les Atouts compte 3 joueur(s) présent(s) : un camp en compte 2"),
    ({"Les Atouts": ["A", "B"], "La Retourne": ["C", "D"]}, list("ABCDE"),
     "Jeu par équipes : E n'est dans aucune équipe (page « Équipes et forfaits »)."),
])
def test_a_team_that_cannot_fill_a_side_is_refused_on_the_method(teams, names, said):
    t = _sides_event(f"tri-bad-{len(names)}", teams, names)
    rnd = Round.objects.create(tournament=t, number=1)
    with pytest.raises(InvalidInput) as info:
        seating_service.round_draw(round=rnd, method="swiss")
    assert info.value.field == "method" and said in info.value.message


def test_the_round_page_says_which_side_plays_against_which(client):
    t = _sides_event("tri-page", {"Les Atouts": ["Anne", "Bruno"], "La Retourne": ["Chloé", "Denis"]},
                     ["Anne", "Bruno", "Chloé", "Denis"])
    rnd = Round.objects.create(tournament=t, number=1)
    (table,) = seating_service.round_draw(round=rnd, method="swiss")
    a, b, c, d = (s.entry.player.name for s in table.seats.order_by("position"))
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    assert f"{a} · {b} <em>contre</em> {c} · {d}" in page
