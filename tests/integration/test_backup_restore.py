"""Backups a director can trust (issue 21 §1): a backup restored into a fresh database holds every row and every
ranking of the original (digest); backups taken while entries go on are each one consistent state.

Runs on the test database's engine: SQLite (SQLite's online backup API) or PostgreSQL in CI (pg_dump and
pg_restore, which must then be installed: with ``LEVEE_REQUIRE_SERVICES=1`` their absence fails the test).
"""

from __future__ import annotations

import io
import os
import shutil
import threading
import time

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection, connections

from tests.integration.databases import fresh_database
from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Tournament
from tournaments.operations.backup import (
    backup_create,
    backup_latest,
    backup_list,
    backup_restore,
    database_counts,
    database_digest,
    describe_counts,
)
from tournaments.standings.models import RankingClock, RankingSnapshot

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _backups_in_tmp(settings, tmp_path):
    settings.LEVEE_BACKUP_DIR = tmp_path / "backups"
    if connection.vendor == "postgresql" and not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        if os.environ.get("LEVEE_REQUIRE_SERVICES") == "1":
            pytest.fail("LEVEE_REQUIRE_SERVICES=1 and pg_dump / pg_restore are not installed")
        pytest.skip("pg_dump / pg_restore are not installed")


def _rows_per_model(alias: str) -> dict[str, int]:
    return {m._meta.label: m._default_manager.using(alias).count() for m in apps.get_models()
            if m._meta.managed and not m._meta.proxy}


def _rankings(alias: str) -> list[tuple]:
    snapshots = list(RankingSnapshot.objects.using(alias).order_by("tournament__slug", "input_version")
                     .values_list("tournament__slug", "input_version", "digest", "team_digest", "inputs", "lines",
                                  "team_lines"))
    assert all(s[5]["rows"] for s in snapshots)  # every snapshot's lines compared
    return snapshots


def test_a_backup_restored_into_a_fresh_database_is_identical(tmp_path):
    call_command("seed_demo", stdout=io.StringIO())
    assert Deal.objects.count() >= 30 and RankingSnapshot.objects.count() >= 5  # a realistic database
    digest, counts = database_digest(), database_counts()

    out = io.StringIO()
    call_command("backup", stdout=out)
    backup = backup_latest()
    assert backup is not None and str(backup.path) in out.getvalue()
    assert backup.counts == counts and backup.digest == digest
    assert backup.path.name.endswith(".pgdump" if connection.vendor == "postgresql" else ".sqlite3.gz")

    with fresh_database("restored", tmp_path) as alias:
        out = io.StringIO()
        call_command("restore", str(backup.path), "--database", alias, stdout=out)
        said = out.getvalue()
        assert f"Restauré depuis {backup.name} : {describe_counts(counts)}." in said
        assert f"{counts['tournaments']} tournois" in said and f"{counts['deals']} donnes" in said
        assert "identique à la sauvegarde" in said
        # every row …
        assert _rows_per_model(alias) == _rows_per_model("default")
        assert database_digest(alias) == digest
        # … and every ranking
        assert _rankings(alias) == _rankings("default") and _rankings(alias)
        # a second restore into the now full database is refused: nothing is overwritten by mistake
        with pytest.raises(Exception, match="contient déjà des données"):
            call_command("restore", str(backup.path), "--database", alias, stdout=io.StringIO())


def test_a_changed_row_changes_the_digest(tmp_path):
    """The digest compares what it claims to: one point changed in one score row is seen."""
    call_command("seed_demo", stdout=io.StringIO())
    before = database_digest()
    row = ScoreRow.objects.order_by("pk").first()
    ScoreRow.objects.filter(pk=row.pk).update(points=row.points + 1)
    assert database_digest() != before


def test_backups_taken_while_entries_continue_are_each_one_consistent_state(tarot_table, staff, tmp_path):
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite" and "memory" in name:
        # A shared-cache in-memory database (pytest-django's, when this worker's first test was not under
        # tests/integration) answers « table is locked » to concurrent writers instead of waiting: a file or
        # PostgreSQL (CI) is what a service runs on.
        pytest.skip("the SQLite test database is in memory: run tests/integration on its own, or on PostgreSQL")
    entered: list[int] = []
    stop = threading.Event()
    failures: list[BaseException] = []

    def enter() -> None:
        try:
            i = 0
            while not stop.is_set() and i < 200:
                deal = deal_record(table=tarot_table, user=staff["arbiter"],
                                   record=tarot_summary(dealer=i % 4, taker=(i + 1) % 4, points=41 + i % 40))
                entered.append(deal.pk)
                i += 1
        except BaseException as exc:  # reported by the test below
            failures.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=enter)
    thread.start()
    try:
        taken = []
        for _ in range(3):
            deadline = time.monotonic() + 30
            while len(entered) < 3 * (len(taken) + 1) and time.monotonic() < deadline and thread.is_alive():
                time.sleep(0.01)
            taken.append(backup_create(reason="manual"))
    finally:
        stop.set()
        thread.join(60)
    assert not failures, failures
    final = Deal.objects.count()
    assert final == len(entered) and final >= 9
    assert [b.name for b in backup_list()] == [b.name for b in reversed(taken)]

    seen = []
    with fresh_database("during", tmp_path) as alias:
        for i, backup in enumerate(taken):
            restored = backup_restore(backup.path, alias=alias, replace=i > 0)
            assert restored.identical is True  # the rows the manifest counted and digested at that instant
            assert restored.counts == backup.counts
            deals = list(Deal.objects.using(alias).values_list("pk", flat=True))
            assert set(deals) <= set(entered) and deals == entered[:len(deals)]  # a prefix: nothing half-saved
            for pk in deals:  # every deal whole: its four score rows, zero-sum at Tarot
                points = list(ScoreRow.objects.using(alias).filter(deal_id=pk).values_list("points", flat=True))
                assert len(points) == 4 and sum(points) == 0, (pk, points)
            clock = RankingClock.objects.using(alias).get(tournament__slug=tarot_table.round.tournament.slug)
            published = (RankingSnapshot.objects.using(alias).filter(tournament_id=clock.tournament_id)
                         .order_by("-input_version").first())
            assert published is None or published.input_version <= clock.version
            seen.append(len(deals))
    assert seen == sorted(seen) and seen[0] >= 3
    assert seen[-1] < final or len(set(seen)) > 1, (seen, final)  # the entries went on between the backups
    assert Tournament.objects.count() == 1
