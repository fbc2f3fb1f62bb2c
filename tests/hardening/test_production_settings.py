"""Issue 11 §4: the production settings refuse to start without a secret key, keep DEBUG off and hosts closed
unless asked, send HSTS, secure cookies and a CSP, and pass ``manage.py check --deploy``; development mode is
explicit (``LEVEE_ENV=development``, as ``make run`` sets it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY = "x" * 30 + "-a-production-secret-for-the-test-only-0123456789"
PROBE = ("from django.conf import settings as s; import json; print(json.dumps({'debug': s.DEBUG, 'hosts': "
         "s.ALLOWED_HOSTS, 'hsts': s.SECURE_HSTS_SECONDS, 'cookie': s.SESSION_COOKIE_SECURE, 'csrf': "
         "s.CSRF_COOKIE_SECURE, 'csp': getattr(s, 'CONTENT_SECURITY_POLICY', None), 'redirect': "
         "s.SECURE_SSL_REDIRECT}))")


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"LEVEE_ENV", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS",
                                                               "HTTPS", "CSP", "CSP_REPORT_ONLY",
                                                               "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    clean.update({"DJANGO_SETTINGS_MODULE": "levee.settings", **env})
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def _settings(**env: str) -> dict:
    import json

    done = _run("-c", "import django; django.setup(); " + PROBE, **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_production_refuses_to_start_without_a_key():
    done = _run("manage.py", "check")
    assert done.returncode != 0 and "SECRET_KEY is not set" in done.stderr
    published = _run("manage.py", "check", SECRET_KEY="levee-dev-only-secret-key-change-me-in-production-0123456789")
    assert published.returncode != 0 and "published development key" in published.stderr
    wsgi = _run("-c", "import levee.wsgi")
    assert wsgi.returncode != 0 and "SECRET_KEY" in wsgi.stderr


def test_production_defaults_are_safe():
    prod = _settings(SECRET_KEY=KEY)
    assert prod["debug"] is False and "*" not in prod["hosts"]
    assert prod["hsts"] >= 31_536_000 and prod["cookie"] and prod["csrf"] and prod["redirect"]
    assert prod["csp"]["DIRECTIVES"]["default-src"] == ["'self'"]
    custom = _settings(SECRET_KEY=KEY, CSP="default-src 'self'; img-src 'self' https://example.org",
                       ALLOWED_HOSTS="tournoi.example.org", DEBUG="true")
    assert custom["csp"]["DIRECTIVES"]["img-src"] == ["'self'", "https://example.org"]
    assert custom["hosts"] == ["tournoi.example.org"] and custom["debug"] is True  # DEBUG only when asked
    venue = _settings(SECRET_KEY=KEY, HTTPS="false")
    assert venue["cookie"] is False and venue["hsts"] == 0 and venue["redirect"] is False


def test_development_is_explicit():
    dev = _settings(LEVEE_ENV="development")
    assert dev["debug"] is True and dev["hosts"] == ["*"] and dev["cookie"] is False


def test_check_deploy_is_clean_with_the_production_settings():
    done = _run("manage.py", "check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=KEY)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_arbitrate_command_needs_no_production_key():
    done = _run("manage.py", "arbitrate", "tests/golden/tarot-garde-4p.json")
    assert done.returncode == 0, done.stderr
