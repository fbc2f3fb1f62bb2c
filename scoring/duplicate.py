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

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import attrgetter

from scoring.ranking import Entry, RankingSnapshot, build_snapshot, check_tie_breaks, entry_order

ORIENTATIONS = ("N", "E", "S", "W")
"""Orientation codes by record seat: seat 0 is North, then East, South, West in play order."""

ARTIFICIAL = {"plus": Fraction(60), "even": Fraction(50), "minus": Fraction(40)}
"""Artificial results (A-T13): percentage of the top for a seat not at fault / both / at fault."""

ABSENT = "absent"
"""An artificial « not played »: left out of every comparison; Neuberg applies to the others."""

METHODS = ("matchpoints", "datum")
SCORES = ("mean", "sum")
DUPLICATE_TIE_BREAKS = ("best_board", "tops")


@dataclass(frozen=True, order=True)
class BoardResult:
    """One seat's result on one étui: its FFT mark, or an artificial result.

    ``fingerprint`` names the cards that were really played: empty for the étui's own cards, the
    fingerprint of the table's cards for a fouled étui (they are compared only with the same
    cards). ``artificial`` is one of ``plus``, ``even``, ``minus``, ``absent`` (then ``mark`` is
    None). ``round`` and ``table`` only locate the result for the travellers.
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
    if method not in METHODS:
        raise ValueError(f"method is one of {METHODS}: got {method!r}")
    results = list(results)
    seen: set[tuple[int, int, Entry]] = set()
    groups: dict[tuple[int, str, int], list[BoardResult]] = defaultdict(list)
    for r in results:
        ident = (r.board, r.orientation, r.entry)
        if ident in seen:
            raise ValueError(f"two results for entry {r.entry!r} on étui {r.board}, orientation "
                             f"{ORIENTATIONS[r.orientation]}: a correction replaces a result")
        seen.add(ident)
        groups[r.group].append(r)
    listed = expected_counts(results)
    out: list[ScoredResult] = []
    for (board, _cards, orientation), members in groups.items():
        e = listed[(board, orientation)] if expected is None else expected[board]
        played = [r for r in members if r.artificial is None]
        k = len(played)
        if listed[(board, orientation)] > e:
            raise ValueError(f"étui {board}: {listed[(board, orientation)]} results for orientation "
                             f"{ORIENTATIONS[orientation]}, more than the {e} expected")
        top = 2 * (e - 1)
        marks = [r.mark for r in played]
        datum = datum_of(marks) if method == "datum" and marks else None  # type: ignore[arg-type]
        if k:
            points = matchpoints(marks)  # type: ignore[arg-type]
            if k == e:  # the common case: integer matchpoints, the percentage computed when read
                if datum is None:
                    out += [ScoredResult(r, mp, top, k, e) for r, mp in zip(played, points, strict=True)]
                else:
                    out += [ScoredResult(r, mp, top, k, e, datum) for r, mp in zip(played, points, strict=True)]
            else:  # Neuberg: MP′ = (MP + 1)·E/k − 1 = ((MP + 1)·E − k) / k
                out += [ScoredResult(r, (mp + 1) * e - k, top, k, e, datum, k)
                        for r, mp in zip(played, points, strict=True)]
        for r in members:
            if r.artificial is None:
                continue
            if r.artificial == ABSENT:
                out.append(ScoredResult(r, None, top, k, e))
            else:
                pct = int(ARTIFICIAL[r.artificial])
                # under the datum method an artificial result scores the datum itself (0)
                out.append(ScoredResult(r, pct * top, top, k, e,
                                        None if method == "matchpoints" else (datum or Fraction(0)), 100))
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
    if score not in SCORES:
        raise ValueError(f"score is one of {SCORES}: got {score!r}")
    # exact and cheap: each entry's values are summed as ints per denominator (matchpoints over
    # top·per for the mean), one division per denominator at the end; the best étui is compared as
    # num/den by cross-multiplication
    by_den: dict[Entry, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    counts: dict[Entry, int] = defaultdict(int)
    best: dict[Entry, tuple[int, int]] = {}
    tops: dict[Entry, int] = defaultdict(int)
    mean = method != "datum" and score == "mean"
    for s in scored:
        mp = s.points
        if mp is None:
            continue
        e = s.result.entry
        counts[e] += 1
        top, per = s.top, s.per
        if method == "datum":  # mark − p/q as (mark·q − p) / q: ints, summed per denominator
            d = s.datum
            if s.result.artificial is not None:
                num, den = 0, 1
            else:
                num, den = s.result.mark * d.denominator - d.numerator, d.denominator  # type: ignore[operator,union-attr]
        elif not mean:
            num, den = mp, per
        elif top:
            num, den = mp, top * per
        else:  # a lone result: its percentage over 100
            num, den = s.percentage.numerator, 100 * s.percentage.denominator  # type: ignore[union-attr]
        by_den[e][den] += num
        held = best.get(e)
        if held is None or num * held[1] > held[0] * den:
            best[e] = (num, den)
        if top and mp == top * per and s.result.artificial is None:
            tops[e] += 1
    out: dict[Entry, EntryScore] = {}
    for e in set(counts) | set(entries):
        n = counts.get(e, 0)
        total = sum((Fraction(v, den) for den, v in by_den[e].items()), Fraction(0)) if n else Fraction(0)
        if mean and n:
            total = 100 * total / n
        held = best.get(e)
        best_value = None if held is None else (100 if mean else 1) * Fraction(held[0], held[1])
        out[e] = EntryScore(e, total, n, best_value, tops.get(e, 0))
    return out


_result_key = attrgetter("board", "orientation", "entry", "fingerprint")
"""The canonical order of the results (one result per étui, orientation and entry)."""


def _metrics(s: EntryScore) -> tuple[tuple[str, Fraction | int | None], ...]:
    return (("score", s.score), ("best_board", s.best_board), ("tops", s.tops), ("boards", s.boards))


def rank_duplicate(
    results: Iterable[BoardResult],
    *,
    method: str = "matchpoints",
    score: str = "mean",
    tie_breaks: Sequence[str] = (),
    expected: Mapping[int, int] | None = None,
    entries: Iterable[Entry] = (),
) -> RankingSnapshot:
    """The individual duplicate ranking by decreasing event score (A-T13, A-T11 for ties)."""
    tie_breaks = check_tie_breaks(tie_breaks, DUPLICATE_TIE_BREAKS)
    entries = tuple(entries)
    results = tuple(sorted(results, key=_result_key))
    scores = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score,
                          entries=entries)
    rows = [(e, _metrics(scores[e])) for e in sorted(scores, key=entry_order)]
    options = (("entries", tuple(sorted(set(entries), key=entry_order))),
               ("expected", tuple(sorted((expected or {}).items()))), ("method", method), ("score", score),
               ("tie_breaks", tie_breaks))
    return build_snapshot("duplicate", ("score", *tie_breaks), rows, results, options)


def rank_duplicate_teams(
    results: Iterable[BoardResult],
    teams: Mapping[Entry, Sequence[Entry]],
    *,
    method: str = "matchpoints",
    score: str = "mean",
    tie_breaks: Sequence[str] = (),
    expected: Mapping[int, int] | None = None,
) -> RankingSnapshot:
    """Pairs, triplettes or quadrettes: a team's score is the sum of its members' scores."""
    tie_breaks = check_tie_breaks(tie_breaks, DUPLICATE_TIE_BREAKS)
    members = [m for ms in teams.values() for m in ms]
    if len(set(members)) != len(members):
        raise ValueError("a player belongs to two teams")
    results = tuple(sorted(results, key=_result_key))
    scores = entry_scores(score_results(results, method=method, expected=expected), method=method, score=score,
                          entries=members)
    rows = []
    for team in sorted(teams, key=entry_order):
        ss = [scores[m] for m in teams[team]]
        bests = [s.best_board for s in ss if s.best_board is not None]
        rows.append((team, (("score", sum((s.score for s in ss), Fraction(0))),
                            ("best_board", max(bests) if bests else None), ("tops", sum(s.tops for s in ss)),
                            ("boards", sum(s.boards for s in ss)))))
    membership = tuple((team, tuple(sorted(teams[team], key=entry_order))) for team in sorted(teams, key=entry_order))
    options = (("expected", tuple(sorted((expected or {}).items()))), ("method", method), ("score", score),
               ("tie_breaks", tie_breaks))
    return build_snapshot("duplicate_teams", ("score", *tie_breaks), rows, (results, membership), options)


def regenerate(snapshot: RankingSnapshot) -> RankingSnapshot:
    """Rebuild a duplicate snapshot from its own inputs and options (``scoring.ranking.regenerate``)."""
    opts = dict(snapshot.options)
    common = {"method": opts["method"], "score": opts["score"], "tie_breaks": tuple(opts["tie_breaks"]),
              "expected": dict(opts["expected"]) or None}
    if snapshot.kind == "duplicate":
        return rank_duplicate(snapshot.inputs, entries=opts["entries"], **common)
    results, membership = snapshot.inputs
    return rank_duplicate_teams(results, dict(membership), **common)


def traveller(scored: Iterable[ScoredResult], board: int) -> list[ScoredResult]:
    """The « traveller » of an étui: its results, by group then best first (for the public pages)."""
    rows = [s for s in scored if s.result.board == board]
    return sorted(rows, key=lambda s: (s.result.fingerprint, s.result.orientation,
                                       -(s.result.mark if s.result.mark is not None else -10**9),
                                       entry_order(s.result.entry)))
