"""Token authentication for the API: DRF's, with its look-up in plain SQL.

Every call a scorer's device makes carries its token; DRF looks it up through the ORM, whose query
compilation cost more CPU than the rest of the authentication. Same table, same answers, same
errors; the user is an ordinary ``User`` instance.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from tournaments.common import sql

#: never used by the API's requests: deferred (read if ever used)
_TOKEN_SKIP, _USER_SKIP = ("created",), ("last_login", "date_joined")


@cache
def _query(vendor: str) -> tuple[str, int]:
    user = get_user_model()
    query = (f"SELECT {sql.select_list(Token, 'k', _TOKEN_SKIP)}, {sql.select_list(user, 'u', _USER_SKIP)} "
             f"FROM {sql.table(Token)} k JOIN {sql.table(user)} u ON u.{sql.quote(user._meta.pk.column)} = "
             f"k.{sql.column(Token, 'user')} WHERE k.{sql.quote(Token._meta.pk.column)} = %s")
    return query, sql.width(Token, _TOKEN_SKIP)


def token_user(key: str) -> tuple[Any, Token] | None:
    """The user holding the token ``key``, and the token; None for an unknown key."""
    query, split = _query(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(query, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    token = sql.load(Token, row, 0, _TOKEN_SKIP)
    user = sql.load(get_user_model(), row, split, _USER_SKIP)
    token.user = user
    return user, token


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>`` (DRF's scheme and messages)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        found = token_user(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user, token = found
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token
