"""Forfeits and absences recorded at a table of a round (the chief arbiter's or the organizer's entry).

* **forfait** (match games): the named players did not play (or left) the match; every side with
  one of them loses it and the side left present wins it *by forfeit* — match points as a win,
  its game points counted nowhere (``scoring.ranking.MatchResult.forfeit``). When every side has
  someone absent the match has no result: nobody scores for it.
* **absence**: the named players were absent from this table in this round. They score nothing
  for it (a round missed scores nothing, docs/ranking.md); at a match table the match is not
  played and has no result. At a Tarot table it is the record the sheets and pages show.

One record per table (a new entry replaces it, cancelling deletes it); the rankings read it in
``tournaments.rankings.match_results``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Forfeit"]


class Forfeit(models.Model):
    class Kind(models.TextChoices):
        FORFEIT = "forfeit", _("forfait")
        ABSENCE = "absence", _("absence")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="forfeits")
    table = models.OneToOneField("tournaments.Table", on_delete=models.CASCADE, related_name="forfeit")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    absent = models.ManyToManyField("tournaments.Entry", related_name="forfeits", verbose_name=_("absents"))
    reason = models.TextField(_("motif"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "table"]
        verbose_name = _("forfait ou absence")
        verbose_name_plural = _("forfaits et absences")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.table}"
