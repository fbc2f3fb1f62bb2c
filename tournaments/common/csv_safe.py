"""CSV exports a spreadsheet cannot run: cells neutralised against formula injection (OWASP's advice).

A spreadsheet treats a cell beginning with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return as a formula
(``=HYPERLINK(…)``, ``+cmd|…``, ``@SUM(…)``). Such a text cell gets a leading apostrophe, which spreadsheets show
as text; numbers (a negative score included) stay numbers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")


def safe_cell(value: Any) -> Any:
    """The value as a spreadsheet should read it: a text starting like a formula is prefixed with ``'``."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.match(value):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose every cell goes through :func:`safe_cell`."""

    def __init__(self, stream: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)
