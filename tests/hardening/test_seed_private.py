"""``make run`` off 127.0.0.1 runs ``seed_demo --private-passwords``: the published password is never set."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_private_passwords_never_set_the_published_one():
    user = get_user_model().objects.create_user("arbitre", password="mon-secret-a-moi")
    out = io.StringIO()
    call_command("seed_demo", "--private-passwords", stdout=out)
    user.refresh_from_db()
    assert user.check_password("mon-secret-a-moi") and not user.check_password("levee-demo")
    created = get_user_model().objects.get(username="organisateur")
    assert not created.check_password("levee-demo") and "levee-demo" not in out.getvalue()
    printed = next(line for line in out.getvalue().splitlines() if line.strip().startswith("organisateur /"))
    assert created.check_password(printed.split("/")[1].split()[0])
