"""Forms of the messy middle: seat changes of a round (swap, replacement, a seat left empty) and late
arrivals. Players are chosen by name (never by a number to type)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.common.forms import ChoiceRadio


class SwapForm(forms.Form):
    a = forms.TypedChoiceField(label=_("Premier joueur"), coerce=int, choices=[])
    b = forms.TypedChoiceField(label=_("Second joueur"), coerce=int, choices=[])

    def __init__(self, *args: Any, seated: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("a", "b"):
            self.fields[name].choices = [("", _("— choisir —")), *seated]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("a") is not None and data.get("a") == data.get("b"):
            self.add_error("b", _("Choisissez deux joueurs différents."))
        return data


class ReplaceForm(forms.Form):
    seat = forms.TypedChoiceField(label=_("Joueur remplacé"), coerce=int, choices=[])
    name = forms.CharField(label=_("Nom du remplaçant"), max_length=120)
    club = forms.CharField(label=_("Club du remplaçant"), max_length=120, required=False)
    scope = forms.ChoiceField(label=_("Pour combien de temps"), widget=ChoiceRadio, initial="round", choices=[
        ("round", _("Cette manche seulement : ses points comptent pour le joueur remplacé")),
        ("rest", _("Jusqu'à la fin : le remplaçant est classé à part, le joueur remplacé abandonne")),
    ])

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", _("— choisir —")), *seats]


class ShortForm(forms.Form):
    seat = forms.TypedChoiceField(label=_("Joueur absent à cette manche"), coerce=int, choices=[])

    def __init__(self, *args: Any, seats: Sequence[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", _("— choisir —")), *seats]


class LateArrivalForm(forms.Form):
    name = forms.CharField(label=_("Nom"), max_length=120, required=False,
                           help_text=_("Ou sa licence seule : le fichier des licences donne son nom."))
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    licence = forms.CharField(label=_("Licence"), max_length=40, required=False)
    from_round = forms.TypedChoiceField(label=_("Joue à partir de la manche"), coerce=int, choices=[],
                                        widget=ChoiceRadio)

    def __init__(self, *args: Any, rounds: int, first: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # from the next round to play on: a round already played cannot be joined
        first = min(first, rounds)
        self.fields["from_round"].choices = [(n, str(n)) for n in range(first, rounds + 1)]
        self.fields["from_round"].initial = first
