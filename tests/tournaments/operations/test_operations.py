"""Health and diagnosis, the automatic backups and the staff's backups page (issue 21 §1, §3)."""

from __future__ import annotations

import io
import json
import logging
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import UserFactory, role, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.links.models import RoundClosing
from tournaments.operations import health, heartbeat, schedule
from tournaments.operations.backup import backup_create, backup_list, backup_prune
from tournaments.standings.models import RankingClock

# transactional: SQLite's online backup API cannot copy an in-memory test database from inside the test's open
# transaction (a shared-cache lock it would wait on for ever)
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _isolated(settings, tmp_path):
    settings.LEVEE_BACKUP_DIR = tmp_path / "backups"
    settings.LEVEE_HEALTH_SECONDS = 0  # every request computes anew


@pytest.fixture
def site_staff(db):
    return UserFactory(username="directeur", is_staff=True)


# -- /health/ ------------------------------------------------------------------------------------------------------


def test_health_anonymous_says_states_and_ages_only(client, tarot_table):
    slug = tarot_table.round.tournament.slug
    response = client.get("/health/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert set(body["checks"]) == {"database", "cache", "broker", "worker", "rankings", "backup"}
    assert body["checks"]["database"]["status"] == "ok" and body["checks"]["broker"]["mode"] == "embedded"
    assert body["checks"]["rankings"]["running"] == 1
    assert body["checks"]["backup"] == {"status": "warning", "age_seconds": None, "ms": body["checks"]["backup"]["ms"]}
    assert body["status"] == "degraded"  # no backup yet
    assert slug not in response.content.decode() and "tournaments" not in body["checks"]["rankings"]
    assert "engine" not in body["checks"]["database"]


def test_health_is_ok_once_backed_up_and_shows_the_staff_the_detail(client, tarot_table, site_staff):
    backup_create()
    assert client.get("/health/").json()["status"] == "ok"
    client.force_login(site_staff)
    body = client.get("/health/").json()
    assert body["checks"]["rankings"]["tournaments"] == [
        {"slug": tarot_table.round.tournament.slug, "behind": 0, "lag_seconds": 0}]
    assert body["checks"]["backup"]["file"] == backup_list()[0].name


def test_health_database_down_is_a_503(client, monkeypatch):
    def down():
        raise ConnectionError("connection refused")

    monkeypatch.setattr(health, "check_database", down)
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down" and body["checks"]["database"]["status"] == "error"
    assert "refused" not in response.content.decode()  # the error's text is for the staff only
    assert "rankings" not in body["checks"]


def test_health_refuses_a_post(client):
    assert client.post("/health/").status_code == 405


def test_ranking_lag_of_a_running_tournament(tarot_table, staff, settings):
    settings.LEVEE_HEALTH_RANKING_LAG_SECONDS = 60
    deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])  # published at once (eager)
    tournament = tarot_table.round.tournament
    assert health.check_rankings(timezone.now())["max_lag_seconds"] == 0
    # a change the ranking has not caught up with, made 90 s ago (a worker down)
    RankingClock.objects.filter(tournament=tournament).update(
        version=RankingClock.objects.get(tournament=tournament).version + 2,
        changed_at=timezone.now() - timedelta(seconds=90))
    check = health.check_rankings(timezone.now())
    assert check["status"] == "warning" and check["behind"] == 1
    assert check["tournaments"][0]["behind"] == 2 and 90 <= check["tournaments"][0]["lag_seconds"] <= 95


def test_worker_heartbeat(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(health, "cache_is_shared", lambda: True)
    now = timezone.now()
    assert health.check_worker(now)["status"] == "error"  # never beat
    heartbeat.heartbeat_beat()
    check = health.check_worker(now + timedelta(seconds=20))
    assert check["status"] == "ok" and check["age_seconds"] in (19, 20)
    assert health.check_worker(now + timedelta(seconds=3 * settings.LEVEE_HEARTBEAT_SECONDS + 5))["status"] == "error"
    monkeypatch.setattr(health, "cache_is_shared", lambda: False)
    assert health.check_worker(now)["status"] == "warning"  # each process's memory: the web cannot see it


def test_broker_unreachable_is_reported_not_fatal(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["checks"]["broker"]["status"] == "error" and body["status"] == "degraded"


# -- automatic backups ---------------------------------------------------------------------------------------------


def test_backup_due_first_then_at_round_end_then_every_hour(tarot_table, settings):
    settings.LEVEE_BACKUP_EVERY_MINUTES = 60
    assert schedule.backup_due() == "first"
    first = schedule.backup_if_due()
    assert first is not None and first.reason == "first"
    assert schedule.backup_due() is None
    rnd = tarot_table.round
    RoundClosing.objects.create(round=rnd, finished_at=timezone.now(),
                                official_at=timezone.now() + timedelta(minutes=10))
    assert schedule.backup_due() == "round_end"
    second = backup_create(reason="round_end")
    assert schedule.backup_due(second.taken_at + timedelta(minutes=59)) is None
    assert schedule.backup_due(second.taken_at + timedelta(minutes=61)) == "hourly"
    rnd.tournament.status = "finished"
    rnd.tournament.save()
    assert schedule.backup_due(second.taken_at + timedelta(minutes=61)) is None  # no event running


def test_no_backup_of_an_empty_database():
    assert schedule.backup_due() is None


def test_retention_keeps_the_newest(tarot_table):
    taken = [backup_create() for _ in range(4)]
    gone = backup_prune(keep=2)
    assert sorted(gone) == sorted(b.path for b in taken[:2])
    assert [b.name for b in backup_list()] == [taken[3].name, taken[2].name]
    assert not any(p.exists() for p in gone) and not any(p.with_name(p.name + ".json").exists() for p in gone)


def test_backup_command_if_due_and_list(tarot_table):
    out = io.StringIO()
    call_command("backup", "--if-due", stdout=out)
    assert "Sauvegarde faite" in out.getvalue() and "1 tournoi" in out.getvalue()
    out = io.StringIO()
    call_command("backup", "--if-due", stdout=out)
    assert out.getvalue().strip() == "Aucune sauvegarde n'est due."
    out = io.StringIO()
    call_command("backup", "--list", stdout=out)
    assert backup_list()[0].name in out.getvalue()


# -- the backups page ----------------------------------------------------------------------------------------------


def test_backups_page_is_the_site_staffs(client, staff, site_staff):
    url = reverse("backups")
    assert client.get(url).status_code == 302  # to the login
    client.force_login(staff["organizer"])
    assert client.get(url).status_code == 403
    client.force_login(site_staff)
    page = client.get(url).content.decode()
    assert "Sauvegardes et état du service" in page and "Aucune sauvegarde pour l'instant." in page
    assert "Base de données" in page and "joignable" in page


def test_backup_taken_from_the_page_and_downloaded(client, tarot_table, site_staff):
    client.force_login(site_staff)
    response = client.post(reverse("backups"), follow=True)
    assert "Sauvegarde faite : 1 tournoi" in response.content.decode()
    backup = backup_list()[0]
    page = client.get(reverse("backups")).content.decode()
    assert "à la demande" in page and reverse("backup_download", args=[backup.name]) in page
    response = client.get(reverse("backup_download", args=[backup.name]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert b"".join(response.streaming_content) == backup.path.read_bytes()
    assert client.get(reverse("backup_download", args=["levee-20990101-000000.sqlite3.gz"])).status_code == 404
    assert client.get(reverse("backup_download", args=[backup.name + ".json"])).status_code == 404
    assert client.get("/backups/..%2Fdb.sqlite3/").status_code == 404


def test_the_organizer_sees_the_last_backup(client, staff, tarot_table):
    tournament = tarot_table.round.tournament
    client.force_login(staff["organizer"])
    url = reverse("tournament_detail", args=[tournament.slug])
    assert "Aucune sauvegarde pour l'instant." in client.get(url).content.decode()
    backup_create()
    page = client.get(url).content.decode()
    assert "Dernière sauvegarde" in page and reverse("backups") not in page  # not the site's staff
    client.force_login(staff["outsider"])
    assert "Dernière sauvegarde" not in client.get(url).content.decode()


# -- structured logs -----------------------------------------------------------------------------------------------


def _json_line(record: logging.LogRecord) -> dict:
    from django.conf import settings

    conf = settings.LOGGING["formatters"]["json"]
    from pythonjsonlogger.json import JsonFormatter

    return json.loads(JsonFormatter(conf["fmt"], rename_fields=conf["rename_fields"]).format(record))


def test_one_json_line_per_request_without_the_private_token(client, caplog, tarot_table):
    caplog.set_level(logging.INFO, logger="levee.request")
    client.get(f"/p/{tarot_table.round.tournament.slug}/ranking/")
    client.get("/k/secret-token-of-a-table/")
    lines = [_json_line(r) for r in caplog.records if r.name == "levee.request"]
    assert [(x["route"], x["status"]) for x in lines] == [("/p/<slug:slug>/ranking/", 200), ("/k/<str:token>/", 404)]
    assert all(x["event"] == "request" and x["method"] == "GET" and x["duration_ms"] >= 0 for x in lines)
    assert lines[0]["view"] == "public-ranking" and lines[0]["level"] == "INFO" and "time" in lines[0]
    assert "secret-token" not in caplog.text


def test_one_log_line_per_task(caplog):
    from tournaments.operations import tasks

    caplog.set_level(logging.INFO, logger="levee.task")
    tasks.heartbeat.delay()
    lines = [_json_line(r) for r in caplog.records if r.name == "levee.task"]
    assert len(lines) == 1
    assert lines[0]["task"] == "tournaments.operations_heartbeat" and lines[0]["state"] == "SUCCESS"
    assert lines[0]["duration_ms"] >= 0


def test_the_organizer_role_alone_does_not_download(client, staff, site_staff, tarot_table):
    backup = backup_create()
    other = UserFactory(username="autre-organisateur")
    role(tarot_table.round.tournament, other, "organizer")
    client.force_login(other)
    assert client.get(reverse("backup_download", args=[backup.name])).status_code == 403
