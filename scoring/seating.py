"""Seating for a round: Tarot tables, match tables and Swiss pairing, with a meetings checker and manual swaps.

Pure Python, deterministic: every random choice comes from ``random.Random(seed)``.

Tarot (RULES.md §1.2, §1.12 rules 34–35, A-T6): tables of 4; when the count n = 4a + r is not a
multiple of 4, :func:`table_sizes` adds tables of 5 (« mort » format: the mort deals and sits
out each deal in turn) or of 3. Policy ``"auto"`` (default) uses the fewest odd tables, and on
equal count prefers tables of 3, which the FFT homologates (tables of 5 are not homologable):
r = 1 → one table of 5; r = 2 → two tables of 3; r = 3 → one table of 3. ``"three"`` uses only
tables of 3 where possible (r = 1 → three tables of 3; n = 5 falls back to one table of 5) and
``"five"`` only tables of 5 where possible (r = 2 → two of 5 from n = 10, r = 3 → three of 5 from
n = 15; smaller counts fall back to tables of 3).

:func:`compose_tables` chooses the sizes among any allowed counts (the game's, in order of
preference: :func:`tournaments.common.games.table_sizes`) and refuses a count they cannot seat;
:func:`plan_tables` is what a draw makes (told to the organizer before it): those tables, and in a game
played in matches the fewest exempts where the sizes cannot seat everybody (Le Vingt-quatre's 7 → 5 + 2 exempts).

Rule in every method: **nobody sits at an odd table (3 or 5) more often than necessary** — the odd
seats go to the players who have had the fewest odd seats so far (ties broken by the method); in
``"rotation"`` only a repeated meeting weighs more: when the rule leaves no repeat-free seating and a
looser one has one, the rule is loosened as little as that takes (issue 20). Team-mates
(``teams``) are never seated at the same table when it can be avoided (rule 34); players of the
same club (``clubs``, when the organizer asks, usually for the first round) are kept apart next,
wherever the count of tables allows it. Methods:

* ``"rotation"`` (FFT-style brassage): nobody meets twice while it is possible. A greedy seating
  and a swap local search; then an exact search for a seating without any repeat (:func:`_repeat_free`,
  exhaustive for a club's fields: checked against an independent exhaustive search up to 20
  players); then, when repeats cannot be avoided, a depth-first branch-and-bound search minimising
  them (a pair that met k times before costs k), exact whenever it finishes within ``budget`` nodes;
  otherwise the best seating found.
* ``"random"``: a seeded random draw (meetings ignored), still with the two rules above.
* ``"ranking"``: best against best — the odd seats are taken first (by the rule above, then lowest
  ranking), and the other tables are formed from consecutive ranks of ``ranking``.

Match games at more than two a table (:func:`seat_match_round`): tables of exactly the game's size,
the entries left over get a bye each (fewest byes first, then the lowest ranked), fewest team-mates
together and fewest repeated meetings (the search above), Swiss (neighbours in the standings) or
seeded random; in partnership games the sides at each table repeat as few partners as possible.
A team event played by sides (:func:`seat_team_sides`, La Triomphe par équipes): each team is one side,
its members together on the seats of that side, two teams a table meeting as few times again as can be.

Swiss pairing (:func:`swiss_pair`) for 2-sided games: Monrad-style — standings order (match points
then tie-breaks), the top unpaired entry meets the next entry it has not met; one bye when the count
is odd, to the lowest-ranked entry among those with the fewest byes; rematches and team-mate
pairings only when unavoidable (minimised by the same search). A team playing as a unit
(Triomphe 2 v 2, Écarté à quatre) is one entry.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rules.errors import Bilingual

Entry = Hashable

ODD_POLICIES = ("auto", "three", "five")
METHODS = ("rotation", "random", "ranking")
TEAM_WEIGHT = 1_000_000
"""Cost of seating two team-mates together: above any number of repeated meetings."""
CLUB_WEIGHT = 1_000
"""Cost of seating two players of the same club together when the organizer keeps clubs apart: above
the repeated meetings of any real field, below team-mates."""
DEFAULT_BUDGET = 20_000
"""Search nodes before the best seating found so far is returned."""


class SeatingError(Bilingual, ValueError):
    """A seating that cannot be made (too few players, unknown method or policy, …).

    ``message`` is the English sentence (the exception's text); ``fr`` the French one shown to organizers.
    """

    def __init__(self, message: str, *, fr: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fr = fr


@dataclass(frozen=True)
class Seating:
    """The tables of one round; each table is a tuple of entries in seat order."""

    round: int
    tables: tuple[tuple[Entry, ...], ...]

    def table_of(self, entry: Entry) -> int:
        for i, table in enumerate(self.tables):
            if entry in table:
                return i
        raise KeyError(entry)

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(e for table in self.tables for e in table)


@dataclass(frozen=True)
class Pairing:
    """The matches of one Swiss round: pairs (higher-ranked entry first) and the bye, if any."""

    round: int
    pairs: tuple[tuple[Entry, Entry], ...]
    bye: Entry | None = None


@dataclass(frozen=True)
class Meeting:
    """Two entries seated together in more than one round (``rounds`` lists them)."""

    a: Entry
    b: Entry
    rounds: tuple[int, ...]


# --------------------------------------------------------------------------------------------
# Table sizes
# --------------------------------------------------------------------------------------------


def table_sizes(n: int, odd: str = "auto") -> tuple[int, ...]:
    """The table sizes for ``n`` players, tables of 4 first, odd tables last (see module doc)."""
    if odd not in ODD_POLICIES:
        raise SeatingError(f"odd-table policy must be one of {ODD_POLICIES}, not {odd!r}",
                           fr=f"les tables impaires se règlent par {ODD_POLICIES}, pas {odd!r}")
    if n < 3:
        raise SeatingError(f"cannot seat {n} players at Tarot tables of 3 to 5",
                           fr=f"impossible de placer {n} joueur(s) à des tables de Tarot de 3 à 5")
    r = n % 4
    fives = threes = 0
    if r == 1:
        if odd == "three" and n >= 9:
            threes = 3
        else:
            fives = 1
    elif r == 2:
        if odd == "five" and n >= 10:
            fives = 2
        else:
            threes = 2
    elif r == 3:
        if odd == "five" and n >= 15:
            fives = 3
        else:
            threes = 1
    fours = (n - 5 * fives - 3 * threes) // 4
    return (4,) * fours + (5,) * fives + (3,) * threes


def _counts_fr(counts: Sequence[int]) -> str:
    """« 4 ou 5 », « 3, 4 ou 5 »."""
    words = [str(c) for c in counts]
    return f"{', '.join(words[:-1])} ou {words[-1]}" if len(words) > 1 else words[0]


def compose_tables(n: int, allowed: Sequence[int]) -> tuple[int, ...]:
    """The sizes of the tables seating ``n`` players, each size among ``allowed`` (in order of
    preference: the first is the main size). As many tables of the main size as possible, then the
    fewest tables, then as many of each next size in turn; the main size first, then in the order of
    ``allowed``. Tarot's ``(4, 3, 5)`` gives :func:`table_sizes` ``"auto"``: 13 → 4 4 5, 14 → 4 4 3 3.

    :class:`SeatingError` (naming the sizes) when no such tables seat exactly ``n`` players.
    """
    sizes = list(dict.fromkeys(allowed))
    if not sizes or min(sizes) < 2:
        raise SeatingError(f"table sizes must be 2 or more, not {list(allowed)}",
                           fr=f"une table compte au moins 2 joueurs, pas {list(allowed)}")
    # best[m]: the best composition of m players, as a key (lexicographic, additive) and its counts
    Key = tuple[int, ...]
    best: list[tuple[Key, tuple[int, ...]] | None] = [((0,) * (len(sizes) + 1), (0,) * len(sizes))]
    for m in range(1, n + 1):
        here: tuple[Key, tuple[int, ...]] | None = None
        for i, size in enumerate(sizes):
            prev = best[m - size] if m >= size else None
            if prev is None:
                continue
            key = list(prev[0])
            key[0] -= 1 if i == 0 else 0  # more tables of the main size
            key[1] += 1                  # fewer tables
            if i > 0:
                key[1 + i] -= 1          # then more of each next size
            counts = list(prev[1])
            counts[i] += 1
            candidate = (tuple(key), tuple(counts))
            if here is None or candidate[0] < here[0]:
                here = candidate
        best.append(here)
    found = best[n] if n > 0 else None
    if found is None:
        counts_fr = _counts_fr(sorted(sizes))
        raise SeatingError(f"cannot seat {n} players at tables of {' or '.join(map(str, sorted(sizes)))}",
                           fr=f"impossible de placer {n} joueur{'s' if n > 1 else ''} à des tables de "
                              f"{counts_fr} joueurs")
    return tuple(size for size, k in zip(sizes, found[1], strict=True) for _ in range(k))


@dataclass(frozen=True)
class TablePlan:
    """What a draw of ``players`` entries makes: tables of ``sizes`` and ``byes`` entries exempt."""

    players: int
    sizes: tuple[int, ...]
    byes: int = 0


def plan_tables(n: int, allowed: Sequence[int], *, byes: bool = False) -> TablePlan:
    """The tables a draw of ``n`` players makes at the sizes ``allowed`` (:func:`compose_tables`), told to the
    organizer before he draws.

    A game of two (``allowed == (2,)``): ``n // 2`` tables, one bye when ``n`` is odd. Another game: every
    player seated when the sizes allow; otherwise, with ``byes`` (a match game, where a bye is a result the
    ranking knows), the fewest players exempt that leave a count the sizes seat (Le Vingt-quatre's 7 players →
    one table of 5 and 2 exempts: RULES.md §5 rule 1 forbids a table of fewer than 4, and no 4s and 5s make 7).
    Without ``byes`` (Tarot, a team game by sides) such a count is a :class:`SeatingError`.
    """
    if tuple(allowed) == (2,):
        if n < 2:
            raise SeatingError(f"{n} player(s) present: nobody to pair",
                               fr=f"{n} joueur présent : personne à apparier")
        return TablePlan(n, (2,) * (n // 2), n % 2)
    try:
        return TablePlan(n, compose_tables(n, allowed))
    except SeatingError as exc:
        if not byes:
            raise
        refusal = exc
    for left_out in range(1, n - min(allowed) + 1):
        try:
            return TablePlan(n, compose_tables(n - left_out, allowed), left_out)
        except SeatingError:
            continue
    raise refusal


# --------------------------------------------------------------------------------------------
# History helpers
# --------------------------------------------------------------------------------------------


def meeting_counts(history: Iterable[Seating]) -> Counter[frozenset[Entry]]:
    """How many times each pair has sat at the same table."""
    met: Counter[frozenset[Entry]] = Counter()
    for seating in history:
        for table in seating.tables:
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] += 1
    return met


def odd_seat_counts(history: Iterable[Seating], main: int = 4) -> Counter[Entry]:
    """How many times each entry has sat at a table that is not of the ``main`` size (4)."""
    out: Counter[Entry] = Counter()
    for seating in history:
        for table in seating.tables:
            if len(table) != main:
                out.update(table)
    return out


def meetings_report(history: Iterable[Seating]) -> list[Meeting]:
    """Every pair seated together in more than one round, sorted by the rounds of their meetings."""
    rounds: dict[frozenset[Entry], list[int]] = {}
    for seating in history:
        for table in seating.tables:
            for a, b in combinations(table, 2):
                rounds.setdefault(frozenset((a, b)), []).append(seating.round)
    out = []
    for pair, rs in rounds.items():
        if len(rs) > 1:
            a, b = sorted(pair, key=_order)
            out.append(Meeting(a, b, tuple(rs)))
    out.sort(key=lambda m: (m.rounds, _order(m.a), _order(m.b)))
    return out


def _order(entry: Entry) -> tuple[str, Any]:
    return (type(entry).__name__, entry)


def _team_of(teams: Mapping[Any, Iterable[Entry]] | None) -> dict[Entry, Any]:
    out: dict[Entry, Any] = {}
    for team, members in (teams or {}).items():
        for m in members:
            if m in out:
                raise SeatingError(f"{m!r} belongs to two teams", fr=f"{m!r} est dans deux équipes")
            out[m] = team
    return out


# --------------------------------------------------------------------------------------------
# The search: partition players into tables of given sizes at minimal cost
# --------------------------------------------------------------------------------------------


class _Search:
    """Depth-first branch and bound. Players are placed in ``order``; a player goes into an open
    table, cheapest first; empty tables of one size are interchangeable (only the first is tried).
    ``klass[p]`` is +1 (must sit at an odd table), -1 (must sit at a table of 4) or 0 (either, within
    ``free_odd`` odd seats for the 0 class). A table is odd when its size is not ``main``."""

    def __init__(self, order: list[int], sizes: Sequence[int], weight: list[dict[int, int]],
                 klass: list[int], free_odd: int, budget: int, rng: random.Random | None, main: int = 4) -> None:
        self.order, self.sizes, self.weight, self.klass, self.main = order, list(sizes), weight, klass, main
        self.free_odd = free_odd
        self.free_four = sum(1 for k in klass if k == 0) - free_odd
        self.budget, self.rng = budget, rng
        self.tables: list[list[int]] = [[] for _ in sizes]
        self.where: dict[int, int] = {}
        self.best_cost: int | None = None
        self.best: list[list[int]] | None = None
        self.nodes = 0

    def run(self) -> tuple[list[list[int]], int]:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 2 * len(self.order) + 200))  # one frame per player
        try:
            self._dfs(0, 0)
        finally:
            sys.setrecursionlimit(limit)
        assert self.best is not None and self.best_cost is not None
        return self.best, self.best_cost

    def _dfs(self, k: int, cost: int) -> bool:
        """Returns True to stop the whole search (a zero-cost seating, or the budget is spent)."""
        if self.best_cost is not None and cost >= self.best_cost:
            return False
        if k == len(self.order):
            self.best_cost, self.best = cost, [list(t) for t in self.tables]
            return cost == 0
        self.nodes += 1
        if self.nodes > self.budget and self.best is not None:
            return True  # the first dive never dead-ends, so a seating exists by now
        p = self.order[k]
        added: dict[int, int] = {}
        for q, w in self.weight[p].items():
            t = self.where.get(q)
            if t is not None:
                added[t] = added.get(t, 0) + w
        candidates = []
        empty_seen: set[int] = set()
        kp = self.klass[p]
        for t, size in enumerate(self.sizes):
            members = self.tables[t]
            if len(members) >= size:
                continue
            odd = size != self.main
            if (kp == 1 and not odd) or (kp == -1 and odd):
                continue
            if kp == 0 and (self.free_odd == 0 if odd else self.free_four == 0):
                continue
            if not members:
                if size in empty_seen:
                    continue
                empty_seen.add(size)
            candidates.append((added.get(t, 0), t))
        if self.rng is not None:
            self.rng.shuffle(candidates)
        candidates.sort(key=lambda c: c[0])
        for extra, t in candidates:
            odd = self.sizes[t] != self.main
            if kp == 0:
                if odd:
                    self.free_odd -= 1
                else:
                    self.free_four -= 1
            self.tables[t].append(p)
            self.where[p] = t
            stop = self._dfs(k + 1, cost + extra)
            self.tables[t].pop()
            del self.where[p]
            if kp == 0:
                if odd:
                    self.free_odd += 1
                else:
                    self.free_four += 1
            if stop:
                return True
        return False


def _improve(tables: list[list[int]], sizes: Sequence[int], weight: list[dict[int, int]], klass: list[int],
             rng: random.Random, moves: int, main: int = 4) -> tuple[list[list[int]], int]:
    """Local search: swap two players of different tables while it lowers the cost; on a plateau,
    take a random cost-neutral swap of a player who meets someone again (at most ``moves`` swaps).
    Swaps keep table sizes, and cross between odd and even tables only for players free to sit at
    either, so the odd-seat rule still holds."""
    tables = [list(t) for t in tables]
    where = {p: t for t, table in enumerate(tables) for p in table}

    def at(p: int, t: int, without: int) -> int:
        w = weight[p]
        return sum(w.get(q, 0) for q in tables[t] if q != p and q != without)

    def total() -> int:
        return sum(weight[p].get(q, 0) for table in tables for p, q in combinations(table, 2))

    cost = total()
    players = list(where)
    for _ in range(moves):
        if cost == 0:
            break
        bad = [p for p in players if at(p, where[p], -1) > 0]
        best_delta, best_swap, neutral = 0, None, []
        for p in bad:
            t = where[p]
            here_p = at(p, t, -1)
            for q in players:
                u = where[q]
                if u == t or ((sizes[t] != main) != (sizes[u] != main) and (klass[p] != 0 or klass[q] != 0)):
                    continue
                delta = at(p, u, q) + at(q, t, p) - here_p - at(q, u, -1)  # p, q apart before and after
                if delta < best_delta:
                    best_delta, best_swap = delta, (p, q)
                elif delta == 0:
                    neutral.append((p, q))
        if best_swap is None:
            if not neutral:
                break
            best_swap = neutral[rng.randrange(len(neutral))]
        p, q = best_swap
        t, u = where[p], where[q]
        tables[t][tables[t].index(p)], tables[u][tables[u].index(q)] = q, p
        where[p], where[q] = u, t
        cost += best_delta
    return tables, total()


def _odd_classes(players: Sequence[Entry], sizes: Sequence[int], odd_counts: Mapping[Entry, int],
                 main: int = 4) -> tuple[list[int], int]:
    """Which players must / must not / may take the odd seats (at tables not of the ``main`` size) so
    that the odd seats go to the players with the fewest odd seats so far. Returns (class per player,
    free odd seats)."""
    n_odd = sum(s for s in sizes if s != main)
    if n_odd == 0:
        return [-1] * len(players), 0
    counts = sorted(odd_counts.get(p, 0) for p in players)
    threshold = counts[n_odd - 1]
    klass = [1 if odd_counts.get(p, 0) < threshold else -1 if odd_counts.get(p, 0) > threshold else 0
             for p in players]
    return klass, n_odd - sum(1 for k in klass if k == 1)


def seat_tarot_round(
    entries: Sequence[Entry],
    *,
    round: int,
    method: str = "rotation",
    history: Sequence[Seating] = (),
    seed: int = 0,
    odd_tables: str = "auto",
    teams: Mapping[Any, Iterable[Entry]] | None = None,
    ranking: Sequence[Entry] | None = None,
    budget: int = DEFAULT_BUDGET,
    clubs: Mapping[Any, Iterable[Entry]] | None = None,
    sizes: Sequence[int] | None = None,
) -> Seating:
    """Seat the ``entries`` present this round at Tarot tables (see the module doc for the rules).

    ``history`` holds the previous rounds' seatings (absent players in it are harmless);
    ``ranking`` is the current ranking order, required by ``method="ranking"``; ``clubs`` (club →
    members), when given, keeps players of the same club at different tables wherever the count of
    tables allows it (cost :data:`CLUB_WEIGHT` a pair: after team-mates, before repeated meetings).
    ``sizes``, when given (e.g. from :func:`compose_tables`), are the tables' sizes instead of
    :func:`table_sizes` and ``odd_tables``; the first is the main size, the others the « odd » tables.
    """
    if method not in METHODS:
        raise SeatingError(f"seating method must be one of {METHODS}, not {method!r}",
                           fr=f"la méthode de placement est l'une de {METHODS}, pas {method!r}")
    players = sorted(set(entries), key=_order)
    if len(players) != len(entries):
        raise SeatingError("an entry is listed twice", fr="un inscrit figure deux fois")
    if sizes is None:
        sizes = table_sizes(len(players), odd_tables)
    elif sum(sizes) != len(players) or not sizes or min(sizes) < 2:
        raise SeatingError(f"tables of {list(sizes)} do not seat {len(players)} players",
                           fr=f"des tables de {_counts_fr(sorted(set(sizes)))} joueurs ne placent pas "
                              f"{len(players)} joueurs")
    main = sizes[0]
    rng = random.Random(seed)
    odd_counts = odd_seat_counts(history, main)
    team_of = _team_of(teams)
    club_of = _team_of(clubs)
    klass, free_odd = _odd_classes(players, sizes, odd_counts, main)

    if method == "ranking":
        if ranking is None:
            raise SeatingError("method 'ranking' needs the current ranking order",
                               fr="la méthode « ranking » a besoin du classement en cours")
        return Seating(round, _by_ranking(players, sizes, ranking, klass, free_odd, team_of or club_of, main))

    weight = _pair_weights(players, meeting_counts(history) if method == "rotation" else {}, team_of,
                           club_of)

    order = list(range(len(players)))
    rng.shuffle(order)
    if method == "rotation":
        # Most constrained first: odd-class players, then those with the most past meetings.
        order.sort(key=lambda i: (klass[i] != 1, -len(weight[i])))
    else:
        has_team_mates = any(p in team_of or p in club_of for p in players)
        order.sort(key=lambda i: (klass[i] != 1, -len(weight[i]) if has_team_mates else 0))
    relaxed: list[list[int]] = []
    if method == "rotation" and any(s != main for s in sizes):
        # a repeated meeting is worse than an odd seat given out of turn: when the odd-seat rule
        # forbids every repeat-free seating, the rule is loosened step by step (nobody at an odd
        # table with more than ``limit`` odd seats so far), the least loosening that avoids every repeat
        counts = [odd_counts.get(p, 0) for p in players]
        n_odd = sum(s for s in sizes if s != main)
        threshold = sorted(counts)[n_odd - 1]
        relaxed = [[-1 if c > limit else 0 for c in counts] for limit in range(threshold, max(counts) + 1)]
    best, _cost = _cheapest_tables(order, sizes, weight, klass, free_odd, budget, rng, shuffle=method == "random",
                                   main=main, relaxed=relaxed)
    return Seating(round, tuple(tuple(players[i] for i in table) for table in best))


def _cheapest_tables(order: list[int], sizes: Sequence[int], weight: list[dict[int, int]], klass: list[int],
                     free_odd: int, budget: int, rng: random.Random, *, shuffle: bool,
                     improve_first: bool = True, moves: int | None = None,
                     main: int = 4, relaxed: Sequence[list[int]] = ()) -> tuple[list[list[int]], int]:
    """Players (indices, placed in ``order``) into tables of ``sizes`` at the lowest cost found: a greedy
    first dive of :class:`_Search` (cheapest table first; ties shuffled by ``rng`` when ``shuffle``),
    the swap local search :func:`_improve`, then the exact search for a seating without any repeat
    (:func:`_repeat_free`, within :data:`FREE_FACTOR` × ``budget`` nodes), then branch and bound below the cost found
    (exact when it ends within ``budget`` nodes). With ``improve_first=False`` (Swiss draws) the
    branch and bound comes before the local search, so the seating stays as close as it can to
    ``order``. ``moves`` caps the local search (default ``budget // 10``). ``relaxed``: looser odd-seat
    classes, tried in turn for a repeat-free seating when ``klass`` allows none."""
    moves = budget // 10 if moves is None else moves
    search = _Search(order, sizes, weight, klass, free_odd, budget, rng if shuffle else None, main)
    search.budget = 0  # first dive only: a greedy seating, cheapest table first
    best, cost = search.run()
    if cost > 0 and improve_first:
        best, cost = _improve(best, sizes, weight, klass, rng, moves=moves, main=main)
    if cost > 0 and budget > 0:  # is there a seating without any repeat? (exact for real fields)
        left = FREE_FACTOR * budget
        for classes in (klass, *relaxed):
            free, used = _repeat_free(order, sizes, weight, classes, main, left, pivot_in_order=not improve_first)
            if free is not None:
                return free, 0
            left -= used
            if left <= 0:
                break
    if cost > 0:  # branch and bound below the improved cost: exact when it ends within budget
        search = _Search(order, sizes, weight, klass, free_odd, budget, None, main)
        search.best, search.best_cost = best, cost
        best, cost = search.run()
    if cost > 0 and not improve_first:
        improved, better = _improve(best, sizes, weight, klass, rng, moves=moves, main=main)
        if better < cost:
            best, cost = improved, better
    return best, cost


FREE_FACTOR = 10
"""Nodes of the search for a repeat-free seating (:func:`_repeat_free`), per node of ``budget`` (200 000
by default); fields of a club (up to 20 players, 3 rounds and more) finish far below it, so the answer
is exact there."""


def _repeat_free(order: list[int], sizes: Sequence[int], weight: list[dict[int, int]], klass: list[int],
                 main: int, budget: int, *, pivot_in_order: bool = False) -> tuple[list[list[int]] | None, int]:
    """A seating of the players into tables of ``sizes`` where no two players who cost anything
    together (met before, team-mates, club-mates) share a table, and the odd-seat classes hold; None
    when there is none or the ``budget`` of nodes ran out first. Tables are built one at a time
    around a pivot (the unplaced player with the fewest possible table-mates, or the first in
    ``order`` with ``pivot_in_order``), its mates chosen among the compatible players in ``order``;
    the odd tables come first, those of one size by increasing first member: every partition is
    reached once, so the search is exhaustive when it ends within budget.
    Returns the tables aligned with ``sizes`` (or None) and the nodes used."""
    n = len(order)
    rank = {p: i for i, p in enumerate(order)}
    by_rank = sorted(range(n), key=rank.__getitem__)
    bit = [1 << rank[p] for p in range(n)]  # bit i = the i-th player of ``order``
    conf = [0] * n
    for p in range(n):
        for q, w in weight[p].items():
            if w > 0:
                conf[rank[p]] |= 1 << rank[q]
    odd_ok = sum(bit[p] for p in range(n) if klass[p] != -1)   # may sit at an odd table
    main_ok = sum(bit[p] for p in range(n) if klass[p] != 1)   # may sit at a table of the main size
    must_odd = sum(bit[p] for p in range(n) if klass[p] == 1)
    must_main = sum(bit[p] for p in range(n) if klass[p] == -1)
    kinds = Counter(sizes)
    nodes = [0]
    built: list[tuple[int, int]] = []  # (size, members bitmask)

    def seats(kind_counts: Counter[int], odd: bool) -> int:
        return sum(size * k for size, k in kind_counts.items() if (size != main) == odd)

    def fill(size: int, members: int, cand: int, need: int, left: int) -> bool:
        if need == 0:
            rest = left & ~members
            kinds[size] -= 1
            built.append((size, members))
            ok = ((rest & must_odd).bit_count() <= seats(kinds, True)
                  and (rest & must_main).bit_count() <= seats(kinds, False) and place(rest))
            if not ok:
                built.pop()
                kinds[size] += 1
            return ok
        while cand and cand.bit_count() >= need:
            low = cand & -cand
            cand ^= low
            i = low.bit_length() - 1
            if fill(size, members | low, cand & ~conf[i], need - 1, left):
                return True
            if nodes[0] > budget:
                return False
        return False

    floor: dict[int, int] = {}

    def odd_table(size: int, left: int, last_kind: bool) -> bool:
        """The odd tables first (the most constrained), those of one size by increasing first member."""
        pool = left & odd_ok & ~((2 << floor[size]) - 1 if size in floor else 0)
        while pool and pool.bit_count() >= size:
            low = pool & -pool
            pool ^= low
            i = low.bit_length() - 1
            if last_kind and left & must_odd & (low - 1):
                return False  # a player bound to an odd table would be left below every later table
            saved = floor.get(size)
            floor[size] = i
            if fill(size, low, pool & ~conf[i], size - 1, left):
                return True
            if saved is None:
                del floor[size]
            else:
                floor[size] = saved
            if nodes[0] > budget:
                return False
        return False

    def place(left: int) -> bool:
        if not left:
            return True
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        odd_left = [size for size, k in kinds.items() if k and size != main] if main else []
        if odd_left:
            return odd_table(max(odd_left), left, len(odd_left) == 1)
        if pivot_in_order:
            pivot = (left & -left).bit_length() - 1
        else:
            pivot, fewest, rest = -1, n + 1, left
            while rest:
                low = rest & -rest
                rest ^= low
                i = low.bit_length() - 1
                k = (left & ~conf[i]).bit_count()
                if k < fewest:
                    pivot, fewest = i, k
        others = left & ~conf[pivot] & ~(1 << pivot)
        for size in sorted(kinds, key=lambda s: (s != sizes[0], s)):
            if kinds[size] == 0:
                continue
            allowed = odd_ok if size != main else main_ok
            if not (1 << pivot) & allowed:
                continue
            if fill(size, 1 << pivot, others & allowed, size - 1, left):
                return True
            if nodes[0] > budget:
                return False
        return False

    if not place((1 << n) - 1):
        return None, nodes[0]
    tables: list[list[int] | None] = [None] * len(sizes)
    for size, members in built:
        t = next(t for t, s in enumerate(sizes) if s == size and tables[t] is None)
        tables[t] = [by_rank[i] for i in range(n) if members >> i & 1]
    return [t for t in tables if t is not None], nodes[0]


def _by_ranking(players: Sequence[Entry], sizes: Sequence[int], ranking: Sequence[Entry], klass: list[int],
                free_odd: int, team_of: Mapping[Entry, Any], main: int = 4) -> tuple[tuple[Entry, ...], ...]:
    """Best against best: odd seats first (fewest odd seats so far, then lowest ranking), then
    tables of 4 from consecutive ranks; team-mates split by swapping with the nearest next table."""
    position = {e: i for i, e in enumerate(ranking)}
    present = set(players)
    order = sorted(players, key=lambda e: (position.get(e, len(position)), _order(e)))
    ranked_players = [e for e in order if e in present]
    k_of = dict(zip(players, klass, strict=True))
    either = [e for e in reversed(ranked_players) if k_of[e] == 0][:free_odd]
    odd_set = {e for e in ranked_players if k_of[e] == 1} | set(either)
    fours = [e for e in ranked_players if e not in odd_set]
    odds = [e for e in ranked_players if e in odd_set]
    tables: list[list[Entry]] = []
    i = 0
    for size in (s for s in sizes if s == main):
        tables.append(fours[i:i + size])
        i += size
    i = 0
    for size in (s for s in sizes if s != main):
        tables.append(odds[i:i + size])
        i += size
    if team_of:
        _split_team_mates(tables, team_of)
    return tuple(tuple(t) for t in tables)


def _split_team_mates(tables: list[list[Entry]], team_of: Mapping[Entry, Any]) -> None:
    """Swap a team-mate with the nearest-ranked player of a table of the same size (next tables
    first, then previous) when the swap clears the clash without creating another."""

    def clash(table: list[Entry]) -> Entry | None:
        seen: dict[Any, Entry] = {}
        for e in table:  # the lower-ranked of two team-mates moves
            team = team_of.get(e)
            if team is not None and team in seen:
                return e
            if team is not None:
                seen[team] = e
        return None

    def ok(table: list[Entry]) -> bool:
        teams = [team_of[e] for e in table if e in team_of]
        return len(teams) == len(set(teams))

    for t in range(len(tables)):
        while (mover := clash(tables[t])) is not None:
            moved = False
            for u in [*range(t + 1, len(tables)), *range(t - 1, -1, -1)]:
                if len(tables[u]) != len(tables[t]):
                    continue
                for j, other in enumerate(tables[u]):
                    a, b = tables[t][:], tables[u][:]
                    a[a.index(mover)], b[j] = other, mover
                    if ok(a) and ok(b):
                        tables[t], tables[u], moved = a, b, True
                        break
                if moved:
                    break
            if not moved:
                break  # unavoidable with swaps between tables of this size


# --------------------------------------------------------------------------------------------
# Manual swap
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwapResult:
    seating: Seating
    repeats: tuple[Meeting, ...]
    """Repeated meetings the swap creates (pairs now together who already met before this round)."""


def swap(seating: Seating, a: Entry, b: Entry, history: Sequence[Seating] = ()) -> SwapResult:
    """Swap entries ``a`` and ``b`` (at different tables) and report the repeated meetings the new
    seating has that the old one had not, against ``history`` (the previous rounds)."""
    ta, tb = seating.table_of(a), seating.table_of(b)
    if ta == tb:
        raise SeatingError(f"{a!r} and {b!r} already sit at the same table",
                           fr=f"{a!r} et {b!r} sont déjà à la même table")
    tables = [list(t) for t in seating.tables]
    tables[ta][tables[ta].index(a)] = b
    tables[tb][tables[tb].index(b)] = a
    new = Seating(seating.round, tuple(tuple(t) for t in tables))
    before = {(m.a, m.b) for m in meetings_report([*history, seating]) if seating.round in m.rounds}
    created = tuple(m for m in meetings_report([*history, new])
                    if new.round in m.rounds and (m.a, m.b) not in before)
    return SwapResult(new, created)


# --------------------------------------------------------------------------------------------
# Swiss pairing
# --------------------------------------------------------------------------------------------


def swiss_history(results: Iterable[Any]) -> tuple[Counter[frozenset[Entry]], Counter[Entry]]:
    """Meetings and byes so far from :class:`scoring.ranking.MatchResult` objects (or anything with
    ``entries`` and ``bye``)."""
    met: Counter[frozenset[Entry]] = Counter()
    byes: Counter[Entry] = Counter()
    for r in results:
        if r.bye:
            byes.update(r.entries)
        else:
            for a, b in combinations(r.entries, 2):
                met[frozenset((a, b))] += 1
    return met, byes


@dataclass(frozen=True)
class TableMet:
    """The entries who sat at one table of a round (``bye``: alone there), whatever became of their match."""

    entries: tuple[Entry, ...]
    bye: bool


def tables_met(history: Iterable[Seating]) -> list[TableMet]:
    """The :func:`swiss_pair` history of the rounds seated so far: every table, the matches that ended and those
    that did not (a match left unfinished when its round was finished has no result, but its players met)."""
    return [TableMet(tuple(table), len(table) == 1) for seating in history for table in seating.tables]


def swiss_pair(
    standings: Sequence[Entry],
    *,
    round: int,
    history: Iterable[Any] = (),
    teams: Mapping[Any, Iterable[Entry]] | None = None,
    budget: int = DEFAULT_BUDGET,
) -> Pairing:
    """Pair the entries present this round, given in standings order (best first).

    ``history`` holds the previous tables (:func:`tables_met`; :class:`~scoring.ranking.MatchResult` objects
    too: anything with ``entries`` and ``bye``).
    Priorities, in order: nobody gets a second bye while someone present has fewer; no team-mates
    (``teams``, for individual events of a team tournament) and no rematch while avoidable (fewest
    of them); the bye to the lowest-ranked candidate; then the top unpaired entry meets the
    highest-ranked possible opponent (Monrad-style).
    """
    players = list(standings)
    if len(set(players)) != len(players):
        raise SeatingError("an entry is listed twice", fr="un inscrit figure deux fois")
    met, byes = swiss_history(history)
    team_of = _team_of(teams)

    def cost(a: Entry, b: Entry) -> int:
        c = met.get(frozenset((a, b)), 0)
        if a in team_of and team_of.get(b) == team_of[a]:
            c += TEAM_WEIGHT
        return c

    candidates: list[Entry | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
    best: tuple[int, list[tuple[Entry, Entry]], Entry | None] | None = None
    nodes = [0]
    for bye in candidates:
        rest = [p for p in players if p != bye]
        bound = best[0] if best is not None else None
        found = _pair_dfs(rest, cost, bound, budget, nodes)
        if found is not None and (best is None or found[0] < best[0]):
            best = (found[0], found[1], bye)
            if found[0] == 0:
                break
    assert best is not None
    return Pairing(round, tuple(best[1]), best[2])


def _pair_dfs(players: list[Entry], cost: Any, bound: int | None, budget: int,
              nodes: list[int]) -> tuple[int, list[tuple[Entry, Entry]]] | None:
    """Cheapest perfect matching of ``players`` (in order) below ``bound``, top entry first, its
    opponent the highest-ranked one that keeps the cost lowest; None if nothing beats ``bound``."""
    best: list[Any] = [bound, None]
    pairs: list[tuple[Entry, Entry]] = []
    free = [True] * len(players)

    def dfs(c: int) -> bool:
        if best[0] is not None and c >= best[0]:
            return False
        try:
            i = free.index(True)
        except ValueError:
            best[0], best[1] = c, list(pairs)
            return c == 0
        nodes[0] += 1
        if nodes[0] > budget and (best[1] is not None or nodes[0] > 2 * budget):
            return True
        free[i] = False
        options = sorted((cost(players[i], players[j]), j) for j in range(i + 1, len(players)) if free[j])
        for extra, j in options:
            free[j] = False
            pairs.append((players[i], players[j]))
            stop = dfs(c + extra)
            pairs.pop()
            free[j] = True
            if stop:
                free[i] = True
                return True
        free[i] = True
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, len(players) + 200))  # one frame per pair
    try:
        dfs(0)
    finally:
        sys.setrecursionlimit(limit)
    return None if best[1] is None else (best[0], best[1])


# --------------------------------------------------------------------------------------------
# Match games at more than two a table
# --------------------------------------------------------------------------------------------

MATCH_METHODS = ("swiss", "random")
MAX_BYE_TRIES = 8
"""Sets of byes tried (in order of preference) before the cheapest seating found is kept."""


@dataclass(frozen=True)
class MatchDraw:
    """One round of a match game at ``size`` a table: full tables (entries in seat order) and the byes."""

    round: int
    tables: tuple[tuple[Entry, ...], ...]
    byes: tuple[Entry, ...] = ()


def bye_counts(history: Iterable[Seating]) -> Counter[Entry]:
    """How many byes each entry has had: a table of a single entry in ``history`` is a bye."""
    out: Counter[Entry] = Counter()
    for seating in history:
        for table in seating.tables:
            if len(table) == 1:
                out[table[0]] += 1
    return out


def partner_counts(history: Iterable[Seating], partners: Sequence[Sequence[int]]) -> Counter[frozenset[Entry]]:
    """How many times each pair has played on the same side: the entries seated at the seats of one
    group of ``partners`` (e.g. ``((0, 2), (1, 3))``) at a table of that many seats."""
    size = sum(len(side) for side in partners)
    out: Counter[frozenset[Entry]] = Counter()
    for seating in history:
        for table in seating.tables:
            if len(table) != size:
                continue
            for side in partners:
                for a, b in combinations(side, 2):
                    out[frozenset((table[a], table[b]))] += 1
    return out


def _check_partners(partners: Sequence[Sequence[int]] | None, size: int) -> tuple[tuple[int, ...], ...] | None:
    if partners is None:
        return None
    sides = tuple(tuple(side) for side in partners)
    seats = sorted(s for side in sides for s in side)
    if seats != list(range(size)) or len({len(side) for side in sides}) != 1 or len(sides) < 2:
        raise SeatingError(f"partners must share out the seats 0 to {size - 1} into equal sides, not {partners!r}",
                           fr=f"les partenaires se partagent les places 0 à {size - 1} en camps égaux, "
                              f"pas {partners!r}")
    return sides


def _splits(members: Sequence[Entry], parts: int) -> list[list[tuple[Entry, ...]]]:
    """Every way to split ``members`` into ``parts`` unordered sides of equal size; the side of the
    first member comes first, and the splits come in the order of ``members``."""
    if parts == 1:
        return [[tuple(members)]]
    m = len(members) // parts
    first, rest = members[0], list(members[1:])
    out = []
    for mates in combinations(rest, m - 1):
        others = [e for e in rest if e not in mates]
        for tail in _splits(others, parts - 1):
            out.append([(first, *mates), *tail])
    return out


def _seat_partners(members: Sequence[Entry], sides: tuple[tuple[int, ...], ...],
                   partnered: Mapping[frozenset[Entry], int], rank: Mapping[Entry, int] | None) -> tuple[Entry, ...]:
    """The seat order of one table in a partnership game: the split into sides with the fewest
    repeated partnerships; on a tie, with ``rank`` (Swiss), the sides whose rank sums are closest
    (1 and 4 against 2 and 3), else the first split in the order of ``members``. The side of the
    first member takes the seats of ``sides[0]``, in order."""

    def cost(split: list[tuple[Entry, ...]]) -> tuple[int, int]:
        repeats = sum(partnered.get(frozenset(pair), 0) for side in split for pair in combinations(side, 2))
        if rank is None:
            return repeats, 0
        sums = [sum(rank[e] for e in side) for side in split]
        return repeats, max(sums) - min(sums)

    split = min(_splits(members, len(sides)), key=cost)  # min keeps the first of equal splits
    seated: list[Entry | None] = [None] * sum(len(s) for s in sides)
    for side, seats in zip(split, sides, strict=True):
        for entry, seat in zip(side, seats, strict=True):
            seated[seat] = entry
    return tuple(e for e in seated if e is not None)


def seat_match_round(
    standings: Sequence[Entry],
    *,
    round: int,
    size: int,
    method: str = "swiss",
    history: Sequence[Seating] = (),
    seed: int = 0,
    teams: Mapping[Any, Iterable[Entry]] | None = None,
    partners: Sequence[Sequence[int]] | Mapping[int, Sequence[Sequence[int]] | None] | None = None,
    budget: int = DEFAULT_BUDGET,
    sizes: Sequence[int] | None = None,
) -> MatchDraw:
    """Seat a round of a match game played at ``size`` players a table (Écarté à trois and à quatre,
    Triomphe at 3 to 6 or by teams, Impériale à trois, Vingt-quatre at 4 or 5).

    ``standings`` lists the entries present, best first. ``history`` holds the previous rounds'
    seatings (a table of one entry is a bye). Every table has exactly ``size`` entries; the
    ``len(standings) % size`` left over get a bye each. Priorities, in order:

    1. nobody gets a bye while someone present has had fewer (as :func:`swiss_pair`);
    2. fewest team-mates (``teams``) at one table, then fewest repeated meetings (a pair that met k
       times before costs k) — zero when possible (the search of :func:`seat_tarot_round`);
    3. the byes to the lowest-ranked candidates (in ``random``, to the last of the shuffled order);
    4. ``swiss``: tables of neighbours in the standings — entries are placed best first, each at the
       first table where it meets nobody again (top ``size`` unpaired entries together when they
       have not met); ``random``: a shuffle seeded by ``seed``, the same search with random ties.

    ``partners`` (e.g. ``((0, 2), (1, 3))``: seats 0 and 2 against 1 and 3) are the sides of a
    partnership game; once the tables are formed, each is split into sides with the fewest repeated
    partners (see :func:`_seat_partners`). Tables come best first in ``swiss``.

    ``sizes`` (e.g. from :func:`plan_tables`: Vingt-quatre's 8 players → ``(4, 4)``), when given,
    are the sizes of the tables (``size`` is then ignored); the entries they leave over get a bye each
    (Vingt-quatre's 7 players → ``(5,)`` and 2 byes), by the priorities above;
    ``partners`` may then map a table size to its sides (None: each plays alone).
    """
    if method not in MATCH_METHODS:
        raise SeatingError(f"seating method must be one of {MATCH_METHODS}, not {method!r}",
                           fr=f"la méthode de placement est l'une de {MATCH_METHODS}, pas {method!r}")
    players = list(standings)
    if sizes is not None:
        shape = tuple(sizes)
        if not shape or min(shape) < 2 or sum(shape) > len(players):
            raise SeatingError(f"tables of {list(shape)} do not seat {len(players)} entries",
                               fr=f"des tables de {_counts_fr(sorted(set(shape)) or [0])} joueurs ne placent pas "
                                  f"{len(players)} inscrits")
    else:
        if size < 2:
            raise SeatingError(f"a match table seats 2 players or more, not {size}",
                               fr=f"une table de partie compte 2 joueurs ou plus, pas {size}")
        if len(players) < size:
            raise SeatingError(f"cannot seat {len(players)} entries at tables of {size}",
                               fr=f"impossible de placer {len(players)} inscrit(s) à des tables de {size}")
        shape = (size,) * (len(players) // size)
    if len(set(players)) != len(players):
        raise SeatingError("an entry is listed twice", fr="un inscrit figure deux fois")
    by_size = partners if isinstance(partners, Mapping) else {shape[0]: partners}
    sides_of = {k: _check_partners(by_size.get(k), k) for k in set(shape)}
    rng = random.Random(seed)
    if method == "random":
        rng.shuffle(players)
    rank = {p: i for i, p in enumerate(players)}
    team_of = _team_of(teams)
    met = meeting_counts(history)
    byes_so_far = bye_counts(history)

    # Rule 1: the byes go to the entries with the fewest, the lowest ranked first among the candidates.
    n_byes = len(players) - sum(shape)
    must: list[Entry] = []
    either: list[Entry] = []
    if n_byes:
        counts = sorted(byes_so_far.get(p, 0) for p in players)
        threshold = counts[n_byes - 1]
        must = [p for p in reversed(players) if byes_so_far.get(p, 0) < threshold]
        either = [p for p in reversed(players) if byes_so_far.get(p, 0) == threshold]
    bye_sets = combinations(either, n_byes - len(must))

    # Priority 2 before 3: the candidate sets of byes, in order of preference, are compared by a
    # greedy seating of the others (first dive of the search); the first of the cheapest is kept.
    best: tuple[int, tuple[Entry, ...]] | None = None
    for tries, chosen in enumerate(bye_sets):
        if tries >= MAX_BYE_TRIES:
            break
        byes = (*must, *chosen)
        rest = [p for p in players if p not in byes]
        _, cost = _match_tables(rest, shape, met, team_of, rng, 0, shuffle=method == "random")
        if best is None or cost < best[0]:
            best = (cost, byes)
            if cost == 0:
                break
    assert best is not None
    byes = best[1]
    rest = [p for p in players if p not in byes]
    tables, _ = _match_tables(rest, shape, met, team_of, rng, budget, shuffle=method == "random")
    if method == "swiss":
        tables.sort(key=lambda t: min(rank[e] for e in t))
    seated = []
    for t in tables:
        sides = sides_of.get(len(t))
        if sides is None:
            seated.append(tuple(t))
        else:
            seated.append(_seat_partners(t, sides, partner_counts(history, sides),
                                         rank if method == "swiss" else None))
    return MatchDraw(round, tuple(seated), tuple(sorted(byes, key=lambda e: rank[e])))


def seat_team_sides(
    teams: Sequence[tuple[Any, Sequence[Entry]]],
    *,
    round: int,
    sides: Sequence[Sequence[int]],
    method: str = "swiss",
    history: Sequence[Seating] = (),
    seed: int = 0,
) -> MatchDraw:
    """Seat a round of a team event played by sides (La Triomphe par équipes, RULES.md §2.2 rule 3).

    ``teams`` lists each team present with its members present, best first (``swiss``); ``sides`` the
    seats of each side at a table (``((0, 1), (2, 3))``). Every team fills exactly one side: its members
    take that side's seats in the order given, so partners sit together, facing the other team. Tables of
    ``len(sides)`` teams: ``swiss`` — the best unpaired team meets the next team it has met least (neighbours
    in the standings), the fewest meetings again over the whole round; ``random`` — the same after a shuffle
    seeded by ``seed``. Two teams have met when members of both sat at one table of ``history``. A team with
    another count of members present, or a count of teams that does not fill the tables, is a
    :class:`SeatingError` (no bye between teams)."""
    if method not in MATCH_METHODS:
        raise SeatingError(f"seating method must be one of {MATCH_METHODS}, not {method!r}",
                           fr=f"la méthode de placement est l'une de {MATCH_METHODS}, pas {method!r}")
    sides = _check_partners(sides, sum(len(side) for side in sides)) or ()
    size = len(sides[0])
    for name, members in teams:
        if len(members) != size:
            raise SeatingError(f"team {name} has {len(members)} players present, a side has {size}",
                               fr=f"l'équipe {name} compte {len(members)} joueur(s) présent(s) : un camp en "
                                  f"compte {size}")
    if len(teams) < len(sides) or len(teams) % len(sides):
        raise SeatingError(f"{len(teams)} teams present cannot fill tables of {len(sides)} teams",
                           fr=f"{len(teams)} équipe(s) présente(s) ne remplissent pas des tables de "
                              f"{len(sides)} équipes : il en faut un nombre pair")
    order = list(range(len(teams)))
    if method == "random":
        random.Random(seed).shuffle(order)
    met = meeting_counts(history)

    def cost(a: int, b: int) -> int:
        return sum(met.get(frozenset((x, y)), 0) for x in teams[a][1] for y in teams[b][1])

    best: tuple[int, list[tuple[int, ...]]] | None = None
    budget = [DEFAULT_BUDGET]

    def search(left: list[int], done: list[tuple[int, ...]], spent: int) -> None:
        nonlocal best
        if best is not None and (spent >= best[0] or budget[0] <= 0):
            return
        budget[0] -= 1
        if not left:
            best = (spent, list(done))
            return
        first, rest = left[0], left[1:]
        for others in sorted(combinations(rest, len(sides) - 1),
                             key=lambda grp: sum(cost(a, b) for a, b in combinations((first, *grp), 2))):
            group = (first, *others)
            search([t for t in rest if t not in others], [*done, group],
                   spent + sum(cost(a, b) for a, b in combinations(group, 2)))
            if best is not None and best[0] == 0:
                return

    search(order, [], 0)
    assert best is not None
    tables = []
    for group in best[1]:
        seated: list[Entry | None] = [None] * sum(len(side) for side in sides)
        for team, seats in zip(group, sides, strict=True):
            for entry, seat in zip(teams[team][1], seats, strict=True):
                seated[seat] = entry
        tables.append(tuple(e for e in seated if e is not None))
    return MatchDraw(round, tuple(tables), ())


def _pair_weights(players: Sequence[Entry], met: Mapping[frozenset[Entry], int],
                  team_of: Mapping[Entry, Any], club_of: Mapping[Entry, Any] | None = None) -> list[dict[int, int]]:
    """Per player (by index in ``players``), the cost of seating them with each other: their past
    meetings, plus :data:`TEAM_WEIGHT` for team-mates and :data:`CLUB_WEIGHT` for club-mates."""
    index = {p: i for i, p in enumerate(players)}
    weight: list[dict[int, int]] = [{} for _ in players]
    for pair, count in met.items():
        a, b = tuple(pair)
        if a in index and b in index:
            weight[index[a]][index[b]] = count
            weight[index[b]][index[a]] = count
    by_team: dict[Any, list[int]] = {}
    for p in players:
        if p in team_of:
            by_team.setdefault(team_of[p], []).append(index[p])
    for members in by_team.values():
        for i, j in combinations(members, 2):
            weight[i][j] = weight[i].get(j, 0) + TEAM_WEIGHT
            weight[j][i] = weight[j].get(i, 0) + TEAM_WEIGHT
    by_club: dict[Any, list[int]] = {}
    for p in players:
        if club_of and p in club_of:
            by_club.setdefault(club_of[p], []).append(index[p])
    for members in by_club.values():
        for i, j in combinations(members, 2):
            weight[i][j] = weight[i].get(j, 0) + CLUB_WEIGHT
            weight[j][i] = weight[j].get(i, 0) + CLUB_WEIGHT
    return weight


def _match_tables(players: list[Entry], sizes: Sequence[int], met: Mapping[frozenset[Entry], int],
                  team_of: Mapping[Entry, Any], rng: random.Random, budget: int, *,
                  shuffle: bool) -> tuple[list[list[Entry]], int]:
    """``players`` (in placing order) into tables of ``sizes`` (summing to their count) at the lowest
    cost found; each table lists its entries in ``players`` order."""
    weight = _pair_weights(players, met, team_of)
    # No table has the "main" size 0: one class for all, so the odd-seat rule never constrains.
    klass = [1] * len(players)
    order = list(range(len(players)))
    found, cost = _cheapest_tables(order, sizes, weight, klass, 0, budget, rng, shuffle=shuffle,
                                   improve_first=shuffle, moves=budget // 100, main=0)
    return [[players[i] for i in sorted(table)] for table in found], cost
