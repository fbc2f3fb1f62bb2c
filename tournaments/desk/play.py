"""The tap-to-play entry of a deal, for every game: declarations as controls, the pack as buttons.

The page is rendered from the game module's description of a deal (``Game.entry_form(options)``,
:mod:`rules.entry`): its phases, their declarations, the pack with French names. One template and one
script (``static/js/deal-entry.js``) serve every game; a new game needs neither.

The browser keeps the deal in progress (localStorage, keyed per table) until it is saved. After each card
it asks :func:`deal_play_state` (:func:`scoring.tap.play_state`) where the play stands (the seat to play, the
cards it may play, the forbidden ones with the reason, the winner of each trick, the deal's score at the end);
without network it asks the same module run on the device (Pyodide, :mod:`tournaments.desk.engine`), or, when that
engine is not there, still lets the arbiter tap. The
server stays the judge: :func:`deal_play_save` hands the record to the same service as every other entry
(``scoring.verdict.judge`` through :func:`tournaments.services.deal_record`), with an idempotency key so
that a double tap or a retry after a lost answer saves one deal.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from rules.errors import MalformedRecord
from rules.game import get_game
from scoring.tap import play_state
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import MalformedDeal, ServiceError, StateConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import DealNumberTaken, deal_record
from tournaments.desk.engine import engine_config
from tournaments.desk.link_session import offline_keeper
from tournaments.desk.refusals import explain_rejection, saved_message
from tournaments.desk.views import (
    deals_left,
    desk_service_worker,
    entry_after,
    next_dealer,
    number_taken_answer,
    table_context,
    table_full_message,
    unplayable,
)
from tournaments.event import permissions
from tournaments.event.models import Table
from tournaments.links.models import PrivateLink

#: the page's sentences, translated here so that the script needs no catalogue of its own
STRINGS = {
    "toPlay": gettext_lazy('To play:'),
    "trickOf": gettext_lazy('Trick %(n)s of %(total)s'),
    # who leads the next trick is the « To play » line above it: the winner's line keeps to two lines
    "wonBy": gettext_lazy('Trick %(n)s won by %(who)s.'),
    "over": gettext_lazy('Every trick is entered: check and save.'),
    "byServer": gettext_lazy('Checked by the server'),
    "byDevice": gettext_lazy('Offline · checked on this device'),
    "dealScore": gettext_lazy('Score of the deal'),
    "offline": gettext_lazy("Offline: any card not yet played can be tapped; the check will run when the network "
                            "is back."),
    "checking": gettext_lazy('Checking…'),
    "undo": gettext_lazy('Undo the last card'),
    "undone": gettext_lazy('Last card removed.'),
    "packKeys": gettext_lazy("Keyboard: type the card, its rank then its suit (« KH » king of hearts, « 0S » ten of "
                             "spades), or move with the arrow keys, then Enter."),
    "packKeysTarot": gettext_lazy("A trump by its number (« 21 »; « 7 » then Enter), the Excuse « E »."),
    "forbiddenTitle": gettext_lazy('%(card)s is not allowed here.'),
    "forbiddenNote": gettext_lazy('Cards marked ⚠ are forbidden: %(reason)s'),
    "enterAnyway": gettext_lazy('Enter it anyway (it will be reported)'),
    "cancel": gettext_lazy('Cancel'),
    "hands": gettext_lazy('Hands as dealt (optional: « donne reconstituée »)'),
    "handsHelp": gettext_lazy("Choose a player, then tap the cards of his hand. With every hand entered, the cards he "
                              "does not hold are hidden and the forbidden ones marked."),
    "handCount": gettext_lazy('%(n)s of %(total)s cards'),
    "clearHands": gettext_lazy('Clear the hands'),
    "pastTricks": gettext_lazy('Tricks played'),
    "trickN": gettext_lazy('Trick %(n)s'),
    "won": gettext_lazy('won by %(who)s'),
    "save": gettext_lazy('Check and save'),
    "saving": gettext_lazy('Saving…'),
    "notSaved": gettext_lazy('Not saved: the deal breaks a rule or cannot be read'),
    "fixAndSend": gettext_lazy('Everything you entered is kept on this device: fix it and send again.'),
    "notSavedNow": gettext_lazy("Non enregistrée"),
    "dealHeading": gettext_lazy("Deal %(n)s"),
    "keptOffline": gettext_lazy("Donne %(n)s gardée sur cet appareil, faute de réseau : elle partira dès que le "
                                "réseau reviendra. Vous saisissez maintenant la donne %(next)s."),
    "keptHere": gettext_lazy("Tout ce que vous avez saisi reste sur cet appareil."),
    "keptWaiting": gettext_lazy("Donne %(n)s gardée sur cet appareil, faute de réseau : elle partira dès que le "
                                "réseau reviendra."),
    "keptSent": gettext_lazy("Donne %(n)s envoyée."),
    # a refused deal this page kept a copy of: beside it, « Reprendre cette donne » opens it back here to be fixed
    "keptRefused": gettext_lazy("Donne %(n)s refusée à son arrivée : %(why)s Elle n'est pas perdue : elle reste sur "
                                "cet appareil. Reprenez-la pour la corriger, puis enregistrez-la de nouveau."),
    # one kept without a copy the page can open (by an earlier page): only listed, below
    # ... kept by the table's other entry page (the expert form), which opens it back: a link to it beside
    "keptRefusedListed": gettext_lazy("Donne %(n)s refusée à son arrivée : %(why)s Elle n'est pas perdue : elle "
                                      "reste sur cet appareil, dans la page où elle a été saisie ; reprenez-la là "
                                      "pour la corriger, puis enregistrez-la de nouveau."),
    "openWhereKept": gettext_lazy("Ouvrir la page où elle a été saisie"),
    "keptNoReason": gettext_lazy("le serveur n'a pas dit pourquoi."),
    "reopen": gettext_lazy("Reprendre cette donne"),
    "noNetwork": gettext_lazy('No network: the deal is kept on this device; try again when the network is back.'),
    "kept": gettext_lazy('Deal in progress restored from this device.'),
    "restart": gettext_lazy('Start the deal again'),
    "restartConfirm": gettext_lazy('Erase everything entered for this deal?'),
    "declare": gettext_lazy("Declare: %(what)s"),
    "add": gettext_lazy('Add: %(what)s'),
    "remove": gettext_lazy('Remove'),
    "none": gettext_lazy("no card yet"),
    "picked": gettext_lazy('%(n)s chosen'),
    "notReady": gettext_lazy('Before the first card: %(what)s'),
    "playProblems": gettext_lazy('Found in the deal as entered'),
    "choose": gettext_lazy('Choose the cards'),
    "countsTotal": gettext_lazy("%(n)s of %(total)s in all"),
    "remindTitle": gettext_lazy('Before saving'),
    "remindNote": gettext_lazy('Tap « Check and save » again to save the deal as it is.'),
}

#: the most a posted deal may weigh (a 78-card Tarot deal with hands is about 3 kB)
MAX_BODY = 64 * 1024


def entry_tabs(table: Table, current: str, *, has_summary: bool, link: PrivateLink | None = None
               ) -> list[dict[str, Any]]:
    """The ways of entering a deal at this table, as tabs: the quick summary, card by card, the expert record
    (through the table's ``link``: its own pages)."""
    if link is not None:
        enter = play = reverse("link_enter", args=[link.token])
    else:
        enter = reverse("deal_enter", args=[table.pk])
        play = reverse("deal_play", args=[table.pk])
    tabs = []
    if has_summary:
        tabs.append({"mode": "quick", "label": _("Summary"), "url": f"{play}?mode=summary"})
    tabs.append({"mode": "play", "label": _("Card by card"), "url": f"{play}?mode=play"})
    tabs.append({"mode": "record", "label": _("Expert"), "url": f"{enter}?mode=record"})
    for tab in tabs:
        tab["current"] = tab["mode"] == current
    return tabs


def entry_description(table: Table, lang: str = "fr") -> dict[str, Any]:
    """The game module's description of a deal at this table (phases, declarations, pack) as JSON, in ``lang``."""
    head = selectors.record_head(table)
    game = get_game(head["game"])
    return game.entry_form(head["options"]).to_json(lang)


def page_config(table: Table, mode: str, form: dict[str, Any], players: list[str], *, dealer: int,
                link: PrivateLink | None = None) -> dict[str, Any]:
    """What the tap page's script is given: the deal's description, the table's players, where to ask and save,
    where a deal waits without network (``offlineUrl``, sent again with its key by offline-entry.js) and where the
    draft is kept on the device (per table and mode; a correction keys its own, see correct_play)."""
    return {
        "table": table.pk,
        "mode": mode,
        "players": players,
        "dealer": dealer,
        "form": form,
        "stateUrl": reverse("deal_play_state", args=[table.pk]),
        "saveUrl": reverse("deal_play_save", args=[table.pk]),
        "offlineUrl": reverse("deal_offline", args=[table.pk]),
        "storageKey": f"levee:deal:{table.pk}:{mode}",
        "engine": _engine(table, link),
        "strings": {key: str(text) for key, text in STRINGS.items()},
    }


def keep_per_user(request: HttpRequest, config: dict[str, Any]) -> None:
    """The draft of a desk's page is kept on the device for the arbiter who typed it (a tablet shared at the venue:
    the next one to sign in never sees it; it comes back to him), a draft kept before under the table's key alone
    being taken over once (``legacyStorageKey``)."""
    config["legacyStorageKey"] = config["storageKey"]
    config["storageKey"] = f"{config['storageKey']}:{offline_keeper(request)}"


def _engine(table: Table, link: PrivateLink | None = None) -> dict[str, Any] | None:
    """The rules engine on the device (:func:`engine.engine_config`; through a table's ``link``, its worker under
    the link's path) with the table's record head and, for a game played in matches, the match so far: what the
    page needs to answer as :func:`state_answer` does."""
    config = engine_config(reverse("link_engine_worker", args=[link.token]) if link is not None else None)
    if config is None:
        return None
    return {**config, "head": selectors.record_head(table), "match": selectors.match_so_far(table)}


@guarded
def deal_play(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a new deal by taps: the declarations, then each card as played (or the quick summary)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_enter_deal(request.user, table))
    return play_page(request, table)


def entry_way(request: HttpRequest, table: Table) -> str | None:
    """The way of entering asked for (``?mode=summary`` or ``play``), remembered for the tournament on this device's
    session: the next deal (« Donne suivante », « Saisir une donne ») opens the way the last one was entered."""
    key = f"levee:entry-way:{table.round.tournament_id}"
    asked = request.GET.get("mode")
    if asked in ("summary", "play"):
        if request.session.get(key) != asked:
            request.session[key] = asked
        return asked
    remembered = request.session.get(key)
    return remembered if isinstance(remembered, str) else None


def play_page(request: HttpRequest, table: Table, link: PrivateLink | None = None) -> HttpResponse:
    """The tap page of a new deal at ``table``, for the staff or through the table's ``link`` (its own URLs to ask,
    save and keep a deal without network: ``link_deal_offline`` keeps the key with the link)."""

    why = unplayable(table) or (table_full_message(table) if deals_left(table) == 0 else None)
    if why is not None:  # (a save, unlike this page, goes on at a full table: a double tap gets its deal back)
        messages.error(request, why)
        return redirect("link_home", token=link.token) if link is not None else redirect("table_detail", pk=table.pk)
    form = entry_description(table, lang_of(request))
    has_summary = any(p["kind"] == "summary" for p in form["phases"])
    mode = "summary" if entry_way(request, table) == "summary" and has_summary else "play"
    context = table_context(request, table)
    players = context["players"]
    config = page_config(table, mode, form, players, dealer=next_dealer(table, len(players)), link=link)
    config["after"] = context["last_number"]  # « Donne N »: a deal another device saves meanwhile is not saved twice
    config["dealerAdvances"] = not table.round.tournament.is_match_game  # offline, the next seat deals the next
    if link is not None:
        # the link's own URLs, and no database id on its page: the draft is keyed by the link's round and table
        config.update({"stateUrl": reverse("link_deal_state", args=[link.token]),
                       "saveUrl": reverse("link_deal_offline", args=[link.token]), "saveAsForm": True,
                       "offlineUrl": reverse("link_deal_offline", args=[link.token]), "table": table.number,
                       "storageKey": f"levee:link:{link.token[:8]}:{table.number}:{mode}"})
    if link is None:  # the desk's entry pages of this table reload without network (its service worker)
        context["desk_sw"] = desk_service_worker(table)
        keep_per_user(request, config)
    context.update({"config": config, "mode": mode, "offline": True,
                    "tabs": entry_tabs(table, "quick" if mode == "summary" else "play", has_summary=has_summary,
                                       link=link)})
    response = render(request, "tournaments/deal_play.html", context)
    # never kept by the browser: « Back » after a save asks for the page again (the next deal's number, the deal
    # just saved on the sheet), rather than showing the saved deal's page as if it were still to enter
    add_never_cache_headers(response)
    return response


def _posted_fields(request: HttpRequest) -> dict[str, Any] | None:
    """The deal's fields posted as a JSON object, or None when the body is not one."""
    fields = _posted(request).get("fields")
    return fields if isinstance(fields, dict) else None


def _posted(request: HttpRequest) -> dict[str, Any]:
    """The JSON object posted (empty when the body is not one)."""
    if len(request.body) > MAX_BODY:
        return {}
    try:
        value = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def _posted_irregular(request: HttpRequest) -> bool:
    """Whether the deal is sent as irregular (« La saisir quand même » was tapped): ``"irregular": true``."""
    return _posted(request).get("irregular") is True


def _bad_body() -> JsonResponse:
    return JsonResponse({"problems": [{"message": _("The deal sent cannot be read; reload the page."),
                                       "where": ""}]}, status=400)


@guarded
@require_POST
def deal_play_state(request: HttpRequest, pk: int) -> JsonResponse:
    """Where the play of the deal being tapped stands (JSON): who plays, what is legal, who won each trick."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_enter_deal(request.user, table))
    return state_answer(request, table)


def state_answer(request: HttpRequest, table: Table) -> JsonResponse:
    """The play state of the deal posted (for the staff's page and the table link's)."""
    why = unplayable(table)
    if why is not None:
        return JsonResponse({"problems": [{"message": why, "where": ""}]}, status=409)
    fields = _posted_fields(request)
    cards = fields.pop("cards", None) if fields is not None else None
    if fields is None or not isinstance(cards, list):
        return _bad_body()
    head = selectors.record_head(table)
    answer = play_state({**head, **fields}, cards, lang_of(request), lambda: selectors.match_so_far(table))
    return JsonResponse({**answer, "engine": "server"})


@guarded
@require_POST
def deal_play_save(request: HttpRequest, pk: int) -> JsonResponse:
    """Check and save the deal tapped (JSON): the deal's page to go to, or what is wrong, in words."""

    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    require(request, permissions.can_enter_deal(request.user, table))
    why = unplayable(table)
    if why is not None:
        return JsonResponse({"problems": [{"message": why, "where": ""}]}, status=409)
    fields = _posted_fields(request)
    if fields is None:
        return _bad_body()
    players = selectors.table_players(table)
    key = request.headers.get("Idempotency-Key") or None
    try:
        deal = deal_record(table=table, record=fields, user=request.user, idempotency_key=key,
                           irregular=_posted_irregular(request), after=entry_after(_posted(request).get("after")))
    except ServiceError as exc:
        answer: dict[str, Any] = {"problems": explain_rejection(exc, request, players)}
        if isinstance(exc, DealNumberTaken):  # the page's next sending is the next deal, dealt by its dealer
            number_taken_answer(answer, table, players, exc.last_number)
        return JsonResponse(answer, status=409 if isinstance(exc, StateConflict) else 422)
    except MalformedRecord as exc:  # pragma: no cover - the service wraps these; kept as a guard
        problems = explain_rejection(MalformedDeal.wrap(exc), request, players)
        return JsonResponse({"problems": problems}, status=422)
    message = saved_message(deal)
    if not getattr(deal, "idempotent_replay", False):
        (messages.success if deal.status == Deal.Status.VALID else messages.warning)(request, message)
    return JsonResponse({"url": reverse("deal_detail", args=[deal.pk]), "message": message}, status=201)

