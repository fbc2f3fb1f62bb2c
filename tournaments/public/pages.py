"""The public pages that every phone and hall screen polls: home, ranking (and its 10-second fragment), a
player's page, the hall screen and the printable ranking, rendered once per published state.

Each request reads one statement (:func:`published.read`: the tournament, its ranking clock and its latest
snapshot's header). From it comes the page's ETag; a conditional request that matches gets a 304, the polling
fragment that the reader already shows gets a 204 (htmx swaps nothing), and anything else gets bytes rendered
once and kept in the cache (:func:`published.respond`). See docs/performance.md, "Public pages".

The ranking of a big event is not sent whole: a page of 50 lines (the top first), the reader's own line
(« ma place »: ``?me=<entry>``, from his player page or a name search, ``?q=``), and links to the other pages.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments.common import games
from tournaments.common.access import lang_of
from tournaments.common.elision import with_name
from tournaments.event import permissions
from tournaments.event.models import Entry
from tournaments.public import fragment as live
from tournaments.public import hall, published, queries
from tournaments.public import lines as ranking_lines
from tournaments.public.chart import running_total_svg
from tournaments.standings import rankings

REFRESH_DEFAULT = 10
SCREEN_LINES = 15
QUERY_MAX = 60


def state_of(request: HttpRequest, slug: str) -> tuple[published.Published, bool]:
    """The tournament's published state, and whether only its staff may see it (then the pages are private)."""
    state = published.read(slug)
    if state is None:
        raise Http404("no such tournament")
    t = state.tournament
    open_to_all = t.is_public and t.status != t.Status.DRAFT
    if not open_to_all and not permissions.can_view_tournament(request.user, t):
        raise Http404("no such public tournament")
    return state, not open_to_all


def html(template: str, context: dict) -> str:
    """A cached page's HTML, the same for every reader and renderable with no request (at publication): no user,
    no message, no CSRF token; the language is the active one."""
    return render_to_string(template, {**context, "messages": ()})


def _int(request: HttpRequest, name: str, default: int | None, low: int = 1, high: int = 10**9) -> int | None:
    try:
        return min(max(int(request.GET[name]), low), high)
    except (KeyError, ValueError):
        return default


def _every(request: HttpRequest) -> int:
    return _int(request, "every", REFRESH_DEFAULT, 1, 120) or REFRESH_DEFAULT


def _ranking(state: published.Published, lang: str) -> queries.Ranking:
    return queries.ranking(state.tournament, lang, state.status)


def _lines(ranking: queries.Ranking, slug: str, lang: str, *, teams: bool = False) -> ranking_lines.Lines:
    snap = ranking.snapshot
    unit = rankings.Unit.TEAM if teams else rankings.Unit.ENTRY
    rows = ranking.team_rows if teams else ranking.rows
    return ranking_lines.lines((queries.rows_key(snap, unit, lang), slug) if snap else ("none", unit, lang, slug),
                               rows, slug, lang, teams=teams)


def _url(base: str, **params: object) -> str:
    kept = {k: v for k, v in params.items() if v is not None and v != "" and not (k == "page" and v == 1)}
    return f"{base}?{urlencode(kept)}" if kept else base


# -- ranking -----------------------------------------------------------------------------------------


def ranking_page(state: published.Published, lang: str, *, page: int = 1, me: int | None = None, q: str = "",
                 every: int = REFRESH_DEFAULT, fragment: bool = False,
                 slots: bool = False) -> tuple[str, str, Callable[[], str]]:
    """The ranking page (or its polling fragment) of ``state``: what the reader shows (``since``), its ETag, and
    how to render it. ``slots``: the fragment with :mod:`fragment`'s markers where a reader's poll URL and his
    « ma place » section go (its skeleton)."""
    slug = state.tournament.slug
    # what the reader's page shows (the full page and its fragment show the same lines): the polling sends it back
    shown = published.validator(state, lang, "ranking", (page, me, q, every))
    etag = f"{shown}-f" if fragment else shown

    def render() -> str:
        whole = state.whole()
        rk = _ranking(whole, lang)
        base = reverse("public-ranking", args=[slug])
        context = {"tournament": whole.tournament, "ranking": rk, "every": every, "q": q, "me": me,
                   "poll_url": _url(base, page=page, me=me, q=q, every=every, since=shown),
                   "next_url": _url(base, page=page, me=me, q=q)}
        link_me = live.ME if slots else me  # the pager's links keep the reader's line
        if rk.rows:
            found = _lines(rk, slug, lang)
            pages = found.pages
            current = min(page, pages)
            start, end = found.page(current)
            mine = found.position.get(me) if me is not None else None
            rows = [ranking_lines.mark_mine(h) if i == mine else h
                    for i, h in zip(range(start, end), found.html[start:end], strict=True)]
            context.update({
                "rows_html": mark_safe("".join(rows)),  # every value escaped by lines.build
                "page": current, "pages": pages, "first": start + 1, "last": end, "total": len(found.rows),
                "prev_url": _url(base, page=current - 1, me=link_me, q=q) if current > 1 else "",
                "next_page_url": _url(base, page=current + 1, me=link_me, q=q) if current < pages else "",
                "first_url": _url(base, me=link_me, q=q) if current > 2 else "",
            })
            if mine is not None:
                mine_page = found.page_of(me)
                context.update({"me_row": found.rows[mine], "me_html": mark_safe(found.html[mine]),
                                "me_page_url": _url(base, page=mine_page, me=me) + f"#e{me}"
                                if mine_page != current else ""})
            if q:
                context["found"] = [(found.rows[i], _url(base, me=found.rows[i].entry_id) + "#me")
                                    for i in found.find(q)]
        if rk.team_rows:
            context["team_html"] = mark_safe("".join(_lines(rk, slug, lang, teams=True).html))
        if slots:
            context.update({"poll_url": live.POLL, "me_slot": mark_safe(live.SECTION)})
        template = "public/_ranking.html" if fragment else "public/ranking.html"
        return html(template, context)

    return shown, etag, render


def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    fragment = bool(request.headers.get("HX-Request"))
    lang, page, me = lang_of(request), _int(request, "page", 1) or 1, _int(request, "me", None)
    q, every = " ".join(request.GET.get("q", "").split())[:QUERY_MAX], _every(request)
    shown, etag, render = ranking_page(state, lang, page=page, me=me, q=q, every=every, fragment=fragment)
    if fragment and request.GET.get("since") == shown:
        return published.nothing_new(state, etag, private)
    if fragment and me is not None and not q:
        return _my_fragment(request, state, lang, page, me, every, shown, etag, private)
    return published.respond(request, state, etag, render, private=private)


def _my_fragment(request: HttpRequest, state: published.Published, lang: str, page: int, me: int, every: int,
                 shown: str, etag: str, private: bool) -> HttpResponse:
    """« ma place »'s live fragment: the page's fragment kept once for every reader, the reader's line spliced in
    (:mod:`fragment`: no template and no cache entry per reader); the same bytes as :func:`ranking_page` renders."""
    last_modified = state.last_modified
    unchanged = published.not_modified(request, etag, last_modified, private)
    if unchanged is not None:
        return unchanged
    slug = state.tournament.slug

    def render() -> live.Skeleton:
        whole = state.whole()
        _, _, fragment_html = ranking_page(whole, lang, page=page, every=every, fragment=True, slots=True)
        rk = _ranking(whole, lang)
        section = {"ranking": rk, "me_html": mark_safe(live.ROW)}
        return live.build(fragment_html(), html("public/_me.html", {**section, "me_page_url": live.LINK}),
                          html("public/_me.html", {**section, "me_page_url": ""}))

    skeleton = live.skeleton(published.cache_key(state, published.validator(state, lang, "ranking-live",
                                                                            (page, every))), render)
    found = None
    if state.snapshot is not None:
        found = ranking_lines.kept((queries.rows_key(state.snapshot, rankings.Unit.ENTRY, lang), slug))
        if found is None:  # this process's first reader of this snapshot in this language
            found = _lines(_ranking(state.whole(), lang), slug, lang)
    base = reverse("public-ranking", args=[slug])
    poll = escape(_url(base, page=page, me=me, every=every, since=shown))
    mine = found.position.get(me) if found is not None and found.rows else None
    if found is None or mine is None:
        body, compressed = live.assemble(skeleton, me, poll, None)
    else:
        current = min(page, found.pages)
        start, end = found.page(current)
        mine_page = found.page_of(me)
        link = escape(_url(base, page=mine_page, me=me) + f"#e{me}") if mine_page != current else ""
        row = found.html[mine]
        marked = (row, ranking_lines.mark_mine(row)) if start <= mine < end else None
        body, compressed = live.assemble(skeleton, me, poll, row, link, marked)
    return published.answer(request, etag, body, compressed, last_modified=last_modified, private=private)


# -- home, player, screen, print ---------------------------------------------------------------------


def home_page(state: published.Published, lang: str) -> tuple[str, Callable[[], str]]:
    slug = state.tournament.slug
    # the released rounds listed change with the clock (releasing a round bumps it)
    etag = published.validator(state, lang, "home", (state.version,))

    def render() -> str:
        whole = state.whole()
        rk = _ranking(whole, lang)
        return html("public/home.html", {
            "tournament": whole.tournament, "rounds": rankings.released_rounds(whole.tournament), "ranking": rk,
            "top": rk.rows[:10], "next_url": reverse("public-home", args=[slug])})

    return etag, render


def home(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    etag, render = home_page(state, lang_of(request))
    return published.respond(request, state, etag, render, private=private)


def player(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """A player's history (read live from the score rows, so keyed by the clock's version too) and rank."""
    state, private = state_of(request, slug)
    lang = lang_of(request)
    etag = published.validator(state, lang, "player", (entry_id, state.version))
    last_modified = max((s for s in (state.last_modified, state.changed_at) if s is not None), default=None)

    def render() -> str:
        whole = state.whole()
        entry = get_object_or_404(Entry.objects.select_related("player", "team"), pk=entry_id,
                                  tournament=whole.tournament)
        history = queries.player_history(entry)
        rk = _ranking(whole, lang)
        row = rk.by_entry.get(entry.pk)
        # duplicate: ranked by percentage, the étui of each deal, raw marks said as such
        dup = queries.duplicate_player(entry, history, rk.snapshot)
        history = dup.history if dup is not None else history
        # no deal yet (before his first round, or a bye alone): no chart of nothing
        chart = running_total_svg(history.points, breaks=history.breaks,
                                  title=with_name(_("Running total of %(name)s, deal after deal"),
                                                  entry.player.name),
                                  unit=games.score_unit(whole.tournament.game, lang)) if history.points else ""
        # a match game ranks by match points: the heading says them, named, and the game's own total by its unit
        # (a walk read « Total : 1 · rang 4 », impériales beside a rank of match points)
        basis = (rk.columns[0][1], row.values[0]) if (row is not None and dup is None and rk.columns
                                                       and rk.columns[0][0] != "marks") else None
        return html("public/player.html", {
            "tournament": whole.tournament, "entry": entry, "history": history, "row": row, "ranking": rk, "dup": dup,
            "basis": basis, "game_unit": games.score_unit(whole.tournament.game, lang),
            "chart": chart, "next_url": reverse("public-player", args=[slug, entry_id]),
            "my_place_url": _url(reverse("public-ranking", args=[slug]), me=entry.pk) + "#me"})

    return published.respond(request, state, etag, render, last_modified=last_modified, private=private)


def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: large print, pages of 15 lines turning at each refresh, then the seating and the
    clock of the round in play (``public/hall.py``), then the ranking again."""
    state, private = state_of(request, slug)
    lang = lang_of(request)
    page = _int(request, "page", 1) or 1
    every = _every(request) * 2
    after = hall.after_ranking(state.tournament)  # where the rotation goes after the last page
    etag = published.validator(state, lang, "screen", (page, every))

    def render() -> str:
        whole = state.whole()
        rk = _ranking(whole, lang)
        pages = max((len(rk.rows) + SCREEN_LINES - 1) // SCREEN_LINES, 1)
        current = min(page, pages)
        next_url = reverse("public-screen", args=[slug]) + f"?page={current + 1}" if current < pages else after
        return html("public/screen.html", {
            "tournament": whole.tournament, "ranking": rk,
            "rows": rk.rows[(current - 1) * SCREEN_LINES:current * SCREEN_LINES], "page": current, "pages": pages,
            "next_page": current % pages + 1, "every": every, "next_url": next_url})

    return published.respond(request, state, etag, render, private=private)


def ranking_print_page(state: published.Published, lang: str) -> tuple[str, Callable[[], str]]:
    etag = published.validator(state, lang, "print")

    def render() -> str:
        whole = state.whole()
        return html("public/ranking_print.html", {
            "tournament": whole.tournament, "ranking": _ranking(whole, lang),
            "next_url": reverse("public-ranking-print", args=[state.tournament.slug])})

    return etag, render


def ranking_print(request: HttpRequest, slug: str) -> HttpResponse:
    state, private = state_of(request, slug)
    etag, render = ranking_print_page(state, lang_of(request))
    return published.respond(request, state, etag, render, private=private)
