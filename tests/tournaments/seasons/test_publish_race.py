"""Two counted tournaments publishing at once: the championship is ranked once per change, versions in order,
never the same version written twice (the championship's row is locked while it is ranked). PostgreSQL only:
SQLite has no row locks to race on."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection

from tests.tournaments.threads import run_together
from tournaments.seasons import championships
from tournaments.seasons.models import ChampionshipSnapshot

from .builders import season_of_three

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_publications_at_once_write_one_version(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    s = season_of_three()
    champ = s["championship"]
    ChampionshipSnapshot.objects.filter(championship=champ).delete()
    # each refresh, once it has read the latest version, waits (up to a second) for the other to have read it too:
    # without the lock both read « none » and both write version 1; with it the second waits for the first's commit
    barrier = threading.Barrier(2, timeout=1.0)
    latest = championships.latest_snapshot

    def read_then_wait(championship_id):
        out = latest(championship_id)
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        return out

    monkeypatch.setattr(championships, "latest_snapshot", read_then_wait)
    results = run_together(lambda: championships.championship_publish(champ.pk),
                           lambda: championships.championship_publish(champ.pk))
    assert not [r for r in results if isinstance(r, Exception)], results
    # one of them wrote version 1; the other, waiting on the lock, found the same digest and wrote nothing
    assert sorted(r is None for r in results) == [False, True]
    assert list(ChampionshipSnapshot.objects.filter(championship=champ).values_list("version", flat=True)) == [1]
