"""Duplicate Tarot (« donnes dupliquées », RULES.md §1.12 rule 36, A-T13): étuis, movement, checks.

* :class:`DuplicateSetup` — makes a Tarot tournament a duplicate: étuis a round, the scoring
  method (matchpoints or datum), the event score (mean percentage or sum), the count policy
  (byes or tables of 3) and the seed the étuis are dealt from.
* :class:`Etui` — one étui: number, the round it belongs to, its cards (hands with seat 0 =
  North, chien, dealer) and their fingerprint; empty until keyed in when neither generated nor
  imported (the first table that enters it card by card gives its cards).
* :class:`DuplicateTable` — the movement at one table of one round (``scoring.movement``): the
  étuis in playing order, the copy used and where each étui goes next. The seats of the table
  are the ordinary :class:`~tournaments.event.models.Seat` rows: position = orientation.
* :class:`EtuiPlay` — a deal entered at a duplicate table, tied to its étui, with the result of
  the check against the étui's cards: ``fouled`` deals are compared only with the same cards
  (``fingerprint``) and the arbiter is called (``problem`` says what differs).
* :class:`ArtificialResult` — an arbiter's artificial result on an étui for one player: 60 % /
  50 % / 40 % or not played (A-T13).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["ArtificialResult", "DuplicateSetup", "DuplicateTable", "Etui", "EtuiPlay"]


class DuplicateSetup(models.Model):
    class Method(models.TextChoices):
        MATCHPOINTS = "matchpoints", _("points de match")
        DATUM = "datum", _("écart à la moyenne")

    class Score(models.TextChoices):
        MEAN = "mean", _("pourcentage moyen")
        SUM = "sum", _("somme des points")

    class Short(models.TextChoices):
        AUTO = "auto", _("exempt ou tables de 3")
        BYE = "bye", _("exempts")
        THREE = "three", _("tables de 3")

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE, primary_key=True,
                                      related_name="duplicate")
    boards_per_round = models.PositiveSmallIntegerField(_("étuis par manche"), default=4)
    method = models.CharField(_("méthode"), max_length=12, choices=Method.choices, default=Method.MATCHPOINTS)
    score = models.CharField(_("classement"), max_length=8, choices=Score.choices, default=Score.MEAN)
    short = models.CharField(_("joueurs en surnombre"), max_length=8, choices=Short.choices, default=Short.AUTO)
    seed = models.CharField(_("graine des étuis"), max_length=64, blank=True, default="",
                            help_text=_("La même graine redonne les mêmes étuis."))

    class Meta:
        verbose_name = _("tournoi en donnes dupliquées")
        verbose_name_plural = _("tournois en donnes dupliquées")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.boards_per_round})"


class Etui(models.Model):
    class Source(models.TextChoices):
        GENERATED = "generated", _("tiré de la graine")
        IMPORTED = "imported", _("importé")
        KEYED = "keyed", _("saisi par la première table")
        EMPTY = "empty", _("à saisir")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="etuis")
    number = models.PositiveIntegerField(_("numéro"))
    round_number = models.PositiveSmallIntegerField(_("manche"))
    players = models.PositiveSmallIntegerField(_("joueurs"), default=4)
    hands = models.JSONField(_("mains"), default=list, blank=True, help_text=_("Une main par siège, Nord d'abord."))
    dog = models.JSONField(_("chien"), default=list, blank=True)
    dealer = models.PositiveSmallIntegerField(_("donneur"), default=0)
    fingerprint = models.CharField(_("empreinte"), max_length=64, blank=True, default="")
    source = models.CharField(_("origine"), max_length=10, choices=Source.choices, default=Source.EMPTY)
    keyed_from = models.ForeignKey("tournaments.Deal", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("saisi depuis la donne"))

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("étui")
        verbose_name_plural = _("étuis")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="etui_number_unique")]

    def __str__(self) -> str:
        return f"étui {self.number}"

    @property
    def known(self) -> bool:
        return bool(self.hands)


class DuplicateTable(models.Model):
    table = models.OneToOneField("tournaments.Table", on_delete=models.CASCADE, primary_key=True,
                                 related_name="duplicate")
    boards = models.JSONField(_("étuis"), default=list, help_text=_("Numéros des étuis, dans l'ordre de jeu."))
    copy = models.PositiveSmallIntegerField(_("jeu d'étuis"), default=1)
    pass_to = models.PositiveSmallIntegerField(_("passe à la table"), null=True, blank=True)

    class Meta:
        verbose_name = _("table en donnes dupliquées")
        verbose_name_plural = _("tables en donnes dupliquées")

    def __str__(self) -> str:
        return f"{self.table} {self.boards}"

    def etui_number(self, deal_number: int) -> int | None:
        """The étui played as the table's ``deal_number``-th deal (None past the round's étuis)."""
        return self.boards[deal_number - 1] if 0 < deal_number <= len(self.boards) else None


class EtuiPlay(models.Model):
    deal = models.OneToOneField("tournaments.Deal", on_delete=models.CASCADE, primary_key=True,
                                related_name="etui_play")
    etui = models.ForeignKey(Etui, on_delete=models.CASCADE, related_name="plays")
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="etui_plays")
    fouled = models.BooleanField(_("étui faussé"), default=False)
    fingerprint = models.CharField(_("empreinte des cartes jouées"), max_length=64, blank=True, default="")
    problem = models.JSONField(_("écarts"), default=list, blank=True)
    checked_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("étui joué")
        verbose_name_plural = _("étuis joués")

    def __str__(self) -> str:
        return f"{self.etui} — {self.table}"


class ArtificialResult(models.Model):
    class Kind(models.TextChoices):
        PLUS = "plus", _("60 % (non fautif)")
        EVEN = "even", _("50 % (torts partagés)")
        MINUS = "minus", _("40 % (fautif)")
        ABSENT = "absent", _("non joué")

    etui = models.ForeignKey(Etui, on_delete=models.CASCADE, related_name="artificial_results")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="artificial_results")
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("résultat"), max_length=8, choices=Kind.choices)
    reason = models.TextField(_("motif"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("résultat arbitral")
        verbose_name_plural = _("résultats arbitraux")
        constraints = [models.UniqueConstraint(fields=["etui", "entry"], name="artificial_once_per_etui")]

    def __str__(self) -> str:
        return f"{self.etui} {self.entry_id} {self.kind}"
