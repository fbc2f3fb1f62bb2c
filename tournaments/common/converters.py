"""URL path converters."""

from __future__ import annotations


class IdConverter:
    """A database id or number in a URL: 1 to 18 digits, so that every value fits the database's 64-bit integers
    (a longer one is a 404 at URL resolution, not an overflow in the database driver: SQLite's raises)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
