"""``manage.py import_licences FILE``: import the federation's licence file into the players' register.

Prints the report (what was added, renamed, changed club, expired; the duplicate licences and the unreadable
lines refused); ``--dry-run`` prints it without changing anything. Exits 1 when the file cannot be read at all."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.event.register import licences_import


class Command(BaseCommand):
    help = "Importe le fichier des licences de la fédération (CSV) dans le registre des joueurs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="le fichier CSV des licences")
        parser.add_argument("--dry-run", action="store_true", help="le rapport seul, sans rien changer")
        parser.add_argument("--date", help="le jour de référence des validités (AAAA-MM-JJ ; aujourd'hui sinon)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], "rb") as f:
                data = f.read()
        except OSError as exc:
            raise CommandError(f"lecture impossible de {options['file']} : {exc.strerror}") from None
        try:
            today = dt.date.fromisoformat(options["date"]) if options["date"] else None
        except ValueError:
            raise CommandError(f"--date : « {options['date']} » n'est pas une date AAAA-MM-JJ") from None
        report = licences_import(text=data, today=today, dry_run=options["dry_run"])
        if report.lines == 0 and report.errors:
            first = report.errors[0]
            raise CommandError(f"ligne {first['line']} : {first['message']}" if first["line"] else first["message"])
        self.stdout.write(report.summary())
        for d in report.duplicates:
            self.stdout.write(f"  licence {d['licence']} en double (lignes {', '.join(map(str, d['lines']))}) : "
                              "refusée")
        for e in report.errors:
            self.stdout.write(f"  ligne {e['line']} ({e['field']}) : {e['message']}" if e["line"]
                              else f"  {e['message']}")
        if options["dry_run"]:
            self.stdout.write("(essai : rien n'a été enregistré)")
