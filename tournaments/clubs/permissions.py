"""Who may do what with a club, and the filters that keep one club's things from another club's staff.

* a club's **organizers** (:class:`~tournaments.clubs.models.ClubRole`) manage the club: its tournaments (through
  :func:`tournaments.event.permissions.roles_of`, which makes them organizers of each), its members and its
  staff; nobody else's;
* a club's **staff** (organizers and arbiters) read the club's page with its members' personal data;
* a **comité** or **ligue**'s viewers (``Grouping.viewers``) read the results of its clubs (a ligue's, of the
  clubs of its comités too), never write;
* the public reads a club's name, city, public tournaments and members' names.

A superuser may everything. For another model owned by a club (a season, a championship), filter with
:func:`managed_q` (what a user may change) and :func:`readable_q` (what he may read):
``Season.objects.filter(managed_q(user, "club"))``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.clubs.models import Club, ClubRole

Role = ClubRole.Role


def _authenticated(user: Any) -> bool:
    return user is not None and user.is_authenticated


def _superuser(user: Any) -> bool:
    return _authenticated(user) and user.is_superuser


def _club_id(club: Club | int | None) -> int | None:
    return club.pk if isinstance(club, Club) else club


def club_roles(user: Any) -> dict[int, frozenset[str]]:
    """The user's roles per club id, cached on the user object for the request."""
    if not _authenticated(user):
        return {}
    cached = user.__dict__.get("_levee_club_roles")
    if cached is None:
        roles: dict[int, set[str]] = {}
        for club_id, role in ClubRole.objects.filter(user=user).values_list("club_id", "role"):
            roles.setdefault(club_id, set()).add(role)
        cached = user.__dict__["_levee_club_roles"] = {k: frozenset(v) for k, v in roles.items()}
    return cached


def forget_club_roles(user: Any) -> None:
    user.__dict__.pop("_levee_club_roles", None)


def organized_club_ids(user: Any) -> frozenset[int]:
    """The clubs the user organizes (every club for a superuser: see :func:`organized_clubs`)."""
    return frozenset(c for c, roles in club_roles(user).items() if Role.ORGANIZER in roles)


def organized_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose tournaments the user may create and manage."""
    if _superuser(user):
        return Club.objects.all()
    return Club.objects.filter(pk__in=organized_club_ids(user))


def is_club_organizer(user: Any, club: Club | int | None) -> bool:
    club_id = _club_id(club)
    if club_id is None:
        return False
    return _superuser(user) or club_id in organized_club_ids(user)


def is_club_staff(user: Any, club: Club | int | None) -> bool:
    """An organizer or an arbiter of the club."""
    club_id = _club_id(club)
    if club_id is None:
        return False
    return _superuser(user) or club_id in club_roles(user)


def _grouping_reader_q(user: Any, prefix: str) -> Q:
    """Clubs (at ``prefix``) in a comité or ligue the user reads: its own clubs, or a ligue's comités' clubs."""
    return Q(**{f"{prefix}grouping__viewers": user}) | Q(**{f"{prefix}grouping__parent__viewers": user})


def reads_club_results(user: Any, club: Club | int | None) -> bool:
    """The club's staff, and the viewers of its comité or ligue (read-only)."""
    club_id = _club_id(club)
    if club_id is None or not _authenticated(user):
        return False
    if is_club_staff(user, club_id):
        return True
    return Club.objects.filter(_grouping_reader_q(user, ""), pk=club_id).exists()


def is_grouping_reader(user: Any, club: Club | int | None) -> bool:
    """A viewer of the club's comité or ligue (who reads its results, never writes)."""
    club_id = _club_id(club)
    if club_id is None or not _authenticated(user):
        return False
    return Club.objects.filter(_grouping_reader_q(user, ""), pk=club_id).exists()


def managed_q(user: Any, field: str = "club") -> Q:
    """The objects (whose club is at ``field``) the user may change: his clubs' ones."""
    if _superuser(user):
        return Q()
    return Q(**{f"{field}__in": sorted(organized_club_ids(user))})


def staff_q(user: Any, field: str = "club") -> Q:
    """The objects (whose club is at ``field``) the user works on: the clubs he organizes or arbitrates for."""
    if _superuser(user):
        return Q()
    return Q(**{f"{field}__in": sorted(club_roles(user))})


def readable_q(user: Any, field: str = "club") -> Q:
    """The objects (whose club is at ``field``) whose results the user reads: his clubs', and those of the clubs
    of a comité or ligue he reads."""
    if _superuser(user):
        return Q()
    if not _authenticated(user):
        return Q(pk__in=[])
    return staff_q(user, field) | _grouping_reader_q(user, f"{field}__")


def visible_clubs(user: Any) -> QuerySet[Club]:
    """Every club's public page exists; this is the clubs whose staff page the user may open."""
    if _superuser(user):
        return Club.objects.all()
    return Club.objects.filter(pk__in=sorted(club_roles(user)))


def read_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose results the user reads as a comité's or ligue's viewer."""
    if not _authenticated(user):
        return Club.objects.none()
    return Club.objects.filter(_grouping_reader_q(user, "")).distinct()
