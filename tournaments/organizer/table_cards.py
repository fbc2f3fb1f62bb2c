"""The organizer's side of the private links: the printable table cards of a round (one per table, its QR
code and link), the players' cards, revoking a link, and the tournament's table policy."""

from __future__ import annotations

import hashlib
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.common import kept
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.collation import french_key
from tournaments.common.errors import ServiceError
from tournaments.deals import selectors
from tournaments.duplicate.results import sat_out
from tournaments.event import permissions
from tournaments.event.models import Round, Tournament
from tournaments.links import service
from tournaments.links.models import PrivateLink

#: how long a link's QR code is kept (a link's address never changes: a revoked link is a new token)
QR_KEPT_SECONDS = 7 * 24 * 3600


def qr_svg(url: str) -> str:
    """The link as an inline SVG QR code (segno, error correction M: a card creased or stained still scans)."""
    return segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True)


def qr_svgs(urls: list[str]) -> dict[str, str]:
    """:func:`qr_svg` of each of ``urls``, made once and kept in the cache: a sheet of 1,000 players' cards took
    4.4 s of QR codes at each print, now only the first time (one round trip to the cache for all)."""
    keys = {url: "levee:qr:" + hashlib.sha256(url.encode()).hexdigest()[:32] for url in urls}
    found = kept.get_many(keys.values())
    made = {url: found.get(key) or qr_svg(url) for url, key in keys.items()}
    kept.set_many({keys[url]: svg for url, svg in made.items() if keys[url] not in found}, QR_KEPT_SECONDS)
    return made


def _absolute(request: HttpRequest, name: str, token: str) -> str:
    return request.build_absolute_uri(reverse(name, kwargs={"token": token}))


@guarded
def table_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's table cards, ready to print: each table's players, its private link and QR code."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament__slug=slug, number=number)
    require(request, permissions.can_manage(request.user, rnd.tournament))
    seated = selectors.with_seats(list(rnd.tables.order_by("number")))
    # a bye (a table of one seat, « exempt »): no match to enter nor confirm, so no card; its player is named
    byes = [name for table in seated if len(selectors.table_players(table)) == 1
            for name in selectors.table_players(table)]
    # duplicate: the players over a multiple of four sit at no table (« exempt »), named too
    byes += [e.player.name for e in sat_out(rnd.tournament, [rnd.number]).get(rnd.number, [])]
    tables = [table for table in seated if len(selectors.table_players(table)) > 1]
    made = service.links_for_round(tables=tables, user=request.user)
    urls = {table.pk: _absolute(request, "link_home", made[table.pk].token) for table in tables}
    codes = qr_svgs(list(urls.values()))
    cards = []
    for table in tables:
        url = urls[table.pk]
        cards.append({"table": table, "players": selectors.table_players(table), "link": made[table.pk], "url": url,
                      "qr": mark_safe(codes[url])})  # segno's own SVG, no user text in it
    return render(request, "tables/table_cards.html", {
        "tournament": rnd.tournament, "round": rnd, "cards": cards, "byes": byes,
        "policy": service.policy_of(rnd.tournament),
    })


@guarded
def player_cards(request: HttpRequest, slug: str) -> HttpResponse:
    """Each registered player's own link (to confirm his deals on his phone), ready to print and cut."""
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_manage(request.user, tournament))
    cards = []
    # in the register's order (« Éléonore » among the E, not after « Zoé » as the database's byte order put her)
    entries = sorted(tournament.entries.select_related("player").filter(withdrawn=False),
                     key=lambda entry: french_key(entry.player.name))
    made = service.links_for_entries(entries=entries, user=request.user)
    urls = {entry.pk: _absolute(request, "player_home", made[entry.pk].token) for entry in entries}
    codes = qr_svgs(list(urls.values()))
    for entry in entries:
        url = urls[entry.pk]
        cards.append({"entry": entry, "link": made[entry.pk], "url": url,
                      "qr": mark_safe(codes[url])})  # segno's own SVG, no user text in it
    return render(request, "tables/player_cards.html", {"tournament": tournament, "cards": cards})


class PolicyForm(forms.Form):
    tables_enter = forms.BooleanField(label=gettext_lazy("Tables enter their own deals through their link"),
                                      required=False)
    confirmations_needed = forms.TypedChoiceField(
        label=gettext_lazy("Players who must confirm a deal"), required=False, coerce=int, empty_value=None,
        choices=[])
    unconfirmed_count = forms.BooleanField(label=gettext_lazy("Unconfirmed deals count in the live ranking"),
                                           required=False)
    appeal_minutes = forms.IntegerField(label=gettext_lazy("Appeal window after a round ends (minutes)"),
                                        min_value=0, max_value=24 * 60)

    def __init__(self, *args: Any, most: int, **kwargs: Any) -> None:
        """``most``: the tournament's largest table (``service.most_confirmations``): no more can confirm."""
        super().__init__(*args, **kwargs)
        field = self.fields["confirmations_needed"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", gettext_lazy("every player of the table"))] + [(n, str(n)) for n in range(1, most + 1)]
        field.error_messages["invalid_choice"] = gettext_lazy(
            "Au plus %(n)s : une table de ce tournoi compte au plus %(n)s joueurs.") % {"n": most}


@guarded
def links_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's table policy and its private links (live and revoked), each revocable."""
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_manage(request.user, tournament))
    policy = service.policy_of(tournament)
    initial: dict[str, Any] = {"tables_enter": policy.tables_enter, "confirmations_needed": policy.confirmations_needed,
                               "unconfirmed_count": policy.unconfirmed_count, "appeal_minutes": policy.appeal_minutes}
    form = PolicyForm(request.POST or None, initial=initial, most=service.most_confirmations(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            service.policy_set(tournament=tournament, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.text(lang_of(request)))
        else:
            messages.success(request, _("Saved."))
            return redirect("table_links", slug=slug)
    table_links = (PrivateLink.objects.filter(tournament=tournament, table__isnull=False)
                   .select_related("table__round", "revoked_by").order_by("-table__round__number", "table__number",
                                                                          "-created_at"))
    rounds = list(tournament.rounds.order_by("number").annotate(seated=Count("tables")))
    # the round whose cards to open first: the first seated one not finished (round 1 at the start, not round 2
    # drawn ahead), else the last one seated
    current = (next((r for r in rounds if r.seated and r.status != Round.Status.FINISHED), None)
               or next((r for r in reversed(rounds) if r.seated), None) or (rounds[-1] if rounds else None))
    return render(request, "tables/links.html", {"tournament": tournament, "form": form, "links": table_links,
                                                 "rounds": rounds, "current": current},
                  status=422 if request.method == "POST" else 200)


@guarded
@require_POST
def link_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke a link at once; a new one is made for the same table or player (print its card again)."""
    link = get_object_or_404(PrivateLink.objects.select_related("table", "entry"), pk=pk, tournament__slug=slug)
    require(request, permissions.can_manage(request.user, link.tournament))
    try:
        service.link_revoke(link=link, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        messages.success(request, _("Link revoked; a new link replaces it: print the card again."))
    return redirect("table_links", slug=slug)
