"""Event models: the tournament, who plays and where they sit, the staff's roles.

The shape (see ``docs/architecture.md``):

* a :class:`Tournament` of one game, with the game's conventions as ``options`` (the same
  object as a record's ``"options"``), individual or by teams;
* :class:`Player` (a person, shared between tournaments) registered as an :class:`Entry`;
* :class:`Round` → :class:`Table` → :class:`Seat` (``position`` is the index in the record's
  ``players``, i.e. the order of play);
* what was played and scored (deals, rulings, score rows) lives in :mod:`tournaments.deals.models`;
* :class:`TournamentRole`: organizer, chief arbiter, table arbiter (with the tables assigned);

Units of ``ScoreRow.points``: the game's own marks, as ``scoring/`` documents them — Tarot: FFT
marks of the deal (zero-sum); Écarté and Triomphe: points of the deal; L'Impériale: fiches
(impériales) gained in the deal (6 jetons make a fiche; the jetons are in the verdict); Le
Vingt-quatre: jetons of the deal. For match games the match's winner is kept on the
:class:`Table` (``match_winner``), the basis of match points.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.clubs.models import Club
from tournaments.common import games

#: the games, from the registry (rules.game): members TAROT, TRIOMPHE, …, values the code names, labels the names
Game = models.TextChoices("Game", [(code.upper().replace("-", "_"), (code, label)) for code, label in games.choices()])


class Tournament(models.Model):
    class Format(models.TextChoices):
        INDIVIDUAL = "individual", _("individuel")
        TEAMS = "teams", _("par équipes")

    class Status(models.TextChoices):
        DRAFT = "draft", _("brouillon")
        OPEN = "open", _("inscriptions ouvertes")
        RUNNING = "running", _("en cours")
        FINISHED = "finished", _("terminé")

    name = models.CharField(_("nom"), max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    game = models.CharField(_("jeu"), max_length=20, choices=Game.choices)
    options = models.JSONField(_("conventions"), default=dict, blank=True,
                               help_text=_("Les options du jeu, comme le champ « options » d'un record."))
    format = models.CharField(_("formule"), max_length=12, choices=Format.choices, default=Format.INDIVIDUAL)
    rounds_planned = models.PositiveSmallIntegerField(_("manches prévues"), default=1)
    deals_per_round = models.PositiveSmallIntegerField(_("donnes par manche"), null=True, blank=True,
                                                       help_text=_("Tarot : donnes jouées à chaque table."))
    target = models.PositiveIntegerField(_("objectif de la partie"), null=True, blank=True,
                                         help_text=_("Jeux à objectif : points, impériales ou jetons qui finissent "
                                                     "la partie (option « target » des records)."))
    status = models.CharField(_("état"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(_("public"), default=False)
    tie_breaks = models.JSONField(_("départages"), default=list, blank=True,
                                  help_text=_("Critères de départage annoncés à l'avance, dans l'ordre."))
    released_round = models.PositiveSmallIntegerField(_("dernière manche publiée"), default=0)
    # the day itself (shown on every page and print-out) and the organizer's choices for the draw
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("lieu"), max_length=200, blank=True, default="")
    start_time = models.TimeField(_("heure de début"), null=True, blank=True)
    separate_clubs = models.BooleanField(_("séparer les clubs à la première manche"), default=False)
    round_minutes = models.PositiveSmallIntegerField(_("durée d'une manche (minutes)"), default=60)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    # the club that runs it: its organizers manage it (tournaments.event.permissions); none for a tournament made
    # outside any club (the admin, the tests' factories)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments",
                             verbose_name=_("club"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")

    def __str__(self) -> str:
        return self.name

    @property
    def is_match_game(self) -> bool:
        return games.plays_matches(self.game)

    @property
    def has_duplicate_deals(self) -> bool:
        """Whether the tournament's game may be played in duplicate deals (étuis)."""
        return games.duplicate_deals(self.game)

    @property
    def has_contracts(self) -> bool:
        """Whether the tournament's game has contracts (a taker's bid) on its score sheets."""
        return bool(games.contracts(self.game))

    def record_options(self) -> dict:
        """The ``options`` object of this tournament's records (the target folded in)."""
        options = dict(self.options or {})
        if self.target is not None and self.is_match_game:
            options.setdefault("target", self.target)
        return options


class Player(models.Model):
    name = models.CharField(_("nom"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence"), max_length=40, blank=True)
    # the register (issue 23): the club he is a member of, personal data for the staff only (GDPR), and when he
    # was made anonymous on request (his results kept under « Joueur anonyme »)
    home_club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="members",
                                  verbose_name=_("club d'appartenance"))
    birth_date = models.DateField(_("date de naissance"), null=True, blank=True)
    anonymized_at = models.DateTimeField(_("rendu anonyme le"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # every change of name, club or licence (and a merge) with who, when and why (tournaments.event.players)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")
        constraints = [
            models.UniqueConstraint(fields=["licence"], condition=~Q(licence=""), name="player_licence_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("nom"), max_length=120)

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("équipe")
        verbose_name_plural = _("équipes")
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's registration in a tournament (the unit ranked)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries")
    withdrawn = models.BooleanField(_("forfait"), default=False)
    # the messy middle (services/middle.py): a late arrival is drawn from ``from_round`` on; a player who
    # replaces another for the rest of the event is a new entry that ``replaces`` him
    from_round = models.PositiveSmallIntegerField(_("à partir de la manche"), default=1)
    replaces = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="replaced_by", verbose_name=_("remplace"))
    checked_in_at = models.DateTimeField(_("arrivée le"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # registrations, withdrawals, removals and merges with who, when and why (tournaments.event.players)
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["tournament", "id"]
        verbose_name = _("inscription")
        verbose_name_plural = _("inscriptions")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique")]

    def __str__(self) -> str:
        return self.player.name


class Round(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("prévue")
        RUNNING = "running", _("en cours")
        FINISHED = "finished", _("terminée")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("numéro"))
    status = models.CharField(_("état"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    released = models.BooleanField(_("publiée"), default=False)
    # the hall's round clock: seconds run before the last start, and when it was last started (null: paused)
    clock_elapsed = models.PositiveIntegerField(_("temps écoulé (s)"), default=0)
    clock_started_at = models.DateTimeField(_("horloge lancée à"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("manche")
        verbose_name_plural = _("manches")
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} — manche {self.number}"


class Table(models.Model):
    """A table in a round; for match games, one match."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("numéro"))
    # match games: the result of the match so far, from the last verdict
    match_totals = models.JSONField(null=True, blank=True)
    match_winner = models.JSONField(null=True, blank=True, help_text=_("Siège (ou sièges) du gagnant, ou null."))
    match_ended = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]

    def __str__(self) -> str:
        return f"{self.round} — table {self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("place"), help_text=_("Index dans l'ordre de jeu du record."))
    entry = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="seats")
    # a replacement for this round only: who actually sits there (the entry's marks still count for it)
    substitute = models.CharField(_("remplaçant"), max_length=120, blank=True, default="")

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("place")
        verbose_name_plural = _("places")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "entry"], name="seat_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} — place {self.position}"


class TournamentRole(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organisateur")
        CHIEF_ARBITER = "chief_arbiter", _("arbitre principal")
        ARBITER = "arbiter", _("arbitre de table")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(_("rôle"), max_length=20, choices=Role.choices)
    tables = models.ManyToManyField(Table, blank=True, related_name="arbiter_roles",
                                    help_text=_("Arbitre de table : les tables qui lui sont confiées."))

    class Meta:
        verbose_name = _("rôle")
        verbose_name_plural = _("rôles")
        constraints = [models.UniqueConstraint(fields=["tournament", "user", "role"], name="role_unique")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.tournament}"
