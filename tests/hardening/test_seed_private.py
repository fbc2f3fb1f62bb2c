"""``make run`` off 127.0.0.1 runs ``seed_demo --private-passwords``: the published password is never set."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

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


def test_seed_demo_refuses_without_development(settings):
    """Production settings (LEVEE_ENV unset): the published password is never set, and the command says why."""
    settings.DEVELOPMENT = False
    with pytest.raises(CommandError, match="LEVEE_ENV=development"):
        call_command("seed_demo", stdout=io.StringIO())
    assert not get_user_model().objects.filter(username="organisateur").exists()


def test_seed_demo_exits_non_zero_under_production_settings(tmp_path):
    """The command as a director would type it on a production server: a clear message and exit status 1."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "LEVEE_ENV": "production", "SECRET_KEY": "x" * 50,
           "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}", "DJANGO_SETTINGS_MODULE": "levee.settings"}
    done = subprocess.run([sys.executable, "manage.py", "seed_demo"], cwd=Path(__file__).resolve().parents[2],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "LEVEE_ENV=development" in done.stderr and "levee-demo" in done.stderr
    assert "Traceback" not in done.stderr
