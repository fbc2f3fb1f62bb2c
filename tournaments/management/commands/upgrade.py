"""``manage.py upgrade``: take a backup, then migrate the database to this version's schema.

Nothing to migrate: nothing is done. After migrating, the published rankings this version ranks differently are
published again when only their figures change (``manage.py republish``; a rank that would move is listed, not
changed). A database with data is backed up first (``manage.py backup``); if the
backup fails, nothing is migrated. To roll back: ``manage.py restore --replace`` of the backup this printed, then
the previous version's code (README, « Mettre à jour et revenir en arrière »).
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from tournaments.operations.backup import BackupError, backup_create, database_is_empty


class Command(BaseCommand):
    help = "Sauvegarde la base puis la migre au schéma de cette version (make upgrade)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-backup", action="store_true", help="migrer sans sauvegarde préalable (déconseillé)")

    def handle(self, *args: Any, **options: Any) -> None:
        executor = MigrationExecutor(connections["default"])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if not plan:
            self.stdout.write("La base est à jour : aucune migration à appliquer.")
            return
        self.stdout.write(f"{len(plan)} migration(s) à appliquer.")
        backup = None
        if options["no_backup"] or database_is_empty():
            self.stdout.write("Pas de sauvegarde préalable (base vide ou --no-backup).")
        else:
            try:
                backup = backup_create(reason="upgrade")
            except BackupError as exc:
                raise CommandError(f"Sauvegarde impossible, rien n'a été migré : {exc}") from exc
            self.stdout.write(f"Sauvegarde avant mise à jour : {backup.path}")
        call_command("migrate", interactive=False, verbosity=options["verbosity"] - 1 if options["verbosity"] else 0)
        self.stdout.write(self.style.SUCCESS("Mise à jour faite."))
        # the published rankings brought up to date with this version's rules (never a rank moved by itself)
        call_command("republish", stdout=self.stdout)
        if backup is not None:
            self.stdout.write("Pour revenir en arrière : « manage.py restore --replace <la sauvegarde ci-dessus> », "
                              "puis reprenez la version précédente du code.")
