"""Forms of the entry desk and of the organizer's pages.

The deal forms only *shape* what the arbiter typed into a ``levee.deal/1`` record (see
``docs/deal-record.md``): they check that a card code is a card code and that a number is a
number, never a rule of the game. Whether the deal is possible, legal, and what it scores is
the service's answer (``scoring.verdict.judge`` through ``tournaments.services``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.cards import CardCodeError, format_card
from rules.game import get_game
from rules.typed import is_french, parse_typed_card, split_tokens

from .models import MATCH_GAMES, Game, Tournament

CARD_HELP = _("Type the cards the French way or as codes: RC or R♥ (roi de cœur), DK or D♦ (dame de carreau), "
              "CT or C♣ (cavalier de trèfle), VP, AT, 10Co; trumps 1 to 21; Exc for the Excuse. Also KS 10H NC "
              "T21 EX.")


class ChoiceRadio(forms.RadioSelect):
    """Radio buttons drawn as big buttons (see ``.choices`` in levee.css)."""

    template_name = "tournaments/widgets/choices.html"
    option_template_name = "tournaments/widgets/choice_option.html"


# -- cards typed as text ---------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;]+")


def split_codes(text: str) -> list[str]:
    """Card codes typed with spaces, commas or semicolons between them."""
    return split_tokens(text)


def clean_codes(text: str, *, where: str, french: bool | None = None) -> list[str]:
    """The record's codes of the cards typed (the French way or as codes, ``rules/typed.py``), or a
    ValidationError naming the bad card, where it was typed, and the accepted forms.

    ``french``: the whole entry is written the French way (« 7C » is then the 7 de cœur); None: decided
    from this text alone.
    """
    tokens = split_tokens(text)
    if french is None:
        french = is_french(tokens)
    codes = []
    for position, token in enumerate(tokens, start=1):
        try:
            codes.append(format_card(parse_typed_card(token, french=french)))
        except CardCodeError:
            raise forms.ValidationError(
                _("%(where)s, card %(position)s: “%(token)s” is not a card. Accepted forms: RC or R♥ (roi de "
                  "cœur), DK or D♦ (dame de carreau), CT or C♣ (cavalier de trèfle), VP, AT, 10Co; trumps 1 to 21; "
                  "Exc for the Excuse; or the record's codes (KS, 10H, NC, T21, EX)."),
                code="card_code", params={"where": where, "position": position, "token": token},
            ) from None
    return codes


def clean_points(value: str) -> int | float:
    """Card points as typed (``40,5`` or ``40.5``): a whole or half number, as the record writes it."""
    text = (value or "").strip().replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise forms.ValidationError(_("Type the points as a number, e.g. 42 or 40.5."), code="points") from None
    if (number * 2) % 1 != 0:
        raise forms.ValidationError(_("Points count in half points: 40, 40.5, 41 …"), code="points")
    return int(number) if number % 1 == 0 else float(number)


# -- Tarot: the summary in a few taps ---------------------------------------------------------------

CONTRACTS = [
    ("petite", _("Petite")),
    ("garde", _("Garde")),
    ("garde_sans", _("Garde sans")),
    ("garde_contre", _("Garde contre")),
]
CALLABLE = [("KS", "R♠"), ("KH", "R♥"), ("KD", "R♦"), ("KC", "R♣"),
            ("QS", "D♠"), ("QH", "D♥"), ("QD", "D♦"), ("QC", "D♣")]
HANDFULS = [("", "—"), ("simple", _("simple")), ("double", _("double")), ("triple", _("triple"))]
SIDES = [("", _("none")), ("attack", _("attack")), ("defence", _("defence"))]


class TarotCommonMixin:
    """Fields shared by both Tarot entry forms: the bid, the dealer, poignées and chelem announced."""

    players: list[str]
    five_called: bool

    def _add_common(self) -> None:
        seats = [(str(i), name) for i, name in enumerate(self.players)]
        fields: dict[str, forms.Field] = self.fields  # type: ignore[attr-defined]
        fields["dealer"] = forms.TypedChoiceField(label=_("Dealer"), choices=seats, coerce=int,
                                                  widget=ChoiceRadio(attrs={"class": "seats"}))
        fields["taker"] = forms.TypedChoiceField(label=_("Taker"), choices=seats, coerce=int,
                                                 widget=ChoiceRadio(attrs={"class": "seats"}))
        fields["contract"] = forms.ChoiceField(label=_("Contract"), choices=CONTRACTS,
                                               widget=ChoiceRadio(attrs={"class": "wide"}))
        if self.five_called:
            fields["called"] = forms.ChoiceField(label=_("Called card"), choices=CALLABLE, widget=ChoiceRadio,
                                                 help_text=_("A queen only when the taker holds the four kings."))
        for i, name in enumerate(self.players):
            fields[f"handful_{i}"] = forms.ChoiceField(label=name, choices=HANDFULS, required=False,
                                                       widget=ChoiceRadio(attrs={"class": "compact"}))
        fields["chelem_announced"] = forms.BooleanField(label=_("Chelem announced"), required=False)

    def handful_fields(self) -> list[forms.BoundField]:
        return [self[f"handful_{i}"] for i in range(len(self.players))]  # type: ignore[index]

    def _bid(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"taker": data["taker"], "contract": data["contract"], "called": data.get("called") or None}

    def _handfuls(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"seat": i, "size": data[f"handful_{i}"]} for i in range(len(self.players)) if data.get(f"handful_{i}")]


class TarotSummaryForm(TarotCommonMixin, forms.Form):
    """Tarot entered from the score sheet: bid, bouts, points of the taker's side, primes."""

    def __init__(self, *args: Any, players: Sequence[str], options: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.options = dict(options or {})
        self.five_called = len(self.players) == 5 and self.options.get("five", "called_king") == "called_king"
        self._add_common()
        if self.five_called:
            self.fields["partner"] = forms.TypedChoiceField(
                label=_("Partner (holder of the called card)"), coerce=int, required=False, empty_value=None,
                choices=[("", _("alone"))] + [(str(i), name) for i, name in enumerate(self.players)],
                widget=ChoiceRadio(attrs={"class": "seats"}))
        self.fields["oudlers"] = forms.TypedChoiceField(
            label=_("Bouts of the taker's side"), coerce=int, widget=ChoiceRadio,
            choices=[(str(n), str(n)) for n in range(4)])
        self.fields["points"] = forms.CharField(
            label=_("Points of the taker's side"), max_length=6,
            widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
            help_text=(_("Card points counted by the taker's side: a whole number at four players.")
                       if len(self.players) == 4 else
                       _("Card points counted by the taker's side, half points allowed (40.5).")))
        self.fields["petit_au_bout"] = forms.ChoiceField(label=_("Petit au bout"), choices=SIDES, required=False,
                                                         widget=ChoiceRadio(attrs={"class": "three"}))
        self.fields["chelem"] = forms.ChoiceField(label=_("Chelem made by"), choices=SIDES, required=False,
                                                  widget=ChoiceRadio(attrs={"class": "three"}))
        self.order_fields(["dealer", "taker", "contract", "called", "partner", "oudlers", "points",
                           "petit_au_bout", "chelem", "chelem_announced"])

    def clean_points(self) -> int | float:
        return clean_points(self.cleaned_data.get("points", ""))

    def deal_fields(self) -> dict[str, Any]:
        """The deal's own fields; the service adds what the table fixes (format, game, options, players)."""
        data = self.cleaned_data
        record = {
            "dealer": data["dealer"],
            "bid": self._bid(data),
            "chelem_announced": bool(data.get("chelem_announced")),
            "handfuls": self._handfuls(data),
            "summary": {
                "oudlers": data["oudlers"],
                "points": data["points"],
                "petit_au_bout": data.get("petit_au_bout") or None,
                "chelem": data.get("chelem") or None,
            },
        }
        if self.five_called:
            record["partner"] = data.get("partner")
        return record


class TarotTricksForm(TarotCommonMixin, forms.Form):
    """Tarot entered trick by trick: one line per trick, leader's card first; hands optional."""

    def __init__(self, *args: Any, players: Sequence[str], options: dict[str, Any] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.options = dict(options or {})
        self.five_called = len(self.players) == 5 and self.options.get("five", "called_king") == "called_king"
        self._add_common()
        self.fields["tricks"] = forms.CharField(
            label=_("Tricks"), widget=forms.Textarea(attrs={"rows": 10, "autocapitalize": "characters",
                                                            "spellcheck": "false"}),
            help_text=_("One trick per line, in the order played, the leader's card first."))
        for i, name in enumerate(self.players):
            self.fields[f"hand_{i}"] = forms.CharField(
                label=name, required=False,
                widget=forms.Textarea(attrs={"rows": 2, "autocapitalize": "characters", "spellcheck": "false"}))
        self.fields["dog"] = forms.CharField(label=_("Chien (as dealt)"), required=False,
                                             widget=forms.TextInput(attrs={"autocapitalize": "characters"}))
        self.fields["discard"] = forms.CharField(label=_("Écart"), required=False,
                                                 widget=forms.TextInput(attrs={"autocapitalize": "characters"}))

    def hand_fields(self) -> list[forms.BoundField]:
        return [self[f"hand_{i}"] for i in range(len(self.players))]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        lines = [line for line in (data.get("tricks") or "").splitlines() if line.strip()]
        # one convention for the whole deal: « 7C » is the 7 de cœur when the deal is typed the French way
        typed = [data.get("tricks"), data.get("dog"), data.get("discard"),
                 *(data.get(f"hand_{i}") for i in range(len(self.players)))]
        french = is_french(token for text in typed if text for token in split_tokens(text))
        tricks = []
        for number, line in enumerate(lines, start=1):
            try:
                tricks.append(clean_codes(line, where=_("Trick %(n)s") % {"n": number}, french=french))
            except forms.ValidationError as error:
                self.add_error("tricks", error)
        data["trick_list"] = tricks
        hands = []
        for i, name in enumerate(self.players):
            try:
                hands.append(clean_codes(data.get(f"hand_{i}") or "", where=name, french=french))
            except forms.ValidationError as error:
                self.add_error(f"hand_{i}", error)
        data["hand_list"] = hands
        for key, label in (("dog", _("Chien")), ("discard", _("Écart"))):
            try:
                data[f"{key}_list"] = clean_codes(data.get(key) or "", where=str(label), french=french)
            except forms.ValidationError as error:
                self.add_error(key, error)
        return data

    def deal_fields(self) -> dict[str, Any]:
        """The deal's own fields; the service adds what the table fixes (format, game, options, players)."""
        data = self.cleaned_data
        record: dict[str, Any] = {
            "dealer": data["dealer"],
            "bid": self._bid(data),
            "chelem_announced": bool(data.get("chelem_announced")),
            "handfuls": self._handfuls(data),
            "tricks": data["trick_list"],
        }
        if any(data["hand_list"]):
            record["hands"] = data["hand_list"]
        if data.get("dog_list"):
            record["dog"] = data["dog_list"]
        if data.get("discard_list"):
            record["discard"] = data["discard_list"]
        return record


class RecordForm(forms.Form):
    """The whole deal record as JSON: the expert mode, and the entry form of the historical games."""

    record = forms.CharField(
        label=_("Deal record (JSON)"),
        widget=forms.Textarea(attrs={"class": "record", "rows": 18, "spellcheck": "false", "autocapitalize": "off"}))

    def clean_record(self) -> dict[str, Any]:
        text = self.cleaned_data["record"]
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("The JSON cannot be read: line %(line)s, column %(column)s: %(message)s."),
                code="json", params={"line": error.lineno, "column": error.colno, "message": error.msg},
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("A deal record is a JSON object { … }."), code="json")
        return value

    def deal_fields(self) -> dict[str, Any]:
        """The record as typed: the service checks that its fixed fields agree with the table."""
        return self.cleaned_data["record"]


# -- corrections, approvals, rulings ---------------------------------------------------------------

class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason for the correction"), max_length=500,
                             widget=forms.Textarea(attrs={"rows": 2}))


class RulingWithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Why is the ruling withdrawn?"), max_length=1000,
                             widget=forms.Textarea(attrs={"rows": 2}))


class DealRestoreForm(forms.Form):
    reason = forms.CharField(label=_("Why is the deal restored?"), max_length=1000,
                             widget=forms.Textarea(attrs={"rows": 2}))
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)


class RulingForm(forms.Form):
    """A chief arbiter's ruling: its kind, points per player, the reason, or the deal annulled."""

    kind = forms.ChoiceField(label=_("Kind"), choices=[], widget=ChoiceRadio)
    reason = forms.CharField(label=_("Reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))
    annuls_deal = forms.BooleanField(label=_("Annul the deal"), required=False)
    is_penalty = forms.BooleanField(
        label=_("Penalty (points removed, not transferred)"), required=False,
        help_text=_("Without this box the adjustments must sum to zero: points go from one player to others."))

    penalty = forms.ChoiceField(label=_("Penalty from the rules"), required=False, widget=ChoiceRadio)
    offender = forms.TypedChoiceField(label=_("Offending player"), required=False, coerce=int, empty_value=None,
                                      widget=ChoiceRadio)

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]], kinds: Sequence[tuple[str, str]],
                 with_deal: bool, presets: Sequence[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = list(kinds)
        self.seats = list(seats)
        for entry_id, name in self.seats:
            self.fields[f"adj_{entry_id}"] = forms.IntegerField(
                label=name, required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}))
        if not with_deal:
            del self.fields["annuls_deal"]
        if presets:
            # a preset brings its kind and the start of the reason: both become optional
            self.fields["penalty"].choices = [("", _("none: type the points below")), *presets]
            self.fields["offender"].choices = [(str(e), name) for e, name in self.seats]
            self.fields["kind"].required = False
            self.fields["reason"].required = False
            self.fields["reason"].help_text = _("With a penalty from the rules, the reason starts with its name and "
                                                "rule reference; add details here.")
        else:
            del self.fields["penalty"]
            del self.fields["offender"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "penalty" not in self.fields:
            return data
        if data.get("penalty"):
            if data.get("offender") is None:
                self.add_error("offender", _("Choose the offending player (the dealer for a misdeal)."))
            if self.adjustments():
                self.add_error("penalty", _("Choose a penalty from the rules or type the points, not both."))
        else:
            if not data.get("kind"):
                self.add_error("kind", forms.Field.default_error_messages["required"])
            if not (data.get("reason") or "").strip():
                self.add_error("reason", forms.Field.default_error_messages["required"])
        return data

    def adjustment_fields(self) -> list[forms.BoundField]:
        return [self[f"adj_{entry_id}"] for entry_id, _name in self.seats]

    def adjustments(self) -> dict[str, int]:
        out = {}
        for entry_id, _name in self.seats:
            value = getattr(self, "cleaned_data", {}).get(f"adj_{entry_id}")
            if value:
                out[str(entry_id)] = value
        return out


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
        choices=[("", _("game default"))] + [(str(n), str(n)) for n in range(2, 7)], widget=ChoiceRadio)
    tarot_five = forms.ChoiceField(label=_("Tarot at 5"), choices=FIVE, required=False, widget=ChoiceRadio)
    triomphe_mode = forms.ChoiceField(label=_("Triomphe: trumping"), choices=TRIOMPHE_MODES, required=False,
                                      widget=ChoiceRadio)
    triomphe_order = forms.ChoiceField(label=_("Triomphe: order"), choices=TRIOMPHE_ORDERS, required=False,
                                       widget=ChoiceRadio)
    as_qui_pille = forms.BooleanField(label=_("As qui pille"), required=False)
    honours = forms.ChoiceField(label=_("Vingt-quatre: honours"), choices=HONOURS, required=False,
                                widget=ChoiceRadio)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, widget=ChoiceRadio,
                               initial=Tournament.Format.INDIVIDUAL)
    rounds_planned = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=99, initial=3)
    deals_per_round = forms.IntegerField(label=_("Deals per round (Tarot)"), min_value=1, max_value=99,
                                         required=False)
    target = forms.IntegerField(label=_("Target of a match (other games)"), min_value=1, required=False,
                                help_text=_("Points, impériales or jetons that end a match; game default when empty."))
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

    #: form field → the option it sets in a record's ``options`` (which games take it: their rules module)
    OPTION_OF = {"players_per_table": "players", "tarot_five": "five", "triomphe_mode": "mode",
                 "triomphe_order": "order", "as_qui_pille": "as_qui_pille", "honours": "honours", "target": "target"}

    @staticmethod
    def games_of(field: str) -> list[str]:
        """The games a convention field applies to, read from each game's options (rules/)."""
        if field == "deals_per_round":
            return [g for g in Game.values if g not in MATCH_GAMES]
        option = TournamentForm.OPTION_OF[field]
        return [g for g in Game.values
                if option in {f.name for f in dataclasses.fields(get_game(g).parse_options({}))}]

    def options(self) -> dict[str, Any]:
        """The game's conventions, as a record's ``options`` (only what applies to the game chosen)."""
        data = self.cleaned_data
        game = data["game"]
        options: dict[str, Any] = {}
        if data.get("players_per_table"):
            options["players"] = data["players_per_table"]
        if game == Game.TAROT and options.get("players") == 5 and data.get("tarot_five"):
            options["five"] = data["tarot_five"]
        if game == Game.TRIOMPHE:
            options["mode"] = data.get("triomphe_mode") or "forcee"
            if data.get("as_qui_pille"):
                options["as_qui_pille"] = True
            else:
                options["order"] = data.get("triomphe_order") or "1725"
        if game == Game.VINGT_QUATRE:
            options["honours"] = data.get("honours") or "figures"
        return options


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    licence = forms.CharField(label=_("Licence number"), max_length=40, required=False)


class PlayersCsvForm(forms.Form):
    file = forms.FileField(label=_("CSV file"),
                           help_text=_("One player per line: name, club, licence (a header line is allowed)."))


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


class RoleForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=[], widget=ChoiceRadio(attrs={"class": "wide"}))
    tables = forms.CharField(label=_("Tables (table arbiter)"), required=False,
                             help_text=_("Round and table numbers, e.g. 1.2 1.3 2.1"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from .models import TournamentRole

        self.fields["role"].choices = TournamentRole.Role.choices

    def clean_tables(self) -> list[tuple[int, int]]:
        out = []
        for token in split_codes(self.cleaned_data.get("tables") or ""):
            match = re.fullmatch(r"(\d+)[.:/-](\d+)", token)
            if not match:
                raise forms.ValidationError(_("“%(token)s”: write round.table, e.g. 1.2"), params={"token": token},
                                            code="table")
            out.append((int(match.group(1)), int(match.group(2))))
        return out


class StaffAccountForm(RoleForm):
    """A new arbiter's account: a user name, a name to recognise him, the role and his tables."""

    name = forms.CharField(label=_("Name (as people know them)"), max_length=150, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from .models import TournamentRole

        arbiters = (TournamentRole.Role.CHIEF_ARBITER, TournamentRole.Role.ARBITER)
        self.fields["role"].choices = [c for c in TournamentRole.Role.choices if c[0] in arbiters]
        self.fields["role"].initial = TournamentRole.Role.ARBITER
        self.fields["username"].help_text = _("What they type to log in, e.g. arbitre-table-3")
        self.fields["username"].widget.attrs.update({"autocapitalize": "none", "autocomplete": "off"})
        self.order_fields(["username", "name", "role", "tables"])


class StatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Tournament.Status.choices, widget=ChoiceRadio)


# -- a saved record back into the forms (corrections) ------------------------------------------------

def _common_initial(record: dict[str, Any]) -> dict[str, Any]:
    bid = record.get("bid") if isinstance(record.get("bid"), dict) else {}
    initial: dict[str, Any] = {
        "dealer": record.get("dealer"),
        "taker": bid.get("taker"),
        "contract": bid.get("contract"),
        "called": bid.get("called"),
        "chelem_announced": bool(record.get("chelem_announced")),
    }
    for handful in record.get("handfuls") or []:
        if isinstance(handful, dict) and isinstance(handful.get("seat"), int) and handful.get("size"):
            initial[f"handful_{handful['seat']}"] = handful["size"]
    return initial


def summary_initial(record: dict[str, Any]) -> dict[str, Any]:
    """The summary form's values for a saved Tarot record."""
    summary = record.get("summary") if isinstance(record.get("summary"), dict) else {}
    points = summary.get("points")
    return {
        **_common_initial(record),
        "partner": record.get("partner"),
        "oudlers": summary.get("oudlers"),
        "points": "" if points is None else str(points),
        "petit_au_bout": summary.get("petit_au_bout") or "",
        "chelem": summary.get("chelem") or "",
    }


def tricks_initial(record: dict[str, Any]) -> dict[str, Any]:
    """The trick-by-trick form's values for a saved Tarot record."""
    initial = _common_initial(record)
    initial["tricks"] = "\n".join(" ".join(trick) for trick in record.get("tricks") or [])
    for i, hand in enumerate(record.get("hands") or []):
        initial[f"hand_{i}"] = " ".join(hand or [])
    initial["dog"] = " ".join(record.get("dog") or [])
    initial["discard"] = " ".join(record.get("discard") or [])
    return initial


# -- forfeits, teams, withdrawals, the draw ------------------------------------------------------------

class ForfeitForm(forms.Form):
    """A forfeit (forfait: the match goes to the side present) or an absence at a table."""

    kind = forms.ChoiceField(label=_("What happened"), choices=[], widget=ChoiceRadio(attrs={"class": "wide"}))
    absent = forms.TypedMultipleChoiceField(label=_("Absent players"), choices=[], coerce=int,
                                            widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(label=_("Reason"), max_length=1000, required=False,
                             widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]], match_game: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kinds = [("absence", _("Absence"))]
        if match_game:
            kinds.insert(0, ("forfeit", _("Forfeit")))
        self.fields["kind"].choices = kinds
        self.fields["absent"].choices = [(entry_id, name) for entry_id, name in seats]


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

    def __init__(self, *args: Any, methods: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["method"].choices = [(m, self.LABELS.get(m, m)) for m in methods]
        self.fields["method"].help_text = " · ".join(str(self.HELP[m]) for m in methods if m in self.HELP)
        if methods and not self.is_bound:
            self.fields["method"].initial = methods[0]
