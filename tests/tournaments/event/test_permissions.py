"""Permissions per role on every kind of endpoint: organizer, chief arbiter, table arbiter (assigned or
not), an outsider with an account, and the anonymous public."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.event import permissions
from tournaments.event.models import Tournament
from tournaments.event.setup import round_release

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "other_arbiter", "arbiter", "chief", "organizer"]


def client_as(api_client, staff, who):
    if who != "anonymous":
        api_client.force_authenticate(staff[who])
    return api_client


@pytest.fixture
def deal(tarot_table, staff):
    return deal_record(table=tarot_table, record=tarot_summary(contract="garde_sans"), user=staff["arbiter"])


def _denied(status: int) -> bool:
    """Refused: 401/403, or 404 for whoever may not even see the object (an unreleased round)."""
    return status in (401, 403, 404)


@pytest.mark.parametrize("who", ROLES)
def test_enter_deal(api_client, tarot_table, staff, who):
    response = client_as(api_client, staff, who).post(f"/api/tables/{tarot_table.pk}/deals/", tarot_summary(),
                                                      format="json")
    allowed = who in ("arbiter", "chief", "organizer")
    assert response.status_code == 201 if allowed else _denied(response.status_code)
    assert Deal.objects.count() == (1 if allowed else 0)


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("action", ["correct", "approve", "annul", "ruling"])
def test_referee_actions(api_client, tarot_table, staff, deal, who, action):
    client = client_as(api_client, staff, who)
    if action == "correct":
        response = client.put(f"/api/deals/{deal.pk}/", {"record": tarot_summary(), "reason": "r", "version": 1},
                              format="json")
    elif action == "approve":
        response = client.post(f"/api/deals/{deal.pk}/approve/")
    elif action == "annul":
        response = client.post(f"/api/deals/{deal.pk}/annul/", {"reason": "r"}, format="json")
    else:
        response = client.post(f"/api/tournaments/{tarot_table.round.tournament_id}/rulings/",
                               {"table": tarot_table.pk, "deal": deal.pk, "kind": "misdeal", "reason": "r",
                                "annuls_deal": True}, format="json")
    allowed = who in ("chief", "organizer")
    assert response.status_code in (200, 201) if allowed else _denied(response.status_code), response.content
    deal.refresh_from_db()
    assert (deal.version > 1 or deal.status != "pending") == allowed


@pytest.mark.parametrize("who", ROLES)
@pytest.mark.parametrize("action", ["patch", "round", "register", "role", "status"])
def test_organizer_actions(api_client, tarot_table, staff, who, action):
    tid = tarot_table.round.tournament_id
    client = client_as(api_client, staff, who)
    if action == "patch":
        response = client.patch(f"/api/tournaments/{tid}/", {"name": "Renamed"}, format="json")
    elif action == "round":
        response = client.post(f"/api/tournaments/{tid}/rounds/", {}, format="json")
    elif action == "register":
        response = client.post(f"/api/tournaments/{tid}/registrations/", {"name": "New"}, format="json")
    elif action == "role":
        response = client.post(f"/api/tournaments/{tid}/roles/", {"user": "outsider", "role": "arbiter"},
                               format="json")
    else:
        response = client.post(f"/api/tournaments/{tid}/status/", {"status": "finished", "confirm_unfinished": True},
                               format="json")
    if who == "organizer":
        assert response.status_code in (200, 201), response.content
    else:
        assert _denied(response.status_code)


@pytest.mark.parametrize("who", ROLES)
def test_reading_an_unreleased_round(api_client, tarot_table, staff, deal, who):
    client = client_as(api_client, staff, who)
    staff_roles = ("other_arbiter", "arbiter", "chief", "organizer")
    table = client.get(f"/api/tables/{tarot_table.pk}/")
    deals = client.get(f"/api/tables/{tarot_table.pk}/deals/")
    detail = client.get(f"/api/deals/{deal.pk}/")
    expected = 200 if who in staff_roles else 404
    assert (table.status_code, deals.status_code, detail.status_code) == (expected,) * 3
    # the tournament itself is public
    assert client.get(f"/api/tournaments/{tarot_table.round.tournament_id}/").status_code == 200
    rounds = client.get(f"/api/tournaments/{tarot_table.round.tournament_id}/rounds/").json()
    assert len(rounds) == (1 if who in staff_roles else 0)


@pytest.mark.parametrize("who", ROLES)
def test_reading_a_released_round(api_client, tarot_table, staff, deal, who):
    round_release(round=tarot_table.round, confirm_pending=True)  # its garde sans still awaits the visa
    client = client_as(api_client, staff, who)
    assert client.get(f"/api/tables/{tarot_table.pk}/deals/").status_code == 200
    assert client.get(f"/api/deals/{deal.pk}/versions/").status_code == 200
    assert client.get(f"/api/tables/{tarot_table.pk}/export/").status_code == 200


@pytest.mark.parametrize("who", ROLES)
def test_draft_tournament_is_hidden_from_the_public(api_client, tarot_table, staff, who):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status="draft")
    client = client_as(api_client, staff, who)
    response = client.get(f"/api/tournaments/{tarot_table.round.tournament_id}/")
    listed = client.get("/api/tournaments/").json()["results"]
    visible = who not in ("anonymous", "outsider")
    assert response.status_code == (200 if visible else 404)
    assert len(listed) == (1 if visible else 0)


def test_create_tournament_needs_the_permission(api_client, staff):
    api_client.force_authenticate(staff["outsider"])
    assert api_client.post("/api/tournaments/", {"name": "X", "game": "tarot"}, format="json").status_code == 403
    api_client.force_authenticate(None)
    assert _denied(api_client.post("/api/tournaments/", {"name": "X", "game": "tarot"}, format="json").status_code)


def test_superuser_is_organizer_everywhere(tarot_table, staff):
    from tests.tournaments.factories import UserFactory

    boss = UserFactory(is_superuser=True, is_staff=True)
    t = tarot_table.round.tournament
    assert permissions.can_manage(boss, t) and permissions.can_enter_deal(boss, tarot_table)
    assert not permissions.can_manage(staff["chief"], t) and permissions.can_referee(staff["chief"], t)
    assert not permissions.can_enter_deal(staff["other_arbiter"], tarot_table)


def test_token_auth(api_client, tarot_table, staff):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=staff["arbiter"])
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api_client.post(f"/api/tables/{tarot_table.pk}/deals/", tarot_summary(), format="json")
    assert response.status_code == 201
    got = api_client.post("/api/auth/token/", {"username": "arbiter", "password": "secret-pass"}, format="json")
    assert got.status_code == 200 and got.json()["token"] == token.key
