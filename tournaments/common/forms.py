"""Form pieces every page shares: the big radio buttons and the card codes typed as text."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.typed import split_tokens

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




