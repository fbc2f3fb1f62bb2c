"""Duplicate Tarot scoring (« donnes dupliquées », RULES.md §1.12 rule 36, decision A-T13).

Pure Python (no Django). The same étuis (a deal's four hands, chien and dealer) are played at
several tables; players keep their orientation (the record's seat 0 is North, then East, South,
West in play order). A seat's result is its FFT mark on that deal (§1.11); results are compared
only within one **comparison group**: the same étui, the same cards (a fouled étui's results form
their own group, by fingerprint) and the same orientation.

* **Matchpoints** (default): each result gets 2 points for every other result of its group it
  beats and 1 for every tie; the top is 2(k − 1) for k results, so a group's points sum to
  k(k − 1); the percentage is points / top (a lone result: 50 %).
* **Neuberg**: when a group has k results instead of the E expected for that étui and
  orientation (a table did not play it, a result is artificial, or the étui was fouled at some
  table), MP′ = (MP + 1)·E/k − 1 on the full top 2(E − 1).
* **Artificial results** set by the arbiter: 60 % / 50 % / 40 % of the top (``plus``,
  ``even``, ``minus``: not at fault, both, at fault), never compared with the others; ``absent``
  (not played) is left out, and Neuberg applies to the others.
* **Datum** (option): result − datum, the datum being the mean of the group's results after
  dropping the highest and the lowest when k ≥ 5; the event score is the sum. A-T13 gives no
  datum for an artificial result: here it scores 0 (the datum itself) whatever its percentage,
  and ``absent`` is left out.

Event scores: the mean percentage over the étuis played (default), the sum of matchpoints
(``score="sum"``) or the sum of datum differences (``method="datum"``). Ranking by decreasing
score; equal scores share the rank (A-T11) unless the organizer declared tie-breaks in advance
(``best_board``: the best single étui; ``tops``: the number of tops). Team forms (pairs,
quadrettes): a team's score is the sum of its members' scores.

Arithmetic is exact (ints and :class:`fractions.Fraction`); floats appear nowhere.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import accumulate, chain, compress, groupby, repeat
from operator import add, attrgetter, is_, is_not, itemgetter, mul, not_, sub
from typing import Any, cast

from scoring.ranking import (
    _PLAIN,
    Entry,
    RankingSnapshot,
    build_snapshot,
    canonical_json,
    check_tie_breaks,
    entry_order,
    percent_score,
    without_gc,
)

ORIENTATIONS = ("N", "E", "S", "W")
"""Orientation codes by record seat: seat 0 is North, then East, South, West in play order."""

ARTIFICIAL = {"plus": Fraction(60), "even": Fraction(50), "minus": Fraction(40)}
"""Artificial results (A-T13): percentage of the top for a seat not at fault / both / at fault."""

ABSENT = "absent"
"""An artificial « not played »: left out of every comparison; Neuberg applies to the others."""

METHODS = ("matchpoints", "datum")
SCORES = ("mean", "sum")
DUPLICATE_TIE_BREAKS = ("best_board", "tops")

FORM = 2
"""The canonical form of the inputs a ranking writes (``("form", 2)`` in its options): one row per étui and
orientation (:data:`Unit`), about a third of form 1's text. A snapshot whose options name no form holds one
:class:`BoardResult` per result (form 1, written before) and regenerates as it was written."""
INPUT_FORMS = (1, 2)


@dataclass(frozen=True, order=True, slots=True)
class BoardResult:
    """One seat's result on one étui: its FFT mark, or an artificial result.

    ``fingerprint`` names the cards that were really played: empty for the étui's own cards, the
    fingerprint of the table's cards for a fouled étui (they are compared only with the same
    cards). ``artificial`` is one of ``plus``, ``even``, ``minus``, ``absent`` (then ``mark`` is
    None). ``round`` and ``table`` only locate the result for the travellers. Slotted: a 1,024-player duplicate
    builds 262,144 of them at each publication (a fifth quicker to make, its fields quicker to read).
    """

    board: int
    orientation: int
    entry: Entry
    mark: int | None
    fingerprint: str = ""
    artificial: str | None = None
    round: int = 0
    table: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.orientation < 4:
            raise ValueError(f"orientation is a seat from 0 (North) to 3 (West): {self!r}")
        if self.artificial is None and self.mark is None:
            raise ValueError(f"a played result has a mark: {self!r}")
        if self.artificial is not None and (self.artificial not in ARTIFICIAL and self.artificial != ABSENT):
            raise ValueError(f"artificial is one of plus, even, minus, absent: {self!r}")
        if self.artificial is not None and self.mark is not None:
            raise ValueError(f"an artificial result has no mark: {self!r}")

    @property
    def group(self) -> tuple[int, str, int]:
        """The comparison group: (étui, cards, orientation)."""
        return (self.board, self.fingerprint, self.orientation)


@dataclass(frozen=True)
class ScoredResult:
    """A result with its score: matchpoints (after Neuberg) on ``top``, its percentage, its datum.

    ``compared`` is k, the number of results of its group compared (artificial ones excluded);
    ``expected`` is E. ``percentage`` is None for ``absent``; ``datum`` and ``datum_score`` are
    None with the matchpoint method.
    """

    result: BoardResult
    points: int | None
    top: int
    compared: int
    expected: int
    datum: Fraction | None = None
    per: int = 1

    # ``points / per`` are the matchpoints, kept as two ints so that sums and comparisons stay in
    # integer arithmetic: Neuberg's ((MP + 1)·E − k) / k, an artificial result's pct·top / 100

    @cached_property
    def matchpoints(self) -> int | Fraction | None:
        """The matchpoints on ``top`` (after Neuberg); None for a result not played."""
        if self.points is None:
            return None
        return self.points if self.per == 1 else Fraction(self.points, self.per)

    @cached_property
    def datum_score(self) -> Fraction | None:
        """Result − datum (the datum method); 0 for an artificial result; None otherwise."""
        if self.datum is None or self.points is None:
            return None
        if self.result.artificial is not None:
            return Fraction(0)
        return self.result.mark - self.datum  # type: ignore[operator]

    @cached_property
    def percentage(self) -> Fraction | None:
        """100 · matchpoints / top (a lone result, top 0: 50 %); an artificial result its own; None if absent."""
        artificial = self.result.artificial
        if self.points is None:
            return None
        if artificial is not None:
            return ARTIFICIAL[artificial]
        if self.top == 0:
            return Fraction(50)
        return Fraction(100 * self.points, self.top * self.per)


def matchpoints(marks: Sequence[int]) -> list[int]:
    """Matchpoints of each mark among ``marks``: 2 per mark beaten, 1 per tie (top 2(k − 1)).

    >>> matchpoints([90, -30, 90, 10])
    [5, 0, 5, 2]
    """
    order = sorted(marks)
    out_by_mark: dict[int, int] = {}
    i, k = 0, len(order)
    while i < k:
        j = i
        while j < k and order[j] == order[i]:
            j += 1
        # i results strictly below, j − i − 1 others equal
        out_by_mark[order[i]] = 2 * i + (j - i - 1)
        i = j
    return [out_by_mark[m] for m in marks]


def neuberg(mp: int | Fraction, compared: int, expected: int) -> Fraction:
    """Neuberg's formula: MP′ = (MP + 1)·E/k − 1, on the top 2(E − 1).

    >>> neuberg(4, 6, 7)
    Fraction(29, 6)
    """
    if compared <= 0 or expected < compared:
        raise ValueError(f"Neuberg needs 0 < k ≤ E: k={compared}, E={expected}")
    if compared == expected:
        return Fraction(mp)
    return (Fraction(mp) + 1) * expected / compared - 1


def datum_of(marks: Sequence[int]) -> Fraction:
    """The datum: the mean of ``marks`` after dropping the highest and the lowest when k ≥ 5."""
    if not marks:
        raise ValueError("a datum needs at least one result")
    if len(marks) >= 5:
        return Fraction(sum(marks) - max(marks) - min(marks), len(marks) - 2)
    return Fraction(sum(marks), len(marks))


def expected_counts(results: Iterable[BoardResult]) -> dict[tuple[int, int], int]:
    """E per (étui, orientation) when the director gives none: every result listed for it, in any group."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for r in results:
        counts[(r.board, r.orientation)] += 1
    return dict(counts)


def score_results(
    results: Iterable[BoardResult],
    *,
    method: str = "matchpoints",
    expected: Mapping[int, int] | None = None,
) -> list[ScoredResult]:
    """Score every result within its comparison group (A-T13).

    ``expected`` gives E per étui (the tables meant to play it); by default E is the number of
    results listed for that étui and orientation, fouled, artificial and absent ones included.
    """
    return [ScoredResult(*row) for row in _scored_rows(results, method, expected)]


_Row = tuple[BoardResult, int | None, int, int, int, Fraction | None, int]
"""A scored result as :class:`ScoredResult`'s fields in order (result, points, top, compared, expected, datum,
per): a tuple, not an object, for the 262,144 results of a 1,024-player duplicate."""

_ident = attrgetter("board", "orientation", "entry")
_listed_key = attrgetter("board", "orientation")
_group_key = attrgetter("board", "fingerprint", "orientation")
_cards = attrgetter("fingerprint")


_Groups = dict[tuple[int, str, int], list[BoardResult]]


def _groups_unsorted(results: Sequence[BoardResult]) -> tuple[_Groups, Mapping[tuple[int, int], int]]:
    """The comparison groups, and the results listed per (étui, orientation), of results in any order."""
    listed = Counter(map(_listed_key, results))
    groups: _Groups = {}
    for key, r in zip(map(_group_key, results), results, strict=True):
        members = groups.get(key)
        if members is None:
            groups[key] = [r]
        else:
            members.append(r)
    return groups, listed


def _groups(results: Sequence[BoardResult]) -> tuple[_Groups, Mapping[tuple[int, int], int]]:
    """:func:`_groups_unsorted` of results in their canonical order (by étui and orientation first): each run of one
    étui and orientation taken whole by ``groupby``, split by cards only when one of its étuis was fouled."""
    groups: _Groups = {}
    listed: dict[tuple[int, int], int] = {}
    for (board, orientation), run in groupby(results, key=_listed_key):
        members = list(run)
        listed[(board, orientation)] = len(members)
        cards = set(map(_cards, members))
        if len(cards) == 1:
            groups[(board, cards.pop(), orientation)] = members
        else:
            for r in members:
                groups.setdefault((board, r.fingerprint, orientation), []).append(r)
    return groups, listed


def _scored_rows(results: Iterable[BoardResult], method: str, expected: Mapping[int, int] | None,
                 presorted: bool = False) -> list[_Row]:
    """:func:`score_results` as plain tuples (what :func:`rank_duplicate` reads); ``presorted``: the results are in
    their canonical order (``_result_key``)."""
    if method not in METHODS:
        raise ValueError(f"method is one of {METHODS}: got {method!r}")
    results = results if isinstance(results, list | tuple) else list(results)
    if len(set(map(_ident, results))) != len(results):  # one C pass; the loop only finds which one to name
        seen: set[tuple[int, int, Entry]] = set()
        for r in results:
            ident = _ident(r)
            if ident in seen:
                raise ValueError(f"two results for entry {r.entry!r} on étui {r.board}, orientation "
                                 f"{ORIENTATIONS[r.orientation]}: a correction replaces a result")
            seen.add(ident)
    groups, listed = _groups(results) if presorted else _groups_unsorted(results)
    datum_method = method == "datum"
    out: list[_Row] = []
    for (board, _cards, orientation), members in groups.items():
        n_listed = listed[(board, orientation)]
        e = n_listed if expected is None else expected[board]
        if n_listed > e:
            raise ValueError(f"étui {board}: {n_listed} results for orientation "
                             f"{ORIENTATIONS[orientation]}, more than the {e} expected")
        top = 2 * (e - 1)
        played = [r for r in members if r.artificial is None]
        k = len(played)
        marks = [r.mark for r in played]
        datum = datum_of(marks) if datum_method and marks else None  # type: ignore[arg-type]
        if k:
            points = matchpoints(marks)  # type: ignore[arg-type]
            if k == e:  # the common case: integer matchpoints, the percentage computed when read
                out += [(r, mp, top, k, e, datum, 1) for r, mp in zip(played, points, strict=True)]
            else:  # Neuberg: MP′ = (MP + 1)·E/k − 1 = ((MP + 1)·E − k) / k
                out += [(r, (mp + 1) * e - k, top, k, e, datum, k) for r, mp in zip(played, points, strict=True)]
        if k == len(members):
            continue
        for r in members:
            if r.artificial is None:
                continue
            if r.artificial == ABSENT:
                out.append((r, None, top, k, e, None, 1))
            else:
                pct = int(ARTIFICIAL[r.artificial])
                # under the datum method an artificial result scores the datum itself (0)
                out.append((r, pct * top, top, k, e, None if not datum_method else (datum or Fraction(0)), 100))
    return out


@dataclass(frozen=True, order=True)
class EntryScore:
    """One entry's duplicate figures: the event ``score`` and what the tie-breaks read."""

    entry: Entry
    score: Fraction
    boards: int
    best_board: Fraction | None
    tops: int


def entry_scores(
    scored: Iterable[ScoredResult], *, method: str = "matchpoints", score: str = "mean",
    entries: Iterable[Entry] = (),
) -> dict[Entry, EntryScore]:
    """Each entry's event score: mean percentage (or sum of matchpoints, or sum of datum differences).

    ``absent`` results are left out: the mean is over the étuis played (or scored artificially).
    """
    rows = [(s.result, s.points, s.top, s.compared, s.expected, s.datum, s.per) for s in scored]
    return _entry_scores(rows, method, score, entries)


def _entry_scores(rows: Iterable[_Row], method: str, score: str, entries: Iterable[Entry]) -> dict[Entry, EntryScore]:
    """:func:`entry_scores` of :func:`_scored_rows`."""
    if score not in SCORES:
        raise ValueError(f"score is one of {SCORES}: got {score!r}")
    # exact and cheap: each entry's values are summed as ints per denominator (matchpoints over
    # top·per for the mean), one division per denominator at the end; the best étui is compared as
    # num/den by cross-multiplication
    # entry → [results counted, {denominator: sum of numerators}, best (num, den), tops]: one look-up a result
    acc: dict[Entry, list[Any]] = {}
    datum_method = method == "datum"
    mean = not datum_method and score == "mean"
    for result, mp, top, _k, _e, d, per in rows:
        if mp is None:
            continue
        e = result.entry
        a = acc.get(e)
        if a is None:
            a = acc[e] = [0, {}, None, 0]
        a[0] += 1
        artificial = result.artificial
        if datum_method:  # mark − p/q as (mark·q − p) / q: ints, summed per denominator
            if artificial is not None:
                num, den = 0, 1
            else:
                num, den = result.mark * d.denominator - d.numerator, d.denominator  # type: ignore[operator,union-attr]
        elif not mean:
            num, den = mp, per
        elif top:
            num, den = mp, top * per
        else:  # a lone result (top 0): 50 %, or an artificial result's own percentage, over 100
            num, den = (int(ARTIFICIAL[artificial]) if artificial is not None else 50), 100
        sums = a[1]
        sums[den] = sums.get(den, 0) + num
        held = a[2]
        if held is None or num * held[1] > held[0] * den:
            a[2] = (num, den)
        if top and mp == top * per and artificial is None:
            a[3] += 1
    out: dict[Entry, EntryScore] = {}
    for e in set(acc) | set(entries):
        n, sums, held, tops = acc.get(e) or (0, {}, None, 0)
        total = sum((Fraction(v, den) for den, v in sums.items()), Fraction(0)) if n else Fraction(0)
        if mean and n:
            total = 100 * total / n
        best_value = None if held is None else (100 if mean else 1) * Fraction(held[0], held[1])
        out[e] = EntryScore(e, total, n, best_value, tops)
    return out


_result_key = attrgetter("board", "orientation", "entry", "fingerprint")
"""The canonical order of the results (one result per étui, orientation and entry)."""


def _metrics(s: EntryScore) -> tuple[tuple[str, Fraction | int | None], ...]:
    """A line's metrics; an entry with no étui played (a bye, a table of 3 that entered nothing) has no score
    (None, ranked below every score), never a mean of 0 % tied with those who really scored 0 %."""
    return (("score", s.score if s.boards else None), ("best_board", s.best_board), ("tops", s.tops),
            ("boards", s.boards))


# --------------------------------------------------------------------------------------------
# The ranking's fast path: the results read once into plain tuples, scored one comparison unit at a time
# --------------------------------------------------------------------------------------------

_FIELDS = tuple(f for f in BoardResult.__dataclass_fields__)
_ROW = attrgetter("__class__.__name__", *_FIELDS)
"""A result as the row of its canonical JSON form: (class name, board, orientation, entry, mark, fingerprint,
artificial, round, table) — what :func:`scoring.ranking.canonical_json` writes for a :class:`BoardResult`."""
_B, _O, _E, _M, _F, _A, _R, _T = 1, 2, 3, 4, 5, 6, 7, 8
_INT_FIELDS = (_B, _O, _E, _M, _R, _T)
_INT: set[type] = {int}
_NONE: set[type] = {type(None)}
_NAME: set[type] = {str}
_unit_of = itemgetter(_B, _O)


_consume: Callable[[Iterable[Any]], None] = deque(maxlen=0).extend
"""Run an iterator to its end in C (``map`` of a method over the values)."""


class _Tally:
    """Each entry's values as ints per denominator (``values[den][entry]``: its numerators) and its tops; an
    entry's results counted are its values (the absent ones are left out)."""

    def __init__(self) -> None:
        self.values: dict[int, defaultdict[Entry, list[int]]] = {}
        self.tops: Counter[Entry] = Counter()
        #: the types of every field of every result (the class name aside): the canonical text's fast path
        #: needs plain values only
        self.kinds: set[type] = set()
        #: each (étui, orientation)'s fields as columns when its text can be written by a %-format, else None
        self.columns: list[tuple[tuple[Any, ...], ...] | None] = []
        #: each (étui, orientation) in the compact form (form 2, :data:`Unit`), when asked for
        self.units: list[Unit] = []

    def add(self, den: int, entries: Sequence[Entry], nums: Iterable[int]) -> None:
        """Add the values ``nums[i] / den`` of ``entries[i]``: one C pass (``map`` of ``list.append``)."""
        by_entry = self.values.get(den)
        if by_entry is None:
            by_entry = self.values[den] = defaultdict(list)
        _consume(map(list.append, map(by_entry.__getitem__, entries), nums))


_Unit = tuple[int, int, list[tuple[Any, ...]]]


_ARTIFICIAL_KINDS = frozenset((None, *ARTIFICIAL, ABSENT))
_ORIENTATION_CODES = frozenset(range(4))


class ResultRows(Sequence[BoardResult]):
    """Results as rows: ``("BoardResult", board, orientation, entry, mark, fingerprint, artificial, round, table)``,
    what :func:`scoring.ranking.canonical_json` writes for a :class:`BoardResult` and what :func:`rank_duplicate`
    reads. The app's reader gives them (262,144 at 1,024 players): they are checked in C passes as
    :class:`BoardResult` checks one (the same ValueError otherwise), and the objects are built only when someone
    reads them as results (``results()``, an index, an iteration) — ranking, its canonical text and digest read the
    rows. A ranking of rows keeps its inputs as rows in canonical order; equal to the tuple of the same results."""

    __slots__ = ("_results", "rows")

    def __init__(self, rows: Iterable[tuple[Any, ...]], *, checked: bool = False) -> None:
        self.rows: list[tuple[Any, ...]] = rows if isinstance(rows, list) else list(rows)
        self._results: tuple[BoardResult, ...] | None = None
        if not checked and not _plain_rows(self.rows):
            self._results = tuple(_result_of(row) for row in self.rows)  # BoardResult's own check, its own error

    def results(self) -> tuple[BoardResult, ...]:
        """The results as :class:`BoardResult` objects (built once)."""
        if self._results is None:
            self._results = tuple(map(_result_of, self.rows))
        return self._results

    def boards(self) -> set[int]:
        return set(map(itemgetter(_B), self.rows))

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: Any) -> Any:
        return self.results()[index]

    def __iter__(self) -> Iterator[BoardResult]:
        return iter(self.results())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ResultRows):
            return self.rows == other.rows
        if isinstance(other, tuple):
            return self.results() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.results())

    def __repr__(self) -> str:
        return f"ResultRows({len(self.rows)} results)"


def _result_of(row: tuple[Any, ...]) -> BoardResult:
    if len(row) != len(_FIELDS) + 1 or row[0] != BoardResult.__name__:
        raise ValueError(f"a result row is (\"BoardResult\", {', '.join(_FIELDS)}): {row!r}")
    return BoardResult(*row[1:])


def _plain_rows(rows: list[tuple[Any, ...]]) -> bool:
    """True when every row would make a valid :class:`BoardResult` (its ``__post_init__``'s checks, in C passes):
    nine fields, the class name, an orientation 0 – 3, a mark exactly when the result is not artificial, an
    artificial result one of plus, even, minus, absent."""
    if not rows:
        return True
    if set(map(len, rows)) != {len(_FIELDS) + 1} or set(map(itemgetter(0), rows)) != {BoardResult.__name__}:
        return False
    orientations = set(map(itemgetter(_O), rows))
    if not (_ORIENTATION_CODES.issuperset(orientations) and all(type(o) is int for o in orientations)):
        return False
    kinds = set(map(itemgetter(_A), rows))
    if not _ARTIFICIAL_KINDS.issuperset(kinds):
        return False
    marks = list(map(itemgetter(_M), rows))
    if kinds == {None}:
        return not any(map(is_, marks, repeat(None)))
    played = list(map(is_, map(itemgetter(_A), rows), repeat(None)))
    return (not any(map(is_, compress(marks, played), repeat(None)))
            and not any(map(is_not, compress(marks, map(not_, played)), repeat(None))))




def _sort_rows(results: Sequence[BoardResult]) -> tuple[tuple[BoardResult, ...] | ResultRows, list[_Unit]]:
    """The results in canonical order, and the rows of each (étui, orientation) in that order.

    One C pass reads every field (``_ROW``); the order of ``_result_key`` is three stable sorts of the positions
    on one int (or str) key each — entry, then orientation, then étui — since an étui, orientation and entry have
    one result (checked here: a correction replaces a result); each (étui, orientation) is then a slice, its
    bounds found by bisection. Results given as :class:`ResultRows` are read as they are, and come back as rows in
    canonical order (no object built)."""
    given = results.rows if type(results) is ResultRows else None
    rows = given if given is not None else list(map(_ROW, results))
    entries = list(map(itemgetter(_E), rows))
    orientations = list(map(itemgetter(_O), rows))
    boards = list(map(itemgetter(_B), rows))
    order = sorted(range(len(rows)), key=entries.__getitem__)
    order.sort(key=orientations.__getitem__)
    order.sort(key=boards.__getitem__)
    ordered_rows = list(map(rows.__getitem__, order))
    boards = list(map(boards.__getitem__, order))
    orientations = list(map(orientations.__getitem__, order))
    entries = list(map(entries.__getitem__, order))
    units: list[_Unit] = []
    lo, end = 0, len(rows)
    while lo < end:
        board = boards[lo]
        board_end = bisect_right(boards, board, lo)
        while lo < board_end:
            orientation = orientations[lo]
            hi = bisect_right(orientations, orientation, lo, board_end)
            if len(set(entries[lo:hi])) != hi - lo:
                seen: set[Entry] = set()
                for e in entries[lo:hi]:
                    if e in seen:
                        raise ValueError(f"two results for entry {e!r} on étui {board}, orientation "
                                         f"{ORIENTATIONS[orientation]}: a correction replaces a result")
                    seen.add(e)
            units.append((board, orientation, ordered_rows[lo:hi]))
            lo = hi
    if given is not None:
        return ResultRows(ordered_rows, checked=True), units
    return tuple(map(results.__getitem__, order)), units


def _marks_points(marks: Sequence[int]) -> list[int]:
    """:func:`matchpoints` by counting, in C passes: a distinct mark with c results, cum of them at or below it,
    gets 2(cum − c) + (c − 1) = 2·cum − c − 1."""
    counts = Counter(marks)
    distinct = sorted(counts)
    c = list(map(counts.__getitem__, distinct))
    points = dict(zip(distinct, map(sub, map(mul, accumulate(c), repeat(2)), map(add, c, repeat(1))), strict=True))
    return list(map(points.__getitem__, marks))


def _tally(units: Sequence[_Unit], method: str, score: str, expected: Mapping[int, int] | None,
           compact: bool = False) -> _Tally:
    """Score every comparison group (A-T13, the same definitions as :func:`_scored_rows`) into a :class:`_Tally`.

    Values as num / den (ints): the mean percentage sums matchpoints over top·per (times 100 at the end), the sum
    matchpoints over per, the datum mark·q − p over q for a datum p/q; an artificial result pct·top over 100·top
    (a lone one: pct over 100), 0 under the datum method; a lone played result 50 over 100. ``compact``: each
    (étui, orientation) also kept in form 2 (``tally.units``)."""
    if method not in METHODS:
        raise ValueError(f"method is one of {METHODS}: got {method!r}")
    if score not in SCORES:
        raise ValueError(f"score is one of {SCORES}: got {score!r}")
    tally = _Tally()
    datum_method = method == "datum"
    mean = not datum_method and score == "mean"
    for board, orientation, members in units:
        n_listed = len(members)
        e = n_listed if expected is None else expected[board]
        if n_listed > e:
            raise ValueError(f"étui {board}: {n_listed} results for orientation "
                             f"{ORIENTATIONS[orientation]}, more than the {e} expected")
        top = 2 * (e - 1)
        columns = tuple(zip(*members, strict=True))
        kinds: list[set[type]] = [_NAME, *(set(map(type, column)) for column in columns[1:])]  # the name: a str
        tally.kinds.update(*kinds[1:])
        cards = set(columns[_F])
        # the unit's canonical text can be written by one %-format when its fields are exactly ints (no bool: JSON
        # writes true), its cards the étui's own and no result artificial
        tally.columns.append(columns if cards == {""} and kinds[_A] == _NONE and all(
            kinds[i] == _INT for i in _INT_FIELDS) else None)
        if compact:
            tally.units.append((board, orientation, columns[_E], *(
                _column(columns[i], kinds[i]) for i in (_M, _F, _A, _R, _T))))
        if len(cards) == 1:
            groups = [columns]
        else:  # a fouled étui: each set of cards its own group
            split: dict[str, list[tuple[Any, ...]]] = {}
            for row in members:
                split.setdefault(row[_F], []).append(row)
            groups = [tuple(zip(*rows, strict=True)) for rows in split.values()]
        for group in groups:
            entries: Sequence[Entry] = group[_E]
            marks: Sequence[int] = group[_M]
            if group[_A].count(None) != len(entries):  # artificial results: scored apart, never compared
                kept = [i for i, kind in enumerate(group[_A]) if kind is None]
                _tally_artificial(tally, [(entries[i], kind) for i, kind in enumerate(group[_A]) if kind is not None],
                                  top, datum_method, mean)
                entries, marks = [entries[i] for i in kept], [marks[i] for i in kept]
            k = len(entries)
            if not k:
                continue
            points = _marks_points(marks)
            per = 1
            if k != e:  # Neuberg: MP′ = ((MP + 1)·E − k) / k
                per = k
                points = [(mp + 1) * e - k for mp in points]
            if top:  # the tops (a tie-break under every method)
                tally.tops.update(compress(entries, map((top * per).__eq__, points)))
            if datum_method:
                d = datum_of(marks)
                tally.add(d.denominator, entries, map(sub, map(mul, marks, repeat(d.denominator)),
                                                      repeat(d.numerator)))
            elif not top:  # a lone result: 50 %, or 0 matchpoints
                tally.add(100 if mean else per, entries, repeat(50 if mean else 0))
            else:
                tally.add(top * per if mean else per, entries, points)
    return tally


def _tally_artificial(tally: _Tally, results: Sequence[tuple[Entry, str]], top: int, datum_method: bool,
                      mean: bool) -> None:
    """The artificial results (entry, kind) of a group: ``absent`` left out; under the datum method 0 (the datum
    itself); else their percentage of the top."""
    for entry, kind in results:
        if kind == ABSENT:
            continue
        pct = int(ARTIFICIAL[kind])
        if datum_method:
            tally.add(1, (entry,), (0,))
        elif mean and not top:
            tally.add(100, (entry,), (pct,))
        elif mean:
            tally.add(100 * top, (entry,), (pct * top,))
        else:
            tally.add(100, (entry,), (pct * top,))


def _scores_of(tally: _Tally, method: str, score: str, entries: Iterable[Entry]) -> dict[Entry, EntryScore]:
    """Each entry's :class:`EntryScore` from its values: their sums per denominator (ints) put over one
    denominator, one Fraction for the score, the best value found by cross-multiplication."""
    mean = method != "datum" and score == "mean"
    scale = 100 if mean else 1
    per_den = sorted(tally.values.items())
    everyone = set(entries)
    for _den, by_entry in per_den:
        everyone.update(by_entry)
    out: dict[Entry, EntryScore] = {}
    for e in everyone:
        n, num, den = 0, 0, 1
        held: tuple[int, int] | None = None
        for d, by_entry in per_den:
            values = by_entry.get(e)
            if values is None:
                continue
            n += len(values)
            num, den = num * d + sum(values) * den, den * d
            b = max(values)
            if held is None or b * held[1] > held[0] * d:
                held = (b, d)
        if held is None:
            out[e] = EntryScore(e, Fraction(0), 0, None, 0)
            continue
        total = Fraction(scale * num, den * n) if mean else Fraction(num, den)
        out[e] = EntryScore(e, total, n, Fraction(scale * held[0], held[1]), tally.tops.get(e, 0))
    return out


def _inputs_json(results: tuple[BoardResult, ...] | ResultRows, units: Sequence[_Unit], tally: _Tally) -> str:
    """:func:`scoring.ranking.canonical_json` of the sorted results (the same text), written from their rows when
    every result is a :class:`BoardResult` of plain values: an (étui, orientation) of plain ints, its own cards and
    no artificial result by one %-format of its entries, marks, rounds and tables (about a quarter quicker than the
    JSON encoder, which writes the others); the general path otherwise (the same text, or its TypeError)."""
    if type(results) is ResultRows:  # rows: their class name checked, their fields' types in ``tally.kinds``
        if not _PLAIN.issuperset(tally.kinds):
            return canonical_json(results.results())
    elif not (_PLAIN.issuperset(tally.kinds) and set(map(type, results)) == {BoardResult}):
        return canonical_json(results)
    parts = []
    for (board, orientation, rows), columns in zip(units, tally.columns, strict=True):
        if columns is None:
            parts.append(json.dumps(rows, separators=(",", ":"), ensure_ascii=False, check_circular=False)[1:-1])
            continue
        row = f'["BoardResult",{board:d},{orientation:d},%d,%d,"",null,%d,%d]'
        values = tuple(chain.from_iterable(zip(columns[_E], columns[_M], columns[_R], columns[_T], strict=True)))
        parts.append(",".join([row] * len(rows)) % values)
    return f"[{','.join(parts)}]"


# --------------------------------------------------------------------------------------------
# Form 2 of the canonical inputs: one row per étui and orientation
# --------------------------------------------------------------------------------------------

Unit = tuple[Any, ...]
"""An (étui, orientation)'s results in form 2: ``(board, orientation, entries, marks, fingerprints, artificials,
rounds, tables)``, its results in canonical order (by entry). ``entries`` is always the tuple of the entries; each
other field is the one value its results share (of one type: 1 and True differ), else the tuple of their values.
Written as JSON, ``[12,0,[1,5,9],[40,-20,10],"",null,2,[3,7,1]]`` stands for three results of étui 12, North,
their own cards, none artificial, in round 2 at tables 3, 7 and 1."""


def _column(values: tuple[Any, ...], kinds: set[type]) -> Any:
    """A form-2 field: the one value of ``values`` when they are all the same (and of one type), else ``values``."""
    first = values[0]
    if len(kinds) == 1 and values.count(first) == len(values):
        return first
    return values


def expand(units: Iterable[Sequence[Any]]) -> ResultRows:
    """The results of form-2 inputs (:data:`Unit`), as rows in the units' order, checked as :class:`BoardResult`
    checks one; a unit of the wrong shape is refused (ValueError)."""
    rows: list[tuple[Any, ...]] = []
    name = BoardResult.__name__
    for unit in units:
        if not isinstance(unit, tuple | list) or len(unit) != 8 or not isinstance(unit[2], tuple | list):
            raise ValueError(f"a form-2 unit is (board, orientation, entries, mark, fingerprint, artificial, round, "
                             f"table): {unit!r}")
        board, orientation, entries, *fields = unit
        n = len(entries)
        columns: list[Iterable[Any]] = []
        for value in fields:
            if isinstance(value, tuple | list):
                if len(value) != n:
                    raise ValueError(f"étui {board}, orientation {orientation}: {len(value)} values for "
                                     f"{n} entries")
                columns.append(value)
            else:
                columns.append(repeat(value, n))
        rows += zip(repeat(name, n), repeat(board, n), repeat(orientation, n), entries, *columns, strict=False)
    return ResultRows(rows)


def _ranked(results: Iterable[BoardResult], method: str, score: str, expected: Mapping[int, int] | None,
            entries: Iterable[Entry], form: int = FORM
            ) -> tuple[tuple[BoardResult, ...] | ResultRows | tuple[Unit, ...], str, dict[Entry, EntryScore]]:
    """The canonical inputs (in ``form``), their JSON text and each entry's scores."""
    if form not in INPUT_FORMS:
        raise ValueError(f"form is one of {INPUT_FORMS}: got {form!r}")
    results = results if isinstance(results, list | tuple | ResultRows) else list(results)
    ordered, units = _sort_rows(results)
    tally = _tally(units, method, score, expected, compact=form == 2)
    if form == 2:
        compact = tuple(tally.units)
        # plain values in tuples: the JSON encoder alone writes canonical_json's text (no dataclass, no Fraction)
        text = (json.dumps(compact, separators=(",", ":"), ensure_ascii=False, check_circular=False)
                if _PLAIN.issuperset(tally.kinds) else canonical_json(compact))
        return compact, text, _scores_of(tally, method, score, entries)
    return ordered, _inputs_json(ordered, units, tally), _scores_of(tally, method, score, entries)


def _form_option(form: int) -> tuple[tuple[str, int], ...]:
    """The options' ``form``: named from form 2 on (form 1's options, and so its digests, stay as they were)."""
    return (("form", form),) if form != 1 else ()


@without_gc
def rank_duplicate(
    results: Iterable[BoardResult],
    *,
    method: str = "matchpoints",
    score: str = "mean",
    tie_breaks: Sequence[str] = (),
    expected: Mapping[int, int] | None = None,
    entries: Iterable[Entry] = (),
    form: int = FORM,
) -> RankingSnapshot:
    """The individual duplicate ranking by decreasing event score (A-T13, A-T11 for ties); its inputs in ``form``
    (:data:`FORM`: one row per étui and orientation; 1: one :class:`BoardResult` per result)."""
    tie_breaks = check_tie_breaks(tie_breaks, DUPLICATE_TIE_BREAKS)
    entries = tuple(entries)
    ordered, inputs_json, scores = _ranked(results, method, score, expected, entries, form)
    rows = [(e, _metrics(scores[e])) for e in sorted(scores, key=entry_order)]
    options = (("entries", tuple(sorted(set(entries), key=entry_order))),
               ("expected", tuple(sorted((expected or {}).items()))), *_form_option(form), ("method", method),
               ("score", score), ("tie_breaks", tie_breaks))
    # form 1: rows given, rows kept (a ResultRows, equal to the tuple of its results, its objects built if read)
    return build_snapshot("duplicate", ("score", *tie_breaks), rows, cast(tuple[Any, ...], ordered), options,
                          inputs_json=inputs_json)


@without_gc
def rank_duplicate_teams(
    results: Iterable[BoardResult],
    teams: Mapping[Entry, Sequence[Entry]],
    *,
    method: str = "matchpoints",
    score: str = "mean",
    tie_breaks: Sequence[str] = (),
    expected: Mapping[int, int] | None = None,
    form: int = FORM,
) -> RankingSnapshot:
    """Pairs, triplettes or quadrettes: a team's score is the sum of its members' scores (inputs in ``form``)."""
    tie_breaks = check_tie_breaks(tie_breaks, DUPLICATE_TIE_BREAKS)
    members = [m for ms in teams.values() for m in ms]
    if len(set(members)) != len(members):
        raise ValueError("a player belongs to two teams")
    ordered, inputs_json, scores = _ranked(results, method, score, expected, members, form)
    rows = []
    for team in sorted(teams, key=entry_order):
        ss = [scores[m] for m in teams[team]]
        bests = [s.best_board for s in ss if s.best_board is not None]
        rows.append((team, (("score", sum((s.score for s in ss), Fraction(0))),
                            ("best_board", max(bests) if bests else None), ("tops", sum(s.tops for s in ss)),
                            ("boards", sum(s.boards for s in ss)))))
    membership = tuple((team, tuple(sorted(teams[team], key=entry_order))) for team in sorted(teams, key=entry_order))
    options = (("expected", tuple(sorted((expected or {}).items()))), *_form_option(form), ("method", method),
               ("score", score), ("tie_breaks", tie_breaks))
    return build_snapshot("duplicate_teams", ("score", *tie_breaks), rows, (ordered, membership), options,
                          inputs_json=f"[{inputs_json},{canonical_json(membership)}]")


def percent_metrics(kind: str, options: Mapping[str, Any]) -> frozenset[str]:
    """The metrics of a duplicate ranking that are percentages (read « 83,33 % »): the event score and the best
    étui of a ranking by mean percentage of matchpoints; none under a sum or the datum method, nor in a team's
    ranking (its score is the sum of its members')."""
    return frozenset({"score", "best_board"}) if percent_score(kind, options.items()) else frozenset()


def regenerate(snapshot: RankingSnapshot) -> RankingSnapshot:
    """Rebuild a duplicate snapshot from its own inputs and options (``scoring.ranking.regenerate``), in the form
    it was written in (no ``form`` option: form 1, one :class:`BoardResult` per result)."""
    opts = dict(snapshot.options)
    form = opts.get("form", 1)
    common = {"method": opts["method"], "score": opts["score"], "tie_breaks": tuple(opts["tie_breaks"]),
              "expected": dict(opts["expected"]) or None, "form": form}
    if snapshot.kind == "duplicate":
        results = expand(snapshot.inputs) if form == 2 else snapshot.inputs
        return rank_duplicate(results, entries=opts["entries"], **common)
    results, membership = snapshot.inputs
    return rank_duplicate_teams(expand(results) if form == 2 else results, dict(membership), **common)


def traveller(scored: Iterable[ScoredResult], board: int) -> list[ScoredResult]:
    """The « traveller » of an étui: its results, by group then best first (for the public pages)."""
    rows = [s for s in scored if s.result.board == board]
    return sorted(rows, key=lambda s: (s.result.fingerprint, s.result.orientation,
                                       -(s.result.mark if s.result.mark is not None else -10**9),
                                       entry_order(s.result.entry)))
