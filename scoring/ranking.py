"""Tournament rankings: Tarot marks and match points, as immutable explainable snapshots.

Pure Python (no Django). The inputs are plain frozen dataclasses, never ORM objects:

* Tarot (RULES.md §1.12 rules 33–34, decision A-T11): :class:`ScoreRow` (one player's marks for one
  deal) or, for speed, :class:`TarotTotals` already aggregated by SQL (``SUM … GROUP BY entry``).
  Players are ranked by decreasing total marks; equal totals **share** the rank (1, 2, 2, 4) unless
  the organizer declared tie-breaks in advance (``best_deal``, ``won_as_taker``). Teams are ranked by
  the sum of their members' totals (rule 34).
* Games played to a target (Écarté, Triomphe, Impériale, Vingt-quatre …): :class:`MatchResult`
  (one match of a round, or a bye). Entries are ranked by match points (win/draw/loss/bye, see
  :class:`MatchPoints`), then by the tie-breaks in the order the organizer set, among ``buchholz``,
  ``sonneborn_berger``, ``margin``, ``wins`` (and ``points_for``). A team playing as a unit
  (Triomphe 2 v 2, Écarté à quatre) is one entry.

Every ranking is a :class:`RankingSnapshot`: the ordered :class:`RankLine` (rank, entry, every
metric), the criteria used, the canonical inputs it came from, and a sha256 ``digest`` of those
inputs and options, so that :func:`regenerate` rebuilds it exactly and :func:`diff` compares two.
``snapshot.explain(line)`` says in words how a rank was reached. Arithmetic is exact: ints and
:class:`fractions.Fraction`, never floats. See docs/ranking.md.
"""

from __future__ import annotations

import gc
import hashlib
import json
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cache, wraps
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, ParamSpec, TypeVar, Union

Entry = Union[int, str]  # noqa: UP007 - a runtime alias, usable with isinstance-free code
"""A ranked unit: a player's or a team's id (ints or strings, not mixed within one ranking)."""

P = ParamSpec("P")
R = TypeVar("R")

Value = Union[int, Fraction, None]  # noqa: UP007
"""A metric value; None means "no value" (an entry that played no deal has no best deal)."""


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class ScoreRow:
    """One player's marks for one Tarot deal (a score-sheet line), ``points`` signed, in marks.

    ``won_as_taker`` is True when this player was the taker (preneur) and made the contract; it
    feeds the optional tie-break « contrats réussis ». A row is identified by
    (entry, round, table, deal): a corrected deal *replaces* its rows, it never adds to them.
    """

    entry: Entry
    round: int
    table: int
    deal: int
    points: int
    won_as_taker: bool = False


@dataclass(frozen=True, order=True)
class TarotTotals:
    """One entry's aggregated Tarot figures (what SQL hands over: SUM, MAX, COUNT per entry).

    ``best_deal`` is the best single-deal score, None when the entry played no deal.
    """

    entry: Entry
    marks: int = 0
    best_deal: int | None = None
    won_as_taker: int = 0
    deals: int = 0
    rounds: int = 0


@dataclass(frozen=True, order=True)
class MatchResult:
    """One match of a round in a game played to a target, or a bye.

    ``entries`` has one entry per side (a player, or a team playing as a unit); ``points`` the
    game points each side scored (for the margin tie-break); ``winner`` the index in ``entries``
    of the winning side, None for a draw. A bye has one entry, no points and ``bye=True``. A
    ``forfeit`` (one side absent) gives the win to ``winner`` but its points count for nothing.
    An entry with no result in a round was absent: it scores nothing for that round.

    Partnerships (Triomphe 2 v 2 or 3 v 3, Écarté à quatre) ranked per player: ``sides`` gives, for
    each entry, the index of its side (``(0, 1, 0, 1)``: entries 0 and 2 against 1 and 3);
    ``winner`` is then a side index, ``points`` still one value per entry (each member carries its
    side's points). Every member gets its side's result; partners are not each other's opponents.
    Empty ``sides`` means each entry is its own side.

    ``unfinished``: a match left unfinished when its round was ended (the organizer confirmed « terminer la manche »
    with it still in play, whose warning says « leurs joueurs ne marqueront rien pour cette manche »). RULES.md does
    not say what such a match is worth; the decision (docs/ranking.md, « Une partie non terminée »): it is over and
    worth **nothing** to any of its sides — no match points, no win, draw nor loss, no game points for the margin,
    no opponents for Buchholz or Sonneborn-Berger — but its players *have* a result for that round (a match
    played, « Partie non terminée »): they are ranked with their other results, never « — ». No winner, no forfeit.
    """

    round: int
    table: int | None
    entries: tuple[Entry, ...]
    points: tuple[int, ...] = ()
    winner: int | None = None
    bye: bool = False
    forfeit: bool = False
    sides: tuple[int, ...] = ()
    unfinished: bool = False

    def __post_init__(self) -> None:
        if self.bye:
            if len(self.entries) != 1 or self.points or self.winner is not None or self.forfeit or self.sides \
                    or self.unfinished:
                raise ValueError(f"a bye has exactly one entry, no points, no winner: {self!r}")
            return
        if len(set(self.entries)) != len(self.entries):
            raise ValueError(f"a match needs distinct entries: {self!r}")
        if self.sides and (len(self.sides) != len(self.entries)
                           or set(self.sides) != set(range(max(self.sides) + 1))):
            raise ValueError(f"sides gives each entry a side, numbered from 0: {self!r}")
        if self.side_count < 2:
            raise ValueError(f"a match needs at least two distinct sides: {self!r}")
        if self.points and len(self.points) != len(self.entries):
            raise ValueError(f"one points value per entry: {self!r}")
        if self.winner is not None and not 0 <= self.winner < self.side_count:
            raise ValueError(f"winner must index a side: {self!r}")
        if self.forfeit and self.winner is None:
            raise ValueError(f"a forfeit names the side that wins it: {self!r}")
        if self.unfinished and (self.winner is not None or self.forfeit or self.points):
            raise ValueError(f"an unfinished match has no winner, no forfeit, no points: {self!r}")

    @property
    def side_count(self) -> int:
        return max(self.sides) + 1 if self.sides else len(self.entries)

    def side_of(self, i: int) -> int:
        """The side of ``entries[i]``."""
        return self.sides[i] if self.sides else i

    def side_points(self) -> list[Fraction]:
        """Each side's game points (the mean of its members', who normally carry the same)."""
        sums = [Fraction(0)] * self.side_count
        counts = [0] * self.side_count
        for i, p in enumerate(self.points):
            sums[self.side_of(i)] += p
            counts[self.side_of(i)] += 1
        return [sums[k] / counts[k] for k in range(self.side_count)]


@dataclass(frozen=True, order=True)
class MatchPoints:
    """Match points per result; ``bye`` None means a bye counts as a win."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int | None = None

    @property
    def bye_points(self) -> int:
        return self.win if self.bye is None else self.bye


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

LABELS: dict[str, str] = {
    "marks": "total marks",
    "best_deal": "best single deal",
    "won_as_taker": "contracts won as taker",
    "deals": "deals played",
    "rounds": "rounds played",
    "members": "members",
    "match_points": "match points",
    "buchholz": "Buchholz (opponents' match points)",
    "sonneborn_berger": "Sonneborn-Berger",
    "margin": "score margin (points for − against)",
    "wins": "wins",
    "draws": "draws",
    "losses": "losses",
    "byes": "byes",
    "played": "matches played",
    "points_for": "points for",
    "points_against": "points against",
    "score": "points (duplicate)",
    "best_board": "best étui",
    "tops": "tops",
    "boards": "étuis played",
}

LABELS_FR: dict[str, str] = {
    "marks": "points au total",
    "best_deal": "meilleure donne",
    "won_as_taker": "contrats réussis comme preneur",
    "deals": "donnes jouées",
    "rounds": "manches jouées",
    "members": "membres",
    "match_points": "points de match",
    "buchholz": "Buchholz (points de match des adversaires)",
    "sonneborn_berger": "Sonneborn-Berger",
    "margin": "écart de points (pour − contre)",
    "wins": "victoires",
    "draws": "nuls",
    "losses": "défaites",
    "byes": "exempts",
    "played": "parties jouées",
    "points_for": "points marqués",
    "points_against": "points concédés",
    "score": "points (donnes dupliquées)",
    "best_board": "meilleur étui",
    "tops": "tops",
    "boards": "étuis joués",
}

#: the French names of a value below 2 (French grammar: « 0 point », « 1 point », « 1,5 point », « 2 points »)
SINGULAR_FR: dict[str, str] = {
    "marks": "point au total", "match_points": "point de match", "wins": "victoire", "draws": "nul",
    "losses": "défaite", "byes": "exempt", "played": "partie jouée", "deals": "donne jouée",
    "rounds": "manche jouée", "members": "membre", "points_for": "point marqué", "points_against": "point concédé",
    "won_as_taker": "contrat réussi comme preneur", "tops": "top", "boards": "étui joué",
}

#: the English names of a value of one (English grammar: « 1 match point », but « 0 match points », « 1.5 match
#: points »), where French has the singular below two (:data:`SINGULAR_FR`)
SINGULAR_EN: dict[str, str] = {
    "marks": "total mark", "match_points": "match point", "wins": "win", "draws": "draw", "losses": "loss",
    "byes": "bye", "played": "match played", "deals": "deal played", "rounds": "round played", "members": "member",
    "points_for": "point for", "points_against": "point against", "won_as_taker": "contract won as taker",
    "tops": "top", "boards": "étui played",
}

def singular(value: Value | None, lang: str) -> bool:
    """Whether a number takes its noun in the singular, by its language's rule (as gettext's plural forms say it):
    French below two (« 0 point », « 1,5 point »), English exactly one (« 1 match point », « 0 match points »)."""
    if value is None:
        return False
    return -2 < value < 2 if lang == "fr" else abs(value) == 1


#: the sentences of :func:`explain`, French and English (as ``rules/messages.py`` keeps rule texts)
EXPLAIN_TEXTS: dict[str, dict[str, str]] = {
    "rank": {"en": "Rank {rank} of {n}: {value} {label}.",
             "fr": "Rang {rank} sur {n} : {value} {label}."},
    # a duplicate ranked by mean percentage (A-T13's default): a percentage, not points
    "rank_percent": {"en": "Rank {rank} of {n}: {value} % on average (duplicate deals).",
                     "fr": "Rang {rank} sur {n} : {value} % de moyenne (donnes dupliquées)."},
    "alone": {"en": "Decided by {label} alone.",
              "fr": "Décidé par les {label} seuls."},
    "level": {"en": "Level on {label} with {who}.",
              "fr": "À égalité de {label} avec {who}."},
    "ahead": {"en": "Ahead of {who} (rank {rank}) on {label}: {mine} v {theirs}.",
              "fr": "Devant {who} (rang {rank}) au départage « {label} » : {mine} contre {theirs}."},
    "behind": {"en": "Behind {who} (rank {rank}) on {label}: {mine} v {theirs}.",
               "fr": "Derrière {who} (rang {rank}) au départage « {label} » : {mine} contre {theirs}."},
    "every_tie_break": {"en": " and on every declared tie-break ({labels})",
                        "fr": " et à chaque départage annoncé ({labels})"},
    "shared": {"en": "Rank shared with {who}: equal on {label}{detail}.",
               "fr": "Rang partagé avec {who} : égalité de {label}{detail}."},
    # the FFT's rule (RULES.md §1.12 rule 33, decision A-T11), said without its reference on a public page
    "shared_tarot": {"en": "Rank shared with {who}: equal on {label}{detail}; at Tarot, ties are shared.",
                     "fr": "Rang partagé avec {who} : égalité de {label}{detail} ; au Tarot, les égalités sont "
                           "partagées."},
    # a large level group (more than NAMED_LEVEL_MAX others): counted, not named one by one
    "level_many": {"en": "Level on {label} with {n} others.",
                   "fr": "À égalité de {label} avec {n} autres."},
    "tie_breaks_many": {"en": "On the tie-breaks: {above} of them ahead, {below} behind.",
                        "fr": "Aux départages : {above} d'entre eux devant, {below} derrière."},
    "shared_many": {"en": "Rank shared with {n} of them: equal on {label}{detail}.",
                    "fr": "Rang partagé avec {n} d'entre eux : égalité de {label}{detail}."},
    "shared_many_tarot": {"en": "Rank shared with {n} of them: equal on {label}{detail}; at Tarot, ties are shared.",
                          "fr": "Rang partagé avec {n} d'entre eux : égalité de {label}{detail} ; au Tarot, les "
                                "égalités sont partagées."},
    # a line with no result yet, listed last without a rank (« — »): never played, or its match still in play
    "not_played": {"en": "Has not played yet: listed after those who have.",
                   "fr": "Pas encore joué : classé après ceux qui ont joué."},
    "in_play": {"en": "Match still in play: listed after those with a result.",
                "fr": "Partie en cours : classé après ceux qui ont un résultat."},
    # a match left unfinished when its round was ended: over, worth nothing (MatchResult.unfinished)
    "unfinished": {"en": "Match not finished at table {table} (round {round}): nothing scored for that round.",
                   "fr": "Partie non terminée à la table {table} (manche {round}) : rien de marqué pour cette "
                         "manche."},
    # duplicate: no étui played (a player over a multiple of four who sat out, a table of 3 that entered nothing)
    "no_board": {"en": "No étui played: listed after those who have.",
                 "fr": "Aucun étui joué : classé après ceux qui ont joué."},
}


def unranked_words(kind: str, in_play: bool, lang: str) -> str:
    """Why a line with no result yet has no rank (« — »), in ``lang``: its match still in play, no étui played
    (duplicate), or nothing played yet."""
    key = "in_play" if in_play else "no_board" if kind == DUPLICATE_KIND else "not_played"
    return EXPLAIN_TEXTS[key]["en" if lang.startswith("en") else "fr"]

#: beyond this many other lines level with a line on the primary metric, its explanation counts them instead of
#: naming each (1,800 players level at 0 championship points made each line name the 1,799 others: n × g names,
#: a 42 MB championship CSV for 2,000 players)
NAMED_LEVEL_MAX = 8


@dataclass(frozen=True)
class LevelCounts:
    """The lines level with one line on the primary metric (itself apart): how many, how many the tie-breaks put
    ahead of it and behind it, how many hold its rank."""

    others: int
    ahead: int
    behind: int
    shared: int


def level_counts(snapshot: RankingSnapshot, line: RankLine) -> LevelCounts:
    """:class:`LevelCounts` of ``line`` by two bisections of its level group (in ranking order): no line compared."""
    return _group_counts(snapshot.level_with(line), line)


def _group_counts(group: Sequence[RankLine], line: RankLine) -> LevelCounts:
    """:class:`LevelCounts` of ``line`` in ``group`` (its level group, in ranking order, ``line`` in it)."""
    first = bisect_left(group, line.rank, key=_rank_of)
    end = bisect_right(group, line.rank, key=_rank_of)
    return LevelCounts(len(group) - 1, first, len(group) - end, end - first - 1)


_rank_of = attrgetter("rank")

#: the kinds of snapshot: by marks (Tarot), by matches, in duplicate; each individual kind with its team kind
MARKS_KIND, MATCHES_KIND, DUPLICATE_KIND = "tarot", "matches", "duplicate"
TEAM_KINDS = {MARKS_KIND: "tarot_teams", MATCHES_KIND: "matches_teams", DUPLICATE_KIND: "duplicate_teams"}

TAROT_TIE_BREAKS = ("best_deal", "won_as_taker")
MATCH_TIE_BREAKS = ("buchholz", "sonneborn_berger", "margin", "wins", "points_for")


@dataclass(frozen=True)
class RankLine:
    """One line of a ranking: its (shared) rank, the entry, and every metric as (name, value)."""

    rank: int
    entry: Entry
    metrics: tuple[tuple[str, Value], ...]

    def metric(self, name: str) -> Value:
        for key, value in self.metrics:
            if key == name:
                return value
        raise KeyError(name)


@dataclass(frozen=True)
class RankingSnapshot:
    """An immutable ranking: lines best first, the criteria used, and the inputs it came from.

    ``criteria`` is the primary metric followed by the organizer's tie-breaks, in order. Two lines
    equal on every criterion share a rank. ``inputs`` and ``options`` are canonical (sorted) so
    that :func:`regenerate` rebuilds the same snapshot and ``digest`` identifies them.
    """

    kind: str
    criteria: tuple[str, ...]
    lines: tuple[RankLine, ...]
    inputs: tuple[Any, ...]
    options: tuple[tuple[str, Any], ...]
    digest: str
    _index: dict[Entry, int] = field(default_factory=dict, repr=False, compare=False, hash=False)
    _levels: dict[str, dict[Value, tuple[RankLine, ...]]] = field(default_factory=dict, repr=False, compare=False,
                                                                   hash=False)
    #: the canonical JSON texts of ``inputs`` and ``options`` the digest was computed from (publishing stores them)
    encoded: tuple[str, str] | None = field(default=None, repr=False, compare=False, hash=False)
    #: the level groups among the ranked lines of one mapping of shown ranks (:func:`explain`'s ``ranks``): that
    #: mapping and its groups
    _ranked: list[tuple[Mapping[Entry, int], dict[Value, tuple[RankLine, ...]]]] = field(
        default_factory=list, repr=False, compare=False, hash=False)
    #: each entry's matches left unfinished when their round was ended, (round, table) in order (built once)
    _unfinished: list[dict[Entry, list[tuple[int, int | None]]]] = field(
        default_factory=list, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        self._index.update({line.entry: i for i, line in enumerate(self.lines)})

    def unfinished_of(self, entry: Entry) -> list[tuple[int, int | None]]:
        """The (round, table) of each match of ``entry`` left unfinished when its round was ended
        (:attr:`MatchResult.unfinished`): worth nothing, said in its explanation."""
        if not self._unfinished:
            found: dict[Entry, list[tuple[int, int | None]]] = {}
            for r in self.inputs:
                if isinstance(r, MatchResult) and r.unfinished:
                    for e in r.entries:
                        found.setdefault(e, []).append((r.round, r.table))
            self._unfinished.append(found)  # one append: a thread reading meanwhile builds its own
        return self._unfinished[0].get(entry, [])

    def line_for(self, entry: Entry) -> RankLine:
        return self.lines[self._index[entry]]

    def level_with(self, line: RankLine) -> tuple[RankLine, ...]:
        """Every line (``line`` included, in ranking order) with the same primary value as ``line``.

        The groups are built once per snapshot, in one pass over the lines (a dict keyed by the
        value: ``Fraction(4, 2)`` and ``2`` are one key, as they are equal), so explaining every
        line costs the size of the sentences, not lines × lines."""
        levels = self._levels.get("primary")
        if levels is None:
            primary = self.criteria[0]
            groups: dict[Value, list[RankLine]] = {}
            for other in self.lines:
                groups.setdefault(other.metric(primary), []).append(other)
            levels = {value: tuple(group) for value, group in groups.items()}
            self._levels["primary"] = levels  # one assignment: a thread reading meanwhile builds its own
        return levels[line.metric(self.criteria[0])]

    def shared_with(self, line: RankLine | Entry) -> tuple[Entry, ...]:
        """The other entries holding the same rank (lines sharing a rank are level on the primary metric)."""
        line = line if isinstance(line, RankLine) else self.line_for(line)
        return tuple(other.entry for other in self.level_with(line)
                     if other.rank == line.rank and other.entry != line.entry)

    def explain(self, line: RankLine | Entry, lang: str = "en", names: Mapping[Entry, str] | None = None,
                ranks: Mapping[Entry, int] | None = None) -> str:
        return explain(self, line, lang, names, ranks)


def _key(line: RankLine, criteria: Sequence[str]) -> tuple[Any, ...]:
    """Sort key, larger is better; None (no value) is below every value."""
    metrics = dict(line.metrics)
    return tuple((0, 0) if (value := metrics[name]) is None else (1, value) for name in criteria)


def _fmt(value: Value, lang: str = "en", decimals: bool = False) -> str:
    """A metric for people, as the ranking's column shows it: a whole number as it is, a fraction (a duplicate
    percentage, a Buchholz of half points, a margin of thirds) rounded half up to two decimals, with a decimal comma
    in French (« -2,33 », not « -7/3 »). ``decimals`` is kept for the callers that asked for it."""
    if value is None:
        return "aucune" if lang == "fr" else "none"
    if isinstance(value, Fraction) and value.denominator != 1:
        exact = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"),
                                                                                 rounding=ROUND_HALF_UP)
        text = format(exact, "f")
        return text.replace(".", ",") if lang == "fr" else text
    return str(int(value)) if isinstance(value, Fraction) else str(value)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a ranking is built: the objects made by the thousand (lines,
    keys, canonical rows) are no cycles, yet each 700 allocations start a collection that walks every object alive —
    half the CPU time of a 10,000-line ranking. Re-enabled on the way out (unless it was off already)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def without_gc(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` run under :func:`gc_paused`."""

    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with gc_paused():
            return fn(*args, **kwargs)

    return run


def entry_order(entry: Entry) -> tuple[str, Any]:
    return (type(entry).__name__, entry)


# --------------------------------------------------------------------------------------------
# Canonical inputs and digest
# --------------------------------------------------------------------------------------------


_SHAPES: dict[type, tuple[tuple[str, ...], Any, bool]] = {}
_PLAIN = frozenset({int, str, bool, type(None)})
#: fields added to a dataclass of the inputs later, with their defaults (MatchResult.sides, MatchResult.unfinished):
#: left out of the canonical form while they and every field after them are at their defaults, so that the digests
#: of older snapshots stay valid and a stored form read back field by field stays in place
_LATER_FIELDS = {"sides": (), "unfinished": False}


def _later_values(names: tuple[str, ...], values: tuple[Any, ...]) -> list[Any]:
    """``values`` less the trailing fields of :data:`_LATER_FIELDS` at their defaults."""
    end = len(values)
    while end and names[end - 1] in _LATER_FIELDS and values[end - 1] == _LATER_FIELDS[names[end - 1]] \
            and type(values[end - 1]) is type(_LATER_FIELDS[names[end - 1]]):
        end -= 1
    return list(values[:end])


def _canon(obj: Any) -> Any:
    """A JSON-able canonical form: dataclasses by name and fields, Fractions as "n/d"."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    if kind is tuple or kind is list:
        return [_canon(x) for x in obj]
    if kind is Fraction:
        return f"{obj.numerator}/{obj.denominator}"
    shape = _SHAPES.get(kind)
    if shape is None:
        if not (is_dataclass(obj) and not isinstance(obj, type)):
            raise TypeError(f"cannot digest {kind.__name__}")
        names = tuple(f.name for f in fields(obj))
        shape = _SHAPES[kind] = (names, attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),)),
                                 not set(_LATER_FIELDS).intersection(names))
    names, values_of, no_later = shape
    values = values_of(obj)
    if no_later and _PLAIN.issuperset(map(type, values)):
        return [kind.__name__, *values]  # the common case (SQL totals): plain values only
    # fields added later, at their defaults, left out: the digests of older snapshots stay valid
    return [kind.__name__, *(value if type(value) in _PLAIN else _canon(value)
                             for value in _later_values(names, values))]


def _shape(kind: type, obj: Any) -> tuple[tuple[str, ...], Any, bool]:
    """A dataclass's field names, a getter of their values, and whether it has no field added later."""
    shape = _SHAPES.get(kind)
    if shape is None:
        if not (is_dataclass(obj) and not isinstance(obj, type)):
            raise TypeError(f"cannot digest {kind.__name__}")
        names = tuple(f.name for f in fields(obj))
        shape = _SHAPES[kind] = (names, attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),)),
                                 not set(_LATER_FIELDS).intersection(names))
    return shape


def _check(values: Iterable[Any]) -> None:
    """Raise TypeError for a value :func:`_canon` refuses (a float, a dict …) among ``values``, dataclasses'
    fields left to :func:`_default`. One ``set(map(type, …))`` per container: C speed on 100,000 inputs."""
    for kind in set(map(type, values)) - _PLAIN:
        if kind is tuple or kind is list:
            for value in values:
                if type(value) is kind:
                    _check(value)
        elif kind is not Fraction and kind not in _SHAPES:  # a dataclass (its shape learnt here), or TypeError
            _shape(kind, next(v for v in values if type(v) is kind))


def _default(obj: Any) -> Any:
    """``json.dumps``'s hook for what it cannot write itself: :func:`_canon`'s form, one level deep."""
    kind = type(obj)
    if kind is Fraction:
        return f"{obj.numerator}/{obj.denominator}"
    names, values_of, no_later = _shape(kind, obj)
    values = values_of(obj)
    if not _PLAIN.issuperset(map(type, values)):
        _check(values)
    elif no_later:
        return [kind.__name__, *values]
    return [kind.__name__, *_later_values(names, values)]  # fields added later, at their defaults, left out


def _rows(obj: Any) -> Any:
    """``obj`` with its long runs of one plain dataclass (the inputs: 10,000 Tarot totals, 262,144 duplicate results)
    already in :func:`_canon`'s form, made by C passes (``map`` of the fields' getter, one type check of all the
    values) rather than one :func:`_default` call each; anything else is left to :func:`_default`."""
    kind = type(obj)
    if kind is not tuple and kind is not list:
        return obj
    kinds = set(map(type, obj))
    if len(kinds) == 1:
        (item,) = kinds
        shape = _SHAPES.get(item)
        if shape is not None and shape[2] and len(obj) > 1:
            rows = list(map(_named(shape[0]), obj))  # (class name, *fields) as tuples: json writes them as lists
            return rows if _PLAIN.issuperset(set(map(type, chain.from_iterable(rows)))) else obj
    if tuple in kinds or list in kinds:
        return [_rows(x) for x in obj]
    return obj


@cache
def _named(names: tuple[str, ...]) -> attrgetter[Any]:
    """A getter of ``(type(obj).__name__, *fields)``."""
    return attrgetter("__class__.__name__", *names)


def canonical_json(obj: Any) -> str:
    """The JSON text of ``json.dumps(_canon(obj))`` (compact, UTF-8 kept), written in one pass of the C encoder:
    the digest's text of the inputs (or options), and what a published snapshot stores."""
    _check((obj,))
    return json.dumps(_rows(obj), default=_default, separators=(",", ":"), ensure_ascii=False, check_circular=False)


def digest_of(kind: str, inputs_json: str, options_json: str) -> str:
    """sha256 of ``[kind, options, inputs]`` from their canonical JSON texts (:func:`canonical_json`)."""
    payload = f"[{json.dumps(kind, ensure_ascii=False)},{options_json},{inputs_json}]"
    return hashlib.sha256(payload.encode()).hexdigest()


def inputs_digest(kind: str, inputs: tuple[Any, ...], options: tuple[tuple[str, Any], ...]) -> str:
    """sha256 over the kind, the canonical (sorted) inputs and the options."""
    return digest_of(kind, canonical_json(inputs), canonical_json(options))


def build_snapshot(
    kind: str,
    criteria: tuple[str, ...],
    rows: Sequence[tuple[Entry, tuple[tuple[str, Value], ...]]],
    inputs: tuple[Any, ...],
    options: tuple[tuple[str, Any], ...],
    *,
    inputs_json: str | None = None,
) -> RankingSnapshot:
    """Sort the lines by the criteria (best first, then entry id for display) and give shared ranks.

    ``inputs_json``: :func:`canonical_json` of ``inputs`` when the caller wrote it already (the duplicate ranking
    writes it from the rows it read the results into)."""
    names = [name for name, _ in rows[0][1]] if rows else []
    at = [names.index(c) for c in criteria] if rows else []
    # (criteria key, display order, entry, metrics); a missing value (None) ranks below any value
    keyed: list[tuple[tuple[tuple[int, Value], ...], tuple[str, Any], Entry, tuple[tuple[str, Value], ...]]]
    if len(at) == 1:  # no tie-break declared: the common case, without a generator per line
        (i,) = at
        keyed = [(((0, 0) if (v := metrics[i][1]) is None else (1, v),), entry_order(entry), entry, metrics)
                 for entry, metrics in rows]
    else:
        keyed = [(tuple((0, 0) if (v := metrics[i][1]) is None else (1, v) for i in at), entry_order(entry),
                  entry, metrics) for entry, metrics in rows]
    keyed.sort(key=itemgetter(1))
    keyed.sort(key=itemgetter(0), reverse=True)
    lines = []
    previous_key: tuple[Any, ...] | None = None
    rank = 0
    for position, (key, _order, entry, metrics) in enumerate(keyed, start=1):
        if key != previous_key:
            rank, previous_key = position, key
        lines.append(RankLine(rank, entry, metrics))
    if inputs_json is None:
        inputs_json = canonical_json(inputs)
    options_json = canonical_json(options)
    return RankingSnapshot(kind, criteria, tuple(lines), inputs, options, digest_of(kind, inputs_json, options_json),
                           encoded=(inputs_json, options_json))


def check_tie_breaks(tie_breaks: Sequence[str], allowed: Sequence[str]) -> tuple[str, ...]:
    tie_breaks = tuple(tie_breaks)
    unknown = [t for t in tie_breaks if t not in allowed]
    if unknown or len(set(tie_breaks)) != len(tie_breaks):
        raise ValueError(f"tie-breaks must be distinct, among {allowed}: got {tie_breaks}")
    return tie_breaks


# --------------------------------------------------------------------------------------------
# Tarot
# --------------------------------------------------------------------------------------------


def aggregate_tarot(rows: Iterable[ScoreRow], entries: Iterable[Entry] = ()) -> dict[Entry, TarotTotals]:
    """Per-entry totals from score rows (what ``SUM … GROUP BY entry`` gives the Django side).

    ``entries`` adds registered entries with no row (absent from the start): 0 marks, no best deal.
    Two rows for the same (entry, round, table, deal) are an error: a correction replaces rows.
    """
    marks: dict[Entry, int] = {}
    best: dict[Entry, int] = {}
    won: dict[Entry, int] = {}
    deals: dict[Entry, int] = {}
    rounds: dict[Entry, set[int]] = {}
    seen: set[tuple[Entry, int, int, int]] = set()
    for row in rows:
        ident = (row.entry, row.round, row.table, row.deal)
        if ident in seen:
            raise ValueError(f"two score rows for entry {row.entry!r}, round {row.round}, table {row.table}, "
                             f"deal {row.deal}: a corrected deal must replace its rows")
        seen.add(ident)
        e = row.entry
        if e in marks:
            marks[e] += row.points
            if row.points > best[e]:
                best[e] = row.points
            deals[e] += 1
            rounds[e].add(row.round)
        else:
            marks[e], best[e], deals[e], rounds[e], won[e] = row.points, row.points, 1, {row.round}, 0
        if row.won_as_taker:
            won[e] += 1
    out = {e: TarotTotals(e, marks[e], best[e], won[e], deals[e], len(rounds[e])) for e in marks}
    for e in entries:
        out.setdefault(e, TarotTotals(e))
    return out


def _tarot_totals(data: Iterable[ScoreRow] | Iterable[TarotTotals], entries: Iterable[Entry]) -> list[TarotTotals]:
    items = list(data)
    if items and isinstance(items[0], ScoreRow):
        totals = aggregate_tarot(items, entries)  # type: ignore[arg-type]
    else:
        totals = {}
        for t in items:
            if not isinstance(t, TarotTotals):
                raise TypeError("give ScoreRow or TarotTotals, not a mix")
            if t.entry in totals:
                raise ValueError(f"two totals for entry {t.entry!r}")
            totals[t.entry] = t
        for e in entries:
            totals.setdefault(e, TarotTotals(e))
    return sorted(totals.values(), key=lambda t: entry_order(t.entry))


def _tarot_metrics(t: TarotTotals) -> tuple[tuple[str, Value], ...]:
    return (("marks", t.marks), ("best_deal", t.best_deal), ("won_as_taker", t.won_as_taker),
            ("deals", t.deals), ("rounds", t.rounds))


@without_gc
def rank_tarot(
    data: Iterable[ScoreRow] | Iterable[TarotTotals],
    *,
    tie_breaks: Sequence[str] = (),
    entries: Iterable[Entry] = (),
) -> RankingSnapshot:
    """Individual Tarot ranking by decreasing total marks (RULES.md §1.12 rule 33).

    ``data`` is raw :class:`ScoreRow` or pre-aggregated :class:`TarotTotals` (same snapshot
    either way: the canonical inputs are the totals). Without ``tie_breaks`` equal totals share
    the rank (A-T11); the organizer may declare, in advance, ``best_deal`` and/or
    ``won_as_taker`` in the order to apply. ``entries`` lists registered entries so that those
    with no deal at all still appear (0 marks).
    """
    tie_breaks = check_tie_breaks(tie_breaks, TAROT_TIE_BREAKS)
    totals = tuple(_tarot_totals(data, entries))
    rows = [(t.entry, _tarot_metrics(t)) for t in totals]
    return build_snapshot("tarot", ("marks", *tie_breaks), rows, totals, (("tie_breaks", tie_breaks),))


@without_gc
def rank_tarot_teams(
    data: Iterable[ScoreRow] | Iterable[TarotTotals],
    teams: Mapping[Entry, Sequence[Entry]],
    *,
    tie_breaks: Sequence[str] = (),
) -> RankingSnapshot:
    """Team Tarot ranking: team total = sum of the members' totals (RULES.md §1.12 rule 34).

    Team tie-breaks, if declared: ``best_deal`` is the best single deal of any member,
    ``won_as_taker`` the members' sum. A member with no deal counts 0.
    """
    tie_breaks = check_tie_breaks(tie_breaks, TAROT_TIE_BREAKS)
    members = {e for ms in teams.values() for e in ms}
    if sum(len(ms) for ms in teams.values()) != len(members):
        raise ValueError("a player belongs to two teams")
    totals = {t.entry: t for t in _tarot_totals(data, members)}
    membership = tuple(sorted(((team, tuple(sorted(ms, key=entry_order))) for team, ms in teams.items()),
                              key=lambda tm: entry_order(tm[0])))
    rows = []
    for team, ms in membership:
        ts = [totals[m] for m in ms]
        bests = [t.best_deal for t in ts if t.best_deal is not None]
        rows.append((team, (("marks", sum(t.marks for t in ts)), ("best_deal", max(bests) if bests else None),
                            ("won_as_taker", sum(t.won_as_taker for t in ts)), ("deals", sum(t.deals for t in ts)),
                            ("members", len(ms)))))
    inputs = (tuple(totals[m] for _, ms in membership for m in ms), membership)
    return build_snapshot("tarot_teams", ("marks", *tie_breaks), rows, inputs, (("tie_breaks", tie_breaks),))


# --------------------------------------------------------------------------------------------
# Games played to a target: match points and Swiss tie-breaks
# --------------------------------------------------------------------------------------------


def _sorted_results(results: Iterable[MatchResult]) -> tuple[MatchResult, ...]:
    return tuple(sorted(results, key=lambda r: (r.round, -1 if r.table is None else r.table,
                                                [entry_order(e) for e in r.entries])))


def _exact(v: Fraction) -> Value:
    return int(v) if v.denominator == 1 else v


def _tally(
    results: tuple[MatchResult, ...],
    units: Iterable[Entry],
    unit_of: Callable[[Entry], Entry | None],
    points: MatchPoints,
) -> list[tuple[Entry, tuple[tuple[str, Value], ...]]]:
    """The match metrics of every ranked unit (a player, or a team): see :func:`rank_matches`.

    ``unit_of`` maps an entry of a result to the unit it scores for (None: to nobody). Within one
    match a unit scores its side's result **once**, however many of its members share that side
    (partners); its opponents are the units of the other sides.
    """
    everyone = set(units)
    mp = dict.fromkeys(everyone, 0)
    counts = {e: [0, 0, 0, 0, 0] for e in everyone}  # wins, draws, losses, byes, played
    pts_for: dict[Entry, Fraction] = dict.fromkeys(everyone, Fraction(0))
    pts_against: dict[Entry, Fraction] = dict.fromkeys(everyone, Fraction(0))
    met: dict[Entry, list[tuple[Entry, Fraction]]] = {e: [] for e in everyone}  # (opponent, share won)
    for r in results:
        if r.bye:
            unit = unit_of(r.entries[0])
            if unit is not None:
                mp[unit] += points.bye_points
                counts[unit][3] += 1
            continue
        if r.unfinished:  # over, worth nothing: a match played (ranked), no points, no result, no opponents
            for unit in dict.fromkeys(u for u in map(unit_of, r.entries) if u is not None):
                counts[unit][4] += 1
            continue
        n = r.side_count
        side_units: list[list[Entry]] = [[] for _ in range(n)]
        for i, e in enumerate(r.entries):
            unit = unit_of(e)
            if unit is not None and unit not in side_units[r.side_of(i)]:
                side_units[r.side_of(i)].append(unit)
        by_side = r.side_points() if r.points and not r.forfeit else None
        for k, units_k in enumerate(side_units):
            share = Fraction(1, 2) if r.winner is None else Fraction(int(r.winner == k))
            opponents = [u for j, us in enumerate(side_units) if j != k for u in us]
            for unit in units_k:
                counts[unit][4] += 1
                if r.winner is None:
                    mp[unit] += points.draw
                    counts[unit][1] += 1
                elif r.winner == k:
                    mp[unit] += points.win
                    counts[unit][0] += 1
                else:
                    mp[unit] += points.loss
                    counts[unit][2] += 1
                if by_side is not None:
                    pts_for[unit] += by_side[k]
                    pts_against[unit] += (sum(by_side) - by_side[k]) / (n - 1)
                met[unit].extend((opp, share) for opp in opponents)
    rows: list[tuple[Entry, tuple[tuple[str, Value], ...]]] = []
    for e in sorted(everyone, key=entry_order):
        buchholz = sum(mp[opp] for opp, _ in met[e])
        sb = sum((share * mp[opp] for opp, share in met[e]), Fraction(0))
        w, d, lo, b, p = counts[e]
        rows.append((e, (("match_points", mp[e]), ("buchholz", buchholz), ("sonneborn_berger", _exact(sb)),
                         ("margin", _exact(pts_for[e] - pts_against[e])), ("wins", w), ("draws", d), ("losses", lo),
                         ("byes", b), ("played", p), ("points_for", _exact(pts_for[e])),
                         ("points_against", _exact(pts_against[e])))))
    return rows


@without_gc
def rank_matches(
    results: Iterable[MatchResult],
    *,
    points: MatchPoints = MatchPoints(),
    tie_breaks: Sequence[str] = ("buchholz", "sonneborn_berger", "margin", "wins"),
    entries: Iterable[Entry] = (),
) -> RankingSnapshot:
    """Ranking by match points, then the organizer's tie-breaks in the given order.

    * match points: ``points.win`` / ``draw`` / ``loss`` per match, ``points.bye_points`` per bye;
      nothing for a round without a result (absent or withdrawn). In a partnership match every
      member gets the side's result.
    * ``buchholz``: sum, over every opponent met in every match (forfeits included, byes not), of
      that opponent's final match points (partners are not opponents).
    * ``sonneborn_berger``: sum over matches of opponent's match points × the share of the match
      won against him (win 1, draw 1/2, loss 0); byes count nothing.
    * ``margin``: points for − points against, where "against" is the opposing sides' mean per
      match (the opponent's points at two sides); forfeits and byes count nothing.
    * ``wins``: matches won (byes not included); ``points_for``: game points scored.
    """
    tie_breaks = check_tie_breaks(tie_breaks, MATCH_TIE_BREAKS)
    results = _sorted_results(results)
    everyone: set[Entry] = set(entries)
    seen_round: set[tuple[int, Entry]] = set()
    for r in results:
        for e in r.entries:
            if (r.round, e) in seen_round:
                raise ValueError(f"entry {e!r} has two results in round {r.round}")
            seen_round.add((r.round, e))
            everyone.add(e)
    rows = _tally(results, everyone, lambda e: e, points)
    everyone_sorted = tuple(sorted(everyone, key=entry_order))
    options = (("points", points), ("tie_breaks", tie_breaks), ("entries", everyone_sorted))
    return build_snapshot("matches", ("match_points", *tie_breaks), rows, results, options)


@without_gc
def rank_match_teams(
    results: Iterable[MatchResult],
    teams: Mapping[Entry, Sequence[Entry]],
    *,
    points: MatchPoints = MatchPoints(),
    tie_breaks: Sequence[str] = ("buchholz", "sonneborn_berger", "margin", "wins"),
) -> RankingSnapshot:
    """Team standings of a game played to a target (a tournament by teams).

    Each match counts for a team once per side where it has members: partners playing as one side
    (Triomphe 2 v 2, Écarté à quatre) give their team that side's result once; team-mates playing
    separate matches (individual matches in a team event) each bring their own result, summed as
    a Tarot team sums its members' totals (RULES.md §1.12 rule 34). Opponents are the teams on the
    other sides (a player in no team is nobody's opponent here). Same metrics and tie-breaks as
    :func:`rank_matches`, plus ``members``.
    """
    tie_breaks = check_tie_breaks(tie_breaks, MATCH_TIE_BREAKS)
    results = _sorted_results(results)
    team_of: dict[Entry, Entry] = {}
    for team, members in teams.items():
        for m in members:
            if m in team_of:
                raise ValueError("a player belongs to two teams")
            team_of[m] = team
    membership = tuple(sorted(((team, tuple(sorted(ms, key=entry_order))) for team, ms in teams.items()),
                              key=lambda tm: entry_order(tm[0])))
    size = {team: len(ms) for team, ms in membership}
    rows = [(team, (*metrics, ("members", size[team])))
            for team, metrics in _tally(results, size, team_of.get, points)]
    options = (("points", points), ("tie_breaks", tie_breaks))
    return build_snapshot("matches_teams", ("match_points", *tie_breaks), rows, (results, membership), options)


# --------------------------------------------------------------------------------------------
# Regenerate, explain, compare
# --------------------------------------------------------------------------------------------


def regenerate(snapshot: RankingSnapshot) -> RankingSnapshot:
    """Rebuild a snapshot of this module's kinds from its own inputs and options (it must come out identical);
    :func:`scoring.snapshots.regenerate` takes every kind."""
    opts = dict(snapshot.options)
    if snapshot.kind == "tarot":
        return rank_tarot(snapshot.inputs, tie_breaks=opts["tie_breaks"])
    if snapshot.kind == "tarot_teams":
        totals, membership = snapshot.inputs
        return rank_tarot_teams(totals, dict(membership), tie_breaks=opts["tie_breaks"])
    if snapshot.kind == "matches":
        return rank_matches(snapshot.inputs, points=opts["points"], tie_breaks=opts["tie_breaks"],
                            entries=opts["entries"])
    if snapshot.kind == "matches_teams":
        results, membership = snapshot.inputs
        return rank_match_teams(results, dict(membership), points=opts["points"], tie_breaks=opts["tie_breaks"])
    raise ValueError(f"unknown ranking kind {snapshot.kind!r} (duplicate snapshots: scoring.snapshots.regenerate)")


#: the name of a duplicate score that is a mean percentage, in the sentences beside the rank's
PERCENT_LABELS = {"en": "percentages", "fr": "pourcentages"}


def duplicate_percent(snapshot: RankingSnapshot) -> bool:
    """Whether ``snapshot`` ranks a duplicate by mean percentage (matchpoints, « pourcentage moyen »): its score is a
    percentage (« 50 % »), not points; a sum of matchpoints, a datum or a team's sum is not."""
    return percent_score(snapshot.kind, snapshot.options)


def percent_score(kind: str, options: Iterable[tuple[str, Any]]) -> bool:
    """:func:`duplicate_percent` from a snapshot's kind and options (as stored)."""
    if kind != "duplicate":
        return False
    opts = dict(options)
    return opts.get("method") != "datum" and opts.get("score", "mean") == "mean"


def label(metric: str, lang: str = "en") -> str:
    """A metric's name for people, in French or English."""
    return (LABELS_FR if lang == "fr" else LABELS).get(metric, metric)


def played(metrics: Mapping[str, Any]) -> bool:
    """Whether a line's entry (or team) has a result: a deal (Tarot), an étui (duplicate), a match or a bye (the
    games played to a target). A line without one is shown with no rank (« — »), after the others."""
    if metrics.get("deals") == 0 or metrics.get("boards") == 0:
        return False
    return not (metrics.get("played") == 0 and not metrics.get("byes"))


def shown_ranks(snapshot: RankingSnapshot, unranked: Iterable[Entry] = ()) -> dict[Entry, int]:
    """The ranks as the ranking shows them when the lines of ``unranked`` (no result yet) are listed last without a
    rank: the others' ranks counted among themselves (competition ranking: 1, 2, 2, 4), each entry ranked by its
    rank. Lines level on every criterion keep sharing their rank."""
    left_out = set(unranked)
    out: dict[Entry, int] = {}
    first_at: dict[int, int] = {}
    for line in snapshot.lines:  # in ranking order
        if line.entry in left_out:
            continue
        out[line.entry] = first_at.setdefault(line.rank, len(out) + 1)
    return out


def _ranked_level(snapshot: RankingSnapshot, line: RankLine, ranks: Mapping[Entry, int]) -> tuple[RankLine, ...]:
    """:meth:`RankingSnapshot.level_with` among the ranked lines (those of ``ranks``): grouped once per snapshot and
    ``ranks`` (the same mapping object, given for every line of one ranking)."""
    kept = snapshot._ranked[-1] if snapshot._ranked else None
    if kept is None or kept[0] is not ranks:
        primary = snapshot.criteria[0]
        groups: dict[Value, list[RankLine]] = {}
        for other in snapshot.lines:
            if other.entry in ranks:
                groups.setdefault(other.metric(primary), []).append(other)
        kept = (ranks, {value: tuple(group) for value, group in groups.items()})
        snapshot._ranked[:] = [kept]  # one assignment: a thread reading meanwhile builds its own
    return kept[1].get(line.metric(snapshot.criteria[0]), ())


def explain(snapshot: RankingSnapshot, line: RankLine | Entry, lang: str = "en",
            names: Mapping[Entry, str] | None = None, ranks: Mapping[Entry, int] | None = None) -> str:
    """How ``line`` got its rank, in words (``lang`` "fr" or "en"): the primary metric, then which
    tie-break separated it from each entry it was level with, or that the tie is shared.

    ``names`` gives the people's names of the entries (the ids are shown otherwise). The lines level
    with ``line`` come from :meth:`RankingSnapshot.level_with` (grouped once per snapshot), so
    explaining each of n lines costs O(n) in all plus the length of the sentences, where comparing
    every line with every other cost n² (2 million comparisons for 1,000 players).

    ``ranks``: the ranks as shown (:func:`shown_ranks`) when some lines are shown without a rank (no result yet):
    the rank said and every rank named are then those shown, and a line shown without a rank is never named nor
    compared with (it has none to compare). ``line`` must be one of ``ranks``."""
    lang = "fr" if lang == "fr" else "en"
    line = line if isinstance(line, RankLine) else snapshot.line_for(line)
    text = _explain_rank(snapshot, line, lang, names, ranks)
    unfinished = snapshot.unfinished_of(line.entry) if snapshot.kind == MATCHES_KIND else []
    # a match left unfinished when its round was ended: worth nothing, and said so (never « — »)
    return " ".join([text, *(EXPLAIN_TEXTS["unfinished"][lang].format(round=r, table=t if t is not None else "?")
                             for r, t in unfinished)])


def _explain_rank(snapshot: RankingSnapshot, line: RankLine, lang: str, names: Mapping[Entry, str] | None,
                  ranks: Mapping[Entry, int] | None) -> str:
    """:func:`explain`'s sentences of the rank itself."""
    say = {key: texts[lang] for key, texts in EXPLAIN_TEXTS.items()}

    def who(entry: Entry) -> str:
        return names[entry] if names and entry in names else repr(entry)


    criteria = snapshot.criteria
    primary = criteria[0]
    percent = duplicate_percent(snapshot) and primary == "score"

    def lab(metric: str) -> str:
        return PERCENT_LABELS[lang] if percent and metric == primary else label(metric, lang)

    n = len(snapshot.lines)
    group = snapshot.level_with(line) if ranks is None else _ranked_level(snapshot, line, ranks)

    def rank_of(other: RankLine) -> int:
        return other.rank if ranks is None else ranks[other.entry]

    dec = snapshot.kind.startswith("duplicate")
    value = line.metric(primary)
    counted = lab(primary)
    if not percent and singular(value, lang):  # « 1 point de match », « 0 victoire »; « 1 match point », « 1 win »
        counted = (SINGULAR_FR if lang == "fr" else SINGULAR_EN).get(primary, counted)
    parts = [say["rank_percent" if percent else "rank"].format(
        rank=rank_of(line), n=n, value=_fmt(value, lang, dec), label=counted)]
    if len(group) - 1 > NAMED_LEVEL_MAX:  # a large group: counted, not named
        counts = level_counts(snapshot, line) if ranks is None else _group_counts(group, line)
        parts.append(say["level_many"].format(label=lab(primary), n=counts.others))
        if counts.ahead or counts.behind:
            parts.append(say["tie_breaks_many"].format(above=counts.ahead, below=counts.behind))
        if counts.shared:
            used = criteria[1:]
            detail = say["every_tie_break"].format(labels=", ".join(lab(c) for c in used)) if used else ""
            key = "shared_many_tarot" if snapshot.kind.startswith("tarot") else "shared_many"
            parts.append(say[key].format(n=counts.shared, label=lab(primary), detail=detail))
        return " ".join(parts)
    level = [o for o in group if o.entry != line.entry]
    if not level:
        parts.append(say["alone"].format(label=lab(primary)))
        return " ".join(parts)
    parts.append(say["level"].format(label=lab(primary), who=", ".join(who(o.entry) for o in level)))
    shared = []
    for other in level:
        for name in criteria[1:]:
            mine, theirs = line.metric(name), other.metric(name)
            if mine != theirs:
                key = "ahead" if _key(line, (name,)) > _key(other, (name,)) else "behind"
                parts.append(say[key].format(who=who(other.entry), rank=rank_of(other), label=lab(name),
                                             mine=_fmt(mine, lang, dec), theirs=_fmt(theirs, lang, dec)))
                break
        else:
            shared.append(other)
    if shared:
        used = criteria[1:]
        detail = say["every_tie_break"].format(labels=", ".join(lab(c) for c in used)) if used else ""
        key = "shared_tarot" if snapshot.kind.startswith("tarot") else "shared"
        parts.append(say[key].format(who=", ".join(who(o.entry) for o in shared), label=lab(primary),
                                     detail=detail))
    return " ".join(parts)


def explain_all(snapshot: RankingSnapshot, lang: str = "en", names: Mapping[Entry, str] | None = None
                ) -> tuple[str, ...]:
    """:func:`explain` for every line of ``snapshot``, in ranking order."""
    return tuple(explain(snapshot, line, lang, names) for line in snapshot.lines)


@dataclass(frozen=True)
class Move:
    entry: Entry
    old_rank: int
    new_rank: int


@dataclass(frozen=True)
class RankingDiff:
    """What changed between two snapshots: rank moves, entries added or removed, metric changes."""

    same_inputs: bool
    moved: tuple[Move, ...]
    added: tuple[Entry, ...]
    removed: tuple[Entry, ...]
    changed: tuple[tuple[Entry, str, Value, Value], ...]

    @property
    def empty(self) -> bool:
        return not (self.moved or self.added or self.removed or self.changed)


def diff(old: RankingSnapshot, new: RankingSnapshot) -> RankingDiff:
    """Compare two snapshots: entries whose rank moved (best new rank first), entries added or
    removed, and every metric whose value changed."""
    old_entries = {line.entry for line in old.lines}
    new_entries = {line.entry for line in new.lines}
    moved, changed = [], []
    for line in new.lines:
        if line.entry not in old_entries:
            continue
        before = old.line_for(line.entry)
        if before.rank != line.rank:
            moved.append(Move(line.entry, before.rank, line.rank))
        old_metrics = dict(before.metrics)
        for name, value in line.metrics:
            if old_metrics.get(name) != value:
                changed.append((line.entry, name, old_metrics.get(name), value))
    return RankingDiff(
        same_inputs=old.digest == new.digest,
        moved=tuple(moved),
        added=tuple(line.entry for line in new.lines if line.entry not in old_entries),
        removed=tuple(line.entry for line in old.lines if line.entry not in new_entries),
        changed=tuple(changed),
    )
