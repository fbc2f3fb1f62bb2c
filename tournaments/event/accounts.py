"""Arbiters' accounts, made by the tournament's organizer: created with a role, their passwords reset.

An organizer cannot use Django's admin; he creates the accounts of his arbiters (chief or table arbiters) from the
tournament's staff page and hands each one its user name and a password generated here, shown once. He may reset
the password of an account only when it is his to manage: an arbiter of this tournament (not an organizer, not
the club's staff or a superuser) with no role in a tournament he does not organize — so that no organizer can take
over an account another club relies on.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common.errors import Forbidden, InvalidInput
from tournaments.event.models import Table, Tournament, TournamentRole
from tournaments.event.setup import role_assign

Role = TournamentRole.Role
ARBITER_ROLES = (Role.CHIEF_ARBITER, Role.ARBITER)
#: letters and digits that cannot be mistaken for one another when read aloud or copied from a phone
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_USERNAME = re.compile(r"^[\w.@+-]{3,150}$")


def new_password() -> str:
    """A random password easy to copy: three groups of four (``k7mq-x2pa-9rte``), about 70 bits."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(3))


@transaction.atomic
def staff_account_create(*, tournament: Tournament, username: str, name: str = "", role: str,
                         tables: list[Table] | None = None) -> tuple[Any, str]:
    """Create an arbiter's account with ``role`` in the tournament; returns the user and the password (shown
    once, never stored in clear)."""
    if role not in ARBITER_ROLES:
        raise InvalidInput(_("an account made here is a chief arbiter's or a table arbiter's"), field="role")
    username = (username or "").strip()
    if not _USERNAME.match(username):
        raise InvalidInput(_("a user name of 3 to 150 letters, digits or . @ + - _"), field="username")
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise InvalidInput(_("the user name %(user)s is taken: give the role to that account, or choose another "
                             "name") % {"user": username}, field="username")
    password = new_password()
    user = User.objects.create_user(username=username, password=password, first_name=(name or "").strip()[:150])
    role_assign(tournament=tournament, user=user, role=role, tables=tables or [])
    return user, password


def can_reset_password(*, tournament: Tournament, organizer: Any, user: Any) -> bool:
    """Whether ``organizer`` may reset ``user``'s password from this tournament (see the module)."""
    if user.is_superuser or user.is_staff or user.pk == organizer.pk:
        return False
    roles = list(TournamentRole.objects.filter(user=user).values_list("tournament_id", "role"))
    if not any(t == tournament.pk and r in ARBITER_ROLES for t, r in roles):
        return False
    if any(r == Role.ORGANIZER for _t, r in roles):
        return False
    mine = set(TournamentRole.objects.filter(user=organizer, role=Role.ORGANIZER).values_list("tournament_id",
                                                                                             flat=True))
    return organizer.is_superuser or all(t in mine for t, _r in roles)


@transaction.atomic
def staff_password_reset(*, tournament: Tournament, organizer: Any, user: Any) -> str:
    """A new password for an arbiter's account (shown once); the sessions open with the old one end."""
    if not can_reset_password(tournament=tournament, organizer=organizer, user=user):
        raise Forbidden(_("only the password of an arbiter of your own tournaments can be reset here"),
                        field="user")
    password = new_password()
    user.set_password(password)  # changes the session hash: sessions opened with the old password end
    user.save(update_fields=["password"])
    return password
