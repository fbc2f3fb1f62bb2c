"""A player's page for the organizer: edit the player, remove an entry made by mistake, merge a person registered
twice, and the history of every change (who, when, why).

The writes are :mod:`tournaments.event.players`; on a refusal the page comes back with what was typed and the
reason, never an empty form."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.common.access import guarded, require
from tournaments.common.collation import french_sorted
from tournaments.common.elision import with_name
from tournaments.common.errors import ServiceError
from tournaments.event import permissions, register
from tournaments.event import players as service
from tournaments.event.models import Entry, Player, Tournament
from tournaments.organizer.players_forms import (
    AnonymizeForm,
    EntryRemoveForm,
    PlayerEditForm,
    PlayersMergeForm,
    RecordsMergeForm,
)


def _entry(request: HttpRequest, slug: str, entry_id: int) -> tuple[Tournament, Entry]:
    """The tournament and its entry, for its organizer only (another tournament's entry: 404)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_manage(request.user, tournament))
    entry = get_object_or_404(Entry.objects.select_related("player", "team"), pk=entry_id, tournament=tournament)
    return tournament, entry


def _label(entry: Entry) -> str:
    player = entry.player
    extra = [x for x in (player.club, player.licence and _("licence %(l)s") % {"l": player.licence}) if x]
    return f"{player.name} ({', '.join(extra)})" if extra else player.name


@dataclass
class Change:
    """One line of a player's history."""

    when: datetime
    who: str
    what: list[str]
    why: str


_PLAYER_FIELDS = {"name": _("nom"), "club": _("club"), "licence": _("licence")}


def _player_lines(entry: Entry) -> list[Change]:
    out = []
    records = list(entry.player.history.select_related("history_user").order_by("history_date", "history_id"))
    previous = None
    for h in records:
        if h.history_type == "+":
            what = [_("fiche créée : %(name)s") % {"name": h.name}]
        elif h.history_type == "-":
            what = [_("fiche supprimée")]
        else:
            what = [_("%(field)s : « %(old)s » → « %(new)s »")
                    % {"field": label, "old": getattr(previous, f) or "—", "new": getattr(h, f) or "—"}
                    for f, label in _PLAYER_FIELDS.items() if previous is not None
                    and getattr(previous, f) != getattr(h, f)]
        previous = h
        if what or h.history_change_reason:
            out.append(Change(h.history_date, _who(h), what, h.history_change_reason or ""))
    return out


def _entry_lines(entry: Entry) -> list[Change]:
    out = []
    previous = None
    for h in entry.history.select_related("history_user", "team").order_by("history_date", "history_id"):
        what: list[str] = []
        if h.history_type == "+":
            what.append(_("inscrit au tournoi"))
        elif previous is not None:
            if previous.withdrawn != h.withdrawn:
                what.append(_("abandon") if h.withdrawn else _("de retour"))
            if previous.team_id != h.team_id:
                what.append(_("équipe : %(team)s") % {"team": h.team.name if h.team_id and h.team else "—"})
            if previous.from_round != h.from_round:
                what.append(_("joue dès la manche %(n)s") % {"n": h.from_round})
        previous = h
        if what or h.history_change_reason:
            out.append(Change(h.history_date, _who(h), what, h.history_change_reason or ""))
    return out


def _together(lines: list[Change]) -> list[Change]:
    """One line per change: the player's and the entry's records of one write (same who, why, second) joined."""
    out: list[Change] = []
    for line in lines:
        last = out[-1] if out else None
        if last is not None and (last.who, last.why) == (line.who, line.why) and line.why \
                and abs((last.when - line.when).total_seconds()) < 2:
            last.what += [w for w in line.what if w not in last.what]
        else:
            out.append(line)
    return out


def _who(h: Any) -> str:
    return h.history_user.get_username() if h.history_user_id and h.history_user else "—"


def _duplicates(request: HttpRequest, player: Player) -> list[Player]:
    """The likely duplicates of a player (same name, same birth date) that this organizer may see."""
    found = register.likely_duplicates(player)
    visible = set(permissions.visible_players(request.user, Player.objects.filter(pk__in=[p.pk for p in found]))
                  .values_list("pk", flat=True))
    return [p for p in found if p.pk in visible]


def _record_label(player: Player) -> str:
    n = player.entries.count()
    extra = [x for x in (player.club, player.licence and _("licence %(l)s") % {"l": player.licence},
                         ngettext("%(n)s tournoi", "%(n)s tournois", n) % {"n": n}) if x]
    return f"{player.name} ({', '.join(extra)})"


def _page(request: HttpRequest, tournament: Tournament, entry: Entry, *, edit: PlayerEditForm | None = None,
          remove: EntryRemoveForm | None = None, merge: PlayersMergeForm | None = None,
          records: RecordsMergeForm | None = None, status: int = 200) -> HttpResponse:
    player = entry.player
    duplicates = _duplicates(request, player)
    others = french_sorted(tournament.entries.exclude(pk=entry.pk).select_related("player"),
                           key=lambda e: e.player.name)
    history = _together(sorted(_player_lines(entry) + _entry_lines(entry), key=lambda c: c.when, reverse=True))
    return render(request, "tournaments/player_edit.html", {
        "tournament": tournament, "entry": entry, "player": player,
        "edit": edit or PlayerEditForm(initial={"name": player.name, "club": player.club,
                                                "licence": player.licence}),
        "remove": remove or EntryRemoveForm(),
        "merge": merge or PlayersMergeForm(others=[(e.pk, _label(e)) for e in others]),
        "played": service.entry_has_played(entry),
        "other_tournaments": player.entries.exclude(tournament=tournament).count(),
        "history": history,
        "licence": register.licence_check(player.licence), "flags": register.entry_flags([entry]).get(entry.pk, []),
        "records": records or RecordsMergeForm(others=[(p.pk, _record_label(p)) for p in duplicates]),
        "duplicates": duplicates, "anonymize": AnonymizeForm(),
    }, status=status)


@guarded
def player_edit(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """The player's page: his name, club and licence to correct; removal, merge and history below."""
    tournament, entry = _entry(request, slug, entry_id)
    if request.method != "POST":
        return _page(request, tournament, entry)
    form = PlayerEditForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            service.player_update(player=entry.player, name=data["name"], club=data["club"],
                                  licence=data["licence"], user=request.user, reason=data["reason"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, with_name(_("Fiche de %(name)s enregistrée."), entry.player.name))
            return redirect("players", slug=slug)
    return _page(request, tournament, entry, edit=form, status=400)


@guarded
@require_POST
def entry_remove(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Remove an entry made by mistake (refused once the player has played: then it is an « abandon »)."""
    tournament, entry = _entry(request, slug, entry_id)
    form = EntryRemoveForm(request.POST)
    if form.is_valid():
        name = entry.player.name
        try:
            tables = service.entry_remove(entry=entry, user=request.user, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
            return _page(request, tournament, entry, remove=form, status=409)
        messages.success(request, with_name(_("Inscription de %(name)s retirée."), name))
        for table in tables:
            if service.table_is_short(table):
                messages.warning(request, _("Manche %(r)s : %(name)s était à la table %(t)s, qui n'a plus assez de "
                                            "joueurs. Refaites le tirage de la manche %(r)s.")
                                 % {"r": table.round.number, "t": table.number, "name": name})
            else:
                messages.warning(request, _("Manche %(r)s, table %(t)s : la table jouera à %(k)s.")
                                 % {"r": table.round.number, "t": table.number, "k": table.seats.count()})
        return redirect("players", slug=slug)
    return _page(request, tournament, entry, remove=form, status=400)


@guarded
@require_POST
def players_merge(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Merge this entry and another of the same tournament (the same person registered twice)."""
    tournament, entry = _entry(request, slug, entry_id)
    others = tournament.entries.exclude(pk=entry.pk).select_related("player")
    form = PlayersMergeForm(request.POST, others=[(e.pk, _label(e)) for e in others])
    if form.is_valid():
        data = form.cleaned_data
        other = next(e for e in others if e.pk == data["other"])
        kept, duplicate = (entry, other) if data["keep"] == "this" else (other, entry)
        try:
            kept = service.players_merge(kept=kept, duplicate=duplicate, user=request.user, reason=data["reason"])
        except ServiceError as exc:
            form.add_error("other" if exc.field == "other" else None, exc.message)
            return _page(request, tournament, entry, merge=form, status=409)
        messages.success(request, _("%(other)s et %(kept)s ne font plus qu'un : %(kept)s.")
                         % {"other": duplicate.player.name, "kept": kept.player.name})
        return redirect("player_edit", slug=slug, entry_id=kept.pk)
    return _page(request, tournament, entry, merge=form, status=400)


@guarded
@require_POST
def records_merge(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Merge this player's record with a likely duplicate of another event: every result is kept, with history."""
    tournament, entry = _entry(request, slug, entry_id)
    duplicates = _duplicates(request, entry.player)
    form = RecordsMergeForm(request.POST, others=[(p.pk, _record_label(p)) for p in duplicates])
    if form.is_valid():
        data = form.cleaned_data
        other = next(p for p in duplicates if p.pk == data["other"])
        kept, duplicate = (entry.player, other) if data["keep"] == "this" else (other, entry.player)
        try:
            player = register.players_records_merge(kept=kept, duplicate=duplicate, user=request.user,
                                                    reason=data["reason"])
        except ServiceError as exc:
            form.add_error("other" if exc.field == "other" else None, exc.message)
            return _page(request, tournament, entry, records=form, status=409)
        messages.success(request, _("%(other)s and %(kept)s are now one record: %(kept)s.")
                         % {"other": duplicate.name, "kept": player.name})
        kept_entry = player.entries.get(tournament=tournament)
        return redirect("player_edit", slug=slug, entry_id=kept_entry.pk)
    return _page(request, tournament, entry, records=form, status=400)


@guarded
@require_POST
def player_anonymize(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """Make the player anonymous at his request: his results stay, his name and personal data go."""
    _tournament, entry = _entry(request, slug, entry_id)
    form = AnonymizeForm(request.POST)
    form.is_valid()
    player = register.player_anonymize(player=entry.player, user=request.user,
                                       reason=form.cleaned_data.get("reason", ""))
    messages.success(request, _("The player is now « %(name)s »: his results stay.")
                     % {"name": player.name})
    return redirect("player_edit", slug=slug, entry_id=entry.pk)
