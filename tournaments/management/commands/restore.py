"""``manage.py restore FILE``: bring a backup (``manage.py backup``) back into an empty database, and say what it
restored. ``--replace`` replaces a database that has data, after taking a backup of it. Stop the web service and
the worker first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from tournaments.operations.backup import (
    BackupError,
    backup_create,
    backup_restore,
    database_is_empty,
    describe_counts,
)


class Command(BaseCommand):
    help = "Restaure une sauvegarde de Levée dans une base vide (--replace : remplace la base actuelle)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="la sauvegarde (.pgdump ou .sqlite3.gz)")
        parser.add_argument("--database", default="default", help="l'alias de la base (settings.DATABASES)")
        parser.add_argument("--replace", action="store_true",
                            help="remplacer une base qui contient des données (une sauvegarde en est prise d'abord)")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        alias = options["database"]
        try:
            if options["replace"] and not database_is_empty(alias):
                safety = backup_create(reason="restore", alias=alias)
                self.stdout.write(f"État actuel sauvegardé d'abord : {safety.path}")
            restored = backup_restore(path, alias=alias, replace=options["replace"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Restauré depuis {path.name} : {describe_counts(restored.counts)}."))
        if restored.identical is True:
            self.stdout.write("Contenu vérifié : identique à la sauvegarde (empreinte de chaque ligne).")
        elif restored.identical is False:
            raise CommandError("Le contenu restauré diffère de l'empreinte de la sauvegarde : ne l'utilisez pas.")
        else:
            self.stdout.write("Empreinte non vérifiée : le fichier .json de la sauvegarde n'était pas à côté.")
        executor = MigrationExecutor(connections[alias])
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            self.stdout.write("Cette sauvegarde vient d'une version antérieure : lancez « manage.py upgrade » "
                              "(ou make upgrade) avant de servir.")
