"""Form pieces every page shares: the big radio buttons and the card codes typed as text."""

from __future__ import annotations

import re

from django import forms

from rules.typed import split_tokens


class ChoiceRadio(forms.RadioSelect):
    """Radio buttons drawn as big buttons (see ``.choices`` in levee.css)."""

    template_name = "tournaments/widgets/choices.html"
    option_template_name = "tournaments/widgets/choice_option.html"


# -- cards typed as text ---------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,;]+")


def split_codes(text: str) -> list[str]:
    """Card codes typed with spaces, commas or semicolons between them."""
    return split_tokens(text)




