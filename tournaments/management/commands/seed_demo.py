"""``python manage.py seed_demo``: a small realistic tournament of each game, with deals entered.

Development only: without ``LEVEE_ENV=development`` (what ``make run`` sets) it refuses to run and exits non-zero,
since it sets the published password ``levee-demo`` on the demo logins and fills the database with demo data.

Idempotent: users are created or reset (passwords printed), and a demo tournament that already
exists is left as it is (``--reset`` deletes the demo tournaments and builds them again).

Every deal goes through the same service as the desk (:func:`tournaments.services.deal_record`,
hence ``scoring.verdict.judge``): the Tarot deals are random legal play-outs
(:func:`rules.tarot.random_record`) and summaries; the historical games' deals are random legal
play-outs generated with :class:`rules.play.DealState`. A game whose rules module cannot be
imported is skipped with a warning.
"""

from __future__ import annotations

import datetime
import random
import secrets
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournaments.common.errors import ServiceError
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_correct, deal_record
from tournaments.event.models import Tournament, TournamentRole
from tournaments.event.setup import (
    player_create,
    player_register,
    role_assign,
    round_create,
    round_release,
    tournament_create,
    tournament_set_status,
)
from tournaments.standings.appeal import round_set_status

PASSWORD = "levee-demo"
USERS = {
    "organisateur": ("Organisateur de démonstration", TournamentRole.Role.ORGANIZER),
    "arbitre-principal": ("Arbitre principal de démonstration", TournamentRole.Role.CHIEF_ARBITER),
    "arbitre": ("Arbitre de table de démonstration", TournamentRole.Role.ARBITER),
}

NAMES = [
    ("Anne Moreau", "Tarot Club de Lyon"), ("Bruno Lefèvre", "Tarot Club de Lyon"),
    ("Chloé Garnier", "Les Excusés de Nantes"), ("David Rousseau", "Les Excusés de Nantes"),
    ("Émilie Fournier", "Cercle du Petit au Bout"), ("François Girard", "Cercle du Petit au Bout"),
    ("Gaëlle Bonnet", "Amicale de Bourges"), ("Hugo Mercier", "Amicale de Bourges"),
]

#: eight more players for the duplicate demo (long names on purpose: the pages must hold them)
DUPLICATE_NAMES = [
    ("Marie-Bernadette Delacroix-Montfort", "Cercle Tarot de Saint-Germain-en-Laye"),
    ("Jean-Baptiste Lefebvre-Desrosiers", "Tarot Club de Lyon"), ("Inès Chevalier", "Amicale de Bourges"),
    ("Julien Perrin", "Les Excusés de Nantes"), ("Karima Benali", "Cercle du Petit au Bout"),
    ("Louis Fontaine", "Tarot Club de Lyon"), ("Margaux Lambert", "Amicale de Bourges"),
    ("Nicolas Roux", "Les Excusés de Nantes"),
]

#: the historical games: (players at a table, options, name)
MATCH_GAMES: dict[str, tuple[int, dict[str, Any], str]] = {
    "triomphe": (2, {"mode": "forcee", "target": 5}, "Triomphe forcée — coupe de démonstration"),
    "ecarte": (2, {"target": 5}, "Écarté — tournoi de démonstration"),
    "imperiale": (2, {"target": 5}, "Impériale — tournoi de démonstration"),
    "vingt-quatre": (4, {"honours": "figures", "target": 24}, "Vingt-quatre — tournoi de démonstration"),
}


# -- random legal deals ----------------------------------------------------------------------------

def _pack_and_hand(game: str, players: int) -> tuple[tuple[int, ...], int]:
    from rules import cards

    if game == "vingt-quatre":
        return cards.FRENCH_52, {4: 12, 5: 10}[players]
    if game == "imperiale":
        return (cards.PIQUET_32 if players == 2 else cards.PIQUET_36), 12
    return cards.PIQUET_32, 5


def random_match_deal(game: str, options: Mapping[str, Any], players: int, dealer: int,
                      rng: random.Random) -> dict[str, Any]:
    """A random legal deal of a historical game (its own fields): hands, the retourne, every trick."""
    from rules.cards import format_card, mask_of
    from rules.game import get_game
    from rules.play import DealState, play_out_randomly

    pack, size = _pack_and_hand(game, players)
    cards = list(pack)
    rng.shuffle(cards)
    hands: list[list[int]] = [[] for _ in range(players)]
    for k in range(players):
        seat = (dealer + 1 + k) % players
        hands[seat] = cards[k * size:(k + 1) * size]
    turn_up = cards[players * size]
    fields: dict[str, Any] = {"dealer": dealer, "hands": [[format_card(c) for c in h] for h in hands],
                              "turn_up": format_card(turn_up)}
    if game == "ecarte":
        fields["exchanges"] = [{"seat": (dealer + 1) % players, "action": "play"}]
    spec = get_game(game)
    parsed = spec.parse_options({"players": players, **options})
    rules = spec.deal_rules(parsed, fields, players=players, field="")
    setup = rules.setup([mask_of(h) for h in hands])
    fields["tricks"] = play_out_randomly(DealState(rules, setup.hands), rng)
    return fields


def tarot_summary(rng: random.Random, dealer: int) -> dict[str, Any]:
    """A plausible Tarot deal entered as a summary (taker's bouts and points)."""
    oudlers = rng.choice([1, 2, 2, 3])
    points = rng.choice([36, 38, 41, 44, 47, 52, 58])  # whole at 4 players
    contract = rng.choice(["petite", "garde", "garde"])
    return {"dealer": dealer, "bid": {"taker": rng.randrange(4), "contract": contract, "called": None},
            "partner": None, "chelem_announced": False, "handfuls": [],
            "summary": {"oudlers": oudlers, "points": points, "petit_au_bout": None, "chelem": None}}


def tarot_full(rng: random.Random, dealer: int, contract: str | None = None) -> dict[str, Any]:
    from rules.tarot import random_record

    record = random_record(rng, players=4, contract=contract or rng.choice(["petite", "garde"]), dealer=dealer)
    return {k: v for k, v in record.items() if k not in ("format", "game", "options", "players")}


# -- the command -----------------------------------------------------------------------------------

class Command(BaseCommand):
    help = "Create demo logins and a small tournament of each game with entered deals (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="delete the demo tournaments and rebuild them")
        parser.add_argument("--seed", type=int, default=1725, help="random seed of the play-outs")
        parser.add_argument("--private-passwords", action="store_true",
                            help="never set the published password: existing demo logins keep theirs, new ones "
                                 "get a random password, printed once (make run off 127.0.0.1)")

    def handle(self, *args, **options):
        if not settings.DEVELOPMENT:
            raise CommandError(
                "seed_demo refuses to run in production: it sets the published password « levee-demo » on demo "
                "logins and adds demo tournaments. It is for a development checkout: LEVEE_ENV=development "
                "(make run sets it).")
        rng = random.Random(options["seed"])
        private = options["private_passwords"]
        users, passwords = self._users(private=private)
        if options["reset"]:
            Tournament.objects.filter(slug__startswith="demo-").delete()
        self.club = self._club(users)
        built = []
        for game, builder in ([("tarot", self._tarot), ("tarot-duplicate", self._duplicate)]
                              + [(g, self._match) for g in MATCH_GAMES]):
            slug = f"demo-{game}"
            if Tournament.objects.filter(slug=slug).exists():
                self.stdout.write(f"  {slug}: already there")
                built.append(slug)
                continue
            try:
                with transaction.atomic():
                    builder(game, slug, users, rng)
                built.append(slug)
            except ServiceError as exc:
                self.stderr.write(self.style.WARNING(f"  {slug}: skipped, a demo deal was refused: "
                                                     f"{exc.to_json()}"))
        Tournament.objects.filter(slug__in=built, club__isnull=True).update(club=self.club)  # an older demo's
        self._season(built)
        self.stdout.write(self.style.SUCCESS("Démonstration prête / demo ready:"))
        for slug in built:
            t = Tournament.objects.get(slug=slug)
            count = Deal.objects.filter(table__round__tournament=t).count()
            self.stdout.write(f"  {t.name} [{t.game}] — /t/{slug}/ — {count} donnes")
        self._table_links(built)
        self.stdout.write(f"  {self.club.name} — /c/{self.club.slug}/ ; saison / season: /gestion/saisons/")
        if private:
            self.stdout.write("Identifiants / logins (mots de passe inchangés / passwords unchanged):")
        else:
            self.stdout.write(f"Identifiants / logins (mot de passe / password: {PASSWORD}):")
        for username, (label, _) in USERS.items():
            shown = passwords.get(username, "(inchangé / unchanged)")
            self.stdout.write(f"  {username} / {shown}  — {label}")

    def _club(self, users: dict[str, Any]) -> Any:
        """The demo's club: its organizer is the demo organizer, its arbiters the demo arbiters (the staff page offers
        them), and every demo tournament is the club's."""
        from tournaments.clubs.models import Club, ClubRole

        club, _created = Club.objects.get_or_create(
            slug="club-demo", defaults={"name": "Club de démonstration", "city": "Rennes"})
        for role, user in users.items():
            kind = ClubRole.Role.ORGANIZER if role == TournamentRole.Role.ORGANIZER else ClubRole.Role.ARBITER
            ClubRole.objects.get_or_create(club=club, user=user, role=kind)
        return club

    def _season(self, slugs: list[str]) -> None:
        """The club's season of this year and its « Challenge du club » counting the demo's Tarot tournament (10, 8,
        6, 5, 4, 3, 2 and 1 points by place), ranked as a club's season is."""
        from tournaments.seasons.models import Championship, Season
        from tournaments.seasons.service import championship_save, season_create

        year = datetime.date.today().year
        season = Season.objects.filter(club=self.club).first() or season_create(
            club=self.club, name=f"Saison {year}", starts_on=datetime.date(year, 1, 1),
            ends_on=datetime.date(year, 12, 31))
        counted = list(Tournament.objects.filter(slug__in=[s for s in slugs if s == "demo-tarot"]))
        if counted and not Championship.objects.filter(season=season).exists():
            championship_save(season=season, name="Challenge du club",
                              table={"kind": "rank", "points": [10, 8, 6, 5, 4, 3, 2, 1]}, best=None, minimum=1,
                              tie_breaks=[], categories=[], tournaments=counted)

    def _table_links(self, slugs: list[str]) -> None:
        """Every demo table gets its private link (the table cards print them); the Tarot tables enter their own
        deals through it (TablePolicy.tables_enter), the other games' are entered by the arbiters."""
        from tournaments.event.models import Table
        from tournaments.links import service as links
        from tournaments.links.models import TablePolicy

        for slug in slugs:
            t = Tournament.objects.get(slug=slug)
            TablePolicy.objects.get_or_create(tournament=t, defaults={"tables_enter": t.game == "tarot"})
            made = links.links_for_round(tables=list(Table.objects.filter(round__tournament=t)))
            running = [link for link in made.values() if link.table.round.status != "finished"]
            if running and t.game == "tarot":
                link = min(running, key=lambda k: (-k.table.round.number, k.table.number))
                self.stdout.write(f"  lien de la table {link.table.number} (manche {link.table.round.number}) / "
                                  f"table link: /k/{link.token}/ — cartes / cards: "
                                  f"/t/{slug}/rounds/{link.table.round.number}/cards/")

    def _users(self, *, private: bool = False) -> tuple[dict[str, Any], dict[str, str]]:
        """The demo logins by role, and the passwords set now (the published one, or with ``private`` a random one
        for a login created now only)."""
        User = get_user_model()
        out = {}
        passwords: dict[str, str] = {}
        for username, (label, role) in USERS.items():
            user, created = User.objects.get_or_create(username=username, defaults={"first_name": label})
            if not private:
                passwords[username] = PASSWORD
            elif created:
                passwords[username] = secrets.token_urlsafe(9)
            if username in passwords:
                user.set_password(passwords[username])
            if role == TournamentRole.Role.ORGANIZER:
                user.is_staff = True
            user.save()
            if role == TournamentRole.Role.ORGANIZER:
                perms = Permission.objects.filter(content_type__app_label="tournaments")
                user.user_permissions.add(*perms)
            out[role] = user
        return out, passwords

    def _setup(self, *, game: str, slug: str, name: str, users: dict[str, Any], players: list[tuple[str, str]],
               options: dict[str, Any], **kwargs: Any) -> tuple[Tournament, list[int]]:
        organizer = users[TournamentRole.Role.ORGANIZER]
        tournament = tournament_create(name=name, slug=slug, game=game, user=organizer, options=options,
                                       club=self.club,
                                                is_public=True, date=datetime.date.today(),
                                                start_time=datetime.time(14, 0),
                                                venue="Maison des associations, Rennes", **kwargs)
        role_assign(tournament=tournament, user=users[TournamentRole.Role.CHIEF_ARBITER],
                             role=TournamentRole.Role.CHIEF_ARBITER)
        entries = []
        for i, (pname, club) in enumerate(players):
            licence = f"DEMO{slug[5:9].upper()}{i + 1:03d}"
            player = player_create(name=pname, club=club, licence=licence)
            entries.append(player_register(tournament=tournament, player=player).pk)
        tournament_set_status(tournament=tournament, status=Tournament.Status.OPEN)
        tournament_set_status(tournament=tournament, status=Tournament.Status.RUNNING)
        return tournament, entries

    def _tarot(self, game: str, slug: str, users: dict[str, Any], rng: random.Random) -> None:
        tournament, e = self._setup(game="tarot", slug=slug, name="Tarot — open de démonstration", users=users,
                                    players=NAMES, options={"players": 4}, rounds_planned=2, deals_per_round=4,
                                    tie_breaks=["best_deal"])
        arbiter, chief = users[TournamentRole.Role.ARBITER], users[TournamentRole.Role.CHIEF_ARBITER]
        seatings = [[[e[0], e[1], e[2], e[3]], [e[4], e[5], e[6], e[7]]],
                    [[e[0], e[4], e[1], e[5]], [e[2], e[6], e[3], e[7]]]]
        for number, seating in enumerate(seatings, start=1):
            rnd = round_create(tournament=tournament, number=number, tables=seating)
            tables = list(rnd.tables.order_by("number"))
            role_assign(tournament=tournament, user=arbiter, role=TournamentRole.Role.ARBITER,
                                 tables=[tables[0]])
            deals = 4 if number == 1 else 3
            for table in tables:
                for k in range(deals):
                    dealer = k % 4
                    fields = tarot_full(rng, dealer) if k % 2 == 0 else tarot_summary(rng, dealer)
                    deal_record(table=table, record=fields, user=arbiter if table == tables[0] else chief)
            if number == 1:
                round_set_status(round=rnd, status="finished")
                round_release(round=rnd)
            else:
                round_set_status(round=rnd, status="running")
                # the round in play is released too, so the public ranking follows each entry live
                round_release(round=rnd)
                # a garde sans entered by the table arbiter waits for the chief arbiter's visa
                deal_record(table=tables[0], record=tarot_full(rng, deals % 4, "garde_sans"), user=arbiter)
        first = Deal.objects.filter(table__round__tournament=tournament, table__round__number=1).order_by("id")
        deal = first.filter(record__summary__isnull=False).first()
        if deal is not None:
            fields = dict(deal.record)
            fields["summary"] = {**fields["summary"], "points": fields["summary"]["points"] + 1}
            deal_correct(deal=deal, record=fields, expected_version=deal.version,
                                  reason="Feuille de marque relue : un point oublié", user=chief)

    def _duplicate(self, game: str, slug: str, users: dict[str, Any], rng: random.Random) -> None:
        """A 16-player duplicate Tarot of 3 rounds of 4 étuis (dealt from a seed): round 1 played and
        published, round 2 under way (three tables have played two étuis), round 3 to come."""
        from tournaments.duplicate.service import duplicate_create

        tournament, _e = self._setup(game="tarot", slug=slug, name="Tarot en donnes dupliquées — démonstration",
                                     users=users, players=NAMES + DUPLICATE_NAMES, options={"players": 4},
                                     rounds_planned=3)
        duplicate_create(tournament=tournament, boards_per_round=4, seed="levee-demo")
        arbiter, chief = users[TournamentRole.Role.ARBITER], users[TournamentRole.Role.CHIEF_ARBITER]
        etuis = dict(tournament.etuis.values_list("number", "dealer"))
        own_rng = random.Random(2026)  # its own draws: the other demos stay as they were
        for rnd in tournament.rounds.order_by("number"):
            tables = list(rnd.tables.order_by("number").select_related("duplicate"))
            role_assign(tournament=tournament, user=arbiter, role=TournamentRole.Role.ARBITER,
                                 tables=tables)
            if rnd.number == 3:
                continue
            for table in tables:
                boards = table.duplicate.boards if rnd.number == 1 else table.duplicate.boards[:2]
                if rnd.number == 2 and table.number == len(tables):
                    boards = []
                for board in boards:
                    deal_record(table=table, record=tarot_summary(own_rng, etuis[board]),
                                         user=arbiter if table.number == 1 else chief)
            round_set_status(round=rnd, status="finished" if rnd.number == 1 else "running")
            if rnd.number == 1:
                round_release(round=rnd)

    def _match(self, game: str, slug: str, users: dict[str, Any], rng: random.Random) -> None:
        players, options, name = MATCH_GAMES[game]
        tables = 2
        tournament, e = self._setup(game=game, slug=slug, name=name, users=users, players=NAMES[:players * tables],
                                    options={k: v for k, v in options.items() if k != "target"},
                                    target=options.get("target"))
        seating = [e[t * players:(t + 1) * players] for t in range(tables)]
        rnd = round_create(tournament=tournament, number=1, tables=seating)
        arbiter = users[TournamentRole.Role.ARBITER]
        table_objs = list(rnd.tables.order_by("number"))
        role_assign(tournament=tournament, user=arbiter, role=TournamentRole.Role.ARBITER,
                             tables=table_objs)
        round_set_status(round=rnd, status="running")
        for index, table in enumerate(table_objs):
            dealer = 0
            # the last table keeps its match going (one deal): a deal can always be tried there at the desk
            for _ in range(3 if index < len(table_objs) - 1 else 1):
                table.refresh_from_db()
                if table.match_ended:
                    break
                fields = random_match_deal(game, options, players, dealer, rng)
                deal_record(table=table, record=fields, user=arbiter)
                dealer = (dealer + 1) % players
