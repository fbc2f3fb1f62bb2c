"""``{% duplicate_deal_result deal %}``: on a duplicate table, the deal's étui and each seat's percentage so far.

Shown on the deal page right after an entry and on the table page (the last deal): the table sees
its result compared with the tables that have played the étui before it, never another étui.
"""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.deals.models import Deal
from tournaments.event.models import Table

register = template.Library()


@register.inclusion_tag("tournaments/_duplicate_result.html")
def duplicate_deal_result(deal: Deal | None = None, table: Table | None = None,
                          link: Any = None) -> dict[str, Any]:
    """``link``: the table's private link the page is seen through (its holder has no account: no staff page
    is offered, such as the table's étuis)."""
    from tournaments.deals import selectors
    from tournaments.duplicate.models import ArtificialResult, DuplicateTable, Etui, EtuiPlay
    from tournaments.duplicate.results import ORIENTATIONS, traveller
    from tournaments.duplicate.service import fouled_calls, problem_text
    from tournaments.standings.formats import percent_text

    table = table or (deal.table if deal is not None else None)
    if table is None:
        return {}
    dup = DuplicateTable.objects.filter(table_id=table.pk).first()
    if dup is None:
        return {}
    last = Deal.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first() or 0
    # the next étui, none once the round is over (a walk read « À suivre : étui 8 » under « Cette manche est finie »);
    # its dealer by his orientation and his name (« Nord » alone told the table nobody)
    upcoming = dup.etui_number(last + 1) if table.round.status != table.round.Status.FINISHED else None
    dealer = Etui.objects.get(tournament_id=table.round.tournament_id, number=upcoming).dealer if upcoming else None
    names = selectors.table_players(table)
    following = {"table": table, "dup": dup, "next": upcoming, "link": link,
                 "next_dealer": ORIENTATIONS[dealer] if dealer is not None else None,
                 "next_dealer_name": names[dealer] if dealer is not None and dealer < len(names) else ""}
    if deal is None:
        deal = Deal.objects.filter(table=table).exclude(status=Deal.Status.ANNULLED).order_by("-number").first()
        if deal is None:
            return following
    number = dup.etui_number(deal.number)
    if number is None or deal.status == Deal.Status.ANNULLED:
        return following
    etui = Etui.objects.get(tournament_id=table.round.tournament_id, number=number)
    trav = traveller(table.round.tournament, etui, mine_table=table.number, so_far=True)
    mine = next((line for line in trav.lines if line.mine and line.round == table.round.number), None)
    players = selectors.table_players(table)
    play = EtuiPlay.objects.filter(deal=deal).first()
    seats = [] if mine is None else [(ORIENTATIONS[o], players[o] if o < len(players) else "",
                                      percent_text(mine.percentages[o])) for o in range(len(mine.marks))]
    fouled = bool(play and play.fouled)
    call = fouled_calls([deal.pk]).get(deal.pk) if fouled else None
    return {**following, "etui": etui, "seats": seats, "tables": len(trav.lines), "fouled": fouled,
            # the arbiter is called until he answers the call (artificial results, a correction, his word)
            "called": fouled and (call.state != "resolved" if call is not None else not ArtificialResult.objects
                                  .filter(etui=etui, table=table).exists()),  # (a fouled étui of before the calls)
            "answer": call.answer if call is not None and call.state == "resolved" else "",
            "problem": problem_text(play.problem, players) if play is not None and fouled else []}


@register.simple_tag
def next_etui(table: Table) -> int | None:
    """At a duplicate table, the étui its next deal is (None elsewhere, or past the round's étuis): the entry page
    names it beside « Donne N », as the table's page says « À suivre : étui 7 » (a walk saw only « Donne 3 »)."""
    from tournaments.duplicate.models import DuplicateTable

    dup = DuplicateTable.objects.filter(table_id=table.pk).first()
    if dup is None:
        return None
    last = Deal.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first() or 0
    return dup.etui_number(last + 1)


@register.simple_tag
def deal_etui(deal: Deal) -> int | None:
    """The étui a deal of a duplicate table is (its n-th deal, the n-th étui of its card; None elsewhere): the
    link's pages name it beside « Donne N » as the desk's do (a walk saw « Donne 1 » only after saving)."""
    from tournaments.duplicate.models import DuplicateTable

    dup = DuplicateTable.objects.filter(table_id=deal.table_id).first()
    return None if dup is None else dup.etui_number(deal.number)
