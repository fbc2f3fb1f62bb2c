"""The organizer's pages: create a tournament, register players, seat rounds, change states, publish, staff.

Every write is a call to :mod:`tournaments.services`; these views only gather fields and say what the
service answered.
"""

from __future__ import annotations

import math

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from rules.errors import MalformedRecord
from tournaments.common import games
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.collation import french_sorted
from tournaments.common.elision import with_name
from tournaments.common.errors import ServiceError, sentence
from tournaments.event import permissions, register, setup, staff_choice
from tournaments.event.models import Round, Table, Tournament
from tournaments.organizer.forms import (
    PlayerForm,
    PlayersCsvForm,
    RoleForm,
    SeatingForm,
    TournamentForm,
    TournamentSettingsForm,
)
from tournaments.organizer.staff_accounts import staff_context
from tournaments.standings import appeal


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _error(request: HttpRequest, exc: ServiceError) -> None:
    """The refusal as a message; a field's path is shown only where it says more than the sentence (the
    table and seat of a seating, ``tables[1][0]``), not a plain field name such as ``status``."""
    messages.error(request, f"{exc.field}: {exc.message}" if exc.field and "[" in exc.field else sentence(exc))


@guarded
def tournament_create(request: HttpRequest) -> HttpResponse:
    require(request, permissions.can_create_tournament(request.user))
    form = TournamentForm(request.POST or None, clubs=permissions.creation_clubs(request.user))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            club = setup.creation_club(request.user, data["club"].pk if data.get("club") else None)
            tournament = setup.tournament_create(
                club=club,
                name=data["name"], game=data["game"], user=request.user, options=form.options(),
                format=data["format"], rounds_planned=data["rounds_planned"],
                deals_per_round=data.get("deals_per_round"), target=data.get("target"),
                is_public=bool(data.get("is_public")), date=data.get("date"), start_time=data.get("start_time"),
                venue=data.get("venue") or "", round_minutes=data.get("round_minutes"),
                separate_clubs=bool(data.get("separate_clubs")))
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Tournament created. Register the players next."))
            return redirect("players", slug=tournament.slug)
    conventions = [(form[name], TournamentForm.games_of(name)) for name in (
        *(TournamentForm.players_field(g) for g in games.names()), "tarot_five", "triomphe_mode", "triomphe_order",
        "as_qui_pille", "partners", "honours", "deals_per_round", "target")]
    return render(request, "tournaments/tournament_form.html", {
        "form": form, "conventions": conventions, "target_notes": target_notes(lang_of(request))})


def target_notes(lang: str) -> list[tuple[str, str]]:
    """Each match game's target in its own words, from the registry (shown under « Objectif d'une partie » when
    that game is chosen): « En impériales. Vide : la valeur du jeu, 5 impériales. »"""
    return [(g, _("En %(unit)s. Vide : la valeur du jeu, %(words)s.") % {
        "unit": games.target_unit(g, lang), "words": games.target_default_words(g, lang)})
        for g in games.names() if games.plays_matches(g) and games.target_default_words(g, lang)]


@guarded
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings after its creation: name, public or not, rounds planned, the day (and, until it
    runs, the deals per round or a match's target)."""
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    form = TournamentSettingsForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        redraw: list[int] = []
        try:
            with transaction.atomic():  # the partners and the other settings together, or neither
                partners = form.partners_change()
                if partners is not None:
                    redraw = setup.partners_redraw(tournament)  # drawn for the sides of before: dropped by the change
                    tournament = setup.tournament_set_partners(tournament=tournament, partners=partners)
                setup.tournament_update(tournament=tournament, **form.changes())
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Réglages enregistrés."))
            if redraw:
                messages.warning(request, ngettext(
                    "Le jeu par équipes a changé : les tables de la manche %(list)s sont effacées, tirez-la de "
                    "nouveau.", "Le jeu par équipes a changé : les tables des manches %(list)s sont effacées, "
                    "tirez-les de nouveau.", len(redraw)) % {"list": ", ".join(map(str, redraw))})
            return redirect("tournament_detail", slug=slug)
    return render(request, "tournaments/tournament_settings.html", {"tournament": tournament, "form": form},
                  status=422 if request.method == "POST" else 200)


@guarded
@require_POST
def tournament_public(request: HttpRequest, slug: str) -> HttpResponse:
    """Open the tournament's pages to the public (``public=1``) or close them (``public=0``): one tap."""
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    public = request.POST.get("public") == "1"
    setup.tournament_update(tournament=tournament, is_public=public)
    messages.success(request, _("Les pages du tournoi sont ouvertes au public.") if public else
                     _("Les pages du tournoi ne sont plus ouvertes au public."))
    return redirect("tournament_detail", slug=slug)


@guarded
@require_POST
def tournament_status(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    status = request.POST.get("status", "")
    try:
        setup.tournament_set_status(tournament=tournament, status=status, confirm_unfinished=_confirmed(request),
                                    confirm_pending=_confirmed(request, "confirm_pending"))
    except ServiceError as exc:
        if exc.code in ("rounds_unfinished", "deals_pending"):
            return _confirm_finish(request, tournament, status)
        _error(request, exc)
    else:
        messages.success(request, _("Status: %(s)s.") % {"s": tournament.get_status_display()})
    return redirect("tournament_detail", slug=slug)


def _confirm_finish(request: HttpRequest, tournament: Tournament, status: str) -> HttpResponse:
    """Ask the organizer to confirm finishing the tournament: its rounds still in play, and its deals awaiting the
    chief arbiter's visa (each named, with a link to its page where the visa is given), all on one page; « Oui »
    confirms what it named (as a round's confirmation does: :func:`_confirm_round`)."""
    fields = {"status": status}
    parts = []
    playing = [] if _confirmed(request) else setup.tournament_rounds_in_play(tournament)
    if playing:
        fields["confirm_unfinished"] = "1"
        parts.append(ngettext("la manche %(list)s n'est pas terminée", "les manches %(list)s ne sont pas terminées",
                              len(playing)) % {"list": ", ".join(map(str, playing))})
    pending = [] if _confirmed(request, "confirm_pending") else setup.tournament_pending_deals(tournament)
    if pending:
        fields["confirm_pending"] = "1"
        parts.append(ngettext("%(count)s donne attend le visa de l'arbitre principal",
                              "%(count)s donnes attendent le visa de l'arbitre principal", len(pending))
                     % {"count": len(pending)})
    what = " ; ".join(parts)
    question = _("%(why)s : terminer le tournoi quand même ?") % {"why": what[:1].upper() + what[1:]}
    return render(request, "tournaments/tournament_confirm.html", {
        "tournament": tournament, "question": question, "yes": _("Oui, terminer le tournoi"),
        "action": request.path, "pending": pending, "playing": playing, "fields": sorted(fields.items())}, status=409)


@guarded
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """Register players one by one or from a CSV file; the list of entries."""
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    form = PlayerForm(request.POST if request.POST.get("action") == "add" else None)
    csv_form = PlayersCsvForm(request.POST if request.POST.get("action") == "csv" else None,
                              request.FILES if request.POST.get("action") == "csv" else None)
    csv_errors: list[dict] = []
    csv_ignored: list[str] = []
    if request.method == "POST":
        if request.POST.get("action") == "add" and form.is_valid():
            data = form.cleaned_data
            try:
                player = setup.player_create(name=data["name"], club=data["club"], licence=data["licence"],
                                             birth_date=data.get("birth_date"), tournament=tournament)
                entry = setup.player_register(tournament=tournament, player=player)
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, with_name(_("%(name)s is registered."), player.name))
                # the register's word on him: an expired or unknown licence, a likely duplicate to merge
                for flag in register.entry_flags([entry]).get(entry.pk, []):
                    messages.warning(request, flag["message"])
                return redirect("players", slug=slug)
        elif request.POST.get("action") == "csv" and csv_form.is_valid():
            result = setup.players_import_csv(tournament=tournament, text=csv_form.cleaned_data["file"].read())
            if result.ok:
                messages.success(request, ngettext("%(n)s player registered from the file.",
                                                   "%(n)s players registered from the file.", len(result.entries))
                                 % {"n": len(result.entries)})
                if result.already:
                    messages.info(request, ngettext(
                        "%(n)s déjà inscrit : %(names)s.", "%(n)s déjà inscrits : %(names)s.", len(result.already))
                        % {"n": len(result.already), "names": ", ".join(result.already)})
                if result.ignored:
                    messages.warning(request, _("Colonnes ignorées : %(columns)s.")
                                     % {"columns": ", ".join(result.ignored)})
                # the namesakes it brought that nothing confirms (no club, no licence): said now, before a
                # championship counts them twice
                flags = register.entry_flags(result.entries, tournament_id=tournament.pk)
                twins = [e.player.name for e in result.entries
                         if any(f["kind"] == "duplicate" for f in flags.get(e.pk, []))]
                if twins:
                    messages.warning(request, ngettext(
                        "%(n)s doublon probable à vérifier : %(names)s. S'il s'agit de la même personne, réunissez "
                        "les fiches depuis la sienne ci-dessous.",
                        "%(n)s doublons probables à vérifier : %(names)s. S'il s'agit des mêmes personnes, "
                        "réunissez les fiches depuis la leur ci-dessous.", len(twins))
                        % {"n": len(twins), "names": ", ".join(twins)})
                return redirect("players", slug=slug)
            csv_errors, csv_ignored = result.errors, result.ignored
    entries = french_sorted(tournament.entries.select_related("player", "team"), key=lambda e: e.player.name)
    flags = register.entry_flags(entries, tournament_id=tournament.pk)
    for e in entries:
        e.register_flags = flags.get(e.pk, [])  # type: ignore[attr-defined]
    return render(request, "tournaments/players.html", {
        "tournament": tournament, "form": form, "csv_form": csv_form, "csv_errors": csv_errors,
        "csv_ignored": csv_ignored, "entries": entries,
    })


@guarded
@require_POST
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    try:
        rnd = setup.round_create(tournament=tournament)
    except ServiceError as exc:
        _error(request, exc)
        return redirect("tournament_detail", slug=slug)
    messages.success(request, _("Round %(n)s created: seat its tables.") % {"n": rnd.number})
    return redirect("round_detail", slug=slug, number=rnd.number)


def _round(slug: str, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)


#: the players a round is seated by hand for on its page: past them, one list of every player in each seat is
#: thousands of choices a seat (1,000 players: 250 tables, over a million on one page); the draw seats them and
#: « Changements de places » moves who must be moved
BY_HAND_MAX = 48


def seated_by_hand(rnd: Round) -> bool:
    """Whether the round's page offers its tables entered by hand (:data:`BY_HAND_MAX` players at most)."""
    return rnd.tournament.entries.filter(withdrawn=False).count() <= BY_HAND_MAX


def seating_form_for(rnd: Round, data: object = None) -> SeatingForm:
    """The seating form of a round, filled with its current tables, with room for every entry and one spare row."""
    tournament = rnd.tournament
    entries = [(e.pk, e.player.name + (f" ({e.player.club})" if e.player.club else ""))
               for e in french_sorted(tournament.entries.filter(withdrawn=False).select_related("player"),
                                      key=lambda e: e.player.name)]  # French order, accents aside (players page)
    try:  # room for the largest table the tournament allows, rows for the smallest
        sizes = games.table_sizes(tournament.game, tournament.record_options())
    except MalformedRecord:
        sizes = tuple(games.players_choices(tournament.game))
    seats = max(sizes)
    existing = list(rnd.tables.prefetch_related("seats").order_by("number"))
    needed = math.ceil(len(entries) / max(1, min(sizes))) if entries else 1
    count = max(len(existing), needed) + (1 if existing and len(existing) >= needed else 0)
    initial = {}
    for t, table in enumerate(existing):
        for seat in table.seats.all():
            initial[f"t{t}_s{seat.position}"] = seat.entry_id
    return SeatingForm(data, entries=entries, tables=count, seats=seats, initial=initial)


@guarded
@require_POST
def round_seat(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    form = seating_form_for(rnd, request.POST)
    if form.is_valid():
        try:
            tables = setup.round_seat(round=rnd, tables=form.tables())
        except ServiceError as exc:
            _error(request, exc)
        else:
            messages.success(request, _("%(n)s tables seated.") % {"n": len(tables)})
    return redirect("round_detail", slug=slug, number=number)


@guarded
@require_POST
def round_status(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    status = request.POST.get("status", "")
    was = rnd.tournament.status
    try:
        appeal.round_set_status(round=rnd, status=status, confirm_unfinished=_confirmed(request),
                                confirm_pending=_confirmed(request, "confirm_pending"))
    except ServiceError as exc:
        if exc.code in CONFIRM_CODES:
            return _confirm_round(request, rnd, {"status": status}, _("terminer la manche quand même ?"),
                                  _("Oui, terminer la manche"))
        _error(request, exc)
    else:  # said, as every other change of the organizer's (a walk saw the round and the tournament move silently)
        said = _("Manche %(n)s : %(state)s.") % {"n": rnd.number, "state": rnd.get_status_display()}
        if rnd.tournament.status != was:
            said += " " + _("Le tournoi passe à « %(state)s ».") % {"state": rnd.tournament.get_status_display()}
        messages.success(request, said)
    return redirect("round_detail", slug=slug, number=number)


#: the refusals of ending or publishing a round that the organizer may confirm (the round's confirmation page)
CONFIRM_CODES = frozenset({"matches_unfinished", "deals_pending", "deals_disputed"})


def _confirmed(request: HttpRequest, name: str = "confirm_unfinished") -> bool:
    return request.POST.get(name) == "1"


def _confirm_round(request: HttpRequest, rnd: Round, fields: dict[str, str], ask: str, yes: str, *,
                   publishing: bool = False) -> HttpResponse:
    """Ask the organizer to confirm ending or publishing a round: a duplicate's fouled étuis the chief has not
    decided, its matches not all over, or its tables short of their deals (each short table with its count:
    « table 3 : 4 donnes sur 6 »), and its deals awaiting the chief arbiter's visa (« table 2 : donne 3 »), all on
    one page, and when publishing its deals contested and its calls unanswered; « Oui » confirms what it named."""
    tables: list[int] = []
    short = None
    parts = []
    fouled: list[tuple[int, int]] = []
    if not _confirmed(request):
        tables, short = setup.round_open_tables(rnd, publishing=publishing)
        fouled = setup.fouled_etuis_waiting(rnd)  # a duplicate's fouled étuis the chief has not decided yet
    if fouled:
        parts.append(ngettext("Un étui faussé attend la décision de l'arbitre",
                              "%(count)s étuis faussés attendent la décision de l'arbitre", len(fouled))
                     % {"count": len(fouled)})
    if tables or fouled:
        fields = {**fields, "confirm_unfinished": "1"}
    if tables:
        if short is None:
            parts.append(ngettext("%(count)s partie n'est pas terminée", "%(count)s parties ne sont pas terminées",
                                  len(tables)) % {"count": len(tables)})
        elif short.none_entered:
            parts.append(_("Aucune donne n'est saisie dans cette manche"))
        else:
            parts.append(ngettext("%(count)s table n'a pas joué toutes ses donnes",
                                  "%(count)s tables n'ont pas joué toutes leurs donnes", len(tables))
                         % {"count": len(tables)})
    pending = [] if _confirmed(request, "confirm_pending") else setup.round_pending_deals(rnd)
    if pending:
        fields = {**fields, "confirm_pending": "1"}
        parts.append(ngettext("%(count)s donne attend le visa de l'arbitre principal",
                              "%(count)s donnes attendent le visa de l'arbitre principal", len(pending))
                     % {"count": len(pending)})
    disputed: list[tuple[int, int]] = []
    calls: list[int] = []
    if publishing and not _confirmed(request, "confirm_disputes"):  # the public would read what may still change
        disputed, calls = setup.round_disputes(rnd)
    if disputed or calls:
        fields = {**fields, "confirm_disputes": "1"}
        parts.append(setup.disputes_words(disputed, calls))
    question = _("%(what)s : %(ask)s") % {"what": " ; ".join(parts), "ask": ask} if parts else ask[:1].upper() + ask[1:]
    return render(request, "tournaments/round_confirm.html", {
        "tournament": rnd.tournament, "round": rnd, "tables": tables, "short": short, "fouled": fouled,
        "pending": pending, "disputed": disputed, "calls": calls, "question": question, "yes": yes,
        "action": request.path, "fields": sorted(fields.items())}, status=409)


@guarded
@require_POST
def round_release(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    rnd = _round(slug, number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    released = request.POST.get("released", "1")
    try:
        setup.round_release(round=rnd, released=released != "0", confirm_unfinished=_confirmed(request),
                            confirm_pending=_confirmed(request, "confirm_pending"),
                            confirm_disputes=_confirmed(request, "confirm_disputes"))
    except ServiceError as exc:
        if exc.code in CONFIRM_CODES:
            return _confirm_round(request, rnd, {"released": released}, _("publier la manche quand même ?"),
                                  _("Oui, publier la manche"), publishing=True)
        _error(request, exc)
    else:
        messages.success(request, _("Round %(n)s: publication updated.") % {"n": rnd.number})
        if released != "0" and not rnd.tournament.is_public:
            # a walk published round 1 of a new tournament (private by default) and the public found a 404
            messages.warning(request, format_html(
                '{} <a href="{}#id_is_public">{}</a>',
                _("Le tournoi n'est pas encore public : seule son équipe voit cette manche."),
                reverse("tournament_settings", args=[slug]), _("Le rendre public (réglage « Public »)")))
    return redirect("round_detail", slug=slug, number=number)


@guarded
def staff(request: HttpRequest, slug: str) -> HttpResponse:
    """Give a role in the tournament: the person tapped among those the organizer may name (the club's staff,
    those already in the tournament, other clubs' arbiters), the role, and a table arbiter's tables tapped."""
    tournament = _tournament(slug)
    require(request, permissions.can_manage(request.user, tournament))
    groups = staff_choice.staff_candidates(tournament, request.user)
    form = RoleForm(request.POST or None, tournament=tournament, groups=groups)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = staff_choice.candidate_user(groups, data["user"])
        tables = list(Table.objects.filter(round__tournament=tournament, pk__in=data["tables"])
                      .select_related("round"))
        if user is None:
            form.add_error("user", _("Cette personne n'est pas de celles que vous pouvez nommer ici."))
        if form.is_valid():
            try:
                setup.role_assign(tournament=tournament, user=user, role=data["role"], tables=tables)
            except ServiceError as exc:
                _error(request, exc)
            else:
                messages.success(request, _("Role given to %(u)s.") % {"u": staff_choice.display_name(user)})
                return redirect("staff", slug=slug)
    roles = tournament.roles.select_related("user").prefetch_related("tables__round").order_by("role", "user__username")
    return render(request, "tournaments/staff.html", {"tournament": tournament, "form": form, "roles": roles,
                                                      "groups": groups,
                                                      "many": sum(len(g.people) for g in groups) > 8,
                                                      **staff_context(request, tournament)})
