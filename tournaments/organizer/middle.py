"""The organizer's pages for the messy middle of the day: the players' arrival (check-in from a phone,
late arrivals, players who leave) and the seat changes of a round (swap two players by name, seat a
replacement, a table one short). Writes are calls to ``services.middle`` and ``seating_service``."""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.common import games
from tournaments.common.access import guarded, require
from tournaments.common.collation import french_key, french_sorted
from tournaments.common.elision import with_name
from tournaments.common.errors import ServiceError
from tournaments.event import clock, middle, permissions, register
from tournaments.event.models import Entry, Round, Seat, Tournament
from tournaments.organizer.middle_forms import LateArrivalForm, ReplaceForm, ShortForm, SwapForm
from tournaments.standings import draw as seating_service


def _seat_label(seat: Seat, byes: frozenset[int] = frozenset()) -> str:
    """« Ana — table 3 », or « Ana — exempt » at a bye (``byes``: the tables of one seat)."""
    if seat.table_id in byes:
        label = _("%(name)s — exempt") % {"name": seat.entry.player.name}
    else:
        label = _("%(name)s — table %(t)s") % {"name": seat.entry.player.name, "t": seat.table.number}
    if seat.substitute:
        label += " " + _("(remplaçant : %(sub)s)") % {"sub": seat.substitute}
    return label


@guarded
def arrivals(request: HttpRequest, slug: str) -> HttpResponse:
    """Check players in as they arrive (one big button each), register a late arrival, record a leaver."""
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_manage(request.user, tournament))
    rounds = middle.last_round_to_join(tournament)
    next_round = (tournament.rounds.filter(tables__deals__isnull=False).order_by("-number")
                  .values_list("number", flat=True).first() or 0) + 1
    action = request.POST.get("action") if request.method == "POST" else None
    form = LateArrivalForm(request.POST if action == "late" else None, rounds=rounds, first=next_round)
    if request.method == "POST":
        if action == "late":
            if form.is_valid():
                data = form.cleaned_data
                try:
                    entry = middle.late_arrival(tournament=tournament, name=data["name"], club=data["club"],
                                                licence=data["licence"], from_round=data["from_round"])
                except ServiceError as exc:
                    form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                else:
                    middle.check_in(entry=entry)
                    messages.success(request, with_name(_("Inscription de %(name)s enregistrée : premier tirage à la "
                                                               "manche %(n)s."), entry.player.name, n=entry.from_round))
                    for flag in register.entry_flags([entry]).get(entry.pk, []):
                        messages.warning(request, flag["message"])
                    return redirect("arrivals", slug=slug)
        else:
            entry = get_object_or_404(Entry.objects.select_related("player"), pk=request.POST.get("entry"),
                                      tournament=tournament)
            try:
                if action in ("in", "out"):
                    middle.check_in(entry=entry, present=action == "in")
                elif action == "leave":
                    short = middle.player_leaves(entry=entry)
                    messages.success(request, with_name(_("Abandon de %(name)s : plus de place aux prochains tirages "
                                                               "; les donnes jouées restent."), entry.player.name))
                    for table in short:
                        messages.warning(request, _("Manche %(r)s, table %(t)s : la table jouera à %(k)s.")
                                         % {"r": table.round.number, "t": table.number, "k": table.seats.count()})
                elif action == "back":
                    middle.player_returns(entry=entry)
                    messages.success(request, _("%(name)s est de retour.") % {"name": entry.player.name})
            except ServiceError as exc:
                messages.error(request, exc.message)
            if request.headers.get("HX-Request") and action in ("in", "out"):
                # the row, and the counter out of band: it follows each tap without a reload
                counts = _arrival_counts(tournament)
                entry.register_flags = register.entry_flags([entry]).get(entry.pk, [])  # type: ignore[attr-defined]
                entry.played_round = middle.played_rounds(tournament).get(entry.pk)  # type: ignore[attr-defined]
                row = render_to_string("tournaments/_arrival.html", {"tournament": tournament, "e": entry}, request)
                count = render_to_string("tournaments/_arrivals_count.html", {**counts, "oob": True}, request)
                return HttpResponse(row + count)
            return redirect(f"{request.path}#e{entry.pk}")
    entries = french_sorted(tournament.entries.select_related("player"), key=lambda e: e.player.name)
    flags = register.entry_flags(entries, tournament_id=tournament.pk)  # an expired licence, a likely duplicate
    played = middle.played_rounds(tournament)
    for e in entries:
        e.register_flags = flags.get(e.pk, [])  # type: ignore[attr-defined]
        e.played_round = played.get(e.pk)  # type: ignore[attr-defined]
    return render(request, "tournaments/arrivals.html", {
        "tournament": tournament, "entries": entries, "form": form, **_arrival_counts(tournament)})


def _arrival_counts(tournament: Tournament) -> dict[str, int]:
    """The players there (checked in or who played) and the players expected (the withdrawn left out)."""
    return middle.arrival_counts(tournament)


@guarded
def round_changes(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The seats of a round, and what can change in them: a swap of two players, a replacement (one
    round or the rest of the event), a player absent (the table one short)."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)
    tournament = rnd.tournament
    require(request, permissions.can_manage(request.user, tournament))
    seats = list(Seat.objects.filter(table__round=rnd).select_related("entry__player", "table")
                 .order_by("table__number", "position"))
    by_name = sorted(seats, key=lambda s: french_key(s.entry.player.name))
    per_table = Counter(s.table_id for s in seats)
    byes = frozenset(t for t, n in per_table.items() if n == 1)
    seated = [(s.entry_id, _seat_label(s, byes)) for s in by_name]
    seat_choices = [(s.pk, _seat_label(s, byes)) for s in by_name if s.table_id not in byes]  # a bye: no one to replace
    action = request.POST.get("action") if request.method == "POST" else None
    swap_form = SwapForm(request.POST if action == "swap" else None, seated=seated)
    replace_form = ReplaceForm(request.POST if action == "replace" else None, seats=seat_choices)
    short_form = ShortForm(request.POST if action == "short" else None, seats=seat_choices)
    forms = {"swap": swap_form, "replace": replace_form, "short": short_form}
    if action in forms and forms[action].is_valid():
        data = forms[action].cleaned_data
        try:
            if action == "swap":
                result = seating_service.round_swap(round=rnd, a=data["a"], b=data["b"])
                names = dict((s.entry_id, s.entry.player.name) for s in seats)
                messages.success(request, _("%(a)s et %(b)s ont changé de place.")
                                 % {"a": names[data["a"]], "b": names[data["b"]]})
                if result.repeats:
                    messages.warning(request, _("Attention : cet échange fait se rencontrer à nouveau des joueurs "
                                                "(voir la liste des rencontres répétées)."))
            else:
                seat = next(s for s in seats if s.pk == data["seat"])
                if action == "replace":
                    middle.seat_replace(seat=seat, name=data["name"], club=data["club"],
                                        rest_of_event=data["scope"] == "rest")
                    messages.success(request, _("%(sub)s remplace %(name)s.")
                                     % {"sub": " ".join(data["name"].split()), "name": seat.entry.player.name})
                else:
                    table = middle.seat_remove(seat=seat)
                    messages.success(request, _("%(name)s quitte la table %(t)s, qui jouera à %(k)s.")
                                     % {"name": seat.entry.player.name, "t": table.number,
                                        "k": table.seats.count()})
        except ServiceError as exc:
            forms[action].add_error(None, exc.message)
        else:
            return redirect("round_changes", slug=slug, number=number)
    elif action == "unsub":
        seat = get_object_or_404(Seat, pk=request.POST.get("seat"), table__round=rnd)
        middle.seat_clear_substitute(seat=seat)
        return redirect("round_changes", slug=slug, number=number)
    tables: dict[int, list[Seat]] = {}
    for s in seats:
        tables.setdefault(s.table.number, []).append(s)
    # a table one short: offered only where the game is played one player fewer (Tarot 4 → 3, 5 → 4; never at a
    # game of two), said with this round's own sizes
    counts = games.player_counts(tournament.game)
    short_sizes = sorted({len(t) for t in tables.values() if len(t) - 1 in counts and len(t) > 1})
    return render(request, "tournaments/round_changes.html", {
        "tournament": tournament, "round": rnd, "tables": sorted(tables.items()), "swap_form": swap_form,
        "replace_form": replace_form, "short_form": short_form,
        "short_words": " ; ".join(_("une table de %(n)s joue alors à %(k)s") % {"n": n, "k": n - 1}
                                  for n in short_sizes),
        "repeats": seating_service.round_repeats(round=rnd) if seats else [],
    })


@guarded
@require_POST
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Start, pause or reset the round clock shown on the hall screen."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    try:
        state = clock.round_clock(round=rnd, action=request.POST.get("action", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, (_("Horloge lancée : %(left)s restantes.") if state.running
                                   else _("Horloge arrêtée à %(left)s.")) % {"left": state.display})
    return redirect(f"{reverse('round_detail', args=[slug, number])}#clock")
