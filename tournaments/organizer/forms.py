"""Forms of the organizer's pages: the tournament, its players and staff, teams, forfeits and the draw."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django import forms
from django.db.models import Count
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules.errors import MalformedRecord
from tournaments.common import games
from tournaments.common.forms import ChoiceRadio
from tournaments.event import setup
from tournaments.event.models import Game, Table, Tournament

# -- organizer ---------------------------------------------------------------------------------

TRIOMPHE_MODES = [("forcee", _("forcée")), ("forcat", _("au forçat")), ("plaisant", _("au plaisant"))]
TRIOMPHE_ORDERS = [("1725", _("K Q J A 10 9 8 7 (1725)")), ("piquet", _("A K Q J 10 9 8 7 (piquet)"))]
HONOURS = [("figures", _("figures")), ("point", _("point"))]
FIVE = [("called_king", _("called king (15 cards each)")), ("mort", _("mort: the dealer sits out"))]


class TournamentForm(forms.Form):
    """A new tournament: the game and its conventions as simple fields, folded into ``options``."""

    name = forms.CharField(label=_("Name"), max_length=200)
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, widget=ChoiceRadio)
    players_per_table = forms.TypedChoiceField(
        label=_("Players per table"), coerce=int, required=False, empty_value=None,
        choices=[("", _("game default"))] + [(str(n), str(n)) for n in range(2, 7)], widget=forms.HiddenInput)
    """Kept for the clients that post it; the page shows one « Joueurs par table » per game
    (``players_<game>``: only the counts that game is played at, :meth:`players_field`)."""
    tarot_five = forms.ChoiceField(label=_("Tarot at 5"), choices=FIVE, required=False, widget=ChoiceRadio)
    triomphe_mode = forms.ChoiceField(label=_("Triomphe: trumping"), choices=TRIOMPHE_MODES, required=False,
                                      widget=ChoiceRadio)
    triomphe_order = forms.ChoiceField(label=_("Triomphe: order"), choices=TRIOMPHE_ORDERS, required=False,
                                       widget=ChoiceRadio)
    as_qui_pille = forms.BooleanField(label=_("As qui pille"), required=False)
    partners = forms.BooleanField(
        label=_("Jeu par équipes : les partenaires jouent ensemble"), required=False,
        help_text=_("Deux contre deux à 4 joueurs par table, trois contre trois à 6. Avec le format « par "
                    "équipes », chaque équipe forme un camp : ses joueurs s'assoient côte à côte, face à l'autre "
                    "équipe ; sinon le tirage forme les camps à chaque manche."))
    honours = forms.ChoiceField(label=_("Vingt-quatre: honours"), choices=HONOURS, required=False,
                                widget=ChoiceRadio)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, widget=ChoiceRadio,
                               initial=Tournament.Format.INDIVIDUAL)
    rounds_planned = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=99, initial=3)
    deals_per_round = forms.IntegerField(label=_("Deals per round (Tarot)"), min_value=1, max_value=99,
                                         required=False)
    target = forms.IntegerField(label=_("Objectif d'une partie"), min_value=1, required=False)
    """Its unit and the game's own value are said under it, game by game (``views.target_notes``)."""
    is_public = forms.BooleanField(label=_("Public"), required=False)
    date = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(label=_("Heure de début"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    venue = forms.CharField(label=_("Lieu"), max_length=200, required=False)
    round_minutes = forms.IntegerField(label=_("Durée d'une manche (minutes)"), min_value=5, max_value=600,
                                       initial=60, required=False,
                                       help_text=_("Pour l'horloge de la salle."))
    separate_clubs = forms.BooleanField(label=_("Séparer les joueurs d'un même club à la première manche"),
                                        required=False)

    club = forms.ModelChoiceField(label=_("Organizing club"), queryset=None, required=False,
                                  widget=ChoiceRadio(attrs={"class": "phrases"}), empty_label=None)

    def __init__(self, *args: Any, clubs: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from tournaments.clubs.models import Club

        # the clubs the organizer works for: he picks which one runs the tournament (his only one is ticked)
        field = self.fields["club"]
        field.queryset = clubs if clubs is not None else Club.objects.none()
        mine = list(field.queryset[:2])
        self.has_clubs = bool(mine)
        if len(mine) == 1:
            field.initial = mine[0].pk
        for game in games.names():
            self.fields[self.players_field(game)] = forms.TypedChoiceField(
                label=_("Players per table"), coerce=int, required=False, empty_value=None,
                choices=[("", _("game default"))] + [(str(n), str(n)) for n in games.players_choices(game)],
                widget=ChoiceRadio)

    @staticmethod
    def players_field(game: str) -> str:
        """The « Joueurs par table » field of one game (its counts only: Tarot 3, 4 or 5, never 2 or 6)."""
        return "players_" + game.replace("-", "_")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        game = data.get("game")
        if not game:
            return data
        field = self.players_field(game)
        players = data.get(field) or data.get("players_per_table")
        if players is not None and players not in games.players_choices(game):
            counts = [str(c) for c in games.players_choices(game)]
            self.add_error(field if data.get(field) else None,
                           _("%(game)s se joue à %(counts)s joueurs par table, pas à %(n)s.") % {
                               "game": games.label(game), "n": players,
                               "counts": f"{', '.join(counts[:-1])} ou {counts[-1]}"})
        data["players"] = players
        # a table of five plays either of two games (the called king or the « mort »): chosen, never defaulted
        # without a word (a walk's tournament at 5 was silently « mort », and the conventions no longer change)
        if players == 5 and game in self.games_of("tarot_five") and not data.get("tarot_five"):
            self.add_error("tarot_five", _("À 5 joueurs par table, choisissez : roi appelé ou mort."))
        if data.get("partners") and game in self.games_of("partners"):
            try:  # the sides a table of this size makes (the rules module's): refused at another size
                games.game(game).tournament_options({"players": players, "partners": True})
            except MalformedRecord as exc:
                self.add_error("partners", exc.text(translation.get_language() or "fr"))
        return data

    #: form field → the option it sets in a record's ``options`` (which games take it: their rules module)
    OPTION_OF = {"players_per_table": "players", "tarot_five": "five", "triomphe_mode": "mode",
                 "triomphe_order": "order", "as_qui_pille": "as_qui_pille", "honours": "honours", "target": "target"}

    @staticmethod
    def games_of(field: str) -> list[str]:
        """The games a convention field applies to, read from each game's options (rules/)."""
        if field == "deals_per_round":
            return [g for g in games.names() if not games.plays_matches(g)]
        if field == "partners":
            return [g for g in games.names() if games.partners_chosen(g)]
        if field.startswith("players_") and field != "players_per_table":
            return [g for g in games.names() if TournamentForm.players_field(g) == field]
        option = TournamentForm.OPTION_OF[field]
        return [g for g in games.names()
                if option in {f.name for f in dataclasses.fields(games.game(g).parse_options({}))}]

    def options(self) -> dict[str, Any]:
        """The game's conventions, as a record's ``options`` (only what applies to the game chosen)."""
        data = self.cleaned_data
        chosen = {option: data.get(name) for name, option in self.OPTION_OF.items() if option != "target"}
        chosen["players"] = data.get("players")  # the game's own « Joueurs par table » (or the old field)
        chosen["partners"] = bool(data.get("partners")) and data["game"] in self.games_of("partners")
        return games.game(data["game"]).tournament_options(chosen)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, required=False,
                           help_text=_("Vide avec un numéro de licence du fichier fédéral : le nom du fichier."))
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    licence = forms.CharField(label=_("Licence number"), max_length=40, required=False)
    birth_date = forms.DateField(label=_("Date de naissance"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}),
                                 help_text=_("Facultative, vue du seul personnel : elle repère un joueur inscrit "
                                             "deux fois."))


class LicencesCsvForm(forms.Form):
    """The federation's licence file, and whether to save what it changes (else the report only)."""

    file = forms.FileField(label=_("Licence file (CSV)"),
                           help_text=_("Columns: licence; nom; prénom; club; date de naissance; catégorie or série; "
                                       "validité. UTF-8 or Windows-1252, separator « ; » or « , »."))
    confirm = forms.BooleanField(label=_("Save the changes"), required=False,
                                 help_text=_("Unticked: the report only, without changing anything."))


class PlayersCsvForm(forms.Form):
    file = forms.FileField(label=_("CSV file"),
                           help_text=_("Une ligne par joueur, la première nomme les colonnes : Nom ; Prénom ; Club ; "
                                       "N° licence ; Équipe (au choix). Excel : « CSV (séparateur : point-virgule) » "
                                       "ou « CSV UTF-8 »."))


class SeatingForm(forms.Form):
    """A round's tables entered by hand: one row per table, the players in the order of play."""

    def __init__(self, *args: Any, entries: Sequence[tuple[int, str]], tables: int, seats: int,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table_count, self.seat_count = tables, seats
        choices = [("", "—")] + [(str(entry_id), name) for entry_id, name in entries]
        for t in range(tables):
            for p in range(seats):
                self.fields[f"t{t}_s{p}"] = forms.TypedChoiceField(
                    label=_("Table %(t)s, seat %(s)s") % {"t": t + 1, "s": p + 1}, choices=choices, coerce=int,
                    required=False, empty_value=None)

    def rows(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [(t + 1, [self[f"t{t}_s{p}"] for p in range(self.seat_count)]) for t in range(self.table_count)]

    def tables(self) -> list[list[int]]:
        """Entry ids per table in the order of play; empty rows left out (the service checks the rest)."""
        out = []
        for t in range(self.table_count):
            ids = [self.cleaned_data.get(f"t{t}_s{p}") for p in range(self.seat_count)]
            ids = [i for i in ids if i is not None]
            if ids:
                out.append(ids)
        return out


class _TablesForm(forms.Form):
    """The tables of a table arbiter, tapped (never typed): the tables drawn, round by round."""

    tables = forms.TypedMultipleChoiceField(label=_("Tables (table arbiter)"), required=False, coerce=int,
                                            choices=[], widget=forms.CheckboxSelectMultiple)
    role = forms.ChoiceField(label=_("Role"), choices=[], widget=ChoiceRadio(attrs={"class": "wide"}))

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from tournaments.event.models import TournamentRole

        self.fields["role"].choices = TournamentRole.Role.choices
        self.rounds: list[tuple[int, list[tuple[int, int]]]] = []
        if tournament is not None:
            self.offer_tables(tournament)

    def offer_tables(self, tournament: Tournament) -> None:
        """The tables drawn, by round (never a table that does not exist); none drawn: nothing to tap."""
        by_round: dict[int, list[tuple[int, int]]] = {}
        # never a bye (a table of one seat, « exempt »): no match there to arbitrate
        for pk, r, n in (Table.objects.filter(round__tournament=tournament).annotate(seated=Count("seats"))
                         .exclude(seated=1).order_by("round__number", "number")
                         .values_list("pk", "round__number", "number")):
            by_round.setdefault(r, []).append((pk, n))
        self.rounds = sorted(by_round.items())
        field = self.fields["tables"]
        field.choices = [(pk, f"{r}.{n}") for r, tables in self.rounds for pk, n in tables]
        if not self.rounds:
            field.disabled = True
            field.help_text = _("Aucune table n'est encore tirée : donnez ses tables à l'arbitre après le tirage.")
        else:
            field.help_text = _("Touchez les tables de l'arbitre de table, manche par manche.")

    def table_rounds(self) -> list[dict[str, Any]]:
        """For the template: each round's tables with whether they are ticked."""
        ticked = {str(v) for v in (self.data.getlist("tables") if hasattr(self.data, "getlist") else [])}
        return [{"number": r, "tables": [{"pk": pk, "number": n, "checked": str(pk) in ticked} for pk, n in tables]}
                for r, tables in self.rounds]


class RoleForm(_TablesForm):
    """Give a role: whom (tapped among the club's staff, those already in the tournament and other clubs'
    arbiters: ``tournaments.event.staff_choice``), which role, which tables."""

    user = forms.TypedChoiceField(label=_("Qui ?"), coerce=int, choices=[],
                                  error_messages={"required": _("Touchez la personne à qui donner le rôle."),
                                                  "invalid_choice": _("Cette personne n'est pas de celles que "
                                                                      "vous pouvez nommer ici.")})

    def __init__(self, *args: Any, tournament: Tournament | None = None, groups: Sequence[Any] = (),
                 **kwargs: Any) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.groups = list(groups)
        self.fields["user"].choices = [(c.pk, c.name) for g in self.groups for c in g.people]
        self.order_fields(["user", "role", "tables"])

    def chosen(self) -> str:
        return str(self.data.get("user", "")) if self.is_bound else ""


class StaffAccountForm(_TablesForm):
    """A new arbiter's account: a user name, a name to recognise him, the role and his tables."""

    username = forms.CharField(label=_("User name"), max_length=150)
    name = forms.CharField(label=_("Name (as people know them)"), max_length=150, required=False)

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        # ids of its own: on the staff page beside the role form, its « role » radios had the same ids, and the
        # first radio « organisateur » took both labels (« organisateur arbitre principal »)
        kwargs.setdefault("auto_id", "account_%s")
        super().__init__(*args, tournament=tournament, **kwargs)
        from tournaments.event.models import TournamentRole

        arbiters = (TournamentRole.Role.CHIEF_ARBITER, TournamentRole.Role.ARBITER)
        self.fields["role"].choices = [c for c in TournamentRole.Role.choices if c[0] in arbiters]
        self.fields["role"].initial = TournamentRole.Role.ARBITER
        self.fields["username"].help_text = _("What they type to log in, e.g. arbitre-table-3")
        self.fields["username"].widget.attrs.update({"autocapitalize": "none", "autocomplete": "off"})
        self.order_fields(["username", "name", "role", "tables"])


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Tournament.Status.choices, widget=ChoiceRadio)


# -- forfeits, teams, withdrawals, the draw ------------------------------------------------------------

class TeamForm(forms.Form):
    """A new team and, optionally, its members."""

    name = forms.CharField(label=_("Team name"), max_length=120)
    members = forms.TypedMultipleChoiceField(label=_("Members"), choices=[], coerce=int, required=False,
                                             widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, entries: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].choices = list(entries)


class DrawForm(forms.Form):
    """The automatic draw of a round: the method (rotation, random, ranking, swiss) and a seed."""

    method = forms.ChoiceField(label=_("Method"), choices=[], widget=ChoiceRadio(attrs={"class": "wide"}))
    seed = forms.IntegerField(label=_("Seed (random draw)"), min_value=0, required=False, initial=0)

    LABELS = {"rotation": _("Rotation"), "random": _("Random"), "ranking": _("By ranking"), "swiss": _("Swiss")}
    HELP = {"rotation": _("rotation: nobody meets anyone twice while it can be avoided"),
            "random": _("random: a seeded shuffle"),
            "ranking": _("by ranking: best against best, by the ranking of the rounds before"),
            "swiss": _("Swiss: pairs by the ranking, no rematch, a bye if the count is odd")}
    #: the Swiss draw of a game played at tables of more than two (Vingt-quatre, Écarté à quatre…): tables, not pairs
    SWISS_TABLES = _("suisse : tables selon le classement, sans se retrouver tant que c’est possible")

    def __init__(self, *args: Any, methods: Sequence[str], table_size: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["method"].choices = [(m, self.LABELS.get(m, m)) for m in methods]
        helps = {**self.HELP, "swiss": self.SWISS_TABLES} if table_size > 2 else self.HELP
        self.fields["method"].help_text = " · ".join(str(helps[m]) for m in methods if m in helps)
        if methods and not self.is_bound:
            self.fields["method"].initial = methods[0]


class TournamentSettingsForm(forms.Form):
    """A tournament's settings once it exists: its name, whether the public sees its pages, the rounds planned and
    the day; the deals per round (Tarot) or a match's target (the other games) until it runs (frozen then)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    is_public = forms.BooleanField(label=_("Public"), required=False,
                                   help_text=_("Le classement, les résultats et l'écran de salle s'ouvrent à tous "
                                               "dès que le tournoi est en cours."))
    rounds_planned = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=99)
    deals_per_round = forms.IntegerField(label=_("Deals per round (Tarot)"), min_value=1, max_value=99,
                                         required=False)
    target = forms.IntegerField(label=_("Objectif d'une partie"), min_value=1, required=False)
    date = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"},
                                                                                   format="%Y-%m-%d"))
    start_time = forms.TimeField(label=_("Heure de début"), required=False,
                                 widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    venue = forms.CharField(label=_("Lieu"), max_length=200, required=False)
    round_minutes = forms.IntegerField(label=_("Durée d'une manche (minutes)"), min_value=5, max_value=600,
                                       help_text=_("Pour l'horloge de la salle."))

    FIELDS = ("name", "is_public", "rounds_planned", "deals_per_round", "target", "date", "start_time", "venue",
              "round_minutes")

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, initial={name: getattr(tournament, name) for name in self.FIELDS}, **kwargs)
        self.tournament = tournament
        self.offer_partners(tournament)
        # a game of deals has no match target, a game of matches no deals per round (RULES.md: the record's options)
        del self.fields["target" if not tournament.is_match_game else "deals_per_round"]
        if "target" in self.fields:  # the game's unit and own value, from the registry
            lang = translation.get_language() or "fr"
            self.fields["target"].label = _("Objectif d'une partie (en %(unit)s)") % {
                "unit": games.target_unit(tournament.game, lang)}
            own = games.default_target(tournament.game, tournament.options)
            self.fields["target"].help_text = _("Vide : la valeur du jeu, %(words)s.") % {
                "words": f"{own} {games.target_unit(tournament.game, lang)}" if own is not None
                else games.target_default_words(tournament.game, lang)}
        if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            for name in ("deals_per_round", "target"):
                if name in self.fields:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = _("Fixé une fois le tournoi en cours.")

    def offer_partners(self, tournament: Tournament) -> None:
        """La Triomphe par équipes: the create form's « partners » convention, ticked as the tournament plays it;
        offered until the first round begins (a drawn round's tables are dropped by the change, said in its help),
        shown fixed (and why) after — unless the page sent was one that offered it
        (``partners_shown``): then the change reaches the service, which refuses it in words."""
        if not games.partners_chosen(tournament.game):
            return
        field = TournamentForm.base_fields["partners"]
        self.fields["partners"] = forms.BooleanField(label=field.label, required=False, help_text=field.help_text,
                                                     initial=games.plays_with_partners(tournament.options or {}))
        if setup.partners_frozen(tournament):
            if self.data.get("partners_shown") != "1":
                self.fields["partners"].disabled = True
                self.fields["partners"].help_text = _("La première manche a commencé : le jeu par équipes ne "
                                                      "change plus.")
        elif setup.partners_redraw(tournament):  # drawn, not begun: the change drops the tables, said beforehand
            self.fields["partners"].help_text = _("Les tables déjà tirées le sont pour le jeu actuel : changer le jeu "
                                                  "par équipes les efface, la manche sera à tirer de nouveau.")

    def partners_change(self) -> bool | None:
        """The partners ticked when that differs from the tournament's options, else None."""
        field = self.fields.get("partners")
        if field is None or field.disabled:
            return None
        wanted = bool(self.cleaned_data.get("partners"))
        return wanted if wanted != games.plays_with_partners(self.tournament.options or {}) else None

    def clean_rounds_planned(self) -> int:
        planned = self.cleaned_data["rounds_planned"]
        created = self.tournament.rounds.count()
        if planned < created:
            raise forms.ValidationError(
                ngettext("%(n)s manche est déjà créée : prévoyez-en au moins autant.",
                         "%(n)s manches sont déjà créées : prévoyez-en au moins autant.", created) % {"n": created})
        return planned

    def changes(self) -> dict[str, Any]:
        """The settings that differ from the tournament's (the service refuses a frozen one only if it changes)."""
        data = self.cleaned_data
        return {name: data.get(name) for name in self.FIELDS if name in self.fields
                and not self.fields[name].disabled and data.get(name) != getattr(self.tournament, name)}
