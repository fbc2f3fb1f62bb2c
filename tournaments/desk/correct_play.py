"""The correction of a saved deal on the tap page (every game, reached from « Corriger »): the page a new deal is
entered on, started from the saved record, with the reason asked and the version it corrects sent along.

The saved record is turned back into what the page holds (:func:`correction_start`): each declaration of the
game module's description (``Game.entry_form``) read from the record by its name, the hands if any, and the
cards in the order played (or the summary). The draft is kept on the device under its own key, per deal and
version, so that a correction never overwrites a new deal being typed at the same table. Saving goes through
:func:`tournaments.services.deal_correct` with ``expected_version``: a stale version is a 409, a refusal the
problems in the visitor's language, as for an entry.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import InvalidInput, ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_correct
from tournaments.desk.play import MAX_BODY, entry_description, keep_per_user, page_config
from tournaments.desk.refusals import explain_rejection
from tournaments.desk.views import table_context
from tournaments.event import permissions
from tournaments.links import service as links_service

#: the correction's own sentences (the others are the entry's, play.STRINGS)
CORRECTION_STRINGS = {
    "save": gettext_lazy("Save the correction"),
    "reason": gettext_lazy("Reason for the correction"),
    "reasonHelp": gettext_lazy("Required: it is kept in the deal's history."),
    "reasonMissing": gettext_lazy("Give the reason for the correction before saving."),
    "restart": gettext_lazy("Back to the saved deal"),
    "restartConfirm": gettext_lazy("Erase the changes and start again from the saved deal?"),
    "kept": gettext_lazy("Correction in progress restored from this device."),
}

_ABSENT = object()


def _read(record: dict[str, Any], path: str) -> Any:
    """A record's value at a declaration's name (« summary.tricks » is ``record["summary"]["tricks"]``)."""
    node: Any = record
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return _ABSENT
        node = node[key]
    return node


def correction_start(form: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """What the tap page starts from for a saved record: the declarations by name, the cards in play order,
    the hands if the record has them."""
    fields = selectors.deal_fields(record)
    values = {}
    for phase in form["phases"]:
        for field in phase["fields"]:
            value = _read(fields, field["name"])
            if value is not _ABSENT:
                values[field["name"]] = value
    cards = [card for trick in fields.get("tricks") or [] for card in trick]
    hands = fields.get("hands") if isinstance(fields.get("hands"), list) else None
    return {"values": values, "cards": cards, "hands": hands}


def correction_tabs(deal: Deal, current: str, *, has_summary: bool) -> list[dict[str, Any]]:
    """The ways of correcting the deal, as tabs: the summary (when the game has one), card by card, expert."""
    play = reverse("deal_correct_play", args=[deal.pk])
    tabs = []
    if has_summary:
        tabs.append({"mode": "summary", "label": _("Summary"), "url": f"{play}?mode=summary"})
    tabs.append({"mode": "play", "label": _("Card by card"), "url": play})
    expert = reverse("deal_correct", args=[deal.pk])
    tabs.append({"mode": "record", "label": _("Expert"), "url": f"{expert}?mode=record"})
    for tab in tabs:
        tab["current"] = tab["mode"] == current
    return tabs


def _deal(pk: int) -> Deal:
    return get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)


@guarded
def deal_correct_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a saved deal by taps, started from its record (cards, or the summary for a deal saved as one)."""
    deal = _deal(pk)
    table = deal.table
    require(request, permissions.can_correct(request.user, table.round.tournament))
    record = deal.record or {}
    form = entry_description(table, lang_of(request))
    has_summary = any(p["kind"] == "summary" for p in form["phases"])
    default = "summary" if "summary" in record and not record.get("tricks") else "play"
    mode = request.GET.get("mode", default)
    if mode not in ("play", "summary") or (mode == "summary" and not has_summary):
        mode = "play"
    context = table_context(request, table)
    players = context["players"]
    config = page_config(table, mode, form, players, dealer=record.get("dealer", 0))
    config.update({
        "saveUrl": reverse("deal_correct_play_save", args=[deal.pk]),
        "storageKey": f"levee:correct:{deal.pk}:v{deal.version}:{mode}",
        "initial": correction_start(form, record),
        "correction": {"version": deal.version},
    })
    keep_per_user(request, config)
    config.pop("offlineUrl", None)  # a correction is saved online (the version it corrects is checked)
    config["engine"] = None  # ... and checked by the server (its score is the match's as corrected, not a new deal's)
    config["strings"].update({key: str(text) for key, text in CORRECTION_STRINGS.items()})
    context.update({"config": config, "mode": mode, "deal": deal,
                    "tabs": correction_tabs(deal, mode, has_summary=has_summary)})
    return render(request, "tournaments/deal_play.html", context)


@guarded
@require_POST
def deal_correct_play_save(request: HttpRequest, pk: int) -> JsonResponse:
    """Save the correction tapped (JSON): the deal's page, or the problems in words (409 for a stale version)."""

    deal = _deal(pk)
    table = deal.table
    require(request, permissions.can_correct(request.user, table.round.tournament))
    players = selectors.table_players(table)
    try:
        body = json.loads(request.body or b"null") if len(request.body) <= MAX_BODY else None
    except (ValueError, UnicodeDecodeError):
        body = None
    fields = body.get("fields") if isinstance(body, dict) else None
    if not isinstance(fields, dict):
        return JsonResponse({"problems": [{"message": _("The deal sent cannot be read; reload the page."),
                                           "where": ""}]}, status=400)
    version = body.get("version")
    try:
        if not isinstance(version, int) or isinstance(version, bool):
            raise InvalidInput(_("This page does not say which version it corrects: reload the deal and "
                                 "correct it again."))
        deal = deal_correct(deal=deal, record=fields, expected_version=version, reason=str(body.get("reason") or ""),
                            user=request.user)
    except ServiceError as exc:
        return JsonResponse({"problems": explain_rejection(exc, request, players)},
                            status=409 if exc.status == 409 else 422)
    message = _("Deal %(n)s corrected (version %(v)s).") % {"n": deal.number, "v": deal.version}
    messages.success(request, message)
    if links_service.calls_answered_by_correction(deal=deal, user=request.user, reason=str(body.get("reason") or "")):
        messages.info(request, _("L'appel de la table sur cette donne est répondu : donne corrigée."))
    return JsonResponse({"url": reverse("deal_detail", args=[deal.pk]), "message": message}, status=200)

