"""Teams and withdrawals: the services, the organizer's page and who may use it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import make_tournament
from tests.tournaments.factories import UserFactory, role
from tournaments.common.errors import InvalidInput
from tournaments.event.models import Entry, Round, Team
from tournaments.event.teams import entry_set_withdrawn, team_delete, team_set_members
from tournaments.standings import rankings, tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    t, e = make_tournament("ABCDEFGH", slug="eq", teams={"Nord": "AB"})
    users = {name: UserFactory(username=f"eq-{name}") for name in ("organizer", "chief", "arbiter", "outsider")}
    role(t, users["organizer"], "organizer")
    role(t, users["chief"], "chief_arbiter")
    role(t, users["arbiter"], "arbiter")
    return t, e, users


def names(team):
    return sorted(team.entries.values_list("player__name", flat=True))


def test_set_members_moves_players_between_teams_and_delete_frees_them(people):
    t, e, _ = people
    nord = Team.objects.get(tournament=t, name="Nord")
    sud = Team.objects.create(tournament=t, name="Sud")
    team_set_members(team=sud, entries=[e["B"].pk, e["C"].pk])
    assert names(nord) == ["A"] and names(sud) == ["B", "C"]
    team_set_members(team=sud, entries=[e["C"].pk])
    assert names(sud) == ["C"] and Entry.objects.get(pk=e["B"].pk).team is None
    with pytest.raises(InvalidInput) as exc:
        team_set_members(team=sud, entries=[e["C"].pk, 999999])
    assert exc.value.field == "members[1]"
    version = rankings.ranking_status(t).version
    team_delete(team=sud)
    assert not Team.objects.filter(pk=sud.pk).exists() and Entry.objects.get(pk=e["C"].pk).team is None
    assert rankings.ranking_status(t).version > version  # the team ranking's inputs changed


def test_withdrawn_player_is_not_drawn_and_can_come_back(people):
    from tournaments.standings import draw as seating_service

    t, e, _ = people
    entry_set_withdrawn(entry=e["H"], withdrawn=True)
    rnd = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=rnd, method="rotation")
    seated = set(rnd.tables.values_list("seats__entry__player__name", flat=True))
    assert "H" not in seated and len(seated) == 7
    entry_set_withdrawn(entry=e["H"], withdrawn=False)
    assert not Entry.objects.get(pk=e["H"].pk).withdrawn


@pytest.mark.parametrize("who, allowed", [("organizer", True), ("chief", False), ("arbiter", False),
                                          ("outsider", False)])
def test_teams_page_per_role(client, people, who, allowed):
    t, e, users = people
    client.force_login(users[who])
    url = reverse("teams", args=[t.slug])
    assert client.get(url).status_code == (200 if allowed else 403)
    response = client.post(url, {"action": "create", "name": "Est", "members": [e["C"].pk, e["D"].pk]})
    assert response.status_code == (302 if allowed else 403)
    assert Team.objects.filter(tournament=t, name="Est").exists() == allowed
    response = client.post(url, {"action": "withdraw", "entry": e["G"].pk})
    assert Entry.objects.get(pk=e["G"].pk).withdrawn == allowed


def test_teams_page_anonymous_goes_to_login(client, people):
    t, _e, _ = people
    response = client.get(reverse("teams", args=[t.slug]))
    assert response.status_code == 302 and reverse("login") in response.url


def test_teams_page_actions(client, people):
    t, e, users = people
    client.force_login(users["organizer"])
    url = reverse("teams", args=[t.slug])
    html = client.get(url).content.decode()
    assert "Nord" in html and 'value="withdraw"' in html
    # a duplicate name is refused on the form, as typed
    html = client.post(url, {"action": "create", "name": "Nord"}).content.decode()
    assert "has-error" in html and Team.objects.filter(tournament=t).count() == 1
    nord = Team.objects.get(tournament=t, name="Nord")
    client.post(url, {"action": "members", "team": nord.pk, "members": [e["A"].pk, e["E"].pk]})
    assert names(nord) == ["A", "E"]
    client.post(url, {"action": "withdraw", "entry": e["E"].pk})
    html = client.get(url).content.decode()
    assert "badge-bad" in html and 'value="reinstate"' in html
    client.post(url, {"action": "reinstate", "entry": e["E"].pk})
    assert not Entry.objects.get(pk=e["E"].pk).withdrawn
    client.post(url, {"action": "delete", "team": nord.pk})
    assert not Team.objects.filter(pk=nord.pk).exists()
    # another tournament's team cannot be touched from here
    other, _ = make_tournament("XY", slug="autre", teams={"Loin": "XY"})
    far = Team.objects.get(tournament=other)
    assert client.post(url, {"action": "delete", "team": far.pk}).status_code == 404


def test_team_ranking_follows_the_teams_page(client, people):
    from tests.integration.builders import add_deal, make_round

    t, e, users = people
    (table,) = make_round(t, 1, [[e["A"], e["C"], e["B"], e["D"]]])
    add_deal(table, [75, -25, -25, -25], taker=0)
    client.force_login(users["organizer"])
    client.post(reverse("teams", args=[t.slug]), {"action": "create", "name": "Sud", "members": [e["C"].pk,
                                                                                                e["D"].pk]})
    tasks.ranking_refresh(t.pk)
    html = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    # Nord = A 75 + B −25 = 50, Sud = C −25 + D −25 = −50
    assert html.index(">Nord<") < html.index(">Sud<") and "-50" in html
