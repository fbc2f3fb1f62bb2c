"""``manage.py arbitrate FILE``: the verdict on a deal or match record.

Prints the verdict JSON; exits 0 when the record is legal, 1 when it has violations,
2 when it is malformed (one line naming the field, no traceback; in French unless ``--lang en``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.errors import MalformedRecord
from scoring.verdict import judge


class Command(BaseCommand):
    help = "Check and score a deal or match record (levee.deal/1, levee.match/1). FILE or - for standard input."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the record (JSON), or - to read standard input")
        parser.add_argument("--lang", choices=["fr", "en"], default="fr", help="language of the messages")
        parser.add_argument("--compact", action="store_true", help="print the verdict on one line")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        fr = options["lang"] == "fr"
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()  # noqa: SIM115
        except OSError as exc:
            self._fail(f"lecture impossible de {path} : {exc.strerror}" if fr
                       else f"cannot read {path}: {exc.strerror}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            self._fail(f"{path} : ce n'est pas du JSON (ligne {exc.lineno}, colonne {exc.colno} : {exc.msg})" if fr
                       else f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})")
        try:
            verdict = judge(data)
        except MalformedRecord as exc:
            if options["lang"] == "fr":
                self._fail(f"record illisible : {exc.field} : {exc.text('fr')}")
            self._fail(f"malformed record: {exc.field}: {exc.text('en')}")
        indent = None if options["compact"] else 2
        self.stdout.write(json.dumps(verdict.to_json(options["lang"]), ensure_ascii=False, indent=indent))
        sys.exit(0 if verdict.legal else 1)

    def _fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(2)
