"""The public pages of seasons: a season, a championship's ranking (general and by category) with « pourquoi ce
rang », its French CSV and its PDF; a player's page across events (public, or private through his player link).

A championship's ranking is an immutable snapshot: its page is rendered once per snapshot, category and language
and kept in the cache like a tournament's (:func:`published.respond_keyed`: ETag, 304, gzip). Its PDF and its CSVs
(the general ranking and each category's) are rendered by the prints worker when the snapshot is published
(:func:`render_published`, queued by :mod:`tasks` on the ``championship_published`` port), its page then too, in
French and English; the files are kept and served as files, never rendered in a web request (a request that finds
none queues the render once and answers « document en préparation », 202, meanwhile).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scoring import championship as pure
from scoring.championship import points_text
from tournaments.common import files, games, runner
from tournaments.common.access import lang_of
from tournaments.common.collation import french_key
from tournaments.common.elision import with_name
from tournaments.event.models import Player, Tournament
from tournaments.links import service as links
from tournaments.public import player_state, published
from tournaments.public.chart import ranks_svg
from tournaments.public.queries import LABELS
from tournaments.public.views import CSV, _csv
from tournaments.seasons import championships, history
from tournaments.seasons.models import Championship, ChampionshipLine, ChampionshipSnapshot, Season
from tournaments.standings.formats import metric_text, percent_text

log = logging.getLogger(__name__)

#: bump when a season template changes: every ETag and cache key changes
RENDER_VERSION = "9"
#: the prints worker's task that renders a championship's documents (:func:`render_published`)
RENDER_TASK = "tournaments.championship_render_published"
#: the lines of a championship's page (the CSV has them all)
LINES_PER_PAGE = 100
#: the lines of one part of its PDF (about 30 A4 pages, as a tournament's ranking: ``pdf.RANKING_LINES_PER_PART``)
LINES_PER_PART = 1000
#: seconds after which the « en préparation » page reloads itself; seconds before a failed render is tried again
RETRY_AFTER = 3
FAILED_RETRY = 60


def _season(slug: str) -> Season:
    season = get_object_or_404(Season.objects.select_related("club", "grouping"), slug=slug)
    if not season.is_public:
        raise Http404("no such public season")
    return season


def _championship(season_slug: str, slug: str) -> Championship:
    champ = get_object_or_404(Championship.objects.select_related("season__club", "season__grouping"),
                              season__slug=season_slug, slug=slug)
    if not champ.season.is_public:
        raise Http404("no such public season")
    return champ


def season_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A season: its championships and its public tournaments; the same page for every reader of a language, kept
    per state (what it shows, hashed) like a championship's."""
    season = _season(slug)
    champs = list(season.championships.order_by("name").values_list("name", "slug"))
    tournaments = sorted(Tournament.objects.filter(championships__season=season, is_public=True).distinct()
                         .only("pk", "slug", "name", "date"), key=lambda t: (t.date is None, t.date, t.pk))
    club = season.club
    state = (RENDER_VERSION, lang_of(request), season.pk, season.name, season.slug, season.starts_on, season.ends_on,
             club and (club.name, club.slug, club.city), str(season.grouping or ""), champs,
             [(t.pk, t.slug, t.name, t.date) for t in tournaments])
    etag = hashlib.sha256(repr(state).encode()).hexdigest()[:32]

    def render() -> str:
        return render_to_string("public/season.html", {
            "season": season, "championships": [{"name": name, "slug": s} for name, s in champs],
            "tournaments": tournaments, "messages": ()})

    return published.respond_keyed(request, f"levee:season:{season.pk}:{etag}", etag, render)


def _fmt(value: Any) -> str:
    return "" if value is None else points_text(value, "fr")


def _lang() -> str:
    """The active language for scoring's sentences: ``fr`` or ``en`` (French outside a request)."""
    return "en" if (get_language() or "fr").startswith("en") else "fr"


def _labels(lang: str) -> dict[str, str]:
    return pure.LABELS_EN if lang == "en" else pure.LABELS_FR


def rules_words(champ: Championship) -> list[str]:
    """The championship's rules in the words of the table, in the active language."""
    rules = championships.rules_of(champ)
    table = rules.table
    if table.kind == "rank":
        first = _("Points by place: %(points)s points for the first places, then %(beyond)s.") % {
            "points": ", ".join(str(p) for p in table.points), "beyond": table.beyond}
    elif table.kind == "percent":
        first = _("Points by percentage of the field: %(bands)s.") % {"bands": ", ".join(
            ngettext("%(points)s point up to %(bound)s %%", "%(points)s points up to %(bound)s %%", points)
            % {"points": points, "bound": bound}
            for bound, points in table.bands)}
    else:
        first = _("Points: the tournament's own points.")
    out = [first]
    if rules.best == 1:
        out.append(_("The best result counts."))
    else:
        out.append(_("The %(best)s best results count.") % {"best": rules.best} if rules.best
                   else _("Every result counts."))
    if rules.minimum == 1:
        out.append(_("Ranked from the first tournament played."))
    elif rules.minimum:
        out.append(_("Ranked from %(minimum)s tournaments played.") % {"minimum": rules.minimum})
    if rules.tie_breaks:
        out.append(_("Tie-breaks announced: %(list)s.") % {
            "list": ", ".join(_labels(_lang())[t] for t in rules.tie_breaks)})
    out.append(_("A shared place gives the average of the points of the places it covers."))
    return out


@dataclass(frozen=True)
class Row:
    rank: int
    shared: bool
    player_id: int
    name: str
    club: str
    values: list[str]
    why: str


def ranking_view(champ: Championship, snap: ChampionshipSnapshot | None, category: str = "",
                 page: int | None = None) -> dict[str, Any]:
    """What the championship's page, CSV and PDF show: the lines (of a category), the columns, those waiting.
    ``page``: the page's :data:`LINES_PER_PAGE` lines only, and the pager (those waiting on the last page); every
    line otherwise (the CSV, the PDF)."""
    ctx: dict[str, Any] = {"championship": champ, "season": champ.season, "snapshot": snap, "rows": [],
                           "waiting": [], "categories": [], "category": None, "rules": rules_words(champ),
                           "columns": [], "pages": 1, "running": still_running(snap)}
    if snap is None:
        return ctx
    ranked = championships.snapshot_ranking(snap)
    names, titles = championships.names_of(ranked)
    clubs = {pk: (home or club or "") for pk, home, club in Player.objects.filter(pk__in=list(names))
             .values_list("pk", "home_club__name", "club")}
    cats = championships.categories(champ, list(names))
    ctx["categories"] = cats
    lines = ranked.lines
    members: frozenset[int] | None = None  # a category's players: its lines and those it is waiting for
    if category:
        chosen = next((c for c in cats if c.code == category), None)
        if chosen is None:
            raise Http404("no such category")
        ctx["category"] = chosen
        members = chosen.members
        lines = pure.category_lines(ranked, members)
    columns = [name for name in (*ranked.criteria, "kept", "played") if name != "points"]
    columns = list(dict.fromkeys(columns))
    lang = _lang()
    ctx["columns"] = [_labels(lang)[c] for c in columns]
    counts: dict[int, int] = {}
    for line in lines:
        counts[line.rank] = counts.get(line.rank, 0) + 1
    why = championships.standing_words(snap, lang).why  # made once per snapshot and language, kept
    shown, last_page = lines, True
    if page is not None:
        pages = max((len(lines) + LINES_PER_PAGE - 1) // LINES_PER_PAGE, 1)
        current = min(max(page, 1), pages)
        start, end = (current - 1) * LINES_PER_PAGE, min(current * LINES_PER_PAGE, len(lines))
        shown, last_page = lines[start:end], current == pages
        base = reverse("public-championship", args=[champ.season.slug, champ.slug])
        ctx.update({"page": current, "pages": pages, "first": start + 1, "last": end, "total": len(lines),
                    "prev_url": _page_url(base, category, current - 1) if current > 1 else "",
                    "next_page_url": _page_url(base, category, current + 1) if current < pages else "",
                    "first_url": _page_url(base, category, 1) if current > 2 else ""})
    ctx["rows"] = [Row(line.rank, counts[line.rank] > 1, int(line.entry), names.get(line.entry, ""),
                       clubs.get(int(line.entry), ""),
                       [_fmt(line.metric("points")), *[_fmt(dict(line.metrics).get(c)) for c in columns]],
                       why[line.entry]) for line in shown]
    pending = [s for s in pure.pending(ranked) if (members is None or s.player in members) and last_page]
    ctx["waiting"] = [{"player_id": s.player, "name": names.get(s.player, ""), "points": _fmt(s.points),
                       "played": len(s.results), "missing": s.missing}
                      for s in sorted(pending, key=lambda s: (-s.points, french_key(names.get(s.player, ""))))]
    ctx["tournaments"] = sorted(titles.items(), key=lambda kv: str(kv[0]))
    if page is not None:  # the PDF's parts when it is long (the general ranking's lines)
        count = (len(ranked.lines) + LINES_PER_PART - 1) // LINES_PER_PART
        pdf = reverse("public-championship-pdf", args=[champ.season.slug, champ.slug])
        ctx["pdf_parts"] = [(k, pdf if k == 1 else f"{pdf}?partie={k}") for k in range(1, count + 1)] \
            if count > 1 else []
    return ctx


def still_running(snap: ChampionshipSnapshot | None) -> tuple[str, ...]:
    """The names of the tournaments a snapshot counts that are not finished: its ranking is provisional while
    there are any (a walk read a season's « Version 1 » that counted a tournament at its first round, as if
    final). One light statement; part of every page's and document's key, so finishing one shows at once."""
    ids = [pair[0] for pair in (snap.tournaments if snap is not None else []) or []]
    if not ids:
        return ()
    return tuple(Tournament.objects.filter(pk__in=ids).exclude(status=Tournament.Status.FINISHED)
                 .order_by("date", "id").values_list("name", flat=True))


def _etag(champ: Championship, snap: ChampionshipSnapshot | None, *variant: Any) -> str:
    parts = (RENDER_VERSION, champ.pk, champ.name, champ.season.name, snap.pk if snap else 0, still_running(snap),
             *variant)
    rest = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    return f"{snap.digest[:16] if snap else 'none'}-{rest}"


def _page_key(champ: Championship, etag: str) -> str:
    return f"levee:championship:{champ.pk}:{etag}"


def _page_url(base: str, category: str, page: int) -> str:
    query = urlencode({k: v for k, v in (("categorie", category), ("page", page if page > 1 else 0)) if v})
    return f"{base}?{query}" if query else base


def _page_asked(request: HttpRequest, snap: ChampionshipSnapshot | None) -> int:
    """The page asked for (``?page=``), within the general ranking's pages: a page number beyond them is its last
    page, so that no reader can have a page rendered and kept per number he types."""
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        return 1
    if page <= 1 or snap is None:
        return 1
    ranked = ChampionshipLine.objects.filter(snapshot_id=snap.pk).count()
    return min(page, max((ranked + LINES_PER_PAGE - 1) // LINES_PER_PAGE, 1))


def championship_page(request: HttpRequest, season_slug: str, slug: str) -> HttpResponse:
    """A championship's ranking (general or a category), in pages of :data:`LINES_PER_PAGE` lines (10,000 players
    made one page of 11.5 MB of HTML for a phone); the first page rendered by the prints worker at publication."""
    champ = _championship(season_slug, slug)
    snap = championships.latest_snapshot(champ.pk)
    category = request.GET.get("categorie", "")[:40]
    page = _page_asked(request, snap)
    # the first page's key is the one the prints worker renders at publication (no page in it)
    etag = _etag(champ, snap, lang_of(request), category, *((page,) if page > 1 else ()))

    def render() -> str:
        return render_to_string("public/championship.html", {**ranking_view(champ, snap, category, page),
                                                              "messages": ()})

    return published.respond_keyed(request, _page_key(champ, etag), etag, render,
                                   last_modified=snap.created_at if snap else None)


def csv_text(champ: Championship, snap: ChampionshipSnapshot | None, category: str = "") -> str:
    """The championship's ranking (of a category) as a French CSV (``;``, UTF-8 with BOM)."""
    view = ranking_view(champ, snap, category)

    def write(writer: Any) -> None:
        writer.writerow(["Rang", "Ex aequo", "Joueur", "Club", "Points", *[capfirst(c) for c in view["columns"]],
                         "Explication"])
        for row in view["rows"]:
            writer.writerow([row.rank, "oui" if row.shared else "non", row.name, row.club, *row.values, row.why])
        if view["waiting"]:
            writer.writerow([])
            writer.writerow(["Pas encore classés", "", "Joueur", "", "Points", "Tournois joués",
                             "Tournois manquants"])
            for w in view["waiting"]:
                writer.writerow(["", "", w["name"], "", w["points"], w["played"], w["missing"]])
        if snap is not None:
            writer.writerow([])
            writer.writerow(["Version du classement", snap.version])
            if view["running"]:
                writer.writerow(["Provisoire : tournois non terminés", ", ".join(view["running"])])

    with translation.override("fr"):
        return _csv(write)


# -- the PDF and the CSV: rendered by the prints worker at publication, kept as files ----------------------------


def folder(championship_id: int) -> Path:
    """Where a championship's kept files are (its PDF, its CSVs), one sub-folder per championship."""
    return files.root() / "championships" / str(championship_id)


@dataclass(frozen=True)
class KeptFile:
    """One kept document of a championship in one published state: its key (its ETag) and its file."""

    path: Path
    key: str
    content_type: str
    filename: str
    disposition: str


def pdf_file(champ: Championship, snap: ChampionshipSnapshot | None, part: int = 1) -> KeptFile:
    """The PDF of the ranking, or its ``part`` (:data:`LINES_PER_PART` lines each) when it is long."""
    key = _etag(champ, snap, "pdf", *((part,) if part > 1 else ()))
    suffix = f"-partie-{part}" if part > 1 else ""
    return KeptFile(folder(champ.pk) / f"classement{suffix}--{key}.pdf", key, "application/pdf",
                    f"{champ.season.slug}-{champ.slug}{suffix}.pdf", "inline")


def pdf_parts(snap: ChampionshipSnapshot | None) -> int:
    """How many parts the ranking's PDF comes in (its general ranking's lines, :data:`LINES_PER_PART` a part)."""
    if snap is None:
        return 1
    return max((ChampionshipLine.objects.filter(snapshot_id=snap.pk).count() + LINES_PER_PART - 1)
               // LINES_PER_PART, 1)


def csv_file(champ: Championship, snap: ChampionshipSnapshot | None, category: str = "") -> KeptFile:
    key = _etag(champ, snap, "csv", category)
    # a category's code may hold any character of a licence's série: the file is named by its hash
    document = "classement-csv" + (f"-{hashlib.sha256(category.encode()).hexdigest()[:12]}" if category else "")
    suffix = f"-{category}" if category else ""
    return KeptFile(folder(champ.pk) / f"{document}--{key}.csv", key, CSV,
                    f"{champ.season.slug}-{champ.slug}{suffix}.csv", "attachment")


def _queued(championship_id: int) -> Path:
    """The claim that says a render of the championship's documents is queued (one at a time per championship)."""
    return folder(championship_id) / "publication.render"


def _produce(path: Path, render: Any, *, compressed: bool = False) -> bool:
    """Write ``path`` with ``render()`` unless it is there or another render of it runs; True when written.
    ``compressed``: its gzip copy too, written first (a file is ready once its plain copy is written)."""
    if not files.claim(path):
        return False
    try:
        if files.ready(path):
            files.release(path)
            return False
        body = render()
        if compressed:  # a CSV of 10,000 players with their « pourquoi » is ~5 MB, a tenth of that gzipped
            files.write(_gzipped(path), gzip.compress(body, compresslevel=6, mtime=0))
        files.write(path, body)
    except BaseException:
        files.hold(path, FAILED_RETRY)  # not tried again at every reload of the « en préparation » page
        raise
    files.release(path)
    return True


def _part_of(view: dict[str, Any], part: int, count: int) -> dict[str, Any]:
    """The ``part`` of the ranking's PDF: its lines, those not ranked yet in the last part."""
    start = (part - 1) * LINES_PER_PART
    return {**view, "rows": view["rows"][start:start + LINES_PER_PART], "part": part, "parts": count,
            "waiting": view["waiting"] if part == count else []}


def _gzipped(path: Path) -> Path:
    return path.with_name(path.name + ".gz")


def _players(snap: ChampionshipSnapshot | None) -> list[int]:
    return sorted({int(row[1]) for row in snap.inputs}) if snap is not None else []


def render_published(championship_id: int, version: int) -> int:
    """The prints worker's side, when a championship's ranking ``version`` is published (0: none yet): its PDF and
    its CSVs (the general ranking and each category) written as files, its page (general, French and English) put
    in the cache; skipped when a newer version was published meanwhile. How many documents were written."""
    from tournaments.public.pdf import to_pdf  # the PDF machinery (WeasyPrint) is loaded by the worker only

    try:
        champ = Championship.objects.select_related("season__club", "season__grouping").filter(
            pk=championship_id).first()
        if champ is None:
            return 0
        snap = championships.latest_snapshot(champ.pk)
        if (snap.version if snap is not None else 0) != version:
            return 0  # superseded: the newer publication renders its own
        done = 0
        with translation.override("fr"):
            whole: dict[str, Any] = {}  # every line, read once for all the parts and only if one is missing

            def part_of(part: int, count: int) -> dict[str, Any]:
                if not whole:
                    whole.update(ranking_view(champ, snap))
                return _part_of(whole, part, count)

            count = pdf_parts(snap)
            documents = [(pdf_file(champ, snap, part).path,
                          lambda part=part: to_pdf("print/championship.html", part_of(part, count)))
                         for part in range(1, count + 1)]
            for category in ("", *[c.code for c in championships.categories(champ, _players(snap))]):
                documents.append((csv_file(champ, snap, category).path,
                                  lambda category=category: csv_text(champ, snap, category).encode()))
            for path, render in documents:
                try:
                    done += _produce(path, render, compressed=path.suffix == ".csv")
                except Exception:  # held a minute (its claim); the other documents are still written
                    log.exception("the document %s of championship %s could not be rendered", path.name, champ.pk)
        for lang in ("fr", "en"):
            with translation.override(lang):
                key = _page_key(champ, _etag(champ, snap, lang, ""))
                done += published.store_keyed(key, lambda: render_to_string("public/championship.html", {
                    **ranking_view(champ, snap, page=1), "messages": ()}))
        return done
    finally:
        files.release(_queued(championship_id))


def _serve(request: HttpRequest, champ: Championship, snap: ChampionshipSnapshot | None, doc: KeptFile,
           title: str) -> HttpResponse:
    """The kept file (304 when the reader has it); not written yet (a state published a moment ago, a renamed
    championship), the render queued once and « en préparation » meanwhile: never rendered in the request."""
    response: HttpResponse | None = None
    if files.ready(doc.path):
        if request.META.get("HTTP_IF_NONE_MATCH") in (f'"{doc.key}"', f'W/"{doc.key}"'):
            response = HttpResponse(status=304)
        else:
            compressed = (files.accepted_encoding(request.META.get("HTTP_ACCEPT_ENCODING", ""), ("gzip",)) != ""
                          and files.ready(_gzipped(doc.path)))  # a CSV's gzip copy
            try:  # nginx sends it (LEVEE_ACCEL_REDIRECT)
                response = files.response(_gzipped(doc.path) if compressed else doc.path, doc.content_type,
                                          encoding="gzip" if compressed else "")
            except FileNotFoundError:  # removed this instant (a player made anonymous): rendered again
                response = None
            else:
                response["Content-Disposition"] = f'{doc.disposition}; filename="{doc.filename}"'
    if response is not None:
        response["ETag"] = f'"{doc.key}"'
        response["Cache-Control"] = "public, no-cache"
        response["Vary"] = "Accept-Encoding"
        return response
    marker = _queued(champ.pk)
    if files.claim(marker):
        try:
            runner.later(RENDER_TASK, champ.pk, snap.version if snap is not None else 0)
        except Exception:  # the broker is down: the claim is let go, the next reload tries again
            log.exception("the documents of championship %s could not be queued", champ.pk)
            files.release(marker)
    response = HttpResponse(render_to_string("public/season_preparing.html", {
        "season": champ.season, "every": RETRY_AFTER, "title": title, "next_url": request.get_full_path(),
        "messages": ()}, request=request),
        status=202)
    response["Retry-After"] = str(RETRY_AFTER)
    return files.preparing(response, False)  # a season's pages are public


def championship_csv(request: HttpRequest, season_slug: str, slug: str) -> HttpResponse:
    champ = _championship(season_slug, slug)
    snap = championships.latest_snapshot(champ.pk)
    category = request.GET.get("categorie", "")[:40]
    if category and category not in {c.code for c in championships.categories(champ, _players(snap))}:
        raise Http404("no such category")
    return _serve(request, champ, snap, csv_file(champ, snap, category),
                  _("The ranking « %(name)s » (CSV)") % {"name": champ.name})


def championship_pdf(request: HttpRequest, season_slug: str, slug: str) -> HttpResponse:
    """The ranking's PDF, or its part ``?partie=`` when it is long (a part beyond them is the last)."""
    champ = _championship(season_slug, slug)
    snap = championships.latest_snapshot(champ.pk)
    try:
        part = int(request.GET.get("partie", "1"))
    except ValueError:
        part = 1
    part = min(max(part, 1), pdf_parts(snap)) if part > 1 else 1
    title = _("The ranking « %(name)s »") % {"name": champ.name}
    return _serve(request, champ, snap, pdf_file(champ, snap, part), title)


# -- a player's page across events ---------------------------------------------------------------------------


def total_text(played: history.Played) -> str:
    """His result in a tournament in its unit: marks as they are, a percentage with « % », match points named."""
    if played.total is None:
        return "—"
    if played.percent:
        return percent_text(played.total)
    text = metric_text(played.total)
    if played.metric == "marks":
        return text
    return f"{text} ({str(LABELS.get(played.metric, played.metric)).lower()})"


def player_context(player: Player, *, private: bool) -> dict[str, Any]:
    lang = _lang()
    played = history.tournaments_played(player, private=private)
    points = history.rank_points(played)
    name = _("Anonymous player") if player.anonymized_at else player.name
    return {
        "player": player, "name": name, "private": private,
        "club": player.home_club.name if player.home_club is not None else player.club,
        "played": [{"tournament": p.tournament, "rank": p.rank, "shared": p.shared, "field": p.field,
                    "total": total_text(p)} for p in played],
        "standings": history.standings(player, private=private, lang=lang),
        "stats": [{"label": games.label(g.game), "deals": g.deals, "unreadable": g.unreadable,
                   "sections": [{"title": section.title,
                                 "figures": [{"label": f.label, "value": f.value, "text": f.text(lang)}
                                             for f in section.figures]} for section in g.sections]}
                  for g in history.statistics(player, private=private, lang=lang)],
        "chart": (ranks_svg(points, title=with_name(_("Ranks of %(name)s across tournaments"), name))
                  if points else ""),
        "chart_points": points,
    }


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    state = player_state.of_player(player_id)  # one statement; the player read only to render
    if state is None:
        raise Http404("no such player")
    etag = hashlib.sha256(repr((RENDER_VERSION, player_id, lang_of(request), *state.tick)).encode()).hexdigest()[:32]

    def render() -> str:
        player = Player.objects.select_related("home_club").get(pk=player_id)
        return render_to_string("public/player_history.html", {**player_context(player, private=False),
                                                                "messages": ()})

    return published.respond_keyed(request, f"levee:player:{player_id}:{etag}", etag, render)


def player_private_page(request: HttpRequest, token: str) -> HttpResponse:
    """His own page through his player link: every tournament he played (private ones too), his licence. Kept per
    state like his public page, under his link (the page names it), and never stored by the browser (personal
    data)."""
    state = player_state.of_link(token, links.MAX_TOKEN)  # the link, its player, his page's state: one statement
    if state is None or not state.live:
        raise Http404("no such player link")
    etag = hashlib.sha256(repr((RENDER_VERSION, "private", state.player_id, state.link_id, lang_of(request),
                                *state.tick, state.licence, state.birth_date)).encode()).hexdigest()[:32]

    def render() -> str:
        player = Player.objects.select_related("home_club").get(pk=state.player_id)
        return render_to_string("public/player_history.html", {
            **player_context(player, private=True), "link_token": token, "messages": (),
            "back_url": reverse("player_home", args=[token])})

    response = published.respond_keyed(request, f"levee:player:{state.player_id}:private:{etag}", etag, render,
                                       private=True)
    response["Cache-Control"] = "private, no-store"
    return response


__all__ = ["championship_csv", "championship_page", "championship_pdf", "player_page", "player_private_page",
           "render_published", "season_page"]
