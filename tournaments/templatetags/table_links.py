"""``{% load table_links %}``: ``user|referees:tournament`` — whether the user is organizer or chief arbiter there
(the link to the chief arbiter's page of calls and queues)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.event import permissions

register = template.Library()


@register.filter
def referees(user: Any, tournament: Any) -> bool:
    return tournament is not None and permissions.can_referee(user, tournament)
