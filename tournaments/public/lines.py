"""The lines of a published ranking as HTML table rows, built once per snapshot and language and kept.

A ranking page shows a page of 50 lines, the reader's own line (« ma place ») and the lines found by a name
search: every variant is cut from the same rows, so each row is rendered once, here, with plain string
formatting (1,000 rows through the template engine cost half a second; here a few milliseconds), every
value escaped. The cells are those of ``templates/public/_ranking.html``'s header.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import override

from tournaments.common.collation import LIGATURES
from tournaments.public.queries import Row

#: lines per page of the ranking
PAGE_SIZE = 50
#: how many (snapshot, language) sets of rows each process keeps
_KEPT = 16


def fold(text: str) -> str:
    """A name for searching: lower case, no accents, hyphens or extra spaces (« Marie-Hélène » → « marie helene »),
    the ligatures written out (« Œdipe » → « oedipe »: found by « Oedipe », as a phone's keyboard types it)."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(LIGATURES)
    return " ".join(text.replace("-", " ").replace("'", " ").replace("’", " ").split())


@dataclass(frozen=True)
class Lines:
    """Rows of one snapshot in one language: the data, each row's ``<tr>``, and where each entry is."""

    rows: tuple[Row, ...]
    html: tuple[str, ...]
    position: dict[int, int]  # entry (or team) id → index in rows
    folded: tuple[str, ...]

    @property
    def pages(self) -> int:
        return max((len(self.rows) + PAGE_SIZE - 1) // PAGE_SIZE, 1)

    def page_of(self, ident: int) -> int:
        return self.position[ident] // PAGE_SIZE + 1

    def page(self, number: int) -> tuple[int, int]:
        """(start, end) indices of page ``number`` (from 1)."""
        start = (number - 1) * PAGE_SIZE
        return start, min(start + PAGE_SIZE, len(self.rows))

    def find(self, query: str, limit: int = 20) -> list[int]:
        """Indices of the rows whose name contains every word of ``query`` (accents and case ignored)."""
        words = fold(query).split()
        if not words:
            return []
        out = []
        for i, name in enumerate(self.folded):
            if all(w in name for w in words):
                out.append(i)
                if len(out) >= limit:
                    break
        return out


def _entry_row(row: Row, player_url: tuple[str, str], words: dict[str, str]) -> str:
    rank = f"{row.rank}<abbr title=\"{words['tied']}\">=</abbr>" if row.shared else str(row.rank)
    link = f"{player_url[0]}{row.entry_id}{player_url[1]}"
    withdrawn = f" ({words['withdrawn']})" if row.withdrawn else ""
    values = "".join(f"<td>{escape(v)}</td>" if i == 0 else f'<td class="hide-narrow">{escape(v)}</td>'
                     for i, v in enumerate(row.values))
    css = ' class="withdrawn"' if row.withdrawn else ""
    return (f'<tr{css} data-entry="{row.entry_id}"><td>{rank}</td>'
            f'<td class="l"><a href="{link}">{escape(row.name)}</a>{withdrawn}</td>'
            f'<td class="l hide-narrow">{escape(row.club)}</td>{values}'
            f'<td class="l explain"><details><summary>{words["why"]}</summary>{escape(row.explain)}</details>'
            "</td></tr>")


def _team_row(row: Row, words: dict[str, str]) -> str:
    values = "".join(f"<td>{escape(v)}</td>" if i == 0 else f'<td class="hide-narrow">{escape(v)}</td>'
                     for i, v in enumerate(row.values))
    return (f'<tr data-team="{row.team_id}"><td>{row.rank}{"=" if row.shared else ""}</td>'
            f'<td class="l">{escape(row.name)}</td>{values}'
            f'<td class="l explain"><details><summary>{words["why"]}</summary>{escape(row.explain)}</details>'
            "</td></tr>")


def build(rows: list[Row], slug: str, lang: str, *, teams: bool = False) -> Lines:
    with override(lang):
        words = {"tied": escape(_("tied")), "withdrawn": escape(_("abandon")), "why": escape(_("why?"))}
        head, tail = reverse("public-player", args=[slug, 987654321]).rsplit("987654321", 1)  # reversed once
        html = tuple(_team_row(r, words) if teams else _entry_row(r, (head, tail), words) for r in rows)
    position = {(r.team_id if teams else r.entry_id): i for i, r in enumerate(rows)}
    return Lines(tuple(rows), html, position, tuple(fold(r.name) for r in rows))


_memo: OrderedDict[tuple, Lines] = OrderedDict()
_lock = Lock()


def kept(key: tuple) -> Lines | None:
    """The :class:`Lines` this process built for ``key`` already, or None (then :func:`lines` with the rows)."""
    with _lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
        return found


def lines(key: tuple, rows: list[Row], slug: str, lang: str, *, teams: bool = False) -> Lines:
    """The :class:`Lines` of ``rows`` (a snapshot's, in ``lang``), built once per process for ``key``."""
    with _lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
            return found
    built = build(rows, slug, lang, teams=teams)
    with _lock:
        _memo[key] = built
        while len(_memo) > _KEPT:
            _memo.popitem(last=False)
    return built


def mark_mine(html: str) -> str:
    """The reader's own row, marked (``aria-current``) so that it stands out on its page."""
    return '<tr aria-current="true"' + html[3:]
