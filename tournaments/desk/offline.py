"""Offline-first entry, the server's side: the entry form's fields sent again by static/js/offline-entry.js with
their ``Idempotency-Key`` when the network returns, answered in JSON (saved, or refused with the reason).

The key goes to the deals service (``deal_record``), kept with the table's link the deal came through or with the
arbiter's account (:class:`~tournaments.deals.models.IdempotencyKey`), in the deal's own transaction: a deal sent
twice — the answer lost on a dying network, the tab reopened — is saved once, and the second sending gets the
first deal back; the same key with another deal is refused (409). The web app manifest and the service worker of a
table's page are here too.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.common.access import lang_of
from tournaments.common.errors import IdempotencyMismatch, ServiceError, StateConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import DEAL_GONE, DealNumberTaken, deal_record
from tournaments.desk import entry
from tournaments.desk import link_session as links
from tournaments.desk.engine import engine_config, worker_script
from tournaments.desk.refusals import explain_rejection, saved_message
from tournaments.desk.table_links import table_link_or_refusal
from tournaments.desk.views import entry_after, number_taken_answer
from tournaments.event import permissions
from tournaments.event.models import Table
from tournaments.links.models import PrivateLink

KEY = "Idempotency-Key"


def _refusal(message: str, status: int, problems: list[dict[str, Any]] | None = None, **extra: Any) -> JsonResponse:
    return JsonResponse({"saved": False, "message": message,
                         "problems": problems or [{"message": message, "where": ""}], **extra}, status=status)


def _fields(request: HttpRequest, table: Table) -> dict[str, Any] | JsonResponse:
    """The deal's own fields from the posted form, or a 422 naming each field that is wrong."""
    mode = entry.entry_mode(request, table.round.tournament.game)
    form = entry.build_form(mode, table, data=request.POST)
    if form.is_valid():
        return form.deal_fields()
    problems = [{"message": f"{form.fields[name].label if name in form.fields else ''} {' '.join(errors)}".strip(),
                 "where": ""} for name, errors in form.errors.items()]
    return _refusal(problems[0]["message"], 422, problems)


def _saved(request: HttpRequest, deal: Deal, url: str, *, replay: bool) -> JsonResponse:
    message = saved_message(deal)
    messages.success(request, message)  # shown on the deal's page, where the browser goes next when online
    return JsonResponse({"saved": True, "number": deal.number, "status": deal.status, "url": url,
                         "message": message, "replay": replay}, status=200 if replay else 201)


def _key(request: HttpRequest) -> str | JsonResponse:
    key = (request.headers.get(KEY) or "").strip()
    if not key or len(key) > 200:
        return _refusal(_("The deal came without its key: enter it again."), 400)
    return key


def _record(request: HttpRequest, table: Table, key: str, *, link: PrivateLink | None = None) -> HttpResponse:
    """The posted deal saved once per key by the deals service, answered in JSON."""
    why = selectors.unplayable(table)
    if why is not None:
        return _refusal(why, 409)
    fields = _fields(request, table)
    if isinstance(fields, JsonResponse):
        return fields
    try:
        deal = deal_record(table=table, record=fields, user=request.user, idempotency_key=key, link=link,
                           irregular=request.POST.get("irregular") == "1", after=entry_after(request.POST.get("after")))
    except IdempotencyMismatch:
        return _refusal(_("This key was already used for another deal."), 409)
    except ServiceError as exc:
        if exc.code == DEAL_GONE:
            return _refusal(_("The deal first saved with this key no longer exists."), 409)
        problems = explain_rejection(exc, request, selectors.table_players(table))
        # a deal another device saved since: « after » says the table's last deal, the next sending's
        extra: dict[str, Any] = {}
        if isinstance(exc, DealNumberTaken):
            number_taken_answer(extra, table, selectors.table_players(table), exc.last_number)
        message = problems[0]["message"] if problems else exc.text(lang_of(request))
        return _refusal(message, 409 if isinstance(exc, StateConflict) else 422,
                        problems + extra.pop("problems", []), **extra)
    url = reverse("link_deal", args=[link.token, deal.number]) if link is not None else reverse("deal_detail",
                                                                                          args=[deal.pk])
    return _saved(request, deal, url, replay=bool(getattr(deal, "idempotent_replay", False)))


@require_POST
def link_deal_offline(request: HttpRequest, token: str) -> HttpResponse:
    """A deal sent through a table's link with its key (kept with the link): saved once, however many times it is
    sent."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return _refusal(_("This table's link is no longer valid: ask the arbiter for the new card."),
                        link.status_code)
    table = link.table
    if not links.may_enter(request, table):
        return _refusal(_("Deals are no longer entered through this table's link."), 403)
    key = _key(request)
    if isinstance(key, JsonResponse):
        return key
    return _record(request, table, key, link=link)


@require_POST
def desk_deal_offline(request: HttpRequest, pk: int) -> HttpResponse:
    """The same for an arbiter's account (the key kept with the account)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    if not request.user.is_authenticated:
        return _refusal(_("Your session has ended: log in again, the deal stays on this device."), 401)
    if permissions.round_closed_to(request.user, table):
        return _refusal(_("This round is finished: no more deals are entered at this table. Call the chief "
                          "arbiter; the deal stays on this device."), 409)
    if not permissions.can_enter_deal(request.user, table):
        return _refusal(_("You do not enter the deals of this table."), 403)
    key = _key(request)
    if isinstance(key, JsonResponse):
        return key
    return _record(request, table, key)


# -- installable, openable offline --------------------------------------------------------------------------

def link_manifest(request: HttpRequest, token: str) -> HttpResponse:
    """The web app manifest of a table's page: installed, it opens the table."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    home = reverse("link_home", args=[token])
    name = _("Table %(n)s · Round %(r)s") % {"n": link.table.number, "r": link.table.round.number}
    return JsonResponse({
        "name": f"Levée — {name}", "short_name": _("Table %(n)s") % {"n": link.table.number},
        "start_url": home, "scope": home, "display": "standalone", "lang": getattr(request, "LANGUAGE_CODE", "fr"),
        "background_color": "#ffffff", "theme_color": "#0b5d3b",
        "icons": [{"src": "/static/img/levee-icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }, content_type="application/manifest+json")


def _service_worker(request: HttpRequest, *, family: str, version: str, pages: list[str], scope: str,
                    worker: str | None = None) -> HttpResponse:
    """A service worker (tables/sw.js) keeping ``pages`` and the rules engine's files for ``scope``, its copies in
    the cache ``family + version``; it deletes the older copies of its ``family`` only (a desk table's worker never
    deletes a table link's copies, nor another table's)."""
    engine = engine_config(worker)
    response = render(request, "tables/sw.js", {
        "cache": family + version, "family": family,
        "engine_version": f"{engine['version']}-{engine['rules'].rsplit('-', 1)[-1][:-4]}" if engine else "none",
        "engine_files": json.dumps(engine["files"] if engine else []),
        "pages": json.dumps(pages),  # URL-safe tokens and ids: plain JSON
    }, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = scope
    return response


def link_service_worker(request: HttpRequest, token: str) -> HttpResponse:
    """The service worker of a table's page (its scope: the link's pages), with the pages it keeps offline."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    home = reverse("link_home", args=[token])
    return _service_worker(request, family="levee-table-", version=f"{link.pk}-{link.created_at.timestamp():.0f}",
                           pages=[home, reverse("link_enter", args=[token])], scope=home,
                           worker=reverse("link_engine_worker", args=[token]))


def desk_service_worker(request: HttpRequest, pk: int) -> HttpResponse:
    """The service worker of the desk's entry pages of one table (its scope: ``/desk/tables/<id>/deal/``, the tap
    page and the expert form): they reload without network as a table link's page does. Only for who enters this
    table's deals: the pages it keeps are theirs."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)
    if not request.user.is_authenticated or not permissions.can_enter_deal(request.user, table):
        return HttpResponse(status=403)
    scope = reverse("deal_enter", args=[table.pk])
    return _service_worker(request, family=f"levee-desk-{table.pk}-", version=str(request.user.pk), scope=scope,
                           pages=[reverse("deal_play", args=[table.pk]), f"{scope}?mode=record", scope])


def link_engine_worker(request: HttpRequest, token: str) -> HttpResponse:
    """The rules engine's worker under the table link's path, so that the link's service worker serves it and what
    it loads when the network is gone (:mod:`tournaments.desk.engine`)."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    response = HttpResponse(worker_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
