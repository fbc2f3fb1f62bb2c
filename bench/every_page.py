"""Every page and export a user can open, measured (issue 22; the developers' guide: « A benchmark covers every page
and export a user can open, not only those an issue names »).

* :func:`build_more` — what ``bench/public.py``'s Tarot event lacks for the other pages, at the same size: a club
  whose members are the event's players (``/c/<club>/``), a duplicate Tarot event (``bench/duplicate.py``'s
  generator: 3 rounds of 8 étuis, its last round drawn and in play, its clock running: the hall screen's seating
  and clock, the étuis and their travellers), a season whose championship counts both events (its page, CSV,
  PDF), a player's link (his private history), an organizer of both events (the draw and the score sheets, under
  ``/p/``, are the staff's; every staff page of ``bench/staff_pages.py``), an arbiter's call and a ruling.
* :func:`more_targets` — those pages as targets of ``bench/public.py``'s run, beside the trivial view.
* :data:`PUBLIC` — every URL name of the public URLconf (``tournaments/public/urls.py``): the target that measures
  it, or (:data:`PUBLIC_EXCLUDED`) why none does; :data:`STAFF` and :data:`STAFF_EXCLUDED` the same for the
  organizer's, the desk's and the chief's pages and the API's GETs. ``tests/bench/test_every_page.py`` fails when
  a name has neither; :func:`check_coverage` fails a run whose targets miss a public name.
"""

from __future__ import annotations

import contextlib
import http.client
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]

#: the duplicate event's size beside the Tarot event's players: few étuis (the pages, not the matchpoints, are
#: measured here; bench/duplicate.py measures a duplicate's ranking at full size)
DUPLICATE_ROUNDS, DUPLICATE_BOARDS = 3, 8
STAFF_USER = "bench-organizer"

# -- what each public URL name is measured by ------------------------------------------------------------------

#: public URL name → the bench/public.py target that requests it
PUBLIC: dict[str, str] = {
    "public-home": "home",
    "public-ranking": "ranking",
    "public-ranking-csv": "ranking CSV",
    "public-ranking-print": "printable ranking",
    "public-screen": "hall screen",
    "public-screen-seating": "hall screen: seating",
    "public-screen-clock": "hall screen: clock",
    "public-round": "round results (50 tables)",
    "public-results-csv": "results CSV",
    "public-results-print": "printable results",
    "public-player": "player",
    "public-score-sheets": "score sheets (staff)",
    "public-round-draw": "round draw (staff: to the organizer's changes)",
    "print-ranking": "PDFs (ranking, round results, seating)",
    "print-round-results": "PDFs (ranking, round results, seating)",
    "print-seating": "PDFs (ranking, round results, seating)",
    "print-score-sheets": "score sheets PDF (staff)",
    "public-results-file": "results file (JSON)",
    "public-etuis": "étuis (duplicate)",
    "public-etui": "an étui's traveller",
    "public-season": "season",
    "public-championship": "championship",
    "public-championship-csv": "championship CSV and PDF",
    "public-championship-pdf": "championship CSV and PDF",
    "public-player-history": "a player's history",
    "player-history-private": "a player's history through his link",
    "public-club": "club",
    "public-ledger": "ledger",
}
#: public URL names no target requests, and why
PUBLIC_EXCLUDED: dict[str, str] = {
    "public-language": "the language switch: a POST that sets a cookie and redirects, no page",
    "health": "the load balancer's probe (tournaments/operations/health.py), not a page a user opens",
}


@dataclass
class Extra:
    """What :func:`build_more` wrote: the ids and names the targets need."""

    tarot_slug: str
    tarot_id: int
    duplicate_slug: str
    duplicate_id: int
    club_slug: str
    club_id: int
    season_slug: str
    season_id: int
    championship_slug: str
    championship_id: int
    player_ids: list[int]
    player_token: str
    table_token: str
    table_id: int
    round_id: int
    duplicate_table_id: int
    deal_id: int
    entry_id: int
    call_id: int
    ruling_id: int
    link_id: int
    staff_user_id: int
    staff_session: str


# -- the data ------------------------------------------------------------------------------------------------


def build_more(tarot_id: int, players: int) -> Extra:
    """The club, the duplicate event, the season and its championship, the links and the organizer beside the
    Tarot event ``tarot_id`` of ``players`` players (kept when an earlier run wrote them); the ids."""
    from django.contrib.auth import get_user_model

    from tournaments.clubs.models import Club, ClubRole
    from tournaments.event.models import Entry, Player, Tournament, TournamentRole

    tarot = Tournament.objects.get(pk=tarot_id)
    club, _ = Club.objects.get_or_create(slug=f"club-bench-{players}",
                                         defaults={"name": "Club de la Levée", "city": "Lyon"})
    duplicate = _duplicate(players)
    Player.objects.filter(licence__startswith=f"bench-{players}-").update(home_club=club)
    Tournament.objects.filter(pk__in=[tarot.pk, duplicate.pk]).update(club=club, date=date(2026, 3, 14))
    user, made = get_user_model().objects.get_or_create(username=f"{STAFF_USER}-{players}")
    if made:
        user.set_password("bench-organizer-pass")
        user.save()
    ClubRole.objects.get_or_create(club=club, user=user, role=ClubRole.Role.ORGANIZER)
    for t in (tarot, duplicate):
        TournamentRole.objects.get_or_create(tournament=t, user=user, role=TournamentRole.Role.ORGANIZER)
    season, champ = _season(club, players, [tarot, duplicate])
    entry = Entry.objects.filter(tournament=tarot).order_by("id")[players // 2]
    table_id, deal_id, player_token, table_token, call_id, ruling_id, link_id = _desk(tarot, entry, user)
    dup_table = duplicate.rounds.get(number=1).tables.order_by("number").values_list("pk", flat=True).first()
    ids = list(Entry.objects.filter(tournament=tarot).order_by("id").values_list("player_id", flat=True))
    return Extra(tarot.slug, tarot.pk, duplicate.slug, duplicate.pk, club.slug, club.pk, season.slug, season.pk,
                 champ.slug, champ.pk, ids, player_token, table_token, table_id,
                 tarot.rounds.get(number=10).pk, dup_table, deal_id, entry.pk,
                 call_id, ruling_id, link_id, user.pk, _session(user))


def _duplicate(players: int) -> Any:
    """bench/duplicate.py's duplicate at ``players`` players, its last round drawn and in play (not released,
    its clock running), its ranking published and its publication's renders done."""
    import duplicate as generator  # bench/duplicate.py
    from django.db import transaction
    from django.utils import timezone

    from tournaments.event.models import Round, Tournament
    from tournaments.public import tasks as public_tasks
    from tournaments.standings import rankings

    generator.PLAYERS, generator.TABLES = players, players // 4
    generator.ROUNDS, generator.BOARDS = DUPLICATE_ROUNDS, DUPLICATE_BOARDS
    kept = Tournament.objects.filter(slug=f"bench-duplicate-{players}").first()
    t = generator.store(generator.generate()) if kept is None else kept
    if kept is None:
        Round.objects.filter(tournament=t, number=DUPLICATE_ROUNDS).update(
            released=False, status=Round.Status.RUNNING, clock_started_at=timezone.now())
        with transaction.atomic():
            rankings.ranking_inputs_changed(tournament_id=t.pk)
        rankings.ranking_publish(tournament_id=t.pk)
    version = t.ranking_snapshots.order_by("-input_version").values_list("input_version", flat=True).first()
    public_tasks.render_published(t.pk, version)
    return t


def _season(club: Any, players: int, counted: list[Any]) -> tuple[Any, Any]:
    """The club's season and its championship over ``counted``, published, its documents rendered."""
    from tournaments.public import seasons as public_seasons
    from tournaments.seasons import championships
    from tournaments.seasons.models import Championship, Season

    season, _ = Season.objects.get_or_create(slug=f"saison-bench-{players}", defaults={
        "club": club, "name": "Saison 2025-2026", "starts_on": date(2025, 9, 1), "ends_on": date(2026, 8, 31)})
    champ, made = Championship.objects.get_or_create(season=season, slug="championnat-du-club", defaults={
        "name": "Championnat du club", "table": {"kind": "rank", "points": list(range(100, 0, -1))}})
    if made:
        champ.tournaments.set(counted)
    snap = championships.championship_publish(champ.pk) or championships.latest_snapshot(champ.pk)
    public_seasons.render_published(champ.pk, snap.version)
    return season, champ


def _desk(tarot: Any, entry: Any, user: Any) -> tuple[int, int, str, str, int, int, int]:
    """A table of round 10 and its first deal, the player's and the table's links, a call, a ruling."""
    from tournaments.deals.models import Deal, Ruling
    from tournaments.links import service as links
    from tournaments.links.models import ArbiterCall

    table = tarot.rounds.get(number=10).tables.order_by("number").first()
    deal = Deal.objects.filter(table=table).order_by("number").first()
    player_link = links.link_for_entry(entry=entry)
    table_link = links.link_for_table(table=table)
    call = links.call_create(table=table, reason=ArbiterCall.Reason.values[0])
    ruling = (Ruling.objects.filter(table=table).first()
              or Ruling.objects.create(tournament=tarot, table=table, kind=Ruling.Kind.values[0],
                                       reason="Bench : une décision", created_by=user))
    return table.pk, deal.pk, player_link.token, table_link.token, call.pk, ruling.pk, table_link.pk


def _session(user: Any) -> str:
    """A session of ``user`` in the database the web workers read (the sign-in a browser would hold)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


# -- the public targets --------------------------------------------------------------------------------------


def more_targets(conn: http.client.HTTPConnection, extra: Extra, players: int) -> list[Any]:
    """The public pages bench/public.py's Tarot event does not show, full and (where the page has an ETag)
    conditional; the staff's under /p/ with the organizer's session."""
    from public import Target, get, wait_ready  # bench/public.py

    staff = {"Cookie": f"django_language=fr; sessionid={extra.staff_session}"}
    base, dup = f"/p/{extra.tarot_slug}", f"/p/{extra.duplicate_slug}"
    champ = f"/saisons/{extra.season_slug}/{extra.championship_slug}"

    def measured(name: str, paths: list[str], headers: dict[str, str] | None = None,
                 status: int = 200, conditional_too: bool = True) -> list[Any]:
        headers = headers or {}
        full, conditional = [], []
        for p in paths:
            started = time.perf_counter()
            got, _, h = get(conn, p, headers)
            if time.perf_counter() - started > 0.1:
                print(f"{p}: first request {(time.perf_counter() - started) * 1000:,.0f} ms")
            assert got == status, (p, got)
            full.append((p, headers, status))
            if "etag" in h and conditional_too:
                conditional.append((p, {**headers, "If-None-Match": h["etag"]}, 304))
        return [Target(name, full)] + ([Target(f"{name}, conditional", conditional)] if conditional else [])

    files = [f"{champ}/classement.csv", f"{champ}/classement.pdf"]
    for path in files:
        print(f"{path}: ready after {wait_ready(conn, path):.1f} s")
    sheets = f"{base}/rounds/10/sheets.pdf"
    print(f"{sheets} (staff): ready after {_wait_ready_as(conn, sheets, staff):.1f} s")
    seating_pages = max((players + 99) // 100, 1)
    out = []
    out += measured("hall screen: seating", [f"{dup}/screen/seating/?page=1",
                                             f"{dup}/screen/seating/?page={min(2, seating_pages)}"])
    # the clock's page is a new one each second (the time left): a conditional request a second later is a 200
    out += measured("hall screen: clock", [f"{dup}/screen/clock/"], conditional_too=False)
    out += measured("étuis (duplicate)", [f"{dup}/etuis/"])
    out += measured("an étui's traveller", [f"{dup}/etuis/1/", f"{dup}/etuis/{DUPLICATE_BOARDS + 1}/"])
    out += measured("score sheets (staff)", [f"{base}/rounds/10/sheets/"], staff)
    out += measured("round draw (staff: to the organizer's changes)", [f"{base}/rounds/10/draw/"], staff, 302)
    out += measured("score sheets PDF (staff)", [sheets], staff)
    out += measured("season", [f"/saisons/{extra.season_slug}/"])
    out += measured("championship", [f"{champ}/", f"{champ}/?page=2"])  # its first page and one made on demand
    out += measured("championship CSV and PDF", files)
    out += measured("a player's history", [f"/joueurs/{p}/" for p in extra.player_ids[:20]])
    out += measured("a player's history through his link", [f"/j/{extra.player_token}/parcours/"])
    out += measured("club", [f"/c/{extra.club_slug}/"])
    return out


def reference(direct: int | None) -> list[Any]:
    """The trivial view alone (``--only every``): through nginx, and straight to gunicorn's port ``direct``."""
    from public import Target

    out = [Target("trivial view" + (" (through nginx)" if direct else ""), [("/bench/trivial/", {}, 200)],
                  public=False)]
    if direct:
        out.append(Target("trivial view, straight to gunicorn", [("/bench/trivial/", {}, 200)], public=False,
                          port=direct))
    return out


def _wait_ready_as(conn: http.client.HTTPConnection, path: str, headers: dict[str, str],
                   limit: float = 900.0) -> float:
    """bench/public.py's ``wait_ready`` with the staff's session (a staff file: « en préparation » meanwhile)."""
    from public import get

    started = time.perf_counter()
    while time.perf_counter() - started < limit:
        status, _, _ = get(conn, path, headers)
        if status == 200:
            return time.perf_counter() - started
        assert status == 202, (path, status)
        time.sleep(1.0)
    raise SystemExit(f"{path} not ready after {limit:g} s")


def check_coverage(tlist: list[Any]) -> bool:
    """Every public URL name is requested by one of the run's targets (each variant's path resolved), and each
    target :data:`PUBLIC` names exists; prints what is missing."""
    from django.urls import Resolver404, resolve

    from tournaments.public import urls as public_urls

    names = {p.name for p in public_urls.urlpatterns} - set(PUBLIC_EXCLUDED)
    asked: set[str] = set()
    for target in tlist:
        for path, _, _ in target.variants:
            with contextlib.suppress(Resolver404):
                asked.add(resolve(path.split("?", 1)[0]).url_name)
    shown = {t.name.split(" (")[0] for t in tlist} | {t.name for t in tlist}
    missing = sorted(names - asked)
    unnamed = sorted({v for v in PUBLIC.values() if v not in shown and v.split(" (")[0] not in shown})
    if missing or unnamed:
        print(f"NOT every public page measured: no target for {missing}; targets named in every_page.PUBLIC "
              f"and not run: {unnamed}")
    else:
        print(f"every public page measured: {len(names)} URL names, {len(PUBLIC_EXCLUDED)} excluded "
              f"({', '.join(PUBLIC_EXCLUDED)})")
    return not missing and not unnamed


# -- the staff's pages ---------------------------------------------------------------------------------------

#: staff URL names (organizer, desk and chief, the API's GETs) by their arguments: ``kwarg=field`` of an
#: :class:`Extra` (``player_ids[0]``: its first player), or a number
_STAFF_BY_ARGUMENTS: dict[str, str] = {
    "": ("login home tournament_create clubs licences_import seasons backups my_tables api:schema api:docs "
         "api:tournaments api:players api:clubs api:seasons"),
    "slug=tarot_slug": ("tournament_detail players staff staff_account_create teams player_cards table_links "
                        "arrivals chief_page tournament_settings"),
    "slug=tarot_slug number=10": "round_detail table_cards round_changes",
    "club=club_slug": "club",
    "season=season_slug": "season_detail season_delete championship_create",
    "season=season_slug champ_slug=championship_slug": "championship_edit championship_delete",
    "slug=tarot_slug entry_id=entry_id": "player_edit",
    "slug=duplicate_slug": "duplicate_setup duplicate_records duplicate_import",
    "slug=duplicate_slug number=1": "duplicate_cards",
    "pk=table_id": ("table_detail deal_enter ruling_create table_forfeit deal_play deal_sw api:table api:table-deals "
                    "api:table-export api:table-forfeit"),
    "pk=ruling_id": "ruling_withdraw",
    "pk=deal_id": ("deal_detail deal_correct deal_correct_play deal_restore api:deal api:deal-versions "
                   "api:deal-answers"),
    "pk=duplicate_table_id": "table_etuis",
    "token=table_token": "link_home link_enter link_call link_manifest link_sw link_engine_worker api:link-sheets",
    "token=table_token number=1": "link_deal",
    "token=player_token": "player_home api:player-sheets",
    "pk=tarot_id": ("api:tournament api:tournament-roles api:registrations api:teams api:rounds api:rulings "
                    "api:tournament-export api:ranking api:ranking-diff api:links api:calls"),
    "pk=duplicate_id": "api:duplicate api:duplicate-etuis",
    "pk=duplicate_id number=1": "api:duplicate-traveller",
    "pk=entry_id": "api:registration",
    "pk=club_id": "api:club-members api:club",
    "pk=player_ids[0]": "api:player api:person-history",
    "pk=round_id": "api:round",
    "pk=tarot_id version=1": "api:ranking-version",
    "pk=season_id": "api:season api:season-export",
    "pk=championship_id": "api:championship api:championship-ranking api:championship-ranking-diff",
    "pk=championship_id version=1": "api:championship-ranking-version",
}


def _path(name: str, spec: str) -> Callable[[Extra], str]:
    """The path of URL ``name`` whose arguments ``spec`` (« pk=deal_id number=1 ») are read from an Extra."""

    def path(x: Extra) -> str:
        from django.urls import reverse

        kwargs: dict[str, Any] = {}
        for part in spec.split():
            key, field_name = part.split("=")
            kwargs[key] = (int(field_name) if field_name.isdigit() else x.player_ids[0]
                           if field_name == "player_ids[0]" else getattr(x, field_name))
        return reverse(name, kwargs=kwargs)

    return path


#: staff URL name → its path in the bench's data
STAFF: dict[str, Callable[[Extra], str]] = {
    name: _path(name, spec) for spec, names in _STAFF_BY_ARGUMENTS.items() for name in names.split()}
_POST = "a POST (a change), no page: its form is on the page that links to it"
#: staff URL names no target requests, and why (the API's views without ``get`` are told apart by the test)
STAFF_EXCLUDED: dict[str, str] = {
    "logout": "a POST that signs out",
    "backup_download": "a backup file (none in the bench's data; a FileResponse of the file as it is)",
    "rules_engine_zip": "the rules engine's zip, one file per code version, cached for a year (bench/engine_page.py)",
    **{name: _POST for name in (
        "entry_remove", "players_merge", "records_merge", "player_anonymize", "staff_password_reset", "round_create",
        "round_seat", "round_status", "round_release", "round_draw", "link_revoke", "round_clock", "tournament_status",
        "tournament_public",
        "deal_check", "irregular_rule", "deal_correct_play_save", "deal_approve", "deal_play_save", "deal_offline",
        "table_artificial", "link_deal_check", "link_deal_offline", "call_take", "call_resolve",
        "deal_play_state", "link_deal_state", "player_answer")},
}


def staff_names() -> dict[str, str]:
    """Every staff URL name (the organizer's, the desk's, the chief's, the API's with a GET), with its module;
    the API's views without ``get`` are left out (nothing to read)."""
    from tournaments import urls as root
    from tournaments.api import urls as api
    from tournaments.desk import urls as desk
    from tournaments.organizer import urls as organizer

    out = {p.name: "accounts" for p in root.urlpatterns if getattr(p, "name", None)}
    out |= {p.name: "organizer" for p in organizer.urlpatterns}
    out |= {p.name: "desk" for p in desk.urlpatterns}

    def walk(patterns: list[Any]) -> None:
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns)
            elif hasattr(getattr(p.callback, "view_class", None), "get"):
                out[f"api:{p.name}"] = "api"

    walk(api.urlpatterns)
    return out

