"""Whom an organizer may name on a tournament's staff page: people to tap, never a user name to type.

* **the club's staff**: the organizers and arbiters of the tournament's club, and of the other clubs the
  organizer himself works for;
* **already in this tournament**: whoever holds a role in it (an account made for an arbiter on the staff page),
  to give him more tables or another role;
* **arbiters of other clubs** (inter-club events): a club's arbiters may be given a role in any club's
  tournament (``ClubRole``); the other clubs' organizers and members are not offered.

Each person once, in the first group he belongs to, in French order. Inactive accounts are never offered."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from tournaments.clubs import permissions as club_permissions
from tournaments.clubs.models import ClubRole
from tournaments.common.collation import french_sorted
from tournaments.event.models import Tournament, TournamentRole


@dataclass
class Candidate:
    pk: int
    name: str
    detail: str


@dataclass
class Group:
    code: str
    label: str
    people: list[Candidate] = field(default_factory=list)


def display_name(user: Any) -> str:
    """A person as people know him: his name, else his user name."""
    return (user.get_full_name() or "").strip() or user.get_username()


def staff_candidates(tournament: Tournament, manager: Any) -> list[Group]:
    """The groups of people ``manager`` may name in ``tournament`` (see the module); empty groups left out."""
    own_clubs = set(club_permissions.club_roles(manager))
    if tournament.club_id is not None:
        own_clubs.add(tournament.club_id)
    rows = (ClubRole.objects.filter(user__is_active=True)
            .filter(club_id__in=sorted(own_clubs)) | ClubRole.objects.filter(user__is_active=True,
                                                                               role=ClubRole.Role.ARBITER))
    roles: dict[int, list[tuple[str, str, bool]]] = {}
    users: dict[int, Any] = {}
    for r in rows.select_related("user", "club").order_by("club__name", "role", "pk"):
        users[r.user_id] = r.user
        roles.setdefault(r.user_id, []).append((r.get_role_display(), r.club.name, r.club_id in own_clubs))
    in_tournament = {r.user_id: r for r in TournamentRole.objects.filter(tournament=tournament, user__is_active=True)
                     .select_related("user")}
    for uid, r in in_tournament.items():
        users.setdefault(uid, r.user)
    groups = {"club": Group("club", _("Du club")),
              "tournament": Group("tournament", _("Déjà dans ce tournoi")),
              "other": Group("other", _("Arbitres d'autres clubs (rencontre inter-clubs)"))}
    for uid, user in users.items():
        mine = [(role, club) for role, club, own in roles.get(uid, []) if own]
        theirs = [(role, club) for role, club, own in roles.get(uid, []) if not own]
        if mine:
            code, said = "club", mine
        elif uid in in_tournament:
            code, said = "tournament", []
        else:
            code, said = "other", theirs
        detail = " · ".join(f"{role}, {club}" for role, club in said) or in_tournament[uid].get_role_display()
        groups[code].people.append(Candidate(uid, display_name(user), detail))
    out = []
    for group in groups.values():
        group.people = french_sorted(group.people, key=lambda c: c.name)
        if group.people:
            out.append(group)
    return out


def candidate_user(groups: list[Group], pk: int) -> Any | None:
    """The user chosen, when he is one of the candidates (else None)."""
    if any(c.pk == pk for g in groups for c in g.people):
        return get_user_model().objects.filter(pk=pk, is_active=True).first()
    return None
