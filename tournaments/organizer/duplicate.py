"""Duplicate Tarot pages for the organizer (a table's étuis are the desk's: ``tournaments/desk/duplicate.py``).

* ``/t/<slug>/duplicate/`` — the organizer sets the duplicate up (étuis a round, seed, scoring).
* ``/t/<slug>/rounds/<n>/cards/`` — the movement as one card per table: who sits North, East,
  South, West, the étuis in order, and the table each étui goes to next (printable).
* ``/t/<slug>/etuis/print/`` — the hand records (« fiches de donnes ») the arbiters make up the
  étuis from.
"""

from __future__ import annotations

import re

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from rules.cards import EXCUSE, SUIT_SYMBOLS, TRUMPS, card_label, card_name, parse_card, rank_of, suit_of
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import ServiceError
from tournaments.deals import selectors
from tournaments.duplicate.models import DuplicateSetup, DuplicateTable, Etui
from tournaments.duplicate.results import ORIENTATIONS, sat_out, setup_of
from tournaments.duplicate.service import duplicate_create, played_rounds
from tournaments.event import permissions
from tournaments.event.models import Round, Tournament


def _staff_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.is_staff_of(request.user, tournament))
    return tournament


class DuplicateForm(forms.Form):
    boards_per_round = forms.IntegerField(label=gettext_lazy("Étuis a round"), min_value=1, max_value=36, initial=4)
    seed = forms.CharField(label=gettext_lazy("Seed of the étuis"), required=False, max_length=64,
                           help_text=gettext_lazy("The same seed deals the same étuis. Leave empty to import the "
                                                  "étuis or key them in at the first table."))
    method = forms.ChoiceField(label=gettext_lazy("Scoring"), choices=DuplicateSetup.Method.choices)
    score = forms.ChoiceField(label=gettext_lazy("Ranking"), choices=DuplicateSetup.Score.choices)
    short = forms.ChoiceField(label=gettext_lazy("Extra players"), choices=DuplicateSetup.Short.choices)
    tie_breaks = forms.ChoiceField(
        label=gettext_lazy("Tie-breaks declared in advance"), required=False,
        choices=[("", gettext_lazy("none: equal scores share the rank")),
                 ("best_board", gettext_lazy("the best étui")), ("tops", gettext_lazy("the number of tops")),
                 ("best_board,tops", gettext_lazy("the best étui, then the number of tops")),
                 ("tops,best_board", gettext_lazy("the number of tops, then the best étui"))])


@guarded
@require_http_methods(["GET", "POST"])
def duplicate_setup(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _staff_tournament(request, slug)
    setup = setup_of(tournament)
    # not set up yet: the étuis a round are the deals a round the tournament was made with (4 silently replaced 3)
    initial = ({"boards_per_round": setup.boards_per_round, "seed": setup.seed, "method": setup.method,
                "score": setup.score, "short": setup.short, "tie_breaks": ",".join(tournament.tie_breaks or [])}
               if setup else {"boards_per_round": tournament.deals_per_round or 4})
    form = DuplicateForm(request.POST or None, initial=initial)
    kept, kept_deals = played_rounds(tournament) if setup else (0, 0)
    if request.method == "POST" and form.is_valid():
        require(request, permissions.can_manage(request.user, tournament))
        data = dict(form.cleaned_data)
        tie_breaks = [t for t in data.pop("tie_breaks").split(",") if t]
        try:
            duplicate_create(tournament=tournament, tie_breaks=tie_breaks, **data)
        except ServiceError as exc:
            form.add_error(None, exc.text(lang_of(request)))
        else:
            if kept:
                messages.success(request, _(
                    "Rounds %(first)s to %(last)s rebuilt for the players entered now; rounds 1 to %(kept)s and "
                    "their %(deals)s deals are kept as they were.") % {
                    "first": kept + 1, "last": tournament.rounds_planned, "kept": kept, "deals": kept_deals})
            else:
                messages.success(request, _("The movement and the étuis are ready."))
            return redirect("duplicate_setup", slug=tournament.slug)
    rounds = list(tournament.rounds.order_by("number")) if setup else []
    return render(request, "tournaments/duplicate_setup.html", {
        "tournament": tournament, "form": form, "setup": setup, "rounds": rounds, "kept": kept,
        "kept_deals": kept_deals, "all_played": bool(kept) and kept >= max(1, tournament.rounds_planned),
        "etuis": Etui.objects.filter(tournament=tournament).count(),
        "known": Etui.objects.filter(tournament=tournament).exclude(hands=[]).count()})


@guarded
def table_cards(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The movement of a round as one printable card per table."""
    tournament = _staff_tournament(request, slug)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    cards = []
    dups = list(DuplicateTable.objects.filter(table__round=rnd).select_related("table").order_by("table__number"))
    selectors.with_seats([dup.table for dup in dups])  # every table's players in one statement
    for dup in dups:
        seats = selectors.table_seats(dup.table)  # a one-round substitute by his name (table_players)
        cards.append({"table": dup.table, "boards": dup.boards, "copy": dup.copy, "pass_to": dup.pass_to,
                      "seats": [(ORIENTATIONS[s.position], name) for s, name in
                                zip(seats, selectors.table_players(dup.table), strict=True)]})
    if not cards:
        raise Http404("not a duplicate round")
    # the players at no table this round (« exempt »): no card, named under the cards
    byes = [e.player.name for e in sat_out(tournament, [rnd.number]).get(rnd.number, [])]
    return render(request, "tournaments/duplicate_cards.html", {"tournament": tournament, "round": rnd,
                                                                "cards": cards, "byes": byes})


def _hand_by_suit(codes: list[str], lang: str) -> list[tuple[str, str, str]]:
    """A hand as (suit, short French labels, spoken names) per suit, trumps first, highest first:
    « ♠ R V 10 », « Atouts 21 20 15 », the Excuse on its own line."""
    cards = sorted((parse_card(c) for c in codes), key=lambda c: (suit_of(c), -rank_of(c)))
    rows = []
    for suit in (TRUMPS, 0, 1, 2, 3):
        mine = [c for c in cards if suit_of(c) == suit]
        labels = [card_label(c) if suit == TRUMPS else card_label(c)[:-1] for c in mine]
        rows.append((_("Trumps") if suit == TRUMPS else SUIT_SYMBOLS[suit], " ".join(labels) or "—",
                     ", ".join(card_name(c, lang) for c in mine)))
    excuse = [c for c in cards if c == EXCUSE]
    if excuse:
        rows.append(("", card_name(EXCUSE, lang), card_name(EXCUSE, lang)))
    return rows


@guarded
def etui_records(request: HttpRequest, slug: str) -> HttpResponse:
    """The hand records (« fiches de donnes »): each étui's hands, chien and dealer, to make up the étuis."""
    tournament = _staff_tournament(request, slug)
    require(request, permissions.can_referee(request.user, tournament))
    lang = lang_of(request)
    sheets = []
    for etui in Etui.objects.filter(tournament=tournament).order_by("number"):
        names = ORIENTATIONS[:etui.players]
        sheets.append({"etui": etui, "dealer": names[etui.dealer] if etui.known else "",
                       "hands": [(names[i], _hand_by_suit(h, lang)) for i, h in enumerate(etui.hands)],
                       "dog": " ".join(card_label(parse_card(c)) for c in etui.dog)})
    return render(request, "tournaments/duplicate_records.html", {"tournament": tournament, "sheets": sheets})


class EtuiImportForm(forms.Form):
    records = forms.CharField(label=gettext_lazy("Deal records (levee.deal/1), as a JSON list"),
                              widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))
    first = forms.IntegerField(label=gettext_lazy("Number of the first étui"), min_value=1, initial=1)


@guarded
@require_http_methods(["GET", "POST"])
def etuis_import_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Give étuis their cards from deal records (``services.duplicate.etuis_import``)."""
    import json

    from tournaments.duplicate.service import etuis_import

    tournament = _staff_tournament(request, slug)
    require(request, permissions.can_referee(request.user, tournament))
    form = EtuiImportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            records = json.loads(form.cleaned_data["records"])
        except ValueError as exc:
            form.add_error("records", _("not JSON: %(detail)s") % {"detail": exc})
        else:
            records = records if isinstance(records, list) else [records]
            try:
                done = etuis_import(tournament=tournament, records=records, first=form.cleaned_data["first"])
            except ServiceError as exc:
                at = re.match(r"records\[(\d+)\]", exc.field or "")
                where = _("Deal %(n)s") % {"n": int(at.group(1)) + 1} if at else ""
                form.add_error(None, f"{where} : {exc.text(lang_of(request))}" if where else exc.text(lang_of(request)))
            else:
                messages.success(request, _("%(count)s étuis imported.") % {"count": len(done)})
                return redirect("duplicate_records", slug=tournament.slug)
    return render(request, "tournaments/duplicate_import.html", {"tournament": tournament, "form": form})
