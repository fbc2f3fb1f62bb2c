"""The hall screen's rotation, beside the ranking pages of ``views.screen``: the seating of the current
round (« où suis-je assis ? », by name in French order, pages turning) and the round clock. Each view
names the next page of the rotation: ranking pages → seating pages → clock → ranking page 1."""

from __future__ import annotations

import gzip
import hashlib
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse

from tournaments.common.access import lang_of
from tournaments.common.collation import french_key
from tournaments.duplicate.models import DuplicateTable
from tournaments.duplicate.results import ORIENTATIONS, sat_out
from tournaments.event import permissions
from tournaments.event.clock import clock_of
from tournaments.event.models import Round, Seat, Tournament
from tournaments.public import published

SEATS_PER_PAGE = 24


@dataclass(frozen=True)
class Place:
    name: str
    table: int
    note: str
    """« remplace X » for a one-round replacement; empty otherwise."""
    bye: bool = False
    """Alone at his « table » (a bye, « exempt »): there is no table to go to."""
    orientation: Any = ""
    """In duplicate, the seat's orientation (« Nord » …, translated when shown), which the movement fixes for
    the whole event; empty elsewhere (a seat is an order of play only)."""


def current_round(tournament: Tournament) -> Round | None:
    """The round players sit down for: the latest round drawn, started and not finished, whose results are not
    released. A round « prévue » is not the public's (:func:`seating_public`), even drawn ahead of time."""
    return (tournament.rounds.exclude(status__in=(Round.Status.FINISHED, Round.Status.PLANNED))
            .filter(released=False, tables__isnull=False).distinct().order_by("-number").first())


def seating_public(rnd: Round) -> bool:
    """Whether the public sees round ``rnd``'s seating: once the organizer has started it (« en cours ») or
    released it. Before, it is the staff's: the draw or the movement may still change (a walk saw round 2's
    seating on the hall screen while it was « prévue »)."""
    return rnd.status != Round.Status.PLANNED or permissions.round_is_released(rnd)


def clock_round(tournament: Tournament) -> Round | None:
    """The round whose clock the hall shows: the latest one not over whose clock was started, else the
    current round."""
    started = (tournament.rounds.exclude(status=Round.Status.FINISHED).filter(released=False)
               .filter(Q(clock_started_at__isnull=False) | Q(clock_elapsed__gt=0)).order_by("-number").first())
    return started or current_round(tournament)


def places(round: Round) -> list[Place]:
    """Everyone seated in ``round``, by name as French sorts it (a substitute under his own name; a player
    alone at a table is on a bye, as is a duplicate player at no table), with his orientation in duplicate."""
    out = []
    seats = list(Seat.objects.filter(table__round=round).select_related("entry__player", "table"))
    alone = {t for t, n in Counter(s.table_id for s in seats).items() if n == 1}
    oriented = set(DuplicateTable.objects.filter(table__round=round).values_list("table_id", flat=True))
    for seat in seats:
        bye = seat.table_id in alone
        orientation = ORIENTATIONS[seat.position] if seat.table_id in oriented and not bye else ""
        if seat.substitute:
            out.append(Place(seat.substitute, seat.table.number, seat.entry.player.name, bye, orientation))
        else:
            out.append(Place(seat.entry.player.name, seat.table.number, "", bye, orientation))
    # duplicate: a player over a multiple of four sits at no table (« exempt »), said among the others
    out += [Place(entry.player.name, 0, "", True) for entry in sat_out(round.tournament, [round.number]).get(
        round.number, [])] if seats else []
    return sorted(out, key=lambda p: french_key(p.name))


#: how many times longer than the published state a seating's digest is kept (it costs that much more to read)
DIGEST_KEPT = 20
#: (tournament, round) → (when read, digest)
_digests: dict[tuple[int, int], tuple[float, str]] = {}


def seating_digest(tournament_id: int, number: int) -> str:
    """What the seating of round ``number`` is, in a few characters (one statement): the key of the pages and
    PDFs made from it (score sheets, placement), which a draw, a swap or a substitute changes.

    Kept in this process :data:`DIGEST_KEPT` times as long as the published state is (:func:`published.read`; 2 s by
    default, none in the tests): the statement reads every seat of the round (10,000 at a big event: ≈ 15 ms of CPU
    and 200 – 300 ms of waiting under load), and every request for a placement or score-sheet PDF, a 304 among them,
    needs the key. A swap reaches these PDFs' key that much later (their render, by a worker, takes longer)."""
    keep = settings.LEVEE_PUBLIC_STATE_SECONDS * DIGEST_KEPT
    if keep > 0:
        now = time.monotonic()
        kept = _digests.get((tournament_id, number))
        if kept is not None and now - kept[0] < keep:
            return kept[1]
        digest = _seating_digest(tournament_id, number)
        if len(_digests) > 1000:
            _digests.clear()
        _digests[(tournament_id, number)] = (now, digest)
        return digest
    return _seating_digest(tournament_id, number)


def _seating_digest(tournament_id: int, number: int) -> str:
    seats = (Seat.objects.filter(table__round__tournament_id=tournament_id, table__round__number=number)
             .order_by("table__number", "position")
             .values_list("table__number", "position", "entry_id", "substitute", "entry__player__name",
                          "entry__player__club"))
    return hashlib.sha256(repr(list(seats)).encode()).hexdigest()[:16]


def after_ranking(tournament: Tournament) -> str:
    """Where the rotation goes after the last ranking page: the seating (which passes on at once when no round
    is in play). No database read: the hall screen's ranking pages are served from the cache."""
    return reverse("public-screen-seating", args=[tournament.slug]) + "?page=1"


def _clock_shown(tournament: Tournament) -> bool:
    rnd = clock_round(tournament)
    return rnd is not None and (rnd.clock_started_at is not None or rnd.clock_elapsed > 0)


def seating(request: HttpRequest, tournament: Tournament, every: int) -> HttpResponse:
    """A page of the seating, kept per seating of the round (:func:`seating_digest`), page, language and rotation
    like the other public pages (:func:`published.respond`): a hall screen's request reads no seat."""
    rnd = current_round(tournament)
    if rnd is None:  # nothing to show: on to the clock, or back to the ranking
        return redirect(reverse("public-screen-clock", args=[tournament.slug]) if _clock_shown(tournament)
                        else reverse("public-screen", args=[tournament.slug]) + "?page=1")
    try:
        asked = min(max(int(request.GET.get("page", 1)), 1), 10_000)
    except ValueError:
        asked = 1
    clock_next = _clock_shown(tournament)
    state = published.read(tournament.slug)
    if state is None:
        raise Http404("no such tournament")
    private = not (tournament.is_public and tournament.status != Tournament.Status.DRAFT)
    etag = published.validator(state, lang_of(request), "seating",
                               (rnd.pk, seating_digest(tournament.pk, rnd.number), asked, every, clock_next))

    def page_html() -> str:
        everyone = places(rnd)
        pages = max((len(everyone) + SEATS_PER_PAGE - 1) // SEATS_PER_PAGE, 1)
        page = min(asked, pages)
        if page < pages:
            next_url = reverse("public-screen-seating", args=[tournament.slug]) + f"?page={page + 1}"
        elif clock_next:
            next_url = reverse("public-screen-clock", args=[tournament.slug])
        else:
            next_url = reverse("public-screen", args=[tournament.slug]) + "?page=1"
        return render_to_string("public/hall_seating.html", {
            "tournament": tournament, "round": rnd, "page": page, "pages": pages, "next_url": next_url,
            "places": everyone[(page - 1) * SEATS_PER_PAGE:page * SEATS_PER_PAGE], "every": every, "messages": ()})

    return published.respond(request, state, etag, page_html, private=private)


#: the clock page of the second now, by variant (a tournament, language and rotation): a handful
_clock_pages: dict[tuple, tuple[str, bytes, bytes]] = {}
_CLOCK_PAGES_MAX = 64


def clock(request: HttpRequest, tournament: Tournament, every: int) -> HttpResponse:
    """The round's clock. It shows the time left to the second, so it is kept one second in the process: every hall
    screen asking in the same second gets the same bytes, rendered once, and marked public, the proxy in front
    keeps them that second too."""
    rnd = clock_round(tournament)
    shown = clock_of(rnd) if rnd is not None else None
    stay = request.GET.get("stay") == "1"
    private = not (tournament.is_public and tournament.status != Tournament.Status.DRAFT)
    variant = (published.RENDER_VERSION, tournament.pk, lang_of(request), every, stay)
    etag = hashlib.sha256(repr((variant, tournament.name, rnd.pk if rnd else 0, rnd.number if rnd else 0, shown,
                                int(time.time()))).encode()).hexdigest()[:32]
    answer = published.not_modified(request, etag, None, private)
    if answer is not None:
        return answer
    kept = _clock_pages.get(variant)
    if kept is None or kept[0] != etag:
        body = render_to_string("public/hall_clock.html", {
            "tournament": tournament, "round": rnd, "clock": shown, "every": every, "stay": stay, "messages": (),
            "next_url": reverse("public-screen", args=[tournament.slug]) + "?page=1"}).encode()
        if len(_clock_pages) >= _CLOCK_PAGES_MAX:
            _clock_pages.clear()
        kept = _clock_pages[variant] = (etag, body, gzip.compress(body, compresslevel=6, mtime=0))
    return published.answer(request, etag, kept[1], kept[2], private=private)
