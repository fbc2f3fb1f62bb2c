"""The entry pages propose the next dealer by the game's rule: La Triomphe by teams (RULES.md §2.2 rule 6), 2 v 2
with partners side by side (seats 0-1 against 2-3): seat 1 deals (seat 2, an opponent, leads), then the other
team deals through seat 3, whose first hand (seat 0) is an opponent — not seat 2, the previous first hand."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_table(client):
    tournament = TournamentFactory(game="triomphe", options={"teams": [[0, 1], [2, 3]]}, target=5)
    table = seated_table(tournament, players=4, names=["Marie-Bernadette Delacroix-Montfort", "Bruno", "Chloé",
                                                         "David"])
    user = UserFactory(username="arbitre-equipes")
    role(tournament, user, "arbiter", [table])
    client.force_login(user)
    return table


def deal(table, number: int, dealer: int, status: str = Deal.Status.VALID) -> Deal:
    return Deal.objects.create(table=table, number=number, record={"dealer": dealer, "turn_up": "9H"},
                               verdict={}, status=status)


def proposed(client, table) -> tuple[int, int]:
    """The dealer of the tap-to-play page's configuration, and of the JSON entry's starting record."""
    play = client.get(reverse("deal_play", args=[table.pk]))
    assert play.status_code == 200
    entry = client.get(reverse("deal_enter", args=[table.pk]) + "?mode=record")
    assert entry.status_code == 200
    start = json.loads(entry.context["form"]["record"].value())
    return play.context["config"]["dealer"], start["dealer"]


def test_the_entry_pages_propose_the_next_team_dealer(client, team_table):
    assert proposed(client, team_table) == (0, 0)  # no deal yet: the draw decides, seat 0 proposed
    deal(team_table, 1, 1)
    assert proposed(client, team_table) == (3, 3)  # the other team, through seat 3 (not 2)
    deal(team_table, 2, 3)
    assert proposed(client, team_table) == (1, 1)  # back to the first team's dealer (not 0)
    deal(team_table, 3, 1, Deal.Status.ANNULLED)  # annulled: the proposal follows the deals that count
    assert proposed(client, team_table) == (1, 1)
