"""Clubs and the federation's bodies above them, their staff, and the federation's licence file.

* a :class:`Club` (name, city, federation number) owns its tournaments (``Tournament.club``), its staff
  (:class:`ClubRole`: organizers and arbiters who work for it) and its members (``Player.home_club``);
* an optional :class:`Grouping` above clubs: a **comité** (départemental) or a **ligue** (régionale), a comité
  within a ligue; its viewers read its clubs' results, never write; its managers create and manage its seasons
  (the tournaments of its clubs count in them; reading the clubs' tournaments is the viewers' right);
* :class:`Licence`: one line of the federation's licence file as last imported (the register's reference),
  personal data (birth date, sex, validity) that only the staff see.

This package sits below ``event`` (a tournament and a player point at a club): it imports nothing of the event.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Grouping(models.Model):
    """A comité or a ligue: a grouping of clubs that reads their results."""

    class Kind(models.TextChoices):
        COMITE = "comite", _("comité")
        LIGUE = "ligue", _("ligue")

    name = models.CharField(_("nom"), max_length=200)
    kind = models.CharField(_("type"), max_length=10, choices=Kind.choices, default=Kind.COMITE)
    parent = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="children",
                               verbose_name=_("ligue"), help_text=_("La ligue dont ce comité fait partie."))
    viewers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="groupings",
                                     verbose_name=_("lecteurs"),
                                     help_text=_("Ceux qui lisent les résultats des clubs (sans rien modifier)."))
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="managed_groupings",
                                      verbose_name=_("responsables"),
                                      help_text=_("Ceux qui créent et gèrent les saisons du comité ou de la ligue "
                                                  "(les tournois de ses clubs y comptent)."))

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("comité ou ligue")
        verbose_name_plural = _("comités et ligues")

    def __str__(self) -> str:
        return f"{self.get_kind_display().capitalize()} {self.name}"


class Club(models.Model):
    name = models.CharField(_("nom"), max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    city = models.CharField(_("ville"), max_length=120, blank=True, default="")
    federation_number = models.CharField(_("numéro fédéral"), max_length=20, blank=True, default="")
    grouping = models.ForeignKey(Grouping, on_delete=models.SET_NULL, null=True, blank=True, related_name="clubs",
                                 verbose_name=_("comité ou ligue"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(fields=["federation_number"], condition=~Q(federation_number=""),
                                    name="club_federation_number_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubRole(models.Model):
    """Someone who works for a club: its organizers manage its tournaments; its arbiters are its staff, whom any
    organizer may give a role in a tournament (of this club or another: inter-club events)."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organisateur")
        ARBITER = "arbiter", _("arbitre")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles")
    role = models.CharField(_("rôle"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("rôle au club")
        verbose_name_plural = _("rôles au club")
        constraints = [models.UniqueConstraint(fields=["club", "user", "role"], name="club_role_unique")]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} — {self.club}"


class Licence(models.Model):
    """One licence of the federation's file, as last imported (``tournaments.event.register``)."""

    class Sex(models.TextChoices):
        FEMALE = "F", _("femme")
        MALE = "M", _("homme")

    number = models.CharField(_("licence"), max_length=40, unique=True)
    last_name = models.CharField(_("nom"), max_length=120)
    first_name = models.CharField(_("prénom"), max_length=120, blank=True, default="")
    club_name = models.CharField(_("club"), max_length=120, blank=True, default="")
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="licences")
    birth_date = models.DateField(_("date de naissance"), null=True, blank=True)
    category = models.CharField(_("catégorie ou série"), max_length=40, blank=True, default="")
    # the « sexe » (M/F) or « civilité » (M./Mme) column of the federation's file: a personal datum (GDPR), the
    # staff's only, read by the « dames » category of a championship (blank: not in the file)
    sex = models.CharField(_("sexe"), max_length=1, choices=Sex.choices, blank=True, default="")
    valid_until = models.DateField(_("validité"), null=True, blank=True)
    imported_at = models.DateTimeField(_("importée le"), auto_now=True)

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        verbose_name = _("licence")
        verbose_name_plural = _("licences")

    def __str__(self) -> str:
        return f"{self.number} {self.first_name} {self.last_name}".strip()
