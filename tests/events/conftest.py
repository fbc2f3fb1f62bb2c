"""Fixtures of the dress rehearsal: an event driver whose requests run the on-commit work (the ranking's
refresh, eager without a broker) as the service does after each request."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from tests.events.harness import Event


@pytest.fixture
def event(db, django_capture_on_commit_callbacks) -> Callable[..., Event]:
    """Make an :class:`Event` (its keywords: see ``Event.__init__``)."""
    made: list[Event] = []
    quiet = logging.getLogger("django.request")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # the 403 and 404 the role checks expect, not the 5xx they refuse

    def make(**kwargs) -> Event:
        ev = Event(django_capture_on_commit_callbacks, **kwargs)
        made.append(ev)
        return ev

    yield make
    quiet.setLevel(level)
    for ev in made:
        print(ev.report())
