"""``{% load appeal %}``: the appeal window of a round's results on public pages and the hall screen, and a
player's ledger lines. The deadline is written in the page (``data-deadline``) and counted down in the browser
(static/js/countdown.js), so a cached page still shows the right time left."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.event.models import Round
from tournaments.links.models import RoundClosing
from tournaments.standings import appeal

register = template.Library()


@register.inclusion_tag("tables/_appeal.html")
def appeal_badge(rnd: Round) -> dict[str, Any]:
    """« Résultats provisoires — officiels dans 12:34 » or « Résultats officiels » for one round."""
    return {"items": [(rnd, appeal.appeal_state(rnd))]}


@register.inclusion_tag("tables/_appeal.html")
def appeal_countdowns(tournament: Any) -> dict[str, Any]:
    """The rounds of the tournament whose results are still provisional (the hall screen, the public home)."""
    items = []
    for closing in RoundClosing.objects.filter(round__tournament=tournament).select_related("round"):
        state = appeal.appeal_state(closing.round, closing)
        if state.state == "provisional":
            items.append((closing.round, state))
    return {"items": sorted(items, key=lambda item: item[0].number)}


@register.inclusion_tag("tables/_player_ledger.html")
def player_ledger(tournament: Any, entry: Any) -> dict[str, Any]:
    """The changes made after publication that touched this player, and the ranks they moved."""
    from tournaments.event import permissions

    rounds = list(permissions.visible_rounds(None, tournament))
    lines = [e for e in appeal.ledger(tournament, rounds=rounds) if entry.pk in e.entries]
    return {"lines": lines, "tournament": tournament}
