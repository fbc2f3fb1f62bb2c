"""What must hold after every step of an event.

* **No 5xx** on any page of any role: the pages are read from the URL confs (``tournaments/{organizer,desk,public,
  api}/urls.py``), their parameters filled from the event's objects (a ``<slug>`` is the tournament, ``<number>``
  after ``rounds/`` a round, ``<pk>`` after ``tables/`` a table …), so a page added later is visited too. After an
  ordinary step, the pages of the tournament and of the tables the step touched; after a round's release and at
  the end, every page (``full``).
* **What each role may see**: the anonymous visitor and the outsider (an account with no role) never get a staff
  page; the public sees the public pages of a public tournament, a round's results once it is released only; a
  table's link opens its own table's deals, not another table's.
* **Table sizes** among the game's player counts (``rules.game.get_game(game).player_counts``); a table of one is a
  bye, and only where the draw makes byes (the games played in matches: Écarté, Triomphe, L'Impériale, and Le
  Vingt-quatre where no tables of 4 and 5 seat everybody).
* **Zero-sum deals** where the game is (Tarot: the marks of a deal add up to 0; the other games score the winner).
* **Totals = sums of the rows**: each entry's published total is the sum of its score rows that count, in the
  released rounds (Tarot; a match game's table totals are the sums of its deals' rows).
* **Irregular deals**: their own marks never count; a deal is never counted twice (its marks and a ruling's on it).
* **The published ranking = a recompute**: the latest snapshot is up to date and its lines are those of
  ``rankings.ranking_compute`` run now.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Sum
from django.urls import URLPattern, URLResolver, get_resolver

from rules.game import get_game
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.event.models import Table
from tournaments.links.models import ArbiterCall, PrivateLink
from tournaments.standings import rankings

if TYPE_CHECKING:
    from tests.events.harness import Event

#: games whose draw seats a player alone on a bye (one single-seat table, no deal entered there)
BYE_GAMES = frozenset({"ecarte", "triomphe", "imperiale", "vingt-quatre"})
#: games whose deals are zero-sum (the sum of a deal's marks is 0)
ZERO_SUM_GAMES = frozenset({"tarot"})

#: pages an anonymous visitor or an outsider may open although they are not under /p/
OPEN_NAMES = frozenset({"home", "login", "logout", "public-language", "my_tables", "health", "clubs"})
#: staff pages the public may read too, once the round they show is released (tournament_detail: always, for a
#: public tournament past its draft)
SHARED_NAMES = frozenset({"tournament_detail", "round_detail", "table_detail", "deal_detail", "table_etuis"})
#: the pages visited after an ordinary step (the whole site at the end of the event)
LIGHT_NAMES = frozenset({"tournament_detail", "round_detail", "table_detail", "public-home", "public-ranking",
                         "chief_page", "link_home"})
#: pages that answer 500 today in some events (found by this rehearsal): the sweeps leave them out there, and each
#: has its own strict xfail test in ``test_known_defects.py`` (which turns red once it is fixed: then remove it here)
KNOWN_5XX: dict[str, Any] = {
}
#: pages too slow to make after every step (PDFs made on the server): in the full sweeps only
SLOW = re.compile(r"\.pdf$")


@dataclass(frozen=True)
class Page:
    name: str
    audience: str  # organizer, desk, link, public, api
    route: str
    params: tuple[str, ...]


def _walk(patterns: Any, prefix: str = "", namespace: str = "", module: str = "") -> Iterator[tuple[str, str, str]]:
    for p in patterns:
        if isinstance(p, URLResolver):
            mod = getattr(p.urlconf_module, "__name__", module) if not isinstance(p.urlconf_module, list) else module
            ns = f"{p.namespace}:" if p.namespace else namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), ns, mod)
        elif isinstance(p, URLPattern) and p.name:
            yield namespace + p.name, prefix + str(p.pattern), module


def site_pages() -> list[Page]:
    """Every named page of Levée's four audiences (the admin and the schema UI left out)."""
    pages = []
    for name, route, module in _walk(get_resolver().url_patterns):
        if route.startswith("admin/") or name in ("api:docs", "api:schema", "logout", "login"):
            continue
        audience = module.split(".")[1] if module.startswith("tournaments.") else "other"
        if route.startswith(("k/", "j/")):
            audience = "link"
        params = tuple(re.findall(r"<(?:\w+:)?(\w+)>", route))
        pages.append(Page(name, audience, route, params))
    return pages


PAGES = None


def pages() -> list[Page]:
    global PAGES
    if PAGES is None:
        PAGES = site_pages()
    return PAGES


# -- filling a page's parameters from the event -----------------------------------------------------------

def _kind(route: str, param: str) -> str:
    """What a parameter names, from the segment before it (``tables/<pk>`` → a table)."""
    before = route.split(f"<{param}>")[0] if f"<{param}>" in route else re.split(rf"<\w+:{param}>", route)[0]
    segment = [s for s in before.split("/") if s][-1] if before.strip("/") else ""
    if param == "club" or (param == "slug" and route.startswith("c/")):
        return "club_slug"  # a club's pages: the tournament's club
    if param in ("season", "season_slug", "champ_slug") or (param == "slug" and route.startswith("saisons/")):
        return "season"  # a club's seasons and championships: an event counts in none (tests/tournaments/seasons)
    if param == "digest":
        return "engine_digest"  # the rules engine's zip for the browser (tests/tournaments/desk/test_engine.py)
    if param == "player_id":
        return "player"  # a player's page across events
    if param == "slug":
        return "slug"
    if param == "token":
        return "player_token" if route.startswith("j/") else "table_token"
    if param == "entry_id":
        return "entry"
    if param == "user_id":
        return "user"
    if param == "version":
        return "version"
    return {"rounds": "round_number" if param == "number" else "round", "tables": "table", "deals": "deal",
            "rulings": "ruling", "calls": "call", "links": "link", "etuis": "etui", "tournaments": "tournament",
            "registrations": "entry", "players": "player", "backups": "backup",
            "clubs": "club", "seasons": "season", "championships": "season", "people": "player"
            }.get(segment, f"?{segment}")


class Scope:
    """The objects whose pages are visited: all of them (``full``), or the tournament's own pages, its last round
    and the tables a step touched."""

    def __init__(self, event: Event, *, full: bool) -> None:
        t = event.tournament
        self.event, self.full = event, full
        rounds = list(t.rounds.order_by("number"))
        last = rounds[-1:] if rounds else []
        self.rounds = rounds if full else last
        tables = Table.objects.filter(round__tournament=t).select_related("round").order_by("round__number",
                                                                                            "number")
        if full:  # a table of each size in each round (and those the step touched): the same pages for the others
            seen: set[tuple[int, int]] = set()
            self.tables = []
            for table in tables:
                kind = (table.round.number if event.sweep_rounds else 0, table.seats.count())
                if kind not in seen or table.pk in event.touched_tables:
                    seen.add(kind)
                    self.tables.append(table)
        else:
            self.tables = list(tables.filter(pk__in=event.touched_tables))
        table_ids = [x.pk for x in self.tables]
        last: dict[int, Deal] = {}
        for deal in Deal.objects.filter(table_id__in=table_ids).order_by("table_id", "number"):
            last[deal.table_id] = deal  # one deal a table: its pages are the same template for every deal
        self.deals = list(last.values())
        self.values: dict[str, list[Any]] = {
            "slug": [t.slug],
            "tournament": [t.pk],
            "club_slug": [t.club.slug] if t.club_id else [],
            "club": [t.club_id] if t.club_id else [],
            "round_number": [r.number for r in self.rounds],
            "round": [r.pk for r in self.rounds],
            "table": table_ids,
            "deal": [d.pk for d in self.deals],
            "ruling": list(Ruling.objects.filter(table_id__in=table_ids).values_list("pk", flat=True)),
            "call": list(ArbiterCall.objects.filter(table_id__in=table_ids).values_list("pk", flat=True)),
            "link": list(PrivateLink.objects.filter(table_id__in=table_ids).values_list("pk", flat=True)),
            "entry": list(t.entries.values_list("pk", flat=True)[:3]),
            "player": list(t.entries.values_list("player_id", flat=True)[: None if full else 1]),
            "user": [event.users["arbiter"].pk],
            "version": [],
            "season": [],
            "engine_digest": [],
            "etui": list(t.etuis.order_by("number").values_list("number", flat=True)[: None if full else 2]),
            "table_token": [],
            "backup": [],  # a download of the whole database: the backups page is visited, not its files
            "player_token": list(PrivateLink.objects.filter(tournament=t, entry__isnull=False,
                                                            revoked_at__isnull=True)
                                 .values_list("token", flat=True)[:2]),
        }

    def round_of(self, page: Page, kwargs: dict[str, Any]) -> int | None:
        """The number of the round a page shows (None: the tournament's own page)."""
        if "number" in kwargs and "rounds/" in page.route:
            return kwargs["number"]
        if "pk" in kwargs and "tables/" in page.route:
            return next(t.round.number for t in self.tables if t.pk == kwargs["pk"])
        if "pk" in kwargs and "deals/" in page.route:
            deal = next(d for d in self.deals if d.pk == kwargs["pk"])
            return next(t.round.number for t in self.tables if t.pk == deal.table_id)
        return None

    def kwargs(self, page: Page) -> list[dict[str, Any]]:
        """Every filling of the page's parameters (deal pages: the deals of each table; others: the product)."""
        if not page.params:
            return [{}]
        kinds = {p: _kind(page.route, p) for p in page.params}
        if any(k.startswith("?") for k in kinds.values()):
            raise AssertionError(f"tests/events cannot fill {page.name} ({page.route}): teach invariants._kind")
        out: list[dict[str, Any]] = [{}]
        for param, kind in kinds.items():
            values = self.values[kind]
            if kind == "round_number" and SLOW.search(page.route):
                values = values[-1:]  # a PDF of the last round: the same layout for the others
            out = [{**o, param: v} for o in out for v in values]
        return out


def check_pages(event: Event, step: str, *, full: bool) -> None:
    from django.urls import reverse

    scope = Scope(event, full=full)
    t = event.tournament
    released = {r.number for r in t.rounds.all() if r.released or r.number <= t.released_round}
    visible = t.is_public and t.status != "draft"
    failures: list[str] = []

    def visit(who: Any, url: str, role: str) -> Any:
        try:
            return event.get(who, url)
        except AssertionError as exc:
            failures.append(f"{step}: {exc}")
            return None

    for page in pages():
        if not full and (SLOW.search(page.route) or page.name not in LIGHT_NAMES):
            continue
        if page.audience == "link":
            continue  # below, with each table's device
        for kwargs in scope.kwargs(page):
            if page.name in KNOWN_5XX and KNOWN_5XX[page.name](t, kwargs):
                continue
            url = reverse(page.name, kwargs=kwargs)
            if page.audience == "api":
                token = event.api_token("organizer")
                response = event.request("anonymous", "get", url, HTTP_AUTHORIZATION=f"Token {token}")
                continue
            staff_page = page.audience in ("organizer", "desk") and page.name not in OPEN_NAMES
            if not full:  # after an ordinary step: the staff page for the organizer, the public one for the public
                roles = ["anonymous"] if page.audience == "public" else ["organizer"]
            else:
                roles = ["organizer", "anonymous"] if staff_page or page.audience == "public" else ["organizer"]
            if full and staff_page and not (set(kwargs) & {"pk", "number"}):
                roles += ["chief", "outsider", "arbiter"]
            for role in roles:
                response = visit(role, url, role)
                if response is None:
                    continue
                code = response.status_code
                if staff_page and role in ("anonymous", "outsider") and code == 200:
                    shown = scope.round_of(page, kwargs)
                    if page.name not in SHARED_NAMES or not visible or (shown is not None and shown not in released):
                        failures.append(f"{step}: {role} sees the staff page {url}")
                if page.audience == "public" and role == "anonymous" and visible:
                    number = kwargs.get("number")
                    if "rounds/" in page.route and number is not None and number not in released \
                            and page.name in ("public-round", "public-score-sheets") and code == 200:
                        failures.append(f"{step}: the public sees round {number} before its release ({url})")
                    if not page.params[1:] and page.name in ("public-home", "public-ranking", "public-screen") \
                            and code != 200:
                        failures.append(f"{step}: public page {url} answers {code}")
    # each table's device: its own pages, never another table's deals
    tokens = {link.table_id: link.token for link in
              PrivateLink.objects.filter(table_id__in=[x.pk for x in scope.tables], revoked_at__isnull=True)}
    for table_id, token in tokens.items():
        client = event.link_clients.get(table_id)
        if client is None:
            continue
        for page in pages():
            if page.audience != "link" or page.route.startswith("j/") or not (full or page.name in LIGHT_NAMES):
                continue
            if "number" in page.params:  # a link names its table's deals by their number, never by a database id
                own = [d for d in scope.deals if d.table_id == table_id]
                for deal in own:
                    response = visit(client, reverse(page.name, kwargs={"token": token, "number": deal.number}),
                                     "link")
                    if response is not None and response.status_code != 200:
                        failures.append(f"{step}: table link of table {table_id} cannot open its deal {deal.number} "
                                        f"({response.status_code})")
                beyond = max((d.number for d in own), default=0) + 1
                response = visit(client, reverse(page.name, kwargs={"token": token, "number": beyond}), "link")
                if response is not None and response.status_code == 200:
                    failures.append(f"{step}: table link of table {table_id} opens a deal {beyond} it does not have")
            else:
                visit(client, reverse(page.name, kwargs={"token": token}), "link")
    for token in scope.values["player_token"]:
        for page in pages():
            if page.route.startswith("j/") and page.params == ("token",):
                visit(event.clients["anonymous"], reverse(page.name, kwargs={"token": token}), "player")
    if failures:
        raise AssertionError("\n".join(failures))


# -- the data --------------------------------------------------------------------------------------------

def check_table_sizes(event: Event, step: str) -> None:
    game = event.tournament.game
    counts = set(get_game(game).player_counts)
    for table in Table.objects.filter(round__tournament=event.tournament).select_related("round"):
        n = table.seats.count()
        if n == 0 or n in counts:
            continue
        if n == 1 and game in BYE_GAMES and not Deal.objects.filter(table=table).exists():
            continue
        raise AssertionError(f"{step}: round {table.round.number} table {table.number} seats {n} "
                             f"({game} is played at {sorted(counts)})")


def check_zero_sum(event: Event, step: str) -> None:
    if event.tournament.game not in ZERO_SUM_GAMES:
        return
    sums = (ScoreRow.objects.filter(tournament=event.tournament, deal__isnull=False, ruling__isnull=True)
            .values("deal_id").annotate(total=Sum("points")))
    wrong = [(s["deal_id"], s["total"]) for s in sums if s["total"] != 0]
    assert not wrong, f"{step}: deals not zero-sum (deal id, sum): {wrong}"


def check_irregular(event: Event, step: str) -> None:
    """An irregular deal's own marks never count (a ruling's rows stand for it); one no ruling decides is listed on
    the chief arbiter's page (``waiting_deals``) and nowhere counted."""
    wrong = list(ScoreRow.objects.filter(tournament=event.tournament, deal__status=Deal.Status.IRREGULAR,
                                         ruling__isnull=True, counts=True).values_list("deal_id", flat=True))
    assert not wrong, f"{step}: the marks of irregular deals count: {sorted(set(wrong))}"
    doubled = [r.deal_id for r in Ruling.objects.filter(tournament=event.tournament, withdrawn_at__isnull=True,
                                                        deal__status=Deal.Status.VALID).exclude(decision="")
               if ScoreRow.objects.filter(ruling=r, counts=True).exists()]
    assert not doubled, f"{step}: deals counted twice (their own marks and a ruling's on them): {doubled}"


def _released_round_ids(event: Event) -> list[int]:
    t = event.tournament
    return [r.pk for r in t.rounds.all() if r.released or r.number <= t.released_round]


def check_totals(event: Event, step: str) -> None:
    """Each entry's published total = the sum of its rows that count in the released rounds (Tarot, free deals);
    a match's totals = the sums of its deals' rows (match games)."""
    t = event.tournament
    snapshot = rankings.latest_snapshot(t.pk)
    if t.game == "tarot" and snapshot is not None and snapshot.kind == "tarot":
        rows = (ScoreRow.objects.filter(tournament=t, counts=True, round_id__in=_released_round_ids(event))
                .values("entry_id").annotate(total=Sum("points")))
        sums = {r["entry_id"]: r["total"] for r in rows}
        for line in rankings.snapshot_lines(snapshot):
            metrics = dict(line.metrics)
            total = metrics.get("marks")
            assert total is not None, f"{step}: no total in {line.metrics}"
            assert int(total) == sums.get(line.entry_id, 0), (
                f"{step}: published total {total} of entry {line.entry_id} ≠ sum of its rows "
                f"{sums.get(line.entry_id, 0)}")
    if t.is_match_game:
        for table in Table.objects.filter(round__tournament=t, match_totals__isnull=False):
            rows: dict[int, int] = defaultdict(int)
            # the deals' own rows and the rulings' (an irregular deal's ruling: the adjustment event of the match)
            for entry_id, points in ScoreRow.objects.filter(table=table, counts=True).values_list("entry_id",
                                                                                                  "points"):
                rows[entry_id] += points
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            totals = table.match_totals
            if isinstance(totals, list) and len(totals) == len(seats) and all(isinstance(x, int) for x in totals):
                mine = [rows.get(e, 0) for e in seats]
                assert mine == totals, f"{step}: table {table} match totals {totals} ≠ sums of its rows {mine}"


def check_ranking(event: Event, step: str) -> None:
    """The published ranking is up to date and is what a recompute gives now."""
    t = event.tournament
    status = rankings.ranking_status(t)
    assert status.up_to_date, f"{step}: the published ranking is behind its inputs"
    snapshot = status.snapshot
    if snapshot is None:
        return
    computed = rankings.ranking_compute(tournament=t)
    assert sorted(snapshot.released_rounds) == sorted(computed.round_numbers), step

    def published(unit: str) -> list[tuple[Any, ...]]:
        return [(line.entry_id if unit == "entry" else line.team_id, line.rank,
                 [[k, v] for k, v in line.metrics])
                for line in rankings.snapshot_lines(snapshot, unit)]

    def recomputed(ranked: Any) -> list[tuple[Any, ...]]:
        return [(line.entry, line.rank, [[k, rankings._metric_json(v)] for k, v in line.metrics])
                for line in ranked.lines]

    assert published("entry") == recomputed(computed.individual), f"{step}: published ranking ≠ recompute"
    if computed.teams is not None:
        assert published("team") == recomputed(computed.teams), f"{step}: published team ranking ≠ recompute"


def check_all(event: Event, step: str, *, full: bool) -> None:
    import time

    for check in (check_table_sizes, check_zero_sum, check_irregular, check_ranking, check_totals):
        began = time.perf_counter()
        check(event, step)
        key = f"check:{check.__name__}"
        event.timings[key] = event.timings.get(key, 0.0) + time.perf_counter() - began
    check_pages(event, step, full=full)

