"""Forms of the entry desk: deals, corrections and rulings.

The deal forms only *shape* what the arbiter typed into a ``levee.deal/1`` record (see
``docs/deal-record.md``): they check that a card code is a card code and that a number is a
number, never a rule of the game. Whether the deal is possible, legal, and what it scores is
the service's answer (``scoring.verdict.judge`` through ``tournaments.services``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.typed import is_french, split_tokens
from tournaments.common.forms import ChoiceRadio, clean_codes, clean_points

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


# -- a forfeit or an absence at a table ----------------------------------------------------------------

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
