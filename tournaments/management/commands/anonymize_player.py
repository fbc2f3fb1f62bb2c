"""``manage.py anonymize_player PLAYER``: make a player anonymous at his request (GDPR), his results kept.

PLAYER is his number in the register (the admin shows it) or his licence. Prints his new name."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.event.models import Player
from tournaments.event.register import player_anonymize


class Command(BaseCommand):
    help = "Rend un joueur anonyme à sa demande (RGPD) : ses résultats restent, son nom et ses données partent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("player", help="le numéro du joueur ou sa licence")
        parser.add_argument("--reason", default="", help="la demande (date, moyen), gardée dans l'historique")

    def handle(self, *args: Any, **options: Any) -> None:
        key = options["player"].strip()
        player = Player.objects.filter(licence=key).first() if key else None
        if player is None and key.isdigit():
            player = Player.objects.filter(pk=int(key)).first()
        if player is None:
            raise CommandError(f"aucun joueur de numéro ou de licence « {key} »")
        if player.anonymized_at is not None:
            self.stdout.write(f"{player.name} : déjà anonyme")
            return
        player = player_anonymize(player=player, reason=options["reason"])
        self.stdout.write(f"{player.name} : anonyme, ses résultats restent")
