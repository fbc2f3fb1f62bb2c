"""What a private link lets its holder do (the link is the credential: no account, no session).

A page reached through ``/k/<token>/…`` (a table's link) or ``/j/<token>/…`` (a player's) looks the
token up on every request — a revoked link is refused from the next tap — and attaches the link to
the request (:func:`attach`). The arbiter's entry pages (:mod:`tournaments.desk.entry`) then ask
:func:`may_enter` beside the staff permissions: a table link enters deals at its own table of its own
round, only while that round is not finished and only when the organizer lets tables enter their
deals (``TablePolicy.tables_enter``). :func:`may_answer` says who may confirm or dispute a deal: a
table link for the players of its table (a tap on the table's device), a player link for its player
alone, at a table where he sits.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from tournaments.deals.models import Deal
from tournaments.event.models import Entry, Round, Table
from tournaments.links import service
from tournaments.links.models import PrivateLink, TablePolicy

MAX_TOKEN = service.MAX_TOKEN


def find(token: str) -> PrivateLink | None:
    """The link of ``token``, live or revoked (None when there is no such link)."""
    return service.link_by_token(token)


def attach(request: HttpRequest, link: PrivateLink) -> None:
    """Remember on the request the live link it came through (read by :func:`held` and the templates)."""
    request.levee_link = link  # type: ignore[attr-defined]


def held(request: HttpRequest) -> PrivateLink | None:
    """The live link the request came through, or None."""
    link = getattr(request, "levee_link", None)
    return link if link is not None and link.is_live else None


def tables_enter(table: Table) -> bool:
    """Whether the organizer lets the tables of the tournament enter their own deals."""
    return TablePolicy.objects.filter(tournament_id=table.round.tournament_id, tables_enter=True).exists()


def may_enter(request: HttpRequest, table: Table) -> bool:
    """A table link may enter deals at its table, in its round, while the round is in play, if the organizer
    lets tables enter their deals."""
    link = held(request)
    if link is None or link.table_id is None or link.table_id != table.pk:
        return False
    if table.round.status == Round.Status.FINISHED:
        return False
    return tables_enter(table)


def may_answer(link: PrivateLink | None, deal: Deal, entry: Entry) -> bool:
    """A table link answers for the players of its table; a player link for its player, at his tables."""
    return service.answer_allowed(link, deal, entry)


def offline_keeper(request: HttpRequest) -> str:
    """Whose the deals and drafts this device keeps for a page are (static/js/offline-entry.js, the tap page's
    draft): a signed-in user's own opaque mark (no id, no name), « » for a page of a private link (the table's, not
    a person's). A tablet shared at the venue: what one arbiter kept is never shown to, nor sent by, the next one,
    and his own come back when he signs in again (static/js/logout-guard.js)."""
    user = getattr(request, "user", None)
    if held(request) is not None or user is None or not user.is_authenticated:
        return ""
    return salted_hmac("levee.offline-keeper", str(user.pk)).hexdigest()[:20]


def context(request: HttpRequest) -> dict[str, Any]:
    """Template context processor: ``table_link``, the link a page was reached through (None on staff pages), and
    ``offline_keeper`` (:func:`offline_keeper`)."""
    link = held(request)
    return {"table_link": link if link is not None and link.table_id is not None else None,
            "offline_keeper": offline_keeper(request)}
