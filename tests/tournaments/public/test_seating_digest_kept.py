"""The seating's digest (the key of the placement and score-sheet PDFs) is kept as long as a published state
(20 × ``LEVEE_PUBLIC_STATE_SECONDS``): every request for those PDFs, a 304 among them, read every seat of the round
(10,000 at a big event) to compute it. A swap must still change the key once the moment has passed, and with no
keeping (0, the tests' setting) every call reads the seats."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.integration.builders import make_round, make_tournament
from tournaments.event.models import Seat
from tournaments.public import hall

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    t, e = make_tournament("ABCDEFGH", slug="digest")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    hall._digests.clear()
    yield t, e
    hall._digests.clear()


def swap(t, e):
    """A and E change tables."""
    a, b = Seat.objects.get(entry=e["A"], table__round__tournament=t), Seat.objects.get(entry=e["E"])
    Seat.objects.filter(pk=a.pk).update(entry=e["H"])  # A's place held a moment (one entry per table)
    Seat.objects.filter(pk=b.pk).update(entry=e["A"])
    Seat.objects.filter(pk=a.pk).update(entry=e["E"])


def test_kept_a_moment_then_read_again(seated, settings, monkeypatch):
    t, e = seated
    settings.LEVEE_PUBLIC_STATE_SECONDS = 0.25  # the digest: 20 times as long, 5 s
    clock = [1000.0]
    monkeypatch.setattr(hall.time, "monotonic", lambda: clock[0])
    first = hall.seating_digest(t.pk, 1)
    with CaptureQueriesContext(connection) as queries:
        assert hall.seating_digest(t.pk, 1) == first
    assert len(queries) == 0  # kept
    swap(t, e)
    clock[0] += 4.9
    assert hall.seating_digest(t.pk, 1) == first  # within the moment: the old key, as the pages' state
    clock[0] += 0.2
    assert hall.seating_digest(t.pk, 1) != first  # past it: read again, the swap seen
    assert hall.seating_digest(t.pk, 2) == hall._seating_digest(t.pk, 2)  # another round: its own key


def test_not_kept_when_the_setting_is_zero(seated, settings):
    t, e = seated
    settings.LEVEE_PUBLIC_STATE_SECONDS = 0
    first = hall.seating_digest(t.pk, 1)
    swap(t, e)
    assert hall.seating_digest(t.pk, 1) != first and not hall._digests
