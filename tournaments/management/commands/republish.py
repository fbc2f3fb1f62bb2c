"""``manage.py republish``: publish again the rankings this version ranks differently (after an upgrade).

Without a name: every tournament with a published ranking. A ranking whose ranks would move is left as published
and listed with its moves, unless ``--force`` (the organizer's knowing choice): an official ranking does not change
by itself. Exit 0; the outcome of each tournament is printed (``tournaments.standings.republish``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.event.models import Entry, Tournament
from tournaments.standings.republish import Republication, ranking_republish, republish_all

SAID = {
    "figures": "republié (mêmes rangs, chiffres mis à jour : {changed})",
    "forced": "republié à votre demande : {moves}",
    "order": "laissé tel quel : les rangs changeraient ({moves}) ; « manage.py republish {slug} --force » pour "
             "le republier",
}


def describe(found: Republication, slug: str) -> str | None:
    """The line said of one tournament, or None when there is nothing to say (unchanged, never published)."""
    if found.outcome not in SAID:
        return None
    names = dict(Entry.objects.filter(pk__in=[m.entry for m in found.moved]).values_list("pk", "player__name"))
    moves = ", ".join(f"{names.get(m.entry, m.entry)} {m.old_rank} → {m.new_rank}" for m in found.moved[:5])
    if len(found.moved) > 5:
        more = len(found.moved) - 5
        moves += f" et {more} autre{'s' if more > 1 else ''}"
    changed = f"{found.changed} valeur{'s' if found.changed > 1 else ''}"
    return f"{found.name} : " + SAID[found.outcome].format(changed=changed, moves=moves or "—", slug=slug)


class Command(BaseCommand):
    help = "Republie les classements que cette version calcule autrement (après une mise à jour)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="les tournois (leur adresse courte) ; tous sans nom")
        parser.add_argument("--force", action="store_true", help="republier même si des rangs changent")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["slugs"]:
            found = []
            for slug in options["slugs"]:
                pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
                if pk is None:
                    raise CommandError(f"Aucun tournoi « {slug} ».")
                found.append(ranking_republish(tournament_id=pk, force=options["force"]))
        else:
            found = republish_all(force=options["force"])
        slugs = dict(Tournament.objects.filter(pk__in=[f.tournament_id for f in found]).values_list("pk", "slug"))
        lines = [line for f in found if (line := describe(f, slugs[f.tournament_id])) is not None]
        for line in lines:
            self.stdout.write(line)
        if not lines:
            self.stdout.write("Classements à jour : rien à republier.")
