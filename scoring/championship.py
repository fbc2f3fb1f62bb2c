"""A season's championship: points per tournament, the best N results, a qualifying minimum, tie-breaks declared
in advance, categories as filters of one ranking, and why each rank is what it is.

Pure Python (no Django). The inputs are plain frozen dataclasses:

* :class:`Result` — one player's result at one counted tournament (his rank, shared or not, among how many, and
  his total in that tournament's unit: marks or match points).
* :class:`PointsTable` — the points a result gives, as data: ``rank`` (a list of points for the 1st, 2nd …
  places, ``beyond`` after it), ``percent`` (bands of the field: the best 10 % get …), or ``marks`` (the
  tournament's total itself).
* :class:`Rules` — the table, the best N results kept (None: all), the qualifying minimum (tournaments played
  before a player is ranked) and the tie-breaks among :data:`TIE_BREAKS`, in the order declared.

:func:`rank_championship` gives a :class:`scoring.ranking.RankingSnapshot` of kind ``championship`` (the same
snapshots as a tournament's: a digest, :func:`scoring.ranking.diff`, :func:`regenerate`), whose lines are the
qualified players; :func:`pending` lists the others with what they still need. :func:`category_lines` cuts a
category (dames, jeunes, seniors, a série) out of the same ranking; :func:`explain` says « pourquoi ce rang ».

Decisions (docs/seasons.md):

* A shared rank (two players 2nd, then the 4th) gives each the average of the points of the places they hold
  (places 2 and 3 of the table), exactly (a fraction); the percent table takes the shared rank itself.
* Best N keeps the N results of most points; among equal points the earlier tournament (the lower ``order``)
  is kept, so the choice is stable. A player with fewer than ``minimum`` results is not ranked yet.
* Every value is exact: ints and :class:`fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from scoring import ranking
from scoring.ranking import NAMED_LEVEL_MAX, Entry, RankingSnapshot, RankLine, Value, level_counts, singular

KIND = "championship"

#: the tie-breaks an organizer may declare, each "more is better":
#: ``wins`` first places among the results kept, ``podiums`` places 1–3 among them, ``best_result`` the most
#: points in one tournament, ``played`` tournaments played (all, kept or not), ``total`` the points of every
#: result (kept or not)
TIE_BREAKS = ("wins", "podiums", "best_result", "played", "total")

TABLE_KINDS = ("rank", "percent", "marks")

LABELS_FR: dict[str, str] = {
    "points": "points de championnat",
    "wins": "victoires",
    "podiums": "podiums",
    "best_result": "meilleur résultat",
    "played": "tournois joués",
    "total": "points de tous les tournois",
    "kept": "résultats retenus",
}
LABELS_EN: dict[str, str] = {
    "points": "championship points",
    "wins": "wins",
    "podiums": "podiums",
    "best_result": "best result",
    "played": "tournaments played",
    "total": "points of every tournament",
    "kept": "results kept",
}


class ChampionshipError(ValueError):
    """A championship's rules that cannot be applied (the message names the field)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


@dataclass(frozen=True, order=True)
class Result:
    """One player's result at one counted tournament.

    ``order`` sorts the tournaments of the season (their date; the lower the earlier); ``rank`` is the player's
    rank in the tournament's published ranking, ``shared`` how many players hold it (1 when alone), ``field``
    how many were ranked, ``marks`` his total there (marks, or match points)."""

    player: Entry
    tournament: Entry
    order: int
    rank: int
    field: int
    marks: int | Fraction = 0
    shared: int = 1

    def __post_init__(self) -> None:
        if self.field < 1 or not 1 <= self.rank <= self.field:
            raise ChampionshipError("rank", f"rank {self.rank} outside a field of {self.field}")
        if self.shared < 1 or self.rank + self.shared - 1 > self.field:
            raise ChampionshipError("shared", f"{self.shared} players cannot share rank {self.rank} of {self.field}")


@dataclass(frozen=True)
class PointsTable:
    """The points a result gives.

    * ``rank``: ``points[0]`` for the 1st place, ``points[1]`` for the 2nd …, ``beyond`` after the list.
    * ``percent``: ``bands`` of (upper bound in percent of the field, points), in increasing bounds; a result
      ranked r of n falls in the first band whose bound is at least 100·r/n; ``beyond`` after the last band.
    * ``marks``: the tournament's total itself (``points``, ``bands`` unused).
    """

    kind: str = "rank"
    points: tuple[int, ...] = ()
    bands: tuple[tuple[int, int], ...] = ()
    beyond: int = 0

    def __post_init__(self) -> None:
        if self.kind not in TABLE_KINDS:
            raise ChampionshipError("table.kind", f"one of {', '.join(TABLE_KINDS)}, not {self.kind!r}")
        if self.kind == "rank" and not self.points:
            raise ChampionshipError("table.points", "a points table by rank needs the points of the 1st place")
        if self.kind == "percent":
            bounds = [bound for bound, _ in self.bands]
            if not bounds or bounds != sorted(set(bounds)) or bounds[0] <= 0 or bounds[-1] > 100:
                raise ChampionshipError("table.bands", "bands need increasing bounds between 1 and 100 %")

    def worth(self, result: Result) -> int | Fraction:
        """The points ``result`` gives."""
        if self.kind == "marks":
            return result.marks
        if self.kind == "percent":
            where = Fraction(100 * result.rank, result.field)
            return next((points for bound, points in self.bands if where <= bound), self.beyond)
        places = range(result.rank, result.rank + result.shared)
        total = sum(self.points[p - 1] if p <= len(self.points) else self.beyond for p in places)
        value = Fraction(total, result.shared)
        return int(value) if value.denominator == 1 else value

    def as_data(self) -> dict[str, Any]:
        """The stored form (the model's JSON)."""
        return {"kind": self.kind, "points": list(self.points), "bands": [list(b) for b in self.bands],
                "beyond": self.beyond}

    def as_option(self) -> tuple[tuple[str, Any], ...]:
        """The table as a snapshot's option (pairs, which the digest takes)."""
        return (("kind", self.kind), ("points", self.points), ("bands", self.bands), ("beyond", self.beyond))

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PointsTable:
        """The table from its stored form (the model's JSON); a bad field raises :class:`ChampionshipError`."""
        try:
            return cls(kind=str(data.get("kind", "rank")),
                       points=tuple(int(p) for p in data.get("points", ())),
                       bands=tuple((int(b), int(p)) for b, p in data.get("bands", ())),
                       beyond=int(data.get("beyond", 0)))
        except (TypeError, ValueError) as error:
            if isinstance(error, ChampionshipError):
                raise
            raise ChampionshipError("table", f"not a points table: {error}") from error


@dataclass(frozen=True)
class Rules:
    """The rules declared before the season: the table, the best N kept, the qualifying minimum, the tie-breaks."""

    table: PointsTable
    best: int | None = None
    minimum: int = 0
    tie_breaks: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.best is not None and self.best < 1:
            raise ChampionshipError("best", "keep at least one result")
        if self.minimum < 0:
            raise ChampionshipError("minimum", "a minimum cannot be negative")
        try:
            ranking.check_tie_breaks(self.tie_breaks, TIE_BREAKS)
        except ValueError as error:
            raise ChampionshipError("tie_breaks", f"distinct, among {', '.join(TIE_BREAKS)}") from error

    def options(self) -> tuple[tuple[str, Any], ...]:
        return (("best", self.best), ("minimum", self.minimum), ("table", self.table.as_option()),
                ("tie_breaks", self.tie_breaks))


@dataclass(frozen=True)
class Standing:
    """A player's season: every result with its points, those kept (best N), and the figures ranked."""

    player: Entry
    results: tuple[tuple[Result, int | Fraction], ...]
    kept: tuple[tuple[Result, int | Fraction], ...]
    points: int | Fraction
    qualified: bool
    missing: int = 0
    metrics: tuple[tuple[str, Value], ...] = field(default=())


def _exact(value: int | Fraction) -> int | Fraction:
    return int(value) if isinstance(value, Fraction) and value.denominator == 1 else value


def standings(results: Iterable[Result], rules: Rules) -> dict[Entry, Standing]:
    """Each player's season under ``rules`` (the best N, the minimum, the tie-breaks' figures)."""
    by_player: dict[Entry, list[Result]] = {}
    seen: set[tuple[Entry, Entry]] = set()
    for result in results:
        key = (result.player, result.tournament)
        if key in seen:
            raise ChampionshipError("results", f"two results for player {result.player!r} at {result.tournament!r}")
        seen.add(key)
        by_player.setdefault(result.player, []).append(result)
    out: dict[Entry, Standing] = {}
    for player, mine in by_player.items():
        mine.sort(key=lambda r: (r.order, ranking.entry_order(r.tournament)))
        worth = [(r, rules.table.worth(r)) for r in mine]
        # most points first; among equal points the earlier tournament (a stable sort keeps the season's order)
        best_first = sorted(worth, key=lambda rw: rw[1], reverse=True)
        kept = tuple(best_first if rules.best is None else best_first[: rules.best])
        kept = tuple(sorted(kept, key=lambda rw: (rw[0].order, ranking.entry_order(rw[0].tournament))))
        points = _exact(sum((p for _, p in kept), Fraction(0)))
        figures: dict[str, Value] = {
            "points": points,
            "wins": sum(1 for r, _ in kept if r.rank == 1),
            "podiums": sum(1 for r, _ in kept if r.rank <= 3),
            "best_result": max(p for _, p in worth),
            "played": len(mine),
            "total": _exact(sum((p for _, p in worth), Fraction(0))),
            "kept": len(kept),
        }
        shown = ("points", *rules.tie_breaks, *(n for n in ("kept", "played") if n not in rules.tie_breaks))
        metrics = tuple((name, figures[name]) for name in shown)
        qualified = len(mine) >= rules.minimum
        out[player] = Standing(player, tuple(worth), kept, points, qualified,
                               max(0, rules.minimum - len(mine)), metrics)
    return out


def rank_championship(results: Iterable[Result], rules: Rules) -> RankingSnapshot:
    """The championship ranking: the qualified players by points, then the declared tie-breaks; equal on every
    criterion, a rank is shared. Its inputs are the results, its options the rules (so :func:`regenerate`
    rebuilds it)."""
    inputs = tuple(sorted(results))
    season = standings(inputs, rules)
    rows = [(player, s.metrics) for player, s in season.items() if s.qualified]
    return ranking.build_snapshot(KIND, ("points", *rules.tie_breaks), rows, inputs, rules.options())


def rules_of(snapshot: RankingSnapshot) -> Rules:
    """The rules a championship snapshot was computed under (from its options)."""
    opts = dict(snapshot.options)
    return Rules(PointsTable.from_data(dict(opts["table"])), best=opts["best"], minimum=opts["minimum"],
                 tie_breaks=tuple(opts["tie_breaks"]))


def regenerate(snapshot: RankingSnapshot) -> RankingSnapshot:
    """The championship snapshot rebuilt from its own inputs and rules; it must come out identical."""
    return rank_championship(snapshot.inputs, rules_of(snapshot))


def pending(snapshot: RankingSnapshot) -> tuple[Standing, ...]:
    """The players not ranked yet (fewer results than the minimum), most points first."""
    season = standings(snapshot.inputs, rules_of(snapshot))
    waiting = [s for s in season.values() if not s.qualified]
    waiting.sort(key=lambda s: ranking.entry_order(s.player))
    waiting.sort(key=lambda s: s.points, reverse=True)
    return tuple(waiting)


def category_lines(snapshot: RankingSnapshot, members: Iterable[Entry]) -> tuple[RankLine, ...]:
    """The same ranking cut to ``members`` (a category: dames, jeunes, seniors, a série): the order kept, the
    ranks counted again among them, shared where the criteria are all equal."""
    wanted = set(members)
    out: list[RankLine] = []
    previous: tuple[Any, ...] | None = None
    rank = 0
    for line in snapshot.lines:
        if line.entry not in wanted:
            continue
        key = tuple(line.metric(name) for name in snapshot.criteria)
        if key != previous:
            rank, previous = len(out) + 1, key
        out.append(RankLine(rank, line.entry, line.metrics))
    return tuple(out)


def points_text(value: Value, lang: str = "fr") -> str:
    """Championship points as people read them: a whole number as it is, a fraction with at most two decimals,
    rounded half up from the exact value (77/8 is « 9,63 », as a French reader rounds it; the float's own
    rounding gave « 9,62 »), no trailing zero, a decimal comma in French."""
    if isinstance(value, Fraction) and value.denominator != 1:
        exact = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"),
                                                                                 rounding=ROUND_HALF_UP)
        whole = format(exact, "f").rstrip("0").rstrip(".")
        return whole.replace(".", ",") if lang == "fr" else whole
    return str(value)



def _ordinal(rank: int, lang: str) -> str:
    if lang == "fr":
        return "1er" if rank == 1 else f"{rank}e"
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def explain(snapshot: RankingSnapshot, player: Entry, lang: str = "fr",
            names: Mapping[Entry, str] | None = None, tournaments: Mapping[Entry, str] | None = None,
            season: Mapping[Entry, Standing] | None = None) -> str:
    """« Pourquoi ce rang » for ``player``: his rank and points, the results kept and those left out (best N),
    then what separated him from those level on points (the declared tie-breaks) or that the rank is shared.
    A player not ranked yet gets how many tournaments he still needs. ``season``: the snapshot's
    :func:`standings`, when the caller explains many lines (computed once, see :func:`explain_all`)."""
    fr = lang == "fr"
    rules = rules_of(snapshot)
    if season is None:
        season = standings(snapshot.inputs, rules)
    if player not in season:
        return "Aucun résultat dans ce championnat." if fr else "No result in this championship."
    mine = season[player]

    def tname(t: Entry) -> str:
        return tournaments[t] if tournaments and t in tournaments else str(t)

    def said(items: Sequence[tuple[Result, int | Fraction]]) -> str:
        return ", ".join(f"{tname(r.tournament)} ({_ordinal(r.rank, lang)}, {points_text(p, lang)} "
                         f"{'pt' if singular(p, lang) else 'pts'})" for r, p in items)

    def points(value: Value) -> str:  # « 1 point », « 8 points » (French: « 0 point », « 1,5 point »)
        return f"{points_text(value, lang)} {'point' if singular(value, lang) else 'points'}"

    parts: list[str] = []
    kept_ids = {r.tournament for r, _ in mine.kept}
    dropped = [(r, p) for r, p in mine.results if r.tournament not in kept_ids]
    if not mine.qualified:
        played = len(mine.results)  # below the minimum (two at least): one tournament or more
        parts.append((f"Pas encore classé : {played} {'tournoi joué' if singular(played, lang) else 'tournois joués'}"
                      f" sur les {rules.minimum} exigés, il en manque {mine.missing}.") if fr else
                     (f"Not ranked yet: {played} {'tournament' if singular(played, lang) else 'tournaments'} played "
                      f"of the {rules.minimum} required, {mine.missing} to go."))
        parts.append((f"{points(mine.points)} à ce jour : " if fr else f"{points(mine.points)} so far: ")
                     + said(mine.kept) + ".")
        return " ".join(parts)
    parts.extend(_rank_words(snapshot, snapshot.line_for(player), lang, names))
    if rules.best is not None and len(mine.kept) == 1:  # « the best 1 results » read wrong in both languages
        parts.append((f"Le meilleur résultat sur {len(mine.results)} compte : " if fr else
                      f"The best result of {len(mine.results)} counts: ") + said(mine.kept) + ".")
    elif rules.best is not None:
        parts.append((f"Les {len(mine.kept)} meilleurs résultats sur {len(mine.results)} comptent : " if fr else
                      f"The best {len(mine.kept)} results of {len(mine.results)} count: ") + said(mine.kept) + ".")
    else:
        parts.append(("Tous les résultats comptent : " if fr else "Every result counts: ") + said(mine.kept) + ".")
    if dropped:
        parts.append(("Non retenus : " if fr else "Left out: ") + said(dropped) + ".")
    return " ".join(parts)


def explain_all(snapshot: RankingSnapshot, lang: str = "fr", names: Mapping[Entry, str] | None = None,
                tournaments: Mapping[Entry, str] | None = None) -> dict[Entry, str]:
    """:func:`explain` for every player of the snapshot, ranked or waiting, the season computed once."""
    season = standings(snapshot.inputs, rules_of(snapshot))
    return {player: explain(snapshot, player, lang, names, tournaments, season) for player in season}


def _rank_words(snapshot: RankingSnapshot, line: RankLine, lang: str,
                names: Mapping[Entry, str] | None) -> list[str]:
    """The rank and points, then against each player level on points the tie-break that separated them, or
    that the rank is shared (every declared tie-break equal)."""
    fr = lang == "fr"
    labels = LABELS_FR if fr else LABELS_EN

    def who(entry: Entry) -> str:
        return names[entry] if names and entry in names else str(entry)

    n = len(snapshot.lines)
    value = line.metric("points")
    one = singular(value, lang)
    out = [f"Rang {line.rank} sur {n} : {points_text(value, lang)} point{'' if one else 's'} de championnat." if fr
           else f"Rank {line.rank} of {n}: {points_text(value, lang)} championship point{'' if one else 's'}."]
    if len(snapshot.level_with(line)) - 1 > NAMED_LEVEL_MAX:  # a large group (every player at 0 points…): counted
        counts = level_counts(snapshot, line)
        out.append(f"À égalité de points avec {counts.others} autres." if fr
                   else f"Level on points with {counts.others} others.")
        if counts.ahead or counts.behind:
            out.append(f"Aux départages : {counts.ahead} d'entre eux devant, {counts.behind} derrière." if fr
                       else f"On the tie-breaks: {counts.ahead} of them ahead, {counts.behind} behind.")
        if counts.shared:
            out.append(f"Rang partagé avec {counts.shared} d'entre eux : égalité de points et à chaque départage "
                       f"annoncé." if fr else f"Rank shared with {counts.shared} of them: level on points and on "
                       f"every declared tie-break.")
        return out
    level = [o for o in snapshot.level_with(line) if o.entry != line.entry]
    shared = []
    for other in level:
        for name in snapshot.criteria[1:]:
            mine, theirs = line.metric(name), other.metric(name)
            if mine != theirs:
                ahead = mine is not None and (theirs is None or mine > theirs)
                if fr:
                    out.append(f"{'Devant' if ahead else 'Derrière'} {who(other.entry)} (rang {other.rank}), à "
                               f"égalité de points, au départage « {labels[name]} » : {points_text(mine, lang)} contre "
                               f"{points_text(theirs, lang)}.")
                else:
                    out.append(f"{'Ahead of' if ahead else 'Behind'} {who(other.entry)} (rank {other.rank}), level "
                               f"on points, on {labels[name]}: {points_text(mine, lang)} v "
                               f"{points_text(theirs, lang)}.")
                break
        else:
            shared.append(who(other.entry))
    if shared:
        out.append(f"Rang partagé avec {', '.join(shared)} : égalité de points et à chaque départage annoncé." if fr
                   else f"Rank shared with {', '.join(shared)}: level on points and on every declared tie-break.")
    return out
