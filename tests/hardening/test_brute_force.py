"""Issue 11 §9: guessing passwords is limited on the login page (django-axes) and the token endpoint (DRF)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_login_page_locks_a_name_out_after_five_failures(client, settings):
    UserFactory(username="arbitre", password="bon-mot-de-passe")
    url = reverse("login")
    codes = [client.post(url, {"username": "arbitre", "password": f"essai-{i}"}).status_code for i in range(5)]
    assert codes == [200] * 4 + [429]  # the form again with its error, then the fifth failure locks out
    locked = client.post(url, {"username": "arbitre", "password": "bon-mot-de-passe"})
    assert locked.status_code == 429 and "Trop de tentatives" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    UserFactory(username="autre", password="bon-mot-de-passe")
    other = client.post(url, {"username": "autre", "password": "bon-mot-de-passe"})
    assert other.status_code == 302  # another name is not locked out


def test_a_success_clears_the_count(client):
    UserFactory(username="arbitre", password="bon-mot-de-passe")
    url = reverse("login")
    for i in range(4):
        client.post(url, {"username": "arbitre", "password": f"essai-{i}"})
    assert client.post(url, {"username": "arbitre", "password": "bon-mot-de-passe"}).status_code == 302
    client.logout()
    for i in range(4):
        client.post(url, {"username": "arbitre", "password": f"encore-{i}"})
    assert client.post(url, {"username": "arbitre", "password": "bon-mot-de-passe"}).status_code == 302


def test_the_token_endpoint_is_throttled_per_address(api_client):
    UserFactory(username="arbitre", password="bon-mot-de-passe")
    # a different name each time: neither axes nor the per-name rate refuses, the address' rate (300/min) does
    codes = [api_client.post("/api/auth/token/", {"username": f"nom-{i}", "password": "x"}, format="json")
             .status_code for i in range(301)]
    assert codes[:300] == [400] * 300 and codes[300] == 429
    refused = api_client.post("/api/auth/token/", {"username": "arbitre", "password": "bon-mot-de-passe"},
                              format="json")
    assert refused.status_code == 429 and "token" not in refused.json() and "Retry-After" in refused


def test_a_hall_of_100_behind_one_address_each_gets_a_token(api_client):
    """A venue: every phone behind the router's one address; 100 people each log in once within the minute."""
    for i in range(100):
        UserFactory(username=f"joueur-{i}", password=f"mot-de-passe-{i}")
    codes = [api_client.post("/api/auth/token/", {"username": f"joueur-{i}", "password": f"mot-de-passe-{i}"},
                             format="json", REMOTE_ADDR="192.0.2.1").status_code for i in range(100)]
    assert codes == [200] * 100


def test_one_phones_wrong_passwords_throttle_that_name_only(api_client):
    """One careless phone at the venue retries a wrong password 20 times: refused for that name (axes' lockout,
    then the per-name rate), while the rest of the hall behind the same address still gets its tokens."""
    UserFactory(username="distrait", password="le-bon")
    for i in range(30):
        UserFactory(username=f"joueur-{i}", password=f"mot-de-passe-{i}")
    wrong = [api_client.post("/api/auth/token/", {"username": "distrait", "password": f"faux-{i}"},
                             format="json", REMOTE_ADDR="192.0.2.1").status_code for i in range(20)]
    assert wrong[:4] == [400] * 4 and set(wrong[4:]) == {429}
    others = [api_client.post("/api/auth/token/", {"username": f"joueur-{i}", "password": f"mot-de-passe-{i}"},
                              format="json", REMOTE_ADDR="192.0.2.1").status_code for i in range(30)]
    assert others == [200] * 30


def test_the_token_endpoint_is_throttled_per_name_across_addresses(api_client):
    """One name guessed from many addresses: axes (per name and address) never locks, the per-name rate
    (10/min) does; another name is not refused."""
    UserFactory(username="arbitre", password="bon-mot-de-passe")
    UserFactory(username="autre", password="bon-mot-de-passe")
    codes = [api_client.post("/api/auth/token/", {"username": "arbitre", "password": "x"}, format="json",
                             REMOTE_ADDR=f"198.51.100.{i}").status_code for i in range(11)]
    assert codes[:10] == [400] * 10 and codes[10] == 429
    assert api_client.post("/api/auth/token/", {"username": "arbitre", "password": "bon-mot-de-passe"}, format="json",
                           REMOTE_ADDR="198.51.100.99").status_code == 429
    assert api_client.post("/api/auth/token/", {"username": "autre", "password": "bon-mot-de-passe"}, format="json",
                           REMOTE_ADDR="198.51.100.99").status_code == 200


def test_a_lockout_on_the_api_is_json(api_client):
    UserFactory(username="arbitre", password="bon-mot-de-passe")
    answers = [api_client.post("/api/auth/token/", {"username": "arbitre", "password": f"x{i}"}, format="json")
               for i in range(6)]
    locked = answers[-1]
    assert locked.status_code == 429 and locked.json()["error"] == "locked_out" and "Retry-After" in locked
