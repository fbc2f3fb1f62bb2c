"""``manage.py backup``: a consistent, compressed, dated copy of the whole database, safe while the service runs.

* ``backup`` — take one now into ``LEVEE_BACKUP_DIR`` (``--output DIR`` for another folder), keep the newest
  ``LEVEE_BACKUP_KEEP`` (``--keep N``);
* ``backup --if-due`` — only if one is due (a round ended since the last one, or an hour of an event passed);
* ``backup --watch`` — ask that every ``--every`` seconds until stopped (the embedded default has no Celery beat:
  ``make run`` starts this beside the server);
* ``backup --list`` — the backups kept.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import formats, timezone

from tournaments.operations import schedule
from tournaments.operations.backup import (
    Backup,
    BackupError,
    backup_create,
    backup_dir,
    backup_list,
    describe_counts,
    describe_size,
)

log = logging.getLogger("levee.operations")


def describe(backup: Backup) -> str:
    when = formats.date_format(timezone.localtime(backup.taken_at), "DATETIME_FORMAT")
    return f"{backup.path} — {when}, {describe_size(backup.size)} : {describe_counts(backup.counts)}"


class Command(BaseCommand):
    help = "Sauvegarde la base de données (PostgreSQL : pg_dump ; SQLite : sauvegarde en ligne), datée et compressée."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", type=Path, help="dossier des sauvegardes (par défaut LEVEE_BACKUP_DIR)")
        parser.add_argument("--keep", type=int, help="nombre de sauvegardes gardées (par défaut LEVEE_BACKUP_KEEP)")
        parser.add_argument("--if-due", action="store_true", help="seulement si une sauvegarde est due")
        parser.add_argument("--watch", action="store_true", help="vérifier sans fin si une sauvegarde est due")
        parser.add_argument("--every", type=float, default=120.0, help="secondes entre deux vérifications (--watch)")
        parser.add_argument("--list", action="store_true", help="lister les sauvegardes gardées")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["list"]:
            found = backup_list(options["output"])
            if not found:
                self.stdout.write(f"Aucune sauvegarde dans {options['output'] or backup_dir()}.")
            for backup in found:
                self.stdout.write(describe(backup))
            return
        if options["watch"]:
            self._watch(options["every"])
            return
        try:
            if options["if_due"]:
                reason = schedule.backup_due()
                if reason is None:
                    self.stdout.write("Aucune sauvegarde n'est due.")
                    return
            else:
                reason = "manual"
            backup = backup_create(reason=reason, folder=options["output"], keep=options["keep"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Sauvegarde faite en {backup.seconds:.1f} s : {describe(backup)}"))

    def _watch(self, every: float) -> None:
        self.stdout.write(f"Sauvegardes automatiques dans {backup_dir()} (fin de manche, chaque heure de tournoi).")
        try:
            while True:
                try:
                    taken = schedule.backup_if_due()
                    if taken:
                        self.stdout.write(f"Sauvegarde faite : {describe(taken)}")
                except Exception:  # a failed backup is logged; the next turn tries again
                    log.exception("automatic backup failed")
                time.sleep(every)
        except KeyboardInterrupt:
            return
