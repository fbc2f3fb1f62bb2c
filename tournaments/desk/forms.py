"""Forms of the entry desk: deals, corrections and rulings.

The expert entry only *shapes* what the arbiter typed into a ``levee.deal/1`` record (see
``docs/deal-record.md``): it checks that the JSON is an object, never a rule of the game (the tap pages of
:mod:`tournaments.desk.play` are the other ways of entering a deal). Whether the deal is possible, legal,
and what it scores is the service's answer (``scoring.verdict.judge`` through ``tournaments.deals.record``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.common.forms import ChoiceRadio


class RecordForm(forms.Form):
    """The whole deal record as JSON: the expert mode of every game."""

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

    # wide buttons: a kind is a word (« maldonne », « carte exposée ») never cut inside (tests/events screenshots)
    kind = forms.ChoiceField(label=_("Kind"), choices=[], widget=ChoiceRadio(attrs={"class": "wide"}))
    reason = forms.CharField(label=_("Reason"), max_length=1000, widget=forms.Textarea(attrs={"rows": 3}))
    annuls_deal = forms.BooleanField(label=_("Annul the deal"), required=False)
    is_penalty = forms.BooleanField(
        label=_("Penalty (points removed, not transferred)"), required=False,
        help_text=_("Without this box the adjustments must sum to zero: points go from one player to others."))

    # a penalty is a phrase (one a line on a phone), an offender a player's name (« Marie-Bernadette
    # Delacroix-Montfort » spilled over the next button in the narrow buttons of a kind)
    penalty = forms.ChoiceField(label=_("Penalty from the rules"), required=False,
                                widget=ChoiceRadio(attrs={"class": "phrases"}))
    offender = forms.TypedChoiceField(label=_("Offending player"), required=False, coerce=int, empty_value=None,
                                      widget=ChoiceRadio(attrs={"class": "seats"}))

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
            self.fields["reason"].help_text = _("Avec une pénalité prévue par les règles, le motif "
                                                "commence par son nom ; ajoutez ici les précisions.")
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
