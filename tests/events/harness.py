"""The driver of a whole event through the service's HTTP surface, as its users drive it.

:class:`Event` holds one Django test client per role — the organizer, the chief arbiter, a table arbiter, an
outsider (an account with no role), an anonymous visitor, and the devices of the tables (their private links) —
and API tokens. Its steps post the real forms (``/new/``, the players page, the staff page, the draw, the round's
status, the deal entry of the desk, of a table's link and of the API, corrections, the visa, rulings, the day's
changes); after every step :meth:`Event.check` runs the invariants (:mod:`tests.events.invariants`).

Deals are legal by construction (:mod:`tests.events.deals`), drawn from one seeded ``random.Random``.
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.events import deals as gen
from tests.events import invariants
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.event.models import Entry, Round, Table, Tournament
from tournaments.links.models import PrivateLink

FIRST = ("Ana", "Bruno", "Chloé", "David", "Élodie", "Fanny", "Gaston", "Hélène", "Ibrahim", "Jeanne", "Karim",
         "Léa", "Marc", "Nadia", "Océane", "Paul", "Quentin", "Rose", "Samir", "Thérèse", "Ugo", "Valérie",
         "William", "Xavier", "Yasmine", "Zoé")
LAST = ("Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau",
        "Simon", "Laurent", "Lefèvre", "Michel", "Garcia", "Bœuf", "Roux", "Fournier", "Girard", "Mercier")
CLUBS = ("Tarot Club de Lyon", "Les Excusés de Nantes", "Amicale de Brest", "Cercle de Dijon")

PASSWORD = "répétition-générale"


class StepFailed(AssertionError):
    """An invariant broken after a step, or a step refused where it should not be."""


class Event:
    """One event of one game, driven through the pages."""

    def __init__(self, capture: Callable[..., Any], *, label: str, game: str, seed: int, rounds: int = 3,
                 players_per_table: int | None = None, tarot_five: str = "", fmt: str = "individual",
                 deals_per_round: int | None = None, target: int | None = None, extra: dict[str, str] | None = None,
                 light: bool = True, sweep_rounds: bool = False) -> None:
        self.capture, self.label, self.game = capture, label, game
        self.rng = random.Random(seed)
        self.seed = seed
        self.light = light  # after each step: the pages the step touched; the whole site at the end
        self.sweep_rounds = sweep_rounds  # the whole site: a table of each size in every round (else: in one)
        self.steps: list[tuple[str, float]] = []
        self.timings: dict[str, float] = {}
        self.requests = 0
        self.step_requests: list[int] = []
        self.touched_tables: set[int] = set()
        self.users = {}
        User = get_user_model()
        for role in ("organizer", "chief", "arbiter", "outsider"):
            user, _ = User.objects.get_or_create(username=f"{label}-{role}")
            user.set_password(PASSWORD)
            user.save()
            self.users[role] = user
        self.users["organizer"].user_permissions.add(Permission.objects.get(codename="add_tournament"))
        # the organizer works for a club: his tournament is the club's (issue 23), the club's pages are visited
        from tournaments.clubs.models import Club, ClubRole

        club, _ = Club.objects.get_or_create(slug=f"club-{label}"[:120], defaults={"name": f"Club {label}"[:120]})
        ClubRole.objects.get_or_create(club=club, user=self.users["organizer"], role=ClubRole.Role.ORGANIZER)
        for role in ("chief", "arbiter"):  # the club's arbiters: tapped on the staff page (never a typed name)
            ClubRole.objects.get_or_create(club=club, user=self.users[role], role=ClubRole.Role.ARBITER)
        self.clients: dict[str, Client] = {}
        for role, user in self.users.items():
            self.clients[role] = Client(raise_request_exception=False)
            self.clients[role].force_login(user)
        self.clients["anonymous"] = Client(raise_request_exception=False)
        self.link_clients: dict[int, Client] = {}
        self.link_tokens: dict[int, list[str]] = {}
        self.started = time.perf_counter()
        self.cpu_started = time.process_time()
        form = {"name": f"Répétition {label}", "game": game, "format": fmt, "rounds_planned": str(rounds),
                "is_public": "on", "round_minutes": "60", "venue": "Salle des fêtes"}
        if players_per_table:
            form["players_per_table"] = str(players_per_table)
        if tarot_five:
            form["tarot_five"] = tarot_five
        if deals_per_round:
            form["deals_per_round"] = str(deals_per_round)
        if target:
            form["target"] = str(target)
        form.update(extra or {})
        response = self.post("organizer", reverse("tournament_create"), form)
        assert response.status_code == 302, self.problems(response)
        self.slug = response["Location"].split("/")[2]
        self.tournament = Tournament.objects.get(slug=self.slug)
        assert self.tournament.club is not None and self.tournament.club.slug.startswith("club-"), "not the club's"
        self.api_tokens: dict[str, str] = {}
        self.check("tournament created")

    # -- requests ------------------------------------------------------------------------------------------

    def request(self, who: str | Client, method: str, url: str, data: Any = None, **extra: Any) -> Any:
        """One request; never a 5xx. ``who``: a role's name, or a client (a table's device)."""
        client = self.clients[who] if isinstance(who, str) else who
        began = time.perf_counter()
        with self.capture(execute=True):
            response = getattr(client, method)(url, data, **extra) if data is not None else \
                getattr(client, method)(url, **extra)
        key = re.sub(r"/\d+|/[A-Za-z0-9_-]{20,}", "/N", url.split("?")[0]).replace(getattr(self, "slug", "-"), "S")
        self.timings[key] = self.timings.get(key, 0.0) + time.perf_counter() - began
        self.requests += 1
        if response.status_code >= 500:
            exc = getattr(response, "exc_info", None)
            why = f" ({exc[0].__name__}: {exc[1]})" if exc else ""
            raise StepFailed(f"{self.label}: {who} {method.upper()} {url} → {response.status_code}{why}")
        return response

    def get(self, who: str | Client, url: str, **extra: Any) -> Any:
        return self.request(who, "get", url, **extra)

    def post(self, who: str | Client, url: str, data: Any = None, **extra: Any) -> Any:
        return self.request(who, "post", url, data if data is not None else {}, **extra)

    @staticmethod
    def problems(response: Any) -> str:
        """What a refused form said, for the failure message."""
        text = response.content.decode(errors="replace")
        found = re.findall(r'class="[^"]*(?:errorlist|violations|messages?|error)[^"]*"[^>]*>(.*?)</(?:div|ul)>',
                           text, re.S)
        return f"{response.status_code}: " + " | ".join(html.unescape(re.sub(r"<[^>]+>", " ", f)).strip()
                                                       for f in found)[:2000]

    def messages_of(self, response: Any) -> list[str]:
        return [str(m) for m in response.wsgi_request._messages] if hasattr(response, "wsgi_request") else []

    # -- steps -----------------------------------------------------------------------------------------

    def check(self, step: str, *, full: bool = False) -> None:
        """The invariants after ``step`` (every page of the whole site with ``full``)."""
        started, before = time.perf_counter(), self.requests
        self.tournament.refresh_from_db()
        invariants.check_all(self, step, full=full or not self.light)
        self.steps.append((step, time.perf_counter() - started))
        self.step_requests.append(self.requests - before)
        self.touched_tables.clear()

    @contextmanager
    def step(self, name: str, *, full: bool = False) -> Iterator[None]:
        yield
        self.check(name, full=full)

    def register(self, count: int, *, csv: bool = True) -> list[Entry]:
        """Register ``count`` players: from a CSV file (the club's list), the last one typed in by hand."""
        taken = {e.player.name for e in self.tournament.entries.select_related("player")}
        names = []
        while len(names) < count:
            name = f"{self.rng.choice(FIRST)} {self.rng.choice(LAST)}"
            if name not in taken:
                taken.add(name)
                names.append(name)
        url = reverse("players", args=[self.slug])
        typed = names[-1:] if csv and count > 1 else names
        if csv and count > 1:
            lines = ["nom,club,licence"] + [f"{n},{self.rng.choice(CLUBS)}," for n in names[:-1]]
            upload = SimpleUploadedFile("joueurs.csv", "\n".join(lines).encode(), content_type="text/csv")
            response = self.post("organizer", url, {"action": "csv", "file": upload})
            assert response.status_code == 302, self.problems(response)
        for name in typed:
            response = self.post("organizer", url, {"action": "add", "name": name, "club": self.rng.choice(CLUBS),
                                                    "licence": ""})
            assert response.status_code == 302, self.problems(response)
        self.check(f"{count} players registered")
        return list(self.tournament.entries.filter(player__name__in=names))

    def start(self, *, tables_enter: bool = True) -> None:
        """Open, run; the chief arbiter and the table arbiter named; the tables may enter their own deals."""
        for status in ("open", "running"):
            response = self.post("organizer", reverse("tournament_status", args=[self.slug]), {"status": status})
            assert response.status_code == 302
        self.tournament.refresh_from_db()
        assert self.tournament.status == "running", self.tournament.status
        staff = reverse("staff", args=[self.slug])
        for role, kind in (("chief", "chief_arbiter"), ("arbiter", "arbiter")):
            response = self.post("organizer", staff, {"user": self.users[role].pk, "role": kind})
            assert response.status_code == 302, self.problems(response)
        policy = {"appeal_minutes": "0", "confirmations_needed": "", "unconfirmed_count": "on"}
        if tables_enter:
            policy["tables_enter"] = "on"
        response = self.post("organizer", reverse("table_links", args=[self.slug]), policy)
        assert response.status_code == 302, self.problems(response)
        self.check("tournament running, staff named")

    # -- rounds ----------------------------------------------------------------------------------------

    def round_create(self) -> Round:
        response = self.post("organizer", reverse("round_create", args=[self.slug]))
        assert response.status_code == 302
        rnd = self.tournament.rounds.order_by("-number").first()
        assert rnd is not None and f"/rounds/{rnd.number}/" in response["Location"], self.messages_of(response)
        return rnd

    def draw(self, rnd: Round, method: str | None = None, *, seed: int | None = None, check: bool = True
             ) -> list[str]:
        """The automatic draw from the round's page; the messages the organizer read."""
        method = method or ("rotation" if not self.tournament.is_match_game else "swiss")
        response = self.post("organizer", reverse("round_draw", args=[self.slug, rnd.number]),
                             {"method": method, "seed": str(self.rng.randrange(1000) if seed is None else seed)})
        assert response.status_code == 302
        said = self.messages_of(response)
        tables = list(rnd.tables.order_by("number"))
        if tables:
            # the table arbiter gets the first table of the round
            response = self.post("organizer", reverse("staff", args=[self.slug]),
                                 {"user": self.users["arbiter"].pk, "role": "arbiter",
                                  "tables": [tables[0].pk]})
            assert response.status_code == 302, self.problems(response)
        self.touched_tables.update(t.pk for t in tables)
        if check:
            self.check(f"round {rnd.number} drawn ({method})")
        return said

    def seat_by_hand(self, rnd: Round, tables: list[list[int]]) -> None:
        """The organizer's seating form: each table's players in the order of play."""
        data = {f"t{t}_s{p}": str(entry) for t, seats in enumerate(tables) for p, entry in enumerate(seats)}
        response = self.post("organizer", reverse("round_seat", args=[self.slug, rnd.number]), data)
        assert response.status_code == 302
        assert rnd.tables.count() == len(tables), self.messages_of(response)
        self.touched_tables.update(rnd.tables.values_list("pk", flat=True))
        self.check(f"round {rnd.number} seated by hand")

    def _visa_first(self, rnd: Round, url: str, data: dict[str, str]) -> Any:
        """Post ``data`` to end or publish ``rnd``; the page asking first because deals await the chief arbiter's
        visa must name each of them: the chief gives them his visa (the page's link) and the organizer asks again.
        Walks ended rounds with such deals silently not counted."""
        response = self._disputes_said(url, data, self.post("organizer", url, data))
        if response.status_code != 409:
            return response
        text = html.unescape(response.content.decode())
        pending = list(Deal.objects.filter(table__round=rnd, status=Deal.Status.PENDING)
                       .values_list("table__number", "number"))
        assert pending and "le visa de l'arbitre principal" in text, self.problems(response)
        for table, number in pending:
            assert f"Table {table} : donne {number}" in text, (table, number)
        assert reverse("chief_page", args=[self.slug]) in text
        self.approve_pending()
        # the chief reads his queue again, where each visa is said (« Donne 4 visée : elle compte désormais. »)
        said = html.unescape(self.get("chief", reverse("chief_page", args=[self.slug])).content.decode())
        assert "compte désormais" in said
        return self._disputes_said(url, data, self.post("organizer", url, data))

    def _disputes_said(self, url: str, data: dict[str, str], response: Any) -> Any:
        """Publishing over contested deals or calls not answered asks first, naming each (« Table 2 : appel sans
        réponse »): the organizer, having read them, publishes anyway (``confirm_disputes``)."""
        if response.status_code != 409:
            return response
        text = html.unescape(response.content.decode())
        if "publier la manche quand même" not in text or "visa de l'arbitre principal" in text:
            return response
        assert "sans réponse" in text or "contestée" in text, self.problems(response)
        assert reverse("chief_page", args=[self.slug]) in text or "arbiter" in text, self.problems(response)
        return self.post("organizer", url, {**data, "confirm_disputes": "1"})

    def round_status(self, rnd: Round, status: str) -> None:
        response = self._visa_first(rnd, reverse("round_status", args=[self.slug, rnd.number]), {"status": status})
        assert response.status_code == 302
        rnd.refresh_from_db()
        assert rnd.status == status, self.messages_of(response)
        self.check(f"round {rnd.number} {status}")

    def release(self, rnd: Round) -> None:
        response = self._visa_first(rnd, reverse("round_release", args=[self.slug, rnd.number]), {"released": "1"})
        assert response.status_code == 302
        rnd.refresh_from_db()
        assert rnd.released
        self.check(f"round {rnd.number} released")

    def finish(self, *, sweep: bool = True) -> None:
        """The tournament finished, then the whole site visited (with ``sweep``; else the pages of every step)."""
        response = self.post("organizer", reverse("tournament_status", args=[self.slug]), {"status": "finished"})
        assert response.status_code == 302
        self.tournament.refresh_from_db()
        assert self.tournament.status == "finished"
        self.check("tournament finished", full=sweep)

    # -- deals -----------------------------------------------------------------------------------------

    def link_client(self, table: Table) -> tuple[Client, str]:
        """The table's device: its private link (from the organizer's table cards), opened once."""
        link = PrivateLink.objects.filter(table=table, revoked_at__isnull=True).first()
        if link is None:
            self.get("organizer", reverse("table_cards", args=[self.slug, table.round.number]))
            link = PrivateLink.objects.filter(table=table, revoked_at__isnull=True).first()
        if link is None:  # the duplicate cards shadow the round's link cards (issue 20): the links page makes none
            from tournaments.links.service import link_for_table

            link = link_for_table(table=table)
        if table.pk not in self.link_clients:
            self.link_clients[table.pk] = Client(raise_request_exception=False)
        self.link_tokens.setdefault(table.pk, []).insert(0, link.token)
        return self.link_clients[table.pk], link.token

    def api_token(self, role: str) -> str:
        if role not in self.api_tokens:
            response = self.post("anonymous", reverse("api:token"), {"username": self.users[role].username,
                                                                    "password": PASSWORD})
            assert response.status_code == 200, response.content[:300]
            self.api_tokens[role] = response.json()["token"]
        return self.api_tokens[role]

    def head(self, table: Table) -> dict[str, Any]:
        return selectors.record_head(table)

    def playing_seats(self, table: Table) -> dict[str, Any]:
        """Écarté à trois: once a player reached the target and withdrew, the two seats that play on (from the
        match's state the last verdict gives)."""
        if self.game != "ecarte" or table.seats.count() != 3:
            return {}
        from scoring.verdict import judge

        every = selectors.table_deals(table)
        deals = [d for d in every if d.status != Deal.Status.ANNULLED]
        if not deals:
            return {}
        record = selectors.match_record(table, selectors.match_deals(every, deals),
                                        selectors.match_adjustments(table, [d.number for d in deals], len(deals)))
        withdrawn = judge(record).match.detail.get("withdrawn")
        if isinstance(withdrawn, int):
            return {"seats": [s for s in range(3) if s != withdrawn]}
        if isinstance(withdrawn, list) and withdrawn:
            return {"seats": [s for s in range(3) if s not in withdrawn]}
        return {}

    def next_dealer(self, table: Table) -> int:
        from tournaments.desk.entry import next_dealer

        return next_dealer(table, len(selectors.table_players(table)))

    def enter(self, table: Table, via: str = "desk", *, fields: dict[str, Any] | None = None,
              contract: str | None = None, expect_saved: bool = True) -> Deal | None:
        """Enter one legal deal at ``table``: ``desk`` (the table arbiter's expert entry when the table is his, else
        the chief's), ``summary`` (the desk's summary, Tarot), ``link`` (the table's own device) or ``api``."""
        before = Deal.objects.filter(table=table).count()
        head = self.head(table)
        if via == "summary":
            who = "arbiter" if table.arbiter_roles.filter(user=self.users["arbiter"]).exists() else "chief"
            page = self.get(who, reverse("deal_enter", args=[table.pk]) + "?mode=summary", follow=True)
            assert page.status_code == 200 and "summary" in page.redirect_chain[-1][0], page.redirect_chain
            body = {"fields": gen.tarot_summary(self.rng, head, self.next_dealer(table))}
            response = self.request(who, "post", reverse("deal_play_save", args=[table.pk]), json.dumps(body),
                                    content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY=f"rehearsal-{self.rng.getrandbits(64):016x}")
            assert response.status_code == 201, response.content.decode()[:500]
        elif via == "desk":
            who = "arbiter" if table.arbiter_roles.filter(user=self.users["arbiter"]).exists() else "chief"
            url = reverse("deal_enter", args=[table.pk])
            page = self.get(who, url + "?mode=record")
            assert page.status_code == 200, (url, page.status_code)
            dealer = _dealer_on_page(page)
            kw = {"contract": contract} if contract else self.playing_seats(table)
            data = {"mode": "record", "record": json.dumps(fields or gen.deal_fields(self.rng, head, dealer, **kw))}
            data["entry_key"] = f"rehearsal-{self.rng.getrandbits(64):016x}"
            response = self.post(who, url, data)
        elif via == "link":
            client, token = self.link_client(table)
            assert self.get(client, reverse("link_home", args=[token])).status_code == 200
            data = {"mode": "record", "record": json.dumps(fields or gen.deal_fields(
                self.rng, head, self.next_dealer(table), **self.playing_seats(table)))}
            response = self.post(client, reverse("link_enter", args=[token]), data)
        elif via == "api":
            body = fields or gen.deal_fields(self.rng, head, self.next_dealer(table), **self.playing_seats(table))
            response = self.request("anonymous", "post", reverse("api:table-deals", args=[table.pk]),
                                    json.dumps(body), content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Token {self.api_token('chief')}",
                                    HTTP_IDEMPOTENCY_KEY=f"rehearsal-{self.rng.getrandbits(64):016x}")
        else:
            raise ValueError(via)
        self.touched_tables.add(table.pk)
        after = Deal.objects.filter(table=table).count()
        if expect_saved:
            assert after == before + 1, f"{self.label} table {table}: deal not saved via {via}: " + (
                response.content.decode()[:500] if via == "api" else self.problems(response))
            return Deal.objects.filter(table=table).order_by("-number").first()
        return None

    def play_table(self, table: Table, *, count: int | None = None, vias: tuple[str, ...] = ("desk",),
                   max_deals: int = 80) -> list[Deal]:
        """The table's deals: ``count`` of them (Tarot), or until its match ends."""
        out = []
        n = 0
        while True:
            if count is not None and n >= count:
                break
            if count is None:
                table.refresh_from_db()
                if table.match_ended:
                    break
                assert n < max_deals, f"{self.label} {table}: the match did not end in {max_deals} deals"
            out.append(self.enter(table, vias[n % len(vias)]))
            n += 1
        return out

    def playing_tables(self, rnd: Round) -> list[Table]:
        """The tables of the round where a game is played (not a bye)."""
        return [t for t in rnd.tables.order_by("number") if t.seats.count() >= 2]

    def play_round(self, rnd: Round, *, vias: tuple[str, ...] = ("desk", "link", "api"), count: int | None = None,
                   check_each_table: bool = True) -> None:
        """Every table of the round plays: Tarot the round's deals, match games until the match ends; the tables
        take turns at the desk, their link and the API."""
        if count is None and not self.tournament.is_match_game:
            count = self.tournament.deals_per_round or 2
        for i, table in enumerate(self.playing_tables(rnd)):
            via = vias[i % len(vias)]
            self.play_table(table, count=count, vias=(via,))
            if check_each_table:
                self.check(f"round {rnd.number} table {table.number} played ({via})")

    def correct(self, deal: Deal, *, who: str = "chief", fields: dict[str, Any] | None = None,
                reason: str = "Erreur de saisie") -> Deal:
        """The chief arbiter corrects a deal: a new legal deal in place, a reason, the version corrected."""
        table = deal.table
        head = self.head(table)
        url = reverse("deal_correct", args=[deal.pk])
        page = self.get(who, url + "?mode=record")
        assert page.status_code == 200
        body = fields or gen.deal_fields(self.rng, head, deal.record.get("dealer", 0))
        response = self.post(who, url, {"mode": "record", "record": json.dumps(body), "reason": reason,
                                        "version": str(deal.version)})
        assert response.status_code == 302, self.problems(response)
        self.touched_tables.add(table.pk)
        deal.refresh_from_db()
        return deal

    # -- irregular deals (a renonce found: « La saisir quand même », then the chief's ruling) ---------------

    def enter_irregular(self, table: Table, via: str, fields: dict[str, Any]) -> Deal:
        """Enter a deal with a violation of play (a renonce …) as each route does after « La saisir quand même »:
        ``desk`` (the tap page's save, ``"irregular": true``), ``link`` (the table's own tap page, which saves as a
        form with its key), ``outbox`` (the desk's offline outbox replayed: the same form and key sent twice, saved
        once) or ``api`` (``?irregular=1``). First sent without the flag: refused, nothing saved. Then the deal is
        saved irregular, its marks count nowhere, the table's arbiter is called and the chief's page lists it."""
        before = Deal.objects.filter(table=table).count()
        key = f"irregular-{self.rng.getrandbits(64):016x}"
        who = "arbiter" if table.arbiter_roles.filter(user=self.users["arbiter"]).exists() else "chief"
        form = {"mode": "record", "record": json.dumps(fields)}

        def send(flag: bool, attempt: str) -> Any:
            idem = {"HTTP_IDEMPOTENCY_KEY": f"{key}-{attempt}"}
            if via == "desk":
                body = {"fields": fields, **({"irregular": True} if flag else {})}
                return self.request(who, "post", reverse("deal_play_save", args=[table.pk]), json.dumps(body),
                                    content_type="application/json", **idem)
            if via == "link":
                client, token = self.link_client(table)
                assert self.get(client, reverse("link_enter", args=[token])).status_code == 200
                return self.post(client, reverse("link_deal_offline", args=[token]),
                                 {**form, **({"irregular": "1"} if flag else {})}, **idem)
            if via == "outbox":
                return self.post(who, reverse("deal_offline", args=[table.pk]),
                                 {**form, **({"irregular": "1"} if flag else {})}, **idem)
            if via == "api":
                return self.request("anonymous", "post", reverse("api:table-deals", args=[table.pk])
                                    + ("?irregular=1" if flag else ""), json.dumps(fields),
                                    content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Token {self.api_token('chief')}", **idem)
            raise ValueError(via)

        refused = send(False, "plain")
        assert refused.status_code in (400, 422), (via, refused.status_code, refused.content.decode()[:300])
        assert Deal.objects.filter(table=table).count() == before, f"a renonce saved without the flag via {via}"
        response = send(True, "flagged")
        assert response.status_code == 201, (via, response.status_code, response.content.decode()[:500])
        if via == "outbox":  # the outbox sends it again (the answer lost): the same deal, saved once
            again = send(True, "flagged")
            assert again.status_code == 200 and again.json()["number"] == response.json()["number"], again.content
        assert Deal.objects.filter(table=table).count() == before + 1, f"{via}: the irregular deal is not saved"
        deal = Deal.objects.filter(table=table).order_by("-number").first()
        assert deal is not None and deal.status == Deal.Status.IRREGULAR, (via, deal and deal.status)
        assert not deal.score_rows.filter(counts=True).exists(), "an irregular deal's marks count before a ruling"
        from tournaments.links.models import ArbiterCall

        assert ArbiterCall.objects.filter(deal=deal, state=ArbiterCall.State.OPEN).exists(), "the arbiter is not called"
        chief = self.get("chief", reverse("chief_page", args=[self.slug])).content.decode()
        assert reverse("irregular_rule", args=[deal.pk]) in chief, "the chief's page does not list the irregular deal"
        self.touched_tables.add(table.pk)
        self.check(f"round {table.round.number} table {table.number}: an irregular deal entered ({via})")
        return deal

    def rule_irregular(self, deal: Deal, decision: str, *, via: str = "desk", reason: str = "",
                       adjustments: dict[int, int] | Callable[[Deal], dict[int, int]] | None = None,
                       penalty: str = "", offender: int | None = None) -> Any:
        """The chief arbiter's ruling on an irregular deal, from his page (``desk``) or the API; the ruling.
        ``adjustments`` (entry → points) may be made from the deal; a ``penalty``'s offender is by default the
        player who played the forbidden card (the deal's first violation)."""
        if callable(adjustments):
            adjustments = adjustments(deal)
        if penalty and offender is None:
            offender = deal.table.seats.get(position=deal.verdict["violations"][0]["seat"]).entry_id
        if via == "desk":
            data: dict[str, Any] = {"decision": decision, "reason": reason}
            if penalty:
                data.update(penalty=penalty, offender=str(offender))
            for entry_id, points in (adjustments or {}).items():
                data[f"points_{entry_id}"] = str(points)
            response = self.post("chief", reverse("irregular_rule", args=[deal.pk]), data)
            assert response.status_code == 302, self.problems(response)
            assert not [m for m in self.messages_of(response) if "enregistrée" not in m], self.messages_of(response)
        else:
            body: dict[str, Any] = {"decision": decision, "reason": reason}
            if penalty:
                body.update(penalty=penalty, offender=offender)
            if adjustments:
                body["adjustments"] = {str(k): v for k, v in adjustments.items()}
            response = self.request("anonymous", "post", reverse("api:deal-irregular-ruling", args=[deal.pk]),
                                    json.dumps(body), content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Token {self.api_token('chief')}")
            assert response.status_code == 201, response.content.decode()[:500]
        ruling = deal.rulings.get(withdrawn_at__isnull=True)
        self.touched_tables.add(deal.table_id)
        self.check(f"table {deal.table.number} deal {deal.number}: the chief's ruling ({decision}, {via})")
        return ruling

    def withdraw_ruling(self, ruling: Any, *, via: str = "desk", reason: str = "Décision prise par erreur") -> None:
        """The ruling withdrawn (its page, or the API): its points stop counting; an irregular deal waits again."""
        if via == "desk":
            url = reverse("ruling_withdraw", args=[ruling.pk])
            assert self.get("chief", url).status_code == 200
            response = self.post("chief", url, {"reason": reason})
            assert response.status_code == 302, self.problems(response)
        else:
            response = self.request("anonymous", "post", reverse("api:ruling-withdraw", args=[ruling.pk]),
                                    json.dumps({"reason": reason}), content_type="application/json",
                                    HTTP_AUTHORIZATION=f"Token {self.api_token('chief')}")
            assert response.status_code == 200, response.content.decode()[:500]
        ruling.refresh_from_db()
        assert ruling.withdrawn_at is not None
        self.touched_tables.add(ruling.table_id)
        self.check(f"table {ruling.table.number}: a ruling withdrawn ({via})")

    def correct_refused(self, deal: Deal, fields: dict[str, Any], *, said: str) -> None:
        """A correction the desk must refuse (422, in French, naming why): the deal left as it was."""
        version = deal.version
        response = self.post("chief", reverse("deal_correct", args=[deal.pk]),
                             {"mode": "record", "record": json.dumps(fields), "reason": "Recompté",
                              "version": str(deal.version)})
        assert response.status_code == 422 and said in html.unescape(response.content.decode()), self.problems(response)
        deal.refresh_from_db()
        assert deal.version == version

    def totals(self, table: Table) -> list[int]:
        """The table's match totals, seat by seat (zeros before its first deal)."""
        table.refresh_from_db()
        totals = table.match_totals
        return list(totals) if isinstance(totals, list) and totals else [0] * table.seats.count()

    def irregular_in_match(self, table: Table, via: str, fields: dict[str, Any], decision: str,
                           expected: Callable[[Deal, list[int]], dict[int, int]], *, rule_via: str = "desk",
                           corrected: bool = False, second: Callable[[], dict[str, Any]] | None = None,
                           **rule: Any) -> Deal:
        """An irregular deal in a match: entered by ``via`` (the match as it was), ruled ``decision`` from the desk or
        the API: the match totals move by ``expected(deal)`` (seat → points, from the rule texts), no more. With
        ``corrected``: a correction while ruled is refused, the ruling withdrawn (the totals back), and the deal
        corrected into a legal one (a deal of the match again); then a second renonce is entered and ruled alike
        (``second()``: its fields; else a renonce the generator deals). ``expected(deal, totals before)``."""
        before = self.totals(table)
        deal = self.enter_irregular(table, via, fields)
        assert self.totals(table) == before, "an irregular deal moved the match"
        ruling = self.rule_irregular(deal, decision, via=rule_via, **rule)
        moved = expected(deal, before)
        assert self.totals(table) == [t + moved.get(s, 0) for s, t in enumerate(before)], (before, moved)
        if not corrected:
            return deal
        legal = gen.deal_fields(self.rng, self.head(table), deal.record["dealer"], **self.playing_seats(table))
        self.correct_refused(deal, legal, said="retirez d'abord sa décision")
        self.withdraw_ruling(ruling, via="api" if rule_via == "desk" else "desk")
        assert self.totals(table) == before, "the ruling withdrawn, the match is not back"
        deal.refresh_from_db()
        assert deal.status == Deal.Status.IRREGULAR
        self.correct(deal, fields=legal, reason="Donne rejouée sans la renonce")
        assert deal.status == Deal.Status.VALID and deal.in_match
        table.refresh_from_db()
        if table.match_ended:
            return deal
        again = second() if second else gen.renonce_fields(self.rng, self.head(table), self.next_dealer(table),
                                                           **self.playing_seats(table))
        return self.irregular_in_match(table, via, again, decision, expected, rule_via=rule_via, **rule)

    def published(self, metric: str) -> dict[int, Any]:
        """Each entry's ``metric`` in the published ranking (the snapshot the worker path wrote)."""
        from tournaments.standings.rankings import latest_snapshot, metrics_dict, snapshot_lines

        snapshot = latest_snapshot(self.tournament.pk)
        if snapshot is None:
            return {}
        return {line.entry_id: metrics_dict(line).get(metric) for line in snapshot_lines(snapshot)}

    def public_in_french(self, *, rounds: tuple[int, ...] = ()) -> None:
        """The public pages an irregular deal shows up on, as the public reads them: no code, no English."""
        urls = [reverse("public-home", args=[self.slug]), reverse("public-ranking", args=[self.slug]),
                reverse("public-ledger", args=[self.slug])]
        urls += [reverse("public-round", args=[self.slug, n]) for n in rounds]
        for url in urls:
            page = self.get("anonymous", url)
            assert page.status_code == 200, (url, page.status_code)
            text = visible_text(page.content.decode())
            found = sorted(set(CODE.findall(text)))
            assert not found, f"{url}: codes or English on a public page: {found}"

    def approve_pending(self) -> int:
        """The chief arbiter's queue: every deal waiting for his visa, approved from his page."""
        page = self.get("chief", reverse("chief_page", args=[self.slug]))
        assert page.status_code == 200
        pending = list(Deal.objects.filter(table__round__tournament=self.tournament, status=Deal.Status.PENDING))
        for deal in pending:
            approve = reverse("deal_approve", args=[deal.pk])
            assert f'action="{approve}"' in page.content.decode(), f"deal {deal.pk}: no « Viser » on the chief's page"
            response = self.post("chief", approve, {"back": "chief"})  # the queue's « Viser »: back to the queue
            assert response.status_code == 302 and response["Location"] == reverse("chief_page", args=[self.slug])
            deal.refresh_from_db()
            assert deal.status == Deal.Status.VALID
            self.touched_tables.add(deal.table_id)
        return len(pending)

    def ruling(self, table: Table, adjustments: dict[int, int], *, penalty: bool = False,
               reason: str = "Jeu lent") -> None:
        """A ruling of the chief arbiter at a table (points per player)."""
        data = {"kind": "slow_play", "reason": reason}
        if penalty:
            data["is_penalty"] = "on"
        for entry_id, points in adjustments.items():
            data[f"adj_{entry_id}"] = str(points)
        response = self.post("chief", reverse("ruling_create", args=[table.pk]), data)
        assert response.status_code == 302, self.problems(response)
        self.touched_tables.add(table.pk)

    # -- the organizer's day ------------------------------------------------------------------------

    def late_arrival(self, name: str, from_round: int) -> Entry:
        response = self.post("organizer", reverse("arrivals", args=[self.slug]),
                             {"action": "late", "name": name, "club": CLUBS[0], "licence": "",
                              "from_round": str(from_round)})
        assert response.status_code == 302, self.problems(response)
        entry = self.tournament.entries.get(player__name=name)
        self.check(f"late arrival of {name} from round {from_round}")
        return entry

    def leaves(self, entry: Entry) -> None:
        response = self.post("organizer", reverse("arrivals", args=[self.slug]), {"action": "leave",
                                                                                  "entry": entry.pk})
        assert response.status_code == 302
        entry.refresh_from_db()
        assert entry.withdrawn
        self.check(f"{entry.player.name} leaves")

    def changes(self, rnd: Round, data: dict[str, Any], step: str) -> Any:
        response = self.post("organizer", reverse("round_changes", args=[self.slug, rnd.number]), data)
        assert response.status_code == 302, self.problems(response)
        self.touched_tables.update(rnd.tables.values_list("pk", flat=True))
        self.check(step)
        return response

    def open_round(self, method: str | None = None) -> Round:
        """A new round created, drawn (``method``: the tournament's own when None) and running."""
        rnd = self.round_create()
        self.draw(rnd, method)
        self.round_status(rnd, "running")
        return rnd

    def close_round(self, rnd: Round, *, vias: tuple[str, ...] = ("desk", "link", "api"),
                    count: int | None = None) -> None:
        """Every table of the round played (the tables already played left as they are), then the round finished
        and released."""
        self.play_round(rnd, vias=vias, count=count)
        self.round_status(rnd, "finished")
        self.release(rnd)

    def run_rounds(self, rounds: int, *, method: str | None = None, vias: tuple[str, ...] = ("desk", "link", "api"),
                   count: int | None = None) -> list[Round]:
        """Rounds drawn, played at every table, finished and released, one after the other."""
        out = []
        for _ in range(rounds):
            rnd = self.open_round(method)
            self.close_round(rnd, vias=vias, count=count)
            out.append(rnd)
        return out

    def report(self) -> str:
        total = time.perf_counter() - self.started
        checks = sum(d for _s, d in self.steps)
        slow = sorted(self.timings.items(), key=lambda kv: -kv[1])[:12]
        cpu = time.process_time() - self.cpu_started
        return (f"{self.label}: {len(self.steps)} steps, {total:.1f}s, cpu {cpu:.1f}s ({checks:.1f}s of checks); "
                f"{self.requests} requests ({self.step_requests} in checks); slowest pages: "
                + ", ".join(f"{k} {v:.1f}s" for k, v in slow))


#: words that show a code or English on a French page (as ``test_screenshots`` reads them)
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bTrue\b|\bFalse\b|\b(?:Save|Cancel|Deal|Round|Player|Ranking|"
                  r"Submit|Delete|Edit|Back|Total score|irregular|as_played|let_stand|renonce_)\b")


def visible_text(page: str) -> str:
    """A page's text as read on screen (no tags, scripts, styles)."""
    body = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _dealer_on_page(page: Any) -> int:
    """The dealer the expert entry proposes (the record's skeleton in its textarea)."""
    match = re.search(r'<textarea[^>]*name="record"[^>]*>(.*?)</textarea>', page.content.decode(), re.S)
    assert match, "the expert entry shows no record"
    return int(json.loads(html.unescape(match.group(1)))["dealer"])
