"""The table in the players' hands: private links, the co-signed score sheet, calls to the arbiter.

* :class:`TablePolicy` — the organizer's choices for a tournament: whether tables enter their own deals
  through their private link, how many players must confirm a deal, whether unconfirmed deals count in
  the live ranking, the appeal window of a round's results.
* :class:`PrivateLink` — an unguessable token (``secrets.token_urlsafe``, after Tabbycat's private URLs)
  that opens one table of one round (a *table link*, printed with its QR code on the table card) or one
  player's own deals (a *player link*). Whoever holds it acts without an account; the organizer revokes it
  (``revoked_at``), never deletes it, so who entered or confirmed what through it stays readable.
* :class:`DealAnswer` — a player's confirmation or dispute of one version of a deal, with who (the
  player, the link or account used) and when; append-only: a later answer replaces an earlier one.
* :class:`DealSheet` — the score sheet's state for the deal's current version (``confirmed`` once enough
  players confirmed and nobody disputes); the rankings read it when unconfirmed deals do not count.
* :class:`RoundClosing` — when a round was finished and when its results become official (the end of the
  appeal window); before that they are provisional.
* :class:`ArbiterCall` — « Appeler l'arbitre »: a table's call with its reason, taken and resolved by an
  arbiter (a ruling, a correction, or nothing), the answer shown to the table.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

__all__ = ["ArbiterCall", "DealAnswer", "DealSheet", "PrivateLink", "RoundClosing", "TablePolicy"]


class TablePolicy(models.Model):
    """How a tournament's tables take part in their score sheet (one per tournament; defaults when absent)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE,
                                      related_name="table_policy")
    tables_enter = models.BooleanField(
        _("les tables saisissent leurs donnes"), default=False,
        help_text=_("Sinon, seuls les arbitres saisissent ; les liens des tables servent à confirmer et à appeler."))
    confirmations_needed = models.PositiveSmallIntegerField(
        _("confirmations nécessaires"), null=True, blank=True,
        help_text=_("Nombre de joueurs qui doivent confirmer une donne ; vide : tous les joueurs de la table."))
    unconfirmed_count = models.BooleanField(
        _("les donnes non confirmées comptent"), default=True,
        help_text=_("Dans le classement en direct, avant que les joueurs aient confirmé."))
    appeal_minutes = models.PositiveSmallIntegerField(
        _("délai de réclamation (minutes)"), default=15,
        help_text=_("Après la fin d'une manche, ses résultats restent provisoires pendant ce délai."))

    class Meta:
        verbose_name = _("feuille de marque à la table")
        verbose_name_plural = _("feuilles de marque à la table")

    def needed(self, seats: int) -> int:
        """Confirmations that make a deal of a table of ``seats`` confirmed."""
        if self.confirmations_needed is None:
            return seats
        return max(1, min(self.confirmations_needed, seats))


class PrivateLink(models.Model):
    """A private link: a table of one round, or one player's own deals."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="private_links")
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="private_links")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, null=True, blank=True,
                              related_name="private_links")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    revoked_at = models.DateTimeField(_("révoqué le"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("lien privé")
        verbose_name_plural = _("liens privés")
        constraints = [
            models.CheckConstraint(condition=Q(table__isnull=False, entry__isnull=True)
                                   | Q(table__isnull=True, entry__isnull=False), name="privatelink_table_xor_entry"),
            models.UniqueConstraint(fields=["table"], condition=Q(table__isnull=False, revoked_at__isnull=True),
                                    name="privatelink_one_live_per_table"),
            models.UniqueConstraint(fields=["entry"], condition=Q(entry__isnull=False, revoked_at__isnull=True),
                                    name="privatelink_one_live_per_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.table or self.entry} — {self.token[:4]}…"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class DealAnswer(models.Model):
    """A player's answer on one version of a deal: confirmed or disputed."""

    class Answer(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmée")
        DISPUTED = "disputed", _("contestée")

    deal = models.ForeignKey("tournaments.Deal", on_delete=models.CASCADE, related_name="answers")
    version = models.PositiveIntegerField(_("version de la donne"))
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="deal_answers")
    answer = models.CharField(_("réponse"), max_length=10, choices=Answer.choices)
    link = models.ForeignKey(PrivateLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deal", "created_at", "id"]
        verbose_name = _("réponse sur une donne")
        verbose_name_plural = _("réponses sur les donnes")
        indexes = [models.Index(fields=["deal", "version"], name="dealanswer_deal_version")]


class DealSheet(models.Model):
    """The score sheet of a deal's version: how many confirmed, whether someone disputes, and the state."""

    class State(models.TextChoices):
        ENTERED = "entered", _("saisie")
        CONFIRMED = "confirmed", _("confirmée")
        DISPUTED = "disputed", _("contestée")

    deal = models.OneToOneField("tournaments.Deal", on_delete=models.CASCADE, related_name="sheet")
    version = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.ENTERED)
    confirmed = models.PositiveSmallIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("état de la feuille")
        verbose_name_plural = _("états des feuilles")
        indexes = [models.Index(fields=["state"], name="dealsheet_state")]


class ArbiterCall(models.Model):
    """« Appeler l'arbitre »: a call from a table, its handling and its answer."""

    class Reason(models.TextChoices):
        RENONCE = "renonce", _("renonce")
        MISDEAL = "misdeal", _("maldonne")
        EXPOSED_CARD = "exposed_card", _("carte exposée")
        DISPUTE = "dispute", _("litige")
        FOULED_ETUI = "fouled_etui", _("étui faussé")
        IRREGULAR = "irregular", _("donne irrégulière")
        OTHER = "other", _("autre")

    class State(models.TextChoices):
        OPEN = "open", _("en attente")
        TAKEN = "taken", _("pris en charge")
        RESOLVED = "resolved", _("résolu")

    class Outcome(models.TextChoices):
        RULING = "ruling", _("décision d'arbitrage")
        CORRECTION = "correction", _("donne corrigée")
        NOTHING = "nothing", _("rien à changer")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="arbiter_calls")
    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="arbiter_calls")
    deal = models.ForeignKey("tournaments.Deal", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reason = models.CharField(_("motif"), max_length=20, choices=Reason.choices)
    note = models.CharField(_("précision"), max_length=300, blank=True, default="")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                              verbose_name=_("appelé par"))
    link = models.ForeignKey(PrivateLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="calls")
    state = models.CharField(_("état"), max_length=10, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    taken_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(_("suite donnée"), max_length=12, choices=Outcome.choices, blank=True, default="")
    answer = models.TextField(_("réponse à la table"), blank=True, default="")

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("appel à l'arbitre")
        verbose_name_plural = _("appels à l'arbitre")
        indexes = [models.Index(fields=["tournament", "state"], name="arbitercall_tournament_state")]


class RoundClosing(models.Model):
    """A finished round's appeal window: its results are provisional until ``official_at``, then official."""

    round = models.OneToOneField("tournaments.Round", on_delete=models.CASCADE, related_name="closing")
    finished_at = models.DateTimeField(_("finie le"))
    official_at = models.DateTimeField(_("officielle le"))

    class Meta:
        verbose_name = _("clôture de manche")
        verbose_name_plural = _("clôtures de manche")
