"""Forms of a player's page: edit the player, remove the entry, merge a person registered twice.

Every form asks why (optional): the reason is kept in the history with who and when."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.common.forms import ChoiceRadio

REASON_HELP = _("Facultatif : gardé dans l'historique du joueur, avec qui et quand.")


REASON = _("Motif")


def _reason(label: Any = REASON) -> forms.CharField:
    return forms.CharField(label=label, max_length=300, required=False, help_text=REASON_HELP,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=120,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}))
    club = forms.CharField(label=_("Club"), max_length=120, required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
    licence = forms.CharField(label=_("N° de licence"), max_length=40, required=False,
                              widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}))
    reason = _reason()


class EntryRemoveForm(forms.Form):
    reason = _reason(_("Pourquoi retirer cette inscription ?"))


class PlayersMergeForm(forms.Form):
    """The other entry of the same person, and which of the two keeps its name, club and licence."""

    other = forms.TypedChoiceField(label=_("Inscrit une seconde fois sous le nom"), coerce=int, choices=[])
    keep = forms.ChoiceField(label=_("Record kept (name, club, licence)"), initial="this",
                             widget=ChoiceRadio(attrs={"class": "wide"}),
                             choices=[("this", _("this one")), ("other", _("the other"))])
    reason = _reason()

    def __init__(self, *args: Any, others: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = [("", _("— choisir —")), *others]


class RecordsMergeForm(forms.Form):
    """A likely duplicate across events (same name, same birth date): which record to merge with this one."""

    other = forms.TypedChoiceField(label=_("Same person as"), coerce=int, choices=[],
                                   widget=ChoiceRadio(attrs={"class": "phrases"}))
    keep = forms.ChoiceField(label=_("Record kept (name, club, licence)"), initial="this",
                             widget=ChoiceRadio(attrs={"class": "wide"}),
                             choices=[("this", _("this one")), ("other", _("the other"))])
    reason = _reason()

    def __init__(self, *args: Any, others: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = list(others)


class AnonymizeForm(forms.Form):
    reason = _reason(_("Request received (date, means)"))
