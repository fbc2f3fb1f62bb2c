"""Seasons and their championships, and the championship rankings published as snapshots.

* :class:`Season` — a club's (or a comité's) season: a name and its dates.
* :class:`Championship` — a ranking over some of the season's tournaments (which count, the points table as data,
  the best N results kept, the qualifying minimum, the tie-breaks declared in advance, the categories published);
  its rules are :class:`scoring.championship.Rules`.
* :class:`ChampionshipSnapshot` — an immutable published championship ranking: its canonical inputs (each
  player's result at each counted tournament) and rules, their sha256 digest (so
  :func:`scoring.snapshots.regenerate` rebuilds it exactly), and :class:`ChampionshipLine` its lines. A counted
  tournament published again (a correction) gives a new snapshot when the championship's inputs changed.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

__all__ = ["Championship", "ChampionshipLine", "ChampionshipSnapshot", "Season"]


class Season(models.Model):
    name = models.CharField(_("nom"), max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="seasons", verbose_name=_("club"))
    grouping = models.ForeignKey("tournaments.Grouping", on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="seasons", verbose_name=_("comité ou ligue"))
    starts_on = models.DateField(_("début"))
    ends_on = models.DateField(_("fin"))
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name", "id"]
        verbose_name = _("saison")
        verbose_name_plural = _("saisons")
        constraints = [
            models.CheckConstraint(condition=Q(club__isnull=False) | Q(grouping__isnull=False),
                                   name="season_has_an_owner"),
            models.CheckConstraint(condition=Q(ends_on__gte=models.F("starts_on")), name="season_dates_in_order"),
        ]

    def __str__(self) -> str:
        return self.name


class Championship(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="championships")
    name = models.CharField(_("nom"), max_length=200)
    slug = models.SlugField(max_length=200)
    tournaments = models.ManyToManyField("tournaments.Tournament", blank=True, related_name="championships",
                                         verbose_name=_("tournois qui comptent"))
    table = models.JSONField(_("barème"), default=dict,
                             help_text=_("Le barème (scoring.championship.PointsTable) : par place, par "
                                         "pourcentage du champ, ou les points du tournoi eux-mêmes."))
    best = models.PositiveSmallIntegerField(_("meilleurs résultats retenus"), null=True, blank=True,
                                            help_text=_("Vide : tous les résultats comptent."))
    minimum = models.PositiveSmallIntegerField(_("tournois exigés pour être classé"), default=0)
    tie_breaks = models.JSONField(_("départages"), default=list, blank=True,
                                  help_text=_("Annoncés à l'avance, dans l'ordre."))
    categories = models.JSONField(_("catégories"), default=list, blank=True,
                                  help_text=_("Classements publiés en plus du général : jeunes, seniors, dames, "
                                              "séries."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "name", "id"]
        verbose_name = _("championnat")
        verbose_name_plural = _("championnats")
        constraints = [models.UniqueConstraint(fields=["season", "slug"], name="championship_slug_unique")]

    def __str__(self) -> str:
        return self.name


class ChampionshipSnapshot(models.Model):
    """An immutable published championship ranking (never updated: a new state gives a new snapshot)."""

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="snapshots")
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(max_length=20, default="championship")
    criteria = models.JSONField(default=list)
    inputs = models.JSONField(help_text=_("Résultats canoniques (scoring.championship.Result)."))
    options = models.JSONField(default=list, help_text=_("Les règles du championnat."))
    digest = models.CharField(max_length=64)
    tournaments = models.JSONField(default=list, help_text=_("Les tournois comptés et la version de leur "
                                                             "classement : [[id, version], …]."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "-version"]
        get_latest_by = "version"
        verbose_name = _("classement de championnat publié")
        verbose_name_plural = _("classements de championnat publiés")
        constraints = [models.UniqueConstraint(fields=["championship", "version"],
                                               name="championship_snapshot_version_unique")]

    def __str__(self) -> str:
        return f"{self.championship_id} v{self.version} {self.digest[:8]}"


class ChampionshipLine(models.Model):
    snapshot = models.ForeignKey(ChampionshipSnapshot, on_delete=models.CASCADE, related_name="lines",
                                 db_index=False)
    position = models.PositiveIntegerField()
    rank = models.PositiveIntegerField(_("rang"))
    shared = models.BooleanField(_("ex aequo"), default=False)
    player = models.ForeignKey("tournaments.Player", on_delete=models.CASCADE, related_name="championship_lines")
    metrics = models.JSONField()

    class Meta:
        ordering = ["snapshot", "position"]
        verbose_name = _("ligne de championnat")
        verbose_name_plural = _("lignes de championnat")
        constraints = [models.UniqueConstraint(fields=["snapshot", "position"],
                                               name="championshipline_position_unique")]
