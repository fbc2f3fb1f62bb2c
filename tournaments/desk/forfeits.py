"""The chief arbiter's page for the forfeit or absence of a table: a call to the forfeits service."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tournaments.common.access import guarded, require
from tournaments.common.errors import ServiceError
from tournaments.deals import selectors
from tournaments.deals.forfeits import forfeit_cancel, forfeit_record
from tournaments.deals.models import Forfeit
from tournaments.desk.forms import ForfeitForm
from tournaments.event import permissions
from tournaments.event.models import Table


@guarded
def table_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    """Record, replace or cancel the forfeit or absence of a table (chief arbiter, organizer)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    tournament = table.round.tournament
    require(request, permissions.can_referee(request.user, tournament))
    seats = [(s.entry_id, s.entry.player.name) for s in selectors.table_seats(table)]
    current = Forfeit.objects.filter(table=table).prefetch_related("absent__player").first()
    action = request.POST.get("action") if request.method == "POST" else None
    initial = {}
    if current is not None:
        initial = {"kind": current.kind, "absent": [e.pk for e in current.absent.all()], "reason": current.reason}
    form = ForfeitForm(request.POST if action == "record" else None, initial=initial, seats=seats,
                       match_game=tournament.is_match_game)
    if action == "cancel":
        if forfeit_cancel(table=table, user=request.user):
            messages.success(request, _("Forfeit or absence cancelled."))
        return redirect("table_detail", pk=table.pk)
    if action == "record" and form.is_valid():
        try:
            forfeit_record(table=table, kind=form.cleaned_data["kind"], absent=form.cleaned_data["absent"],
                           reason=form.cleaned_data["reason"], user=request.user)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Recorded."))
            return redirect("table_detail", pk=table.pk)
    return render(request, "tournaments/forfeit_form.html", {
        "tournament": tournament, "round": table.round, "table": table, "form": form, "current": current,
    })
