"""The backups page of the site's staff: the last backups (when, why, what they hold), one taken now, one
downloaded; and the service's health in words (tournaments.operations)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from tournaments.common.access import guarded, require
from tournaments.operations.backup import (
    Backup,
    BackupError,
    backup_create,
    backup_dir,
    backup_list,
    describe_counts,
    describe_size,
)
from tournaments.operations.health import health_report

ENGINES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def can_backup(user: Any) -> bool:
    """A backup holds every tournament and every account: the site's staff only (``is_staff``)."""
    return bool(user and user.is_authenticated and user.is_staff)


def reason_label(reason: str) -> str:
    return {
        "manual": _("à la demande"),
        "first": _("première sauvegarde"),
        "round_end": _("fin de manche"),
        "hourly": _("chaque heure de tournoi"),
        "upgrade": _("avant une mise à jour"),
        "restore": _("avant une restauration"),
    }.get(reason, reason or _("à la demande"))


def _row(backup: Backup) -> dict[str, Any]:
    return {"backup": backup, "ago": ago(backup.taken_at), "reason": reason_label(backup.reason),
            "size": describe_size(backup.size),
            "contents": describe_counts(backup.counts) if backup.counts else ""}


def _ago(seconds: int | None) -> str:
    """« il y a 12 minutes », or « à l'instant » under a minute."""
    if seconds is None:
        return ""
    if seconds < 60:
        return _("à l'instant")
    return _("il y a %(time)s") % {"time": timesince(timezone.now() - timedelta(seconds=seconds))}


def ago(when: datetime) -> str:
    return _ago(max(0, int((timezone.now() - when).total_seconds())))


def health_lines() -> list[tuple[str, str, str]]:
    """The health checks in words: (what, ok/warning/error, how it stands)."""
    checks = health_report(detail=True).body["checks"]
    lines = []

    def add(name: str, label: str, ok: str, bad: str) -> None:
        check = checks.get(name)
        if check is not None:
            lines.append((label, check["status"], ok if check["status"] == "ok" else bad))

    db = checks["database"]
    add("database", _("Base de données"),
        _("joignable (%(engine)s)") % {"engine": ENGINES.get(db.get("engine", ""), "")},
        _("injoignable"))
    cache = checks["cache"]
    add("cache", _("Cache"),
        _("partagé entre les processus") if cache.get("shared") else _("propre à chaque processus"),
        _("injoignable : les pages s'affichent sans lui"))
    broker = checks["broker"]
    add("broker", _("File des tâches"),
        _("intégrée : les classements se calculent dans le serveur") if broker.get("mode") == "embedded"
        else _("joignable"), _("injoignable : les classements attendent"))
    worker = checks["worker"]
    if worker.get("mode") == "embedded":
        add("worker", _("Calculs en arrière-plan"), _("faits par le serveur lui-même"), "")
    else:
        age = worker.get("age_seconds")
        add("worker", _("Calculs en arrière-plan"), _("dernier signe de vie : %(ago)s") % {"ago": _ago(age)},
            _("aucun signe de vie") if age is None else _("dernier signe de vie : %(ago)s") % {"ago": _ago(age)})
    rankings = checks.get("rankings")
    if rankings is not None:
        add("rankings", _("Classements"),
            ngettext("à jour (%(n)s tournoi en cours)", "à jour (%(n)s tournois en cours)", rankings["running"])
            % {"n": rankings["running"]} if not rankings["behind"]
            else _("%(n)s en cours de calcul") % {"n": rankings["behind"]},
            _("en retard de %(s)s s au plus") % {"s": rankings["max_lag_seconds"]})
    last = checks.get("backup")
    if last is not None:
        age = last.get("age_seconds")
        add("backup", _("Dernière sauvegarde"), _ago(age),
            _("aucune") if age is None else _("%(ago)s : trop ancienne pendant un tournoi") % {"ago": _ago(age)})
    return lines


@guarded
@require_http_methods(["GET", "HEAD", "POST"])
def backups(request: HttpRequest) -> HttpResponse:
    require(request, can_backup(request.user))
    if request.method == "POST":
        try:
            taken = backup_create(reason="manual")
        except BackupError as exc:
            messages.error(request, _("La sauvegarde a échoué : %(why)s") % {"why": exc})
        else:
            messages.success(request, _("Sauvegarde faite : %(contents)s.")
                             % {"contents": describe_counts(taken.counts)})
        return redirect("backups")
    return render(request, "tournaments/backups.html", {
        "rows": [_row(b) for b in backup_list()],
        "folder": backup_dir(),
        "keep": settings.LEVEE_BACKUP_KEEP,
        "every": settings.LEVEE_BACKUP_EVERY_MINUTES,
        "health": health_lines(),
    })


@guarded
@require_safe
def backup_download(request: HttpRequest, name: str) -> FileResponse:
    require(request, can_backup(request.user))
    found = next((b for b in backup_list() if b.name == name), None)  # only a listed backup: no path from the URL
    if found is None:
        raise Http404
    return FileResponse(found.path.open("rb"), as_attachment=True, filename=found.name,
                        content_type="application/octet-stream")
