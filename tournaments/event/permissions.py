"""Who may do what in a tournament.

Roles are per tournament (:class:`~tournaments.event.models.TournamentRole`):

* **organizer** — everything in the tournament (setup, seating, roles, deals, corrections, rulings);
* **chief arbiter** — enters and corrects deals at any table, annuls, approves (the FFT visa on
  garde sans / garde contre), records rulings and penalties;
* **table arbiter** — enters deals at the tables assigned to them, reads the whole tournament;
* **public** (anyone, logged in or not) — reads a tournament that is public and not a draft,
  and of its rounds only those released (``number <= released_round`` or ``released``).

A club's organizers (:class:`~tournaments.clubs.models.ClubRole`) are organizers of each of the club's
tournaments, without a role of their own there; the club's staff and the viewers of the club's comité or ligue
are its **readers** (``reader``, no staff role): they read its tournaments like the public, even a private one
(never a draft), and write nothing.

A superuser acts as organizer everywhere (staff work in the admin). Functions take the user
and an object and answer a bool; :func:`roles_of` caches a user's roles per tournament, with the
tables assigned to them as table arbiter, on the user object for the request (one query per
tournament: the deal-entry endpoint checks both).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Q, QuerySet

from tournaments.clubs import permissions as clubs
from tournaments.clubs.models import Club, ClubRole, Grouping
from tournaments.common import sql
from tournaments.event.models import Entry, Player, Round, Table, Tournament, TournamentRole

if TYPE_CHECKING:
    from tournaments.deals.models import Deal

Role = TournamentRole.Role
STAFF_ROLES = frozenset({Role.ORGANIZER, Role.CHIEF_ARBITER, Role.ARBITER})
REFEREES = frozenset({Role.ORGANIZER, Role.CHIEF_ARBITER})
#: a viewer of the comité or ligue of the tournament's club: reads, never writes (not a staff role)
READER = "reader"


_NO_ROLES: tuple[frozenset[str], frozenset[int]] = (frozenset(), frozenset())


def _roles_and_tables(user: Any, tournament: Tournament | int) -> tuple[frozenset[str], frozenset[int]]:
    """The user's roles in the tournament and the tables assigned to them, cached on the user."""
    if user is None or not user.is_authenticated:
        return _NO_ROLES
    tid = tournament if isinstance(tournament, int) else tournament.pk
    cache = user.__dict__.setdefault("_levee_roles", {})
    if tid not in cache:
        rows = _role_rows(tid, user.pk)
        cache[tid] = (frozenset(role for role, _ in rows),
                      frozenset(table for role, table in rows if role == Role.ARBITER and table is not None))
    return cache[tid]


@cache
def _roles_query(vendor: str) -> str:
    """The tournament's roles of a user, his club's organizer role, and whether he reads the club's results (one
    of the club's staff, a viewer of its comité or of that comité's ligue): one statement, read on every
    request."""
    through = TournamentRole.tables.through
    viewers = Grouping.viewers.through
    t, club, grouping = sql.table(Tournament), sql.column(Tournament, "club"), sql.column(Club, "grouping")
    return (f"SELECT r.{sql.column(TournamentRole, 'role')}, a.{sql.column(through, 'table')} "
            f"FROM {sql.table(TournamentRole)} r LEFT JOIN {sql.table(through)} a "
            f"ON a.{sql.column(through, 'tournamentrole')} = r.id "
            f"WHERE r.{sql.column(TournamentRole, 'tournament')} = %s AND r.{sql.column(TournamentRole, 'user')} = %s "
            f"UNION ALL SELECT '{Role.ORGANIZER}', NULL FROM {t} t JOIN {sql.table(ClubRole)} c "
            f"ON c.{sql.column(ClubRole, 'club')} = t.{club} "
            f"WHERE t.id = %s AND c.{sql.column(ClubRole, 'user')} = %s "
            f"AND c.{sql.column(ClubRole, 'role')} = '{ClubRole.Role.ORGANIZER}' "
            f"UNION ALL SELECT '{READER}', NULL FROM {t} t JOIN {sql.table(ClubRole)} s "
            f"ON s.{sql.column(ClubRole, 'club')} = t.{club} "
            f"WHERE t.id = %s AND s.{sql.column(ClubRole, 'user')} = %s "
            f"UNION ALL SELECT '{READER}', NULL FROM {t} t JOIN {sql.table(Club)} k ON k.id = t.{club} "
            f"JOIN {sql.table(Grouping)} g ON g.id = k.{grouping} "
            f"JOIN {sql.table(viewers)} v ON v.{sql.column(viewers, 'grouping')} "
            f"IN (g.id, g.{sql.column(Grouping, 'parent')}) "
            f"WHERE t.id = %s AND v.{sql.column(viewers, 'user')} = %s")


def _role_rows(tournament_id: int, user_id: int) -> list[tuple[str, int | None]]:
    """(role, table assigned or None) rows of a user in a tournament: plain SQL, read on every request."""
    with connection.cursor() as cursor:
        cursor.execute(_roles_query(connection.vendor), [tournament_id, user_id] * 4)
        return cursor.fetchall()


def roles_of(user: Any, tournament: Tournament | int) -> frozenset[str]:
    """The user's roles in the tournament (a superuser is organizer everywhere)."""
    if user is not None and user.is_authenticated and user.is_superuser:
        return frozenset({Role.ORGANIZER})
    return _roles_and_tables(user, tournament)[0]


def forget_roles(user: Any) -> None:
    """Drop the cached roles (after a role change in the same request)."""
    user.__dict__.pop("_levee_roles", None)


def is_organizer(user: Any, tournament: Tournament) -> bool:
    return Role.ORGANIZER in roles_of(user, tournament)


def is_staff_of(user: Any, tournament: Tournament) -> bool:
    """Organizer, chief arbiter or table arbiter of the tournament."""
    return bool(roles_of(user, tournament) & STAFF_ROLES)


def can_create_tournament(user: Any) -> bool:
    """Whoever holds the permission, and a club's organizer (for his clubs: :func:`creation_clubs`)."""
    if not (user and user.is_authenticated):
        return False
    return user.has_perm("tournaments.add_tournament") or bool(clubs.organized_club_ids(user))


def creation_clubs(user: Any) -> QuerySet[Club]:
    """The clubs a new tournament of this user may belong to: those he organizes (every club for a superuser)."""
    return clubs.organized_clubs(user)


def is_reader(user: Any, tournament: Tournament) -> bool:
    """A viewer of the tournament's club's comité or ligue: he reads it (even private), never writes."""
    return READER in roles_of(user, tournament)


def can_manage(user: Any, tournament: Tournament) -> bool:
    """Setup: options, status, registrations, teams, rounds, seating, roles."""
    return is_organizer(user, tournament)


def can_referee(user: Any, tournament: Tournament) -> bool:
    """Corrections, annulments, approvals (the visa), rulings and penalties."""
    return bool(roles_of(user, tournament) & REFEREES)


can_correct = can_referee
can_approve = can_referee
can_rule = can_referee
can_restore = can_referee  # whoever may annul a deal may restore it


def can_enter_deal(user: Any, table: Table) -> bool:
    """Organizer and chief arbiter anywhere, a finished round's tables too (a deal they add once the results are
    official is in the ledger); a table arbiter at the tables assigned while the round is not finished, as a table's
    own link (:func:`round_closed_to`)."""
    tournament = table.round.tournament
    roles = roles_of(user, tournament)
    if roles & REFEREES:
        return True
    if Role.ARBITER in roles:
        return table.round.status != Round.Status.FINISHED and table.pk in _roles_and_tables(user, tournament)[1]
    return False


def table_not_assigned_to(user: Any, table: Table) -> bool:
    """Whether ``user`` is a table arbiter of the tournament to whom this table of a round still in play is not
    given: what he is told instead of the way to enter a deal (the organizer gives it)."""
    tournament = table.round.tournament
    roles = roles_of(user, tournament)
    return (table.round.status != Round.Status.FINISHED and not roles & REFEREES and Role.ARBITER in roles
            and table.pk not in _roles_and_tables(user, tournament)[1])


def round_closed_to(user: Any, table: Table) -> bool:
    """Whether ``user`` entered this table's deals until its round was finished (a table arbiter there): what he
    is told instead of the way to enter one (call the chief arbiter)."""
    tournament = table.round.tournament
    roles = roles_of(user, tournament)
    return (table.round.status == Round.Status.FINISHED and not roles & REFEREES and Role.ARBITER in roles
            and table.pk in _roles_and_tables(user, tournament)[1])


def can_view_tournament(user: Any, tournament: Tournament) -> bool:
    """Its staff; the public (and its comité's or ligue's readers, even when private) once out of draft."""
    roles = roles_of(user, tournament)
    if roles & STAFF_ROLES:
        return True
    return (tournament.is_public or READER in roles) and tournament.status != Tournament.Status.DRAFT


def round_is_released(rnd: Round) -> bool:
    return rnd.released or rnd.number <= rnd.tournament.released_round


def can_view_round(user: Any, rnd: Round) -> bool:
    """Staff see every round; the public sees the released rounds of a visible tournament."""
    tournament = rnd.tournament
    if is_staff_of(user, tournament):
        return True
    return can_view_tournament(user, tournament) and round_is_released(rnd)


def can_view_table(user: Any, table: Table) -> bool:
    return can_view_round(user, table.round)


def can_view_deal(user: Any, deal: Deal) -> bool:
    return can_view_table(user, deal.table)


def visible_tournaments(user: Any, qs: QuerySet[Tournament] | None = None) -> QuerySet[Tournament]:
    """Tournaments the user may read."""
    qs = Tournament.objects.all() if qs is None else qs
    if user is not None and user.is_authenticated and user.is_superuser:
        return qs
    out_of_draft = ~Q(status=Tournament.Status.DRAFT)
    public = Q(is_public=True) & out_of_draft
    if user is not None and user.is_authenticated:
        read = clubs.readable_q(user, "club") & out_of_draft
        return qs.filter(public | Q(roles__user=user) | clubs.managed_q(user, "club") | read).distinct()
    return qs.filter(public)


def visible_rounds(user: Any, tournament: Tournament, qs: QuerySet[Round] | None = None) -> QuerySet[Round]:
    qs = tournament.rounds.all() if qs is None else qs
    if is_staff_of(user, tournament):
        return qs
    if not can_view_tournament(user, tournament):
        return qs.none()
    return qs.filter(Q(released=True) | Q(number__lte=tournament.released_round))


def can_see_licences(user: Any, tournament: Tournament) -> bool:
    """Licence numbers are personal data: the tournament's staff only (organizer, chief arbiter, table arbiter)."""
    return is_staff_of(user, tournament)


def visible_players(user: Any, qs: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players (names, clubs, licence numbers) a user may list: those registered in a tournament where the
    user has a staff role, and, for an organizer, the players registered nowhere yet (created to be registered) and
    those removed from a tournament he or his club holds (never from another's); everyone's for a superuser or a
    user with the ``view_player`` permission (the club's staff in the admin)."""
    qs = Player.objects.all() if qs is None else qs
    if user is None or not user.is_authenticated:
        return qs.none()
    if user.is_superuser or user.has_perm("tournaments.view_player"):
        return qs
    mine = Q(entries__tournament__roles__user=user)
    club_ids = sorted(clubs.organized_club_ids(user))
    # every registration ever made (removals too: a player removed stays with the tournaments that held him)
    ever = Entry.history.model.objects.values("player_id")
    held = Q(roles__user=user)
    if club_ids:
        # a club's organizers: the players of its tournaments and its members
        mine |= Q(entries__tournament__club__in=club_ids) | Q(home_club__in=club_ids)
        held |= Q(club__in=club_ids)
    if club_ids or TournamentRole.objects.filter(user=user, role=Role.ORGANIZER).exists():
        # the players registered nowhere yet (created to be registered), but never another club's members, and
        # never one registered once elsewhere and removed since (his licence is that tournament's staff's)
        nowhere = Q(entries__isnull=True) & ~Q(pk__in=ever)
        mine |= nowhere & (Q(home_club__isnull=True) | Q(home_club__in=club_ids))
        theirs = Tournament.objects.filter(held).values("pk")
        mine |= Q(entries__isnull=True) & Q(pk__in=ever.filter(tournament_id__in=theirs))
    return qs.filter(mine).distinct()
