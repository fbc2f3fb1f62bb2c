"""The expert entry and correction of a deal (its JSON record), rulings, restores and the chief arbiter's visa.

Every game is entered and corrected on the tap pages (:mod:`tournaments.desk.play`,
:mod:`tournaments.desk.correct_play`): its summary, or card by card. Here is the expert way: the deal's
record as JSON (:class:`~tournaments.desk.forms.RecordForm`), handed to the service
(:func:`tournaments.deals.record.deal_record` / ``deal_correct``), which builds the record from the table,
judges it with ``scoring.verdict.judge`` and saves it only when it is legal. On a rejection the page shows
what the service found — trick, seat, card, rule, in the visitor's language — with the record as typed.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules.errors import MalformedRecord
from scoring import penalties
from tournaments.common import games
from tournaments.common.access import guarded, lang_of, require, sent
from tournaments.common.errors import DealRejected, IdempotencyMismatch, InvalidInput, MalformedDeal, ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.record import DealNumberTaken, deal_approve, deal_correct, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.desk import link_session as links
from tournaments.desk import skeletons
from tournaments.desk.correct_play import correction_tabs
from tournaments.desk.forms import DealRestoreForm, ReasonForm, RecordForm, RulingForm, RulingWithdrawForm
from tournaments.desk.play import entry_description, entry_tabs
from tournaments.desk.refusals import explain_rejection
from tournaments.desk.views import (
    deal_summary,
    desk_service_worker,
    entry_after,
    next_dealer,
    ruling_points,
    table_context,
    unplayable,
)
from tournaments.duplicate.service import duplicate_table
from tournaments.event import permissions
from tournaments.event.models import Table
from tournaments.links import service as link_service
from tournaments.links import service as links_service
from tournaments.links.models import ArbiterCall

MODES = ("record",)


def modes_for(game: str) -> tuple[str, ...]:
    """The ways of entering a deal on this page: the JSON record (the others are the tap pages')."""
    return MODES


def build_form(mode: str, table: Table, *, data: Any = None, initial: dict[str, Any] | None = None,
               record: dict[str, Any] | None = None) -> forms.Form:
    """The expert entry's form for the table (the JSON record, pre-filled), bound to ``data`` when posted."""
    head = selectors.record_head(table)
    start = record if record is not None else skeletons.skeleton(head, dealer=next_dealer(table, len(head["players"])))
    if record is not None:
        start = {**head, **selectors.deal_fields(record)}
    form = RecordForm(data, initial={"record": skeletons.dumps(start)})
    lang = "en" if (get_language() or "fr").startswith("en") else "fr"
    form.game_help = skeletons.game_help(head["game"], head["options"], lang)
    form.card_help = games.card_help(head["game"], head["options"], lang)
    return form


def outbox_words(table: Table, players: list[str], lang: str) -> dict[str, Any]:
    """What the outbox needs to name a deal kept on this device, as the tap page's lines do (« Donne 3 · Chloé
    (preneur) · petite »): the heading, the table's players, the declarations of the deal's first phase but the
    dealer (the game's entry form, in ``lang``) and the cards' names; offline-entry.js reads the record typed."""
    description = entry_description(table, lang)
    first = next((p for p in description["phases"] if p["kind"] not in ("play", "summary")), None)
    return {"heading": _("Deal %(n)s"), "players": players,
            "fields": [f for f in (first["fields"] if first else []) if f["name"] != "dealer"],
            "cards": {c["code"]: c["name"] for c in description["pack"]}}


def entry_tabs_for(request: HttpRequest, table: Table, mode: str) -> list[dict[str, Any]]:
    """The tabs of the entry page (summary, card by card, expert), the current one marked."""
    has_summary = any(p["kind"] == "summary" for p in entry_description(table)["phases"])
    return entry_tabs(table, mode, has_summary=has_summary, link=links.held(request))


# -- pages -----------------------------------------------------------------------------------------------

_ENTRY_KEY = re.compile(r"[A-Za-z0-9-]{8,64}")


def entry_key(request: HttpRequest) -> str:
    """The entry's key, sent with the form: the same for every submission of one deal (a double tap on
    « Enregistrer », a reload that posts again, a retry after a rejection), so that the service saves the
    deal once (its Idempotency-Key); a new one for a new deal."""
    key = request.POST.get("entry_key", "")
    return key if _ENTRY_KEY.fullmatch(key) else str(uuid.uuid4())


def entry_mode(request: HttpRequest, game: str, default: str | None = None) -> str:
    allowed = modes_for(game)
    mode = request.POST.get("mode") or request.GET.get("mode") or default or allowed[0]
    return mode if mode in allowed else allowed[0]


@guarded
def deal_enter(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a new deal at a table as its JSON record (the expert way); the tap page otherwise."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_enter_deal(request.user, table) or links.may_enter(request, table))
    why = unplayable(table)
    if why is not None:
        messages.error(request, why)
        return redirect("table_detail", pk=table.pk)
    tournament = table.round.tournament
    if request.method == "GET" and request.GET.get("mode") != "record":
        mode = f"?mode={request.GET['mode']}" if request.GET.get("mode") in ("summary", "play") else ""
        return redirect(reverse("deal_play", args=[table.pk]) + mode)  # every game is entered by taps (play.py)
    mode = entry_mode(request, tournament.game)
    players = selectors.table_players(table)
    problems: list[dict[str, Any]] = []
    irregular_offered = False
    key = entry_key(request)
    after = entry_after(request.POST.get("after")) if request.method == "POST" else None
    if request.method == "POST":
        form = build_form(mode, table, data=request.POST)
        if form.is_valid():
            try:
                # « La saisir quand même »: a deal whose play breaks a rule (a renonce…) is saved as played,
                # irregular, and the arbiter is called — as from the tap page, the table's link and the API
                deal = deal_record(table=table, record=form.deal_fields(), user=request.user,
                                   idempotency_key=f"desk:{key}", link=links.held(request),
                                   irregular=request.POST.get("irregular") == "1", after=after)
            except IdempotencyMismatch:
                # this form already saved a deal, then was changed and sent again (the browser's back button)
                key = str(uuid.uuid4())
                problems = [{"message": _("This form already saved a deal. Check the table's deals: if this one "
                                          "is a new deal, save it again now."), "where": "", "rule": ""}]
            except DealRejected as exc:  # the play breaks a rule: said, and it may still be saved as irregular
                problems = explain_rejection(exc, request, players)
                irregular_offered = request.POST.get("irregular") != "1"  # not offered again if refused as such
            except ServiceError as exc:
                problems = explain_rejection(exc, request, players)
                if isinstance(exc, DealNumberTaken):  # sent again as it is, it is the next deal
                    after = exc.last_number
            else:
                if getattr(deal, "idempotent_replay", False):
                    messages.info(request, _("Deal %(n)s was already saved (the form was sent twice).")
                                  % {"n": deal.number})
                elif deal.status == Deal.Status.PENDING:
                    messages.warning(request, _("Deal %(n)s saved; it counts once the chief arbiter approves it.")
                                     % {"n": deal.number})
                else:
                    messages.success(request, _("Deal %(n)s saved.") % {"n": deal.number})
                if links.held(request) is not None:  # a table's own link: back to its score sheet
                    return redirect("link_deal", token=links.held(request).token, number=deal.number)
                return redirect("deal_detail", pk=deal.pk)
    else:
        initial = {"dealer": next_dealer(table, len(players))}
        form = build_form(mode, table, initial=initial)
    context = table_context(request, table)
    context.update({"form": form, "mode": mode, "modes": modes_for(tournament.game), "problems": problems,
                    "action": "enter", "entry_key": key,
                    "after": context["last_number"] if after is None else after,
                    "tabs": entry_tabs_for(request, table, mode), "irregular_offered": irregular_offered,
                    "outbox_words": outbox_words(table, players, lang_of(request)),
                    # the desk's own pages reload without network (a table's link has its own worker)
                    "desk_sw": None if links.held(request) is not None else desk_service_worker(table)})
    status = 422 if problems else 200
    return render(request, "tournaments/deal_form.html", context, status=status)


@guarded
def deal_correct_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a saved deal as its JSON record (the expert way; the tap page otherwise), with a reason: a new
    version."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    table = deal.table
    tournament = table.round.tournament
    require(request, permissions.can_correct(request.user, tournament))
    if request.method == "GET" and request.GET.get("mode") != "record":
        return redirect("deal_correct_play", pk=deal.pk)  # every game is corrected by taps (correct_play.py)
    players = selectors.table_players(table)
    record = deal.record or {}
    mode = entry_mode(request, tournament.game)
    problems: list[dict[str, Any]] = []
    if request.method == "POST":
        form = build_form(mode, table, data=request.POST)
        reason_form = ReasonForm(request.POST)
        if form.is_valid() and reason_form.is_valid():
            try:
                expected = int(request.POST.get("version", ""))
            except ValueError:  # never skip the check: a form without the version it corrects is refused
                expected = None
            try:
                if expected is None:
                    raise InvalidInput(_("This page does not say which version it corrects: reload the deal and "
                                         "correct it again."))
                deal = deal_correct(deal=deal, record=form.deal_fields(), expected_version=expected,
                                    reason=reason_form.cleaned_data["reason"], user=request.user)
            except ServiceError as exc:
                problems = explain_rejection(exc, request, players)
            else:
                messages.success(request, _("Deal %(n)s corrected (version %(v)s).")
                                 % {"n": deal.number, "v": deal.version})
                if links_service.calls_answered_by_correction(deal=deal, user=request.user,
                                                              reason=reason_form.cleaned_data["reason"]):
                    messages.info(request, _("L'appel de la table sur cette donne est répondu : donne corrigée."))
                return redirect("deal_detail", pk=deal.pk)
    else:
        form = build_form(mode, table, record=record)
        reason_form = ReasonForm()

    has_summary = any(p["kind"] == "summary" for p in entry_description(table)["phases"])
    context = table_context(request, table)
    context.update({"form": form, "mode": mode, "modes": modes_for(tournament.game), "problems": problems,
                    "action": "correct", "deal": deal, "reason_form": reason_form,
                    "tabs": correction_tabs(deal, "record", has_summary=has_summary)})
    return render(request, "tournaments/deal_form.html", context, status=422 if problems else 200)


@guarded
@require_POST
def deal_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The chief arbiter's visa on a pending garde sans / garde contre (from the deal's page, or his queue's
    « Viser »: ``back=chief``)."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    require(request, permissions.can_approve(request.user, deal.table.round.tournament))
    try:
        deal_approve(deal=deal, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        messages.success(request, _("Deal %(n)s approved: it now counts.") % {"n": deal.number})
    if request.POST.get("back") == "chief":  # given from the chief's queue: back to the queue, not the deal
        return redirect("chief_page", slug=deal.table.round.tournament.slug)
    return redirect("deal_detail", pk=deal.pk)


@guarded
def deal_restore_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Restore an annulled deal (chief arbiter or organizer): the reason is asked; the deal comes back with a new
    version, its status before the annulment, its marks counting again (a match is judged again with it)."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    table = deal.table
    tournament = table.round.tournament
    require(request, permissions.can_restore(request.user, tournament))
    form = DealRestoreForm(request.POST or None, initial={"version": deal.version})
    problems: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        try:
            deal_restore(deal=deal, reason=form.cleaned_data["reason"], user=request.user,
                         expected_version=form.cleaned_data.get("version"))
        except ServiceError as exc:
            problems = [{"message": exc.text(lang_of(request)), "where": "", "rule": exc.code}]
        else:
            messages.success(request, _("Deal %(n)s restored: it counts again.") % {"n": deal.number})
            return redirect("deal_detail", pk=deal.pk)
    players = selectors.table_players(table)
    return render(request, "tournaments/deal_restore.html", {
        "tournament": tournament, "round": table.round, "table": table, "deal": deal, "form": form,
        "problems": problems, "summary": deal_summary(deal, players), "match_game": tournament.is_match_game,
    }, status=422 if problems else 200)


@guarded
def ruling_create(request: HttpRequest, pk: int) -> HttpResponse:
    """The chief arbiter's ruling at a table (optionally on one deal): kind, adjustments per player, reason,
    or the deal annulled."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    tournament = table.round.tournament
    require(request, permissions.can_rule(request.user, tournament))
    deal = None
    deal_id = request.POST.get("deal") or request.GET.get("deal")
    if deal_id:
        deal = get_object_or_404(Deal, pk=deal_id, table=table)
    # the call the ruling answers (from the chief's page): its reason is the ruling's kind to start with
    call_id = entry_after(request.POST.get("call") or request.GET.get("call"))
    call = ArbiterCall.objects.filter(pk=call_id, table=table).first() if call_id is not None else None
    seats = selectors.table_seats(table)
    players = selectors.table_players(table)
    lang = lang_of(request)
    presets = penalties.presets_for(tournament.game, tournament.record_options())
    kinds = dict(Ruling.Kind.choices)
    form = RulingForm(request.POST or None, seats=[(s.entry_id, n) for s, n in zip(seats, players, strict=True)],
                      kinds=Ruling.Kind.choices, with_deal=deal is not None,
                      presets=[(p.code, preset_label(p, lang)) for p in presets],
                      initial={"kind": call.reason if call is not None and call.reason in kinds else None})
    problems: list[dict[str, Any]] = []
    # a fault in the deal that ended the match counts before that deal's marks (docs/deal-record.md)
    fault_in_ending_deal = tournament.is_match_game and games.fault_before_ending_deal(tournament.game)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            ruling = ruling_record(table=table, kind=data.get("kind") or None, reason=data.get("reason"),
                                   user=request.user, deal=deal, adjustments=form.adjustments(),
                                   is_penalty=bool(data.get("is_penalty")), annuls_deal=bool(data.get("annuls_deal")),
                                   penalty=data.get("penalty") or None, offender=data.get("offender"))
        except ServiceError as exc:
            problems = explain_rejection(exc, request, players)
            if any(p.get("rule") == "adjustment_after_end" for p in problems):
                problems.append({"message": _("Une faute commise dans la donne qui a fini la partie se juge sur "
                                              "cette donne : rendez la décision sur cette donne, depuis sa page ou "
                                              "l'appel de la table.") if fault_in_ending_deal else
                                 # L'Écarté, Le Vingt-quatre: no amount in the texts; the deal itself is the remedy
                                 _("Pour une faute commise dans la donne qui a fini la partie, annulez cette donne "
                                   "(elle est rejouée) ou corrigez-la : la partie est jugée de nouveau."),
                                 "where": "", "rule": "ending_deal"})
        else:
            link_service.calls_answered_by_ruling(ruling=ruling, user=request.user,
                                                  call_id=call.pk if call is not None else None)
            if ruling.penalty:
                names = {s.entry_id: n for s, n in zip(seats, players, strict=True)}
                applied = ", ".join(f"{names.get(int(e), e)} {v:+d}" for e, v in ruling.adjustments.items())
                messages.success(request, _("Ruling recorded: %(points)s.") % {"points": applied})
            else:
                messages.success(request, _("Ruling recorded."))
            to = reverse("deal_detail", args=[deal.pk]) if deal else reverse("table_detail", args=[table.pk])
            return sent(request, to)
    without = penalties.GAMES_WITHOUT_PRESETS.get(tournament.game)
    return render(request, "tournaments/ruling_form.html", {
        "tournament": tournament, "round": table.round, "table": table, "deal": deal, "form": form,
        "problems": problems, "presets": presets, "call": call,
        # a preset's own kind, checked in the page when the kind is left at « autre » (static/js/ruling-kind.js)
        "preset_kinds": {p.code: p.kind for p in presets},
        "no_presets_note": (without[1] if lang.startswith("en") else without[0]) if without else "",
        "not_presets": [en if lang.startswith("en") else fr
                        for _rule, fr, en in penalties.NOT_PRESETS.get(tournament.game, ())],
        "match_game": tournament.is_match_game, "fault_in_ending_deal": fault_in_ending_deal,
        # a duplicate table: the ruling's points stay out of the étuis' comparison; artificial results go there
        "etuis_url": reverse("table_etuis", args=[table.pk]) if duplicate_table(table) is not None else "",
    }, status=422 if problems else 200)


@guarded
def ruling_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a ruling recorded by mistake (chief arbiter or organizer): the reason is asked; the ruling stays
    listed as withdrawn, its points stop counting, a match is judged again without it."""
    ruling = get_object_or_404(Ruling.objects.select_related("table__round__tournament", "created_by",
                                                             "withdrawn_by", "deal"), pk=pk)
    table = ruling.table
    tournament = table.round.tournament
    require(request, permissions.can_rule(request.user, tournament))
    form = RulingWithdrawForm(request.POST or None)
    problems: list[dict[str, Any]] = []
    players = selectors.table_players(table)
    if request.method == "POST" and form.is_valid():
        try:
            ruling_withdraw(ruling=ruling, reason=form.cleaned_data["reason"], user=request.user)
        except ServiceError as exc:
            problems = [{"message": exc.text(lang_of(request)), "where": "", "rule": exc.code}]
        else:
            messages.success(request, _("Ruling withdrawn: its points no longer count."))
            return redirect("table_detail", pk=table.pk)
    return render(request, "tournaments/ruling_withdraw.html", {
        "tournament": tournament, "round": table.round, "table": table, "ruling": ruling, "form": form,
        "problems": problems, "points": ruling_points(ruling, selectors.table_seats(table), players),
        "match_game": tournament.is_match_game,
        # a duplicate table: the ruling's points stay out of the étuis' comparison; artificial results go there
        "etuis_url": reverse("table_etuis", args=[table.pk]) if duplicate_table(table) is not None else "",
    }, status=422 if problems else 200)


def preset_label(preset: penalties.Preset, lang: str) -> str:
    """A preset as the arbiter chooses it: its name and who pays what, in words (the rule reference stays in the
    ruling's ``penalty_rule`` and the API)."""
    n = preset.amount
    if preset.in_imperiales:
        unit = ngettext("%(n)s impériale", "%(n)s impériales", n) % {"n": n}
    else:
        unit = ngettext("%(n)s point", "%(n)s points", n) % {"n": n}
    if preset.effect == penalties.LOSE_OR_OPPONENTS_SCORE:
        what = _("%(who)s loses %(unit)s if he has one, otherwise each opponent scores it") % {
            "who": preset.who(lang), "unit": unit}
    else:
        what = _("%(who)s loses %(unit)s") % {"who": preset.who(lang), "unit": unit}
    return f"{preset.label(lang)} — {what}"


@guarded
@require_POST
def deal_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Check the deal being typed without saving it (htmx): the marks it would score, or what is wrong."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_enter_deal(request.user, table) or links.may_enter(request, table))
    mode = entry_mode(request, table.round.tournament.game)
    players = selectors.table_players(table)
    form = build_form(mode, table, data=request.POST)
    problems: list[dict[str, Any]] = []
    scores = None
    if not form.is_valid():
        problems = [{"message": f"{form.fields[name].label if name in form.fields else ''} {' '.join(errors)}".strip(),
                     "where": "", "rule": ""} for name, errors in form.errors.items()]
    else:
        try:
            verdict = selectors.deal_check(table=table, fields=form.deal_fields())
        except MalformedRecord as exc:
            problems = explain_rejection(MalformedDeal.wrap(exc), request, players)
        else:
            if verdict.violations:
                problems = explain_rejection(DealRejected(verdict.violations, players), request, players)
            else:
                last = verdict.deals[-1] if verdict.deals else None
                if last is None or last.scores is None:
                    problems = [{"message": _("The deal is legal so far but cannot be scored yet (unfinished)."),
                                 "where": "", "rule": "deal_unscored"}]
                else:
                    scores = list(zip(players, last.scores, strict=True))
    return render(request, "tournaments/_check.html", {"problems": problems, "scores": scores, "checked": True})
