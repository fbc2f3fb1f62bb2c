"""What was played and what it scored: deals, rulings, score rows, idempotency keys, forfeits.

* :class:`Deal`: one deal of a table, holding its whole ``levee.deal/1`` record and the verdict computed at
  entry (for match games a table is one match and each entry re-judges the whole match);
* :class:`ScoreRow`: the marks of one entry for one deal (or one ruling), written in the same transaction as
  the deal; rankings are ``SUM(points) … GROUP BY entry`` over the rows that ``count``;
* :class:`Ruling`: an arbiter's decision on an incident (adjustments, annulled deal);
* :class:`IdempotencyKey`: a submitted deal and its first response, replayed on retry (kept per user or per
  table's link);
* :class:`Forfeit`: forfeits and absences at a table (below).

Forfeits and absences recorded at a table of a round (the chief arbiter's or the organizer's entry).

* **forfait** (match games): the named players did not play (or left) the match; every side with
  one of them loses it and the side left present wins it *by forfeit* — match points as a win,
  its game points counted nowhere (``scoring.ranking.MatchResult.forfeit``). When every side has
  someone absent the match has no result: nobody scores for it.
* **absence**: the named players were absent from this table in this round. They score nothing
  for it (a round missed scores nothing, docs/ranking.md); at a match table the match is not
  played and has no result. At a Tarot table it is the record the sheets and pages show.

One record per table (a new entry replaces it, cancelling deletes it); the rankings read it in
``tournaments.standings.rankings.match_results``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.event.models import Entry, Round, Table, Tournament


class Deal(models.Model):
    """One deal of a table: its full record, the verdict, and a version bumped by each correction."""

    class Status(models.TextChoices):
        VALID = "valid", _("valide")
        PENDING = "pending", _("en attente du visa")
        ANNULLED = "annulled", _("annulée")
        IRREGULAR = "irregular", _("irrégulière")

    #: the statuses of the deals that are in their table's match (an irregular deal is not, until a ruling decides)
    IN_MATCH = (Status.VALID, Status.PENDING)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("numéro"), help_text=_("À partir de 1, dans l'ordre de la table."))
    record = models.JSONField(help_text=_("Le record levee.deal/1 complet de la donne."))
    verdict = models.JSONField(default=dict, blank=True)
    status = models.CharField(_("état"), max_length=10, choices=Status.choices, default=Status.VALID)
    version = models.PositiveIntegerField(default=1)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    approved_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))  # the reason kept whole

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("donne")
        verbose_name_plural = _("donnes")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="deal_number_unique")]

    def __str__(self) -> str:
        return f"{self.table} — donne {self.number}"

    @property
    def counts(self) -> bool:
        """Whether the deal's marks count in the rankings."""
        return self.status == self.Status.VALID

    @property
    def in_match(self) -> bool:
        """Whether the deal is in its table's match (neither annulled nor irregular)."""
        return self.status in self.IN_MATCH


class Ruling(models.Model):
    """An arbiter's decision on an incident: point adjustments and/or an annulled deal."""

    class Kind(models.TextChoices):
        RENONCE = "renonce", _("renonce")
        MISDEAL = "misdeal", _("maldonne")
        EXPOSED_CARD = "exposed_card", _("carte exposée")
        SLOW_PLAY = "slow_play", _("jeu lent")
        OTHER = "other", _("autre")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rulings")
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="rulings")
    kind = models.CharField(_("nature"), max_length=20, choices=Kind.choices)
    adjustments = models.JSONField(_("ajustements"), default=dict, blank=True,
                                   help_text=_("Points par inscription : {\"<entry id>\": points}."))
    is_penalty = models.BooleanField(_("pénalité"), default=False,
                                     help_text=_("Une pénalité peut ne pas être à somme nulle."))
    annuls_deal = models.BooleanField(_("annule la donne"), default=False)
    reason = models.TextField(_("motif"))
    penalty = models.CharField(_("pénalité prédéfinie"), max_length=40, blank=True, default="",
                               help_text=_("Code de la pénalité des textes (scoring.penalties), vide si saisie."))
    penalty_rule = models.CharField(_("référence de la règle"), max_length=120, blank=True, default="")
    decision = models.CharField(_("décision sur une donne irrégulière"), max_length=12, blank=True, default="",
                                help_text=_("Décision de rulings.DECISIONS, vide sinon."))
    offender = models.ForeignKey(Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                 verbose_name=_("fautif"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    # a ruling recorded by mistake is withdrawn, never deleted: it stays listed (marked « retirée »), its
    # score rows stop counting and a match is judged without it (services.rulings.ruling_withdraw)
    withdrawn_at = models.DateTimeField(_("retirée le"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+", verbose_name=_("retirée par"))
    withdraw_reason = models.TextField(_("motif du retrait"), blank=True, default="")
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))  # the reason kept whole

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("décision d'arbitrage")
        verbose_name_plural = _("décisions d'arbitrage")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.table}"

    @property
    def kind_words(self) -> str:
        """Its kind as the pages say it: a ruling on an irregular deal (``decision`` set) filed under « autre » is
        « donne irrégulière » — what the chief decided on, never « autre »."""
        if self.kind == self.Kind.OTHER and self.decision:
            return str(_("donne irrégulière"))
        return str(self.get_kind_display())

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class ScoreRow(models.Model):
    """The marks of one entry for one deal (or one ruling): the rows rankings sum."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="score_rows")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="score_rows")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="score_rows")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, null=True, blank=True, related_name="score_rows")
    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, null=True, blank=True, related_name="score_rows")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="score_rows")
    points = models.IntegerField(_("points"))
    counts = models.BooleanField(_("compte"), default=True,
                                 help_text=_("Faux tant que la donne attend son visa ou si elle est annulée."))
    # the row of the deal's taker (``record.bid.taker``, an integer seat, is this entry's seat): written with the row
    # (``deals.record._write_rows``) so that the rankings count the contracts made as taker in the same aggregate as
    # the marks, without reading the records; never on a ruling's row. A DEFAULT in the database too: a row written by
    # code older than the column (a rolling upgrade) is no taker's until its deal is written again.
    taker = models.BooleanField(_("preneur"), default=False, db_default=False,
                                help_text=_("Vrai sur la ligne du preneur de la donne."))

    class Meta:
        ordering = ["tournament", "round", "table", "deal", "entry"]
        verbose_name = _("ligne de score")
        verbose_name_plural = _("lignes de score")
        indexes = [
            # the rankings' aggregate (``standings.rankings._tarot_totals_sql``) reads this index alone, in the order it
            # groups by (entry, then round), without a hash or a sort; a player's rows are looked up by its start
            models.Index(fields=["tournament", "entry", "round"],
                         include=["points", "counts", "ruling", "deal", "taker"], name="scorerow_totals"),
            models.Index(fields=["tournament", "round"], name="scorerow_tournament_round"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(deal__isnull=False) | Q(ruling__isnull=False),
                                   name="scorerow_deal_or_ruling"),
            models.UniqueConstraint(fields=["deal", "entry"], condition=Q(deal__isnull=False, ruling__isnull=True),
                                    name="scorerow_deal_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self._meta.verbose_name} {self.pk} ({self.points:+d})"


class IdempotencyKey(models.Model):
    """An entry's key (the API's ``Idempotency-Key``, a form's entry key, an offline outbox's key): the request
    it came with and the first response. Its owner is the user who entered the deal, or the table's link it was
    entered through (no account): one of the two, never both; a key is unique per owner."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="+")
    link = models.ForeignKey("tournaments.PrivateLink", on_delete=models.CASCADE, null=True, blank=True,
                             related_name="+")
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    status_code = models.PositiveSmallIntegerField(default=201)
    response = models.TextField(default="", help_text=_("Le corps JSON de la première réponse, tel qu'envoyé."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("clé d'idempotence")
        verbose_name_plural = _("clés d'idempotence")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique"),
            models.UniqueConstraint(fields=["link", "key"], name="idempotency_link_key_unique"),
            models.CheckConstraint(condition=Q(user__isnull=False, link__isnull=True)
                                   | Q(user__isnull=True, link__isnull=False), name="idempotency_key_one_owner"),
        ]


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
