"""Shared fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _french_first() -> Iterator[None]:
    """Every test starts in the site's language (French), whatever language an earlier test of the same process left
    active (a request in English, a ``translation.activate``): a service's message is then the French one."""
    from django.utils import translation

    translation.activate("fr")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """Hashing passwords with PBKDF2 dominates the tests that create users: use MD5 in tests only."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rates():
    """Request rates (throttling) are counted in the cache: each test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _public_state_read_at_every_request(settings):
    """The public pages keep a tournament's published state a tenth of a second (tournaments.public.published):
    a test reads the database again at every request, as it changes it between requests."""
    settings.LEVEE_PUBLIC_STATE_SECONDS = 0


@pytest.fixture(autouse=True)
def _renders_queued_not_run(settings, tmp_path):
    """The PDFs and the pages rendered at publication (tournaments.public.tasks) are queued in the test's process
    and run only when a test asks (``tasks.run_pending()``); the PDF files go to the test's own folder."""
    from tournaments.common import kept
    from tournaments.public import published, tasks

    settings.LEVEE_RENDER_IN = "manual"
    settings.LEVEE_PDF_ROOT = str(tmp_path / "pdf")
    kept.reset()
    published.forget_every_kept()  # the pages this process kept: a rolled-back database gives its ids again
    tasks.forget()
    yield
    tasks.forget()


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def tarot_table(db):
    """A running public Tarot tournament with one seated table of four (Ana, Bruno, Chloé, David)."""
    from tests.tournaments.factories import TournamentFactory, seated_table

    tournament = TournamentFactory(game="tarot", options={"players": 4})
    return seated_table(tournament, players=4, names=["Ana", "Bruno", "Chloé", "David"])


@pytest.fixture
def staff(db, tarot_table):
    """Users with each role on ``tarot_table``'s tournament: organizer, chief, arbiter (assigned), other arbiter,
    and an outsider."""
    from tests.tournaments.factories import TableFactory, UserFactory, role

    tournament = tarot_table.round.tournament
    users = {name: UserFactory(username=name) for name in ("organizer", "chief", "arbiter", "other_arbiter",
                                                          "outsider")}
    role(tournament, users["organizer"], "organizer")
    role(tournament, users["chief"], "chief_arbiter")
    role(tournament, users["arbiter"], "arbiter", [tarot_table])
    other = TableFactory(round=tarot_table.round, number=2)
    role(tournament, users["other_arbiter"], "arbiter", [other])
    return users


# -- the one browser of the session, shared by tests/browser and tests/events (two sync Playwrights in one
# process refuse to start: « Sync API inside the asyncio loop »). Playwright's sync API runs an event loop in
# this thread; Django's ORM calls from the tests are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
