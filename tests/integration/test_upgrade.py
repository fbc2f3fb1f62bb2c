"""Upgrades without fear (issue 21 §2): a populated database of the previous release, migrated to this schema by
``manage.py upgrade``, keeps every row, field, password, token and ranking; and the backup taken first restores it.

The previous release is commit c447f10 (22 November 2026, the schema at ``tournaments.0007_ruling_withdrawn``).
``release-c447f10.json.gz`` was made there, on SQLite, with::

    git worktree add --detach /tmp/old c447f10 && cd /tmp/old
    DATABASE_URL=sqlite:////tmp/old.sqlite3 LEVEE_ENV=development python manage.py migrate
    … manage.py seed_demo                      # five tournaments, 37 deals, rankings published
    … manage.py shell < (a ruling, a ruling withdrawn, a deal annulled, two API tokens)
    … manage.py dumpdata --natural-foreign --exclude contenttypes --exclude auth.permission \\
          --exclude sessions --exclude admin | gzip -9n > release-c447f10.json.gz

The test rolls the test database back to that schema, loads the dump through the historical models of that
schema (as the old code wrote it, engine-neutral: it runs on SQLite and on PostgreSQL in CI), then upgrades.
"""

from __future__ import annotations

import gzip
import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from rest_framework.authtoken.models import Token

from tournaments.deals.models import ScoreRow
from tournaments.deals.record import taker_seat
from tournaments.event.models import Seat, Tournament
from tournaments.operations.backup import backup_latest
from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot

pytestmark = [pytest.mark.django_db(transaction=True)]

FIXTURE = Path(__file__).with_name("release-c447f10.json.gz")
PREVIOUS = ("tournaments", "0007_ruling_withdrawn")


def _objects() -> list[dict[str, Any]]:
    return json.loads(gzip.decompress(FIXTURE.read_bytes()))


def _release_permissions(objects: list[dict[str, Any]]) -> None:
    """The permissions the dump names of models this version no longer has (the ranking's line rows, before 0025):
    the release's database holds them (Django leaves a removed model's content type and permissions in place), the
    test database, made at this schema, does not."""
    for obj in objects:
        for codename, app_label, model in obj["fields"].get("user_permissions", []) + obj["fields"].get(
                "permissions", []):
            kind, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
            Permission.objects.get_or_create(codename=codename, content_type=kind, defaults={"name": codename})


def _load_at_previous_schema(objects: list[dict[str, Any]]) -> None:
    """Roll the schema back to the previous release and insert the dump through that schema's models."""
    _release_permissions(objects)
    executor = MigrationExecutor(connection)
    executor.migrate([PREVIOUS])
    executor = MigrationExecutor(connection)
    nodes = [n for n in executor.loader.graph.leaf_nodes() if n[0] != PREVIOUS[0]] + [PREVIOUS]
    old = executor.loader.project_state(nodes, at_end=True).apps
    used = []
    with transaction.atomic():
        for obj in objects:
            model = old.get_model(obj["model"])
            used.append(model)
            values, many = {}, {}
            for name, value in obj["fields"].items():
                field = model._meta.get_field(name)
                # a natural key (a user's name, a permission's codename) found through the installed model
                natural = apps.get_model(field.related_model._meta.label) if field.is_relation else None
                if field.many_to_many:
                    many[name] = [natural._default_manager.get_by_natural_key(*v).pk if isinstance(v, list) else v
                                  for v in value]
                elif field.is_relation:
                    if isinstance(value, list):
                        value = natural._default_manager.get_by_natural_key(*value).pk
                    values[field.attname] = value
                else:
                    values[field.attname] = field.to_python(value)
            instance = model(pk=obj["pk"], **values)
            instance.save_base(raw=True, force_insert=True)  # raw: auto_now_add keeps the dumped time
            for name, targets in many.items():
                getattr(instance, name).set(targets)
    with connection.cursor() as cursor:  # the old database's sequences had moved past its rows
        for sql in connection.ops.sequence_reset_sql(no_style(), list(dict.fromkeys(used))):
            cursor.execute(sql)


def _as_dumped(label: str, pks: list[Any]) -> dict[Any, dict[str, Any]]:
    """The current rows, serialized as ``dumpdata --natural-foreign`` serializes them."""
    model = apps.get_model(label)
    text = serializers.serialize("json", model._default_manager.filter(pk__in=pks).order_by("pk"),
                                 use_natural_foreign_keys=True)
    return {o["pk"]: o["fields"] for o in json.loads(text)}


#: the models an upgrade may add rows to: a ranking published again with this version's figures (and its clock)
REPUBLISHED = {"tournaments.rankingsnapshot", "tournaments.rankingclock"}
#: the release's ranking lines, one row each then, now the document of their snapshot (migration 0025)
LINES = "tournaments.rankingline"
#: a republished ranking is a new input version of its tournament's clock
CLOCK_MOVES = {("tournaments.rankingclock", "version"), ("tournaments.rankingclock", "changed_at")}


def test_the_previous_release_upgrades_with_nothing_lost(settings, tmp_path):
    settings.LEVEE_BACKUP_DIR = tmp_path / "backups"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the release's hashes
    objects = _objects()
    per_model = Counter(o["model"] for o in objects)
    assert per_model["tournaments.deal"] == 37 and per_model["tournaments.ruling"] == 2  # the dump as described
    _load_at_previous_schema(objects)
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes())  # the schema is the old one

    out = io.StringIO()
    call_command("upgrade", stdout=out)
    said = out.getvalue()
    assert "Sauvegarde avant mise à jour" in said and "Mise à jour faite." in said
    executor = MigrationExecutor(connection)
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())

    # every row of every model, every field the release had, as it was
    changed = []
    for label, count in per_model.items():
        if label == LINES:
            continue
        dumped = {o["pk"]: o["fields"] for o in objects if o["model"] == label}
        now = _as_dumped(label, list(dumped))
        if label in REPUBLISHED:  # the release's rows kept as they were; the upgrade may add a newer version
            assert len(now) == count <= apps.get_model(label)._default_manager.count(), label
        else:
            assert len(now) == count == apps.get_model(label)._default_manager.count(), label
        for pk, fields in dumped.items():
            changed += [(label, pk, name) for name, value in fields.items() if now[pk].get(name) != value
                        and (label, name) not in CLOCK_MOVES]
    assert changed == []

    # every line of the release is in its snapshot's document, at its place, with every figure
    lines = [o["fields"] for o in objects if o["model"] == LINES]
    assert len(lines) == per_model[LINES] > 0
    expected = sorted((f["snapshot"], f["unit"], f["position"], f["rank"], f["shared"], f["entry"], f["team"],
                       f["metrics"]) for f in lines)
    got = sorted((snap.pk, str(unit), ln.position, ln.rank, ln.shared, ln.entry_id, ln.team_id,
                  [list(m) for m in ln.metrics])
                 for snap in RankingSnapshot.objects.filter(pk__in={f["snapshot"] for f in lines})
                 for unit in rankings.Unit for ln in rankings.snapshot_lines(snap, unit))
    assert got == expected

    # the passwords and the API tokens still work
    organizer = get_user_model().objects.get(username="organisateur")
    assert organizer.check_password("levee-demo") and not organizer.check_password("wrong")
    tokens = {o["pk"]: o["fields"]["user"] for o in objects if o["model"] == "authtoken.token"}
    assert len(tokens) == 2
    for key, user in tokens.items():
        assert Token.objects.get(key=key).user.username == user[0]

    # the rows written before ``ScoreRow.taker`` are marked by the migration as the deal service marks them: the row
    # of the entry seated at ``record.bid.taker`` (an integer), a deal's own row, never a ruling's
    seat_of = {(s.table_id, s.entry_id): s.position for s in Seat.objects.all()}
    rows = list(ScoreRow.objects.select_related("deal"))
    expected = [r.pk for r in rows if r.ruling_id is None and r.deal is not None
                and taker_seat(r.deal.record) == seat_of.get((r.deal.table_id, r.entry_id))]
    assert expected and sorted(ScoreRow.objects.filter(taker=True).values_list("pk", flat=True)) == sorted(expected)

    # each tournament's published ranking is what this version computes from the migrated data, every figure
    # included: the figures this version counts and the release did not (« rounds », « won_as_taker ») were
    # published again by the upgrade (``manage.py republish``), never a rank moved by itself
    for tournament in Tournament.objects.all():
        latest = RankingSnapshot.objects.filter(tournament=tournament).order_by("-input_version").first()
        assert latest is not None, tournament.slug
        stored = rankings.snapshot_ranking(latest)
        computed = rankings.ranking_compute(tournament=tournament).individual
        primary = stored.criteria[0]
        assert computed.criteria[0] == primary, tournament.slug
        assert ([(line.rank, line.entry, line.metrics) for line in computed.lines]
                == [(line.rank, line.entry, line.metrics) for line in stored.lines]), tournament.slug
    assert "republié (mêmes rangs, chiffres mis à jour" in said and "les rangs changeraient" not in said

    # the backup taken before migrating holds the release's database
    backup = backup_latest()
    assert backup is not None and backup.reason == "upgrade"
    assert backup.counts["deals"] == per_model["tournaments.deal"]
    assert backup.counts["versions"] == per_model["tournaments.historicaldeal"]
    assert backup.counts["users"] == per_model["auth.user"]
