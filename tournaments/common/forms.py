"""Form pieces every page shares: the big radio buttons and the cards or points typed as text."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.cards import CardCodeError, format_card
from rules.typed import is_french, parse_typed_card, split_tokens

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


