"""Who acts: the account behind a request, or nobody (a table's link, an anonymous visitor, a command)."""

from __future__ import annotations

from typing import Any


def acting_user(user: Any) -> Any:
    """``user`` when it is a logged-in account (to record as the author of a write), else None."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None
