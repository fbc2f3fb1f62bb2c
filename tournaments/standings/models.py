"""Ranking models: the version of a tournament's ranking inputs, and immutable published snapshots.

* :class:`RankingClock` — one row per tournament. ``version`` is bumped in the same transaction as
  every change of the ranking's inputs (a deal entered or corrected, a ruling, a round released …),
  by :func:`tournaments.standings.rankings.ranking_inputs_changed`. ``queued_at`` says a refresh task is
  queued and has not started yet: a burst of entries queues one task (the coalescing). ``lease_until`` says a
  refresh is running, held by its worker until then (renewed while it works): changes meanwhile queue nothing, the
  running refresh ranks them once more before it lets go; a lease that expires (its worker died) is taken over
  within seconds by another worker (``tournaments.standings.tasks``).
* :class:`RankingSnapshot` — a published ranking: the input version it was computed at, the
  canonical inputs (so :func:`scoring.snapshots.regenerate` rebuilds it exactly) and their sha256
  digest, and its lines as one document each (``lines``, ``team_lines``: written by
  :func:`tournaments.standings.rankings.lines_json`, read by :func:`tournaments.standings.rankings.snapshot_lines`).
  Never updated: a new state of the tournament gives a new snapshot.

The public page compares the latest snapshot's ``input_version`` with the clock's ``version``: when
they differ, the ranking shown is not up to date (no worker running, or a refresh in progress).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["RankingClock", "RankingSnapshot"]


class RankingClock(models.Model):
    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, primary_key=True,
                                      related_name="ranking_clock")
    version = models.PositiveBigIntegerField(_("version des données"), default=0)
    queued_at = models.DateTimeField(null=True, blank=True,
                                     help_text=_("Un recalcul est en file et n'a pas encore commencé."))
    changed_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True,
                                       help_text=_("Un recalcul est en cours, tenu par son worker jusqu'à cette "
                                                   "heure."))

    class Meta:
        verbose_name = _("horloge du classement")
        verbose_name_plural = _("horloges du classement")

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.version}"


class JSONTextField(models.JSONField):
    """A JSON value kept as the text written (PostgreSQL ``json``, not ``jsonb``): a snapshot's canonical inputs,
    11 MB for a 1,024-player duplicate, are only checked for syntax when stored (``jsonb`` converted them to its
    binary form at each publication: 0.6 – 0.8 s of PostgreSQL's time) and read back as they were written. Read as
    a ``JSONField`` (the same Python values); no ``jsonb`` look-up on it (none is made)."""

    def db_type(self, connection: Any) -> str | None:
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is not None and not isinstance(value, str):  # a json column: psycopg decoded it already
            return value
        return super().from_db_value(value, expression, connection)


class RankingSnapshot(models.Model):
    """An immutable published ranking (individual lines, and team lines in a team tournament)."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE,
                                   related_name="ranking_snapshots")
    input_version = models.PositiveBigIntegerField(_("version des données"))
    kind = models.CharField(max_length=20, help_text=_("tarot, matches (scoring.ranking)"))
    criteria = models.JSONField(default=list, help_text=_("Critère principal puis départages, dans l'ordre."))
    released_rounds = models.JSONField(default=list, help_text=_("Numéros des manches prises en compte."))
    inputs = JSONTextField(help_text=_("Entrées canoniques (scoring.ranking) : de quoi régénérer le classement."))
    options = models.JSONField(default=list)
    digest = models.CharField(max_length=64, help_text=_("sha256 des entrées et des options."))
    team_inputs = JSONTextField(null=True, blank=True)
    team_options = models.JSONField(null=True, blank=True)
    team_digest = models.CharField(max_length=64, blank=True)
    # one document each, written once with the snapshot (no row per line): rankings.lines_json / snapshot_lines
    lines = JSONTextField(null=True, blank=True, help_text=_("Les lignes du classement, dans l'ordre."))
    team_lines = JSONTextField(null=True, blank=True, help_text=_("Les lignes du classement des équipes."))
    compute_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-input_version"]
        get_latest_by = "input_version"
        verbose_name = _("classement publié")
        verbose_name_plural = _("classements publiés")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "input_version"], name="snapshot_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.input_version} {self.digest[:8]}"
