"""Duplicate Tarot at the table.

* ``/desk/tables/<pk>/etuis/`` — a table's étuis of the round: for each étui the table has played,
  its seats' percentages and the results of the tables that played it before (never for an étui
  the table has not played yet); a fouled étui says the arbiter is called.
* ``/desk/tables/<pk>/etuis/<n>/artificial/`` — the chief arbiter's artificial result for an étui.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.duplicate.models import ArtificialResult, DuplicateTable, Etui, EtuiPlay
from tournaments.duplicate.results import ORIENTATIONS, travellers
from tournaments.duplicate.service import artificial_result_set, fouled_calls, problem_text
from tournaments.event import permissions
from tournaments.event.models import Table
from tournaments.links.models import ArbiterCall
from tournaments.standings.formats import percent_text


@guarded
def table_etuis(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's étuis: its result and percentage on each étui it has played, and the tables before it."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_view_table(request.user, table))
    dup = DuplicateTable.objects.filter(table=table).first()
    if dup is None:
        raise Http404("not a duplicate table")
    tournament = table.round.tournament
    players = selectors.table_players(table)
    played = {d.number: d for d in Deal.objects.filter(table=table).exclude(status=Deal.Status.ANNULLED)}
    etuis = {e.number: e for e in Etui.objects.filter(tournament=tournament, number__in=dup.boards)}
    plays = {p.deal_id: p for p in EtuiPlay.objects.filter(table=table)}
    calls = fouled_calls([d for d, p in plays.items() if p.fouled])
    seats = selectors.table_seats(table)
    names = {s.entry_id: name for s, name in zip(seats, players, strict=False)}
    artificial: dict[int, list[str]] = {}
    rulings = ArtificialResult.objects.filter(etui__tournament=tournament, etui__number__in=dup.boards,
                                              entry_id__in=names)
    for number, entry_id, kind in rulings.values_list("etui__number", "entry_id", "kind"):
        artificial.setdefault(number, []).append(f"{names[entry_id]} : {ArtificialResult.Kind(kind).label}")
    items = []
    sheets = travellers(tournament, [etuis[number] for i, number in enumerate(dup.boards, start=1) if i in played],
                        mine_table=table.number, so_far=True)  # every étui played, read together
    for i, number in enumerate(dup.boards, start=1):
        deal = played.get(i)
        item: dict[str, Any] = {"number": number, "position": i, "played": deal is not None,
                                "artificial": artificial.get(number, [])}
        if deal is not None:
            trav = sheets[number]
            mine = next((line for line in trav.lines if line.mine and line.round == table.round.number), None)
            play = plays.get(deal.pk)
            item.update({
                "mine": [(ORIENTATIONS[o] if o < 4 else "", players[o] if o < len(players) else "",
                          mine.marks[o], percent_text(mine.percentages[o])) for o in range(len(mine.marks))]
                if mine else [],
                "others": [line for line in trav.lines if not (line.mine and line.round == table.round.number)],
                "fouled": bool(play and play.fouled),
                "problem": problem_text(play.problem, players) if play and play.fouled else [],
                # the arbiter is called until he answers (artificial results, a correction, his word)
                "called": bool(play and play.fouled and _waiting(calls.get(deal.pk), artificial.get(number))),
                "answer": calls[deal.pk].answer if play and play.fouled and deal.pk in calls else "",
                "count": len(trav.lines),
            })
        items.append(item)
    return render(request, "tournaments/duplicate_table.html", {
        "tournament": tournament, "round": table.round, "table": table, "items": items, "players": players,
        "orientations": ORIENTATIONS, "lang": lang_of(request), "percent": percent_text,
        "can_referee": permissions.can_referee(request.user, tournament), "seats": list(zip(seats, players,
                                                                                              strict=False)),
        "kinds": ArtificialResult.Kind.choices})


def _waiting(call: ArbiterCall | None, artificial: list[str] | None) -> bool:
    """A fouled étui's call not answered yet (without a call, a fouled étui saved before the calls: until the
    arbiter gives an artificial result on it)."""
    return not artificial if call is None else call.state != ArbiterCall.State.RESOLVED


@guarded
@require_http_methods(["POST"])
def table_artificial(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The arbiter sets (or removes) an artificial result on one of the table's étuis."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_referee(request.user, table.round.tournament))
    try:
        entry_id = int(request.POST.get("entry", ""))
    except ValueError:
        entry_id = 0
    try:
        artificial_result_set(table=table, etui_number=number, entry_id=entry_id, kind=request.POST.get("kind", ""),
                              reason=request.POST.get("reason", ""), user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        messages.success(request, _("Artificial result saved."))
    return redirect(f"{request.path.rsplit('/', 3)[0]}/#etui-{number}")
