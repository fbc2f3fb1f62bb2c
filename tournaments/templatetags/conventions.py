"""A tournament's conventions in words, for its pages: « forcée, R D V As 10 9 8 7 (1725) » rather than
``mode=forcee, order=1725``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournaments.common import games
from tournaments.organizer.forms import FIVE, HONOURS, TRIOMPHE_MODES, TRIOMPHE_ORDERS

register = template.Library()

#: the team game by the size of a side (Triomphe ``teams``: two lists of seats)
SIDES = {2: _lazy("deux contre deux"), 3: _lazy("trois contre trois")}

_CHOICES = {"five": FIVE, "mode": TRIOMPHE_MODES, "order": TRIOMPHE_ORDERS, "honours": HONOURS}


@register.filter
def conventions(options: dict[str, Any] | None) -> list[str]:
    """Each convention of ``options`` as the tournament form names it, in the active language; an option the
    form does not offer (set through the API) as ``name=value``."""
    out = []
    for key, value in (options or {}).items():
        choices = dict(_CHOICES.get(key, ()))
        if str(value) in choices:
            out.append(str(choices[str(value)]))
        elif key == "players":
            out.append(f"{_('Players per table')} {value}")
        elif key == "as_qui_pille" and value is True:
            out.append(_("As qui pille"))
        elif key == "teams" and isinstance(value, list) and value and len(value[0]) in SIDES:
            out.append(str(SIDES[len(value[0])]))
        else:
            out.append(f"{key}={value}")
    return out


@register.simple_tag
def target_words(tournament: Any) -> str:
    """A match game's target with its unit (the game registry's): « partie en 2 impériales », or the game's own
    « partie en 5 impériales (valeur du jeu) » when the tournament sets none; empty for a game of single deals."""
    if not games.plays_matches(tournament.game):
        return ""
    lang = get_language() or "fr"
    unit = games.target_unit(tournament.game, lang)
    if tournament.target:
        return _("partie en %(n)s %(unit)s") % {"n": tournament.target, "unit": unit}
    own = games.default_target(tournament.game, tournament.options)
    if own is None:
        return ""
    return _("partie en %(n)s %(unit)s (valeur du jeu)") % {"n": own, "unit": unit}
