"""The organizer creates his arbiters' accounts and resets their passwords from the tournament's staff page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import RequestFactory
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role
from tournaments.event.models import TournamentRole

pytestmark = pytest.mark.django_db


def _shown_password(html: str) -> str:
    return re.findall(r"<code[^>]*>([^<]+)</code>", html)[1]


def _can_log_in(username: str, password: str) -> bool:
    return authenticate(RequestFactory().post("/accounts/login/"), username=username, password=password) is not None


def test_the_organizer_creates_an_arbiter_with_his_tables(client, tarot_table, staff):
    slug = tarot_table.round.tournament.slug
    client.force_login(staff["organizer"])
    page = client.get(reverse("staff", args=[slug])).content.decode()
    assert "Créer le compte d'un arbitre" in page or "Create an arbiter" in page
    # every id once: the role form and the account form both have « role » radios, and shared ids gave the radio
    # « organisateur » both labels (« organisateur arbitre principal », a walk's screen reader)
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    response = client.post(reverse("staff_account_create", args=[slug]), {
        "username": "arbitre-table-1", "name": "Marie-Bernadette Delacroix-Montfort", "role": "arbiter",
        "tables": [tarot_table.pk]})
    assert response.status_code == 200
    password = _shown_password(response.content.decode())
    user = get_user_model().objects.get(username="arbitre-table-1")
    assert _can_log_in("arbitre-table-1", password)
    assert user.first_name == "Marie-Bernadette Delacroix-Montfort" and not user.is_staff
    assigned = TournamentRole.objects.get(user=user, tournament=tarot_table.round.tournament)
    assert assigned.role == "arbiter" and list(assigned.tables.all()) == [tarot_table]
    taken = client.post(reverse("staff_account_create", args=[slug]), {"username": "ARBITRE-table-1",
                                                                       "role": "arbiter"})
    assert taken.status_code == 422 and get_user_model().objects.filter(username__iexact="arbitre-table-1").count() == 1
    organizer = client.post(reverse("staff_account_create", args=[slug]), {"username": "chef2", "role": "organizer"})
    assert organizer.status_code == 422 and not get_user_model().objects.filter(username="chef2").exists()


def test_the_organizer_resets_his_arbiters_password_only(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    client.force_login(staff["organizer"])
    url = reverse("staff_password_reset", args=[tournament.slug, staff["arbiter"].pk])
    response = client.post(url)
    assert response.status_code == 200
    password = _shown_password(response.content.decode())
    assert _can_log_in("arbiter", password) and not _can_log_in("arbiter", "secret-pass")
    # an arbiter who also works for another club's tournament: not his to reset
    elsewhere = TournamentFactory()
    role(elsewhere, staff["chief"], "arbiter")
    assert client.post(reverse("staff_password_reset", args=[tournament.slug, staff["chief"].pk])).status_code == 403
    # a fellow organizer, or a user without a role here: no
    other_org = UserFactory(username="co-orga")
    role(tournament, other_org, "organizer")
    assert client.post(reverse("staff_password_reset", args=[tournament.slug, other_org.pk])).status_code == 403
    assert client.post(reverse("staff_password_reset", args=[tournament.slug, staff["outsider"].pk])
                       ).status_code == 404
    # an arbiter cannot reset anyone's
    staff["arbiter"].refresh_from_db()  # his password changed above
    client.force_login(staff["arbiter"])
    assert client.post(reverse("staff_password_reset", args=[tournament.slug, staff["other_arbiter"].pk])
                       ).status_code == 403
