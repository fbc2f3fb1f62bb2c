"""Real-service tests: PostgreSQL, Redis and a Celery worker started as a subprocess.

With ``LEVEE_REQUIRE_SERVICES=1`` (CI) a missing service FAILS the test; without it (a laptop)
the test is skipped. The worker process needs to see the test database, so on SQLite the test
database is a file rather than pytest-django's in-memory default.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        test = db.setdefault("TEST", {})
        if not test.get("NAME"):
            test["NAME"] = str(Path(tempfile.gettempdir()) / f"levee-test-{os.getpid()}.sqlite3")
