"""Duplicate Tarot movements: who sits where, with which orientation, and which étuis each table plays.

Pure Python, deterministic. A movement is data (:class:`Movement`): for each round and table, the
players at North, East, South and West and the étuis the table plays, in order. The rules
(RULES.md §1.12 rule 36, A-T13; docs/duplicate.md):

* **Orientation for the whole event.** The players, in the order given, take North, East, South,
  West, North … ; a player never changes orientation, so the players compared on an étui are the
  players of one orientation.
* **Étuis.** Each round has its own ``boards`` étuis (round r: étuis (r − 1)·boards + 1 …
  r·boards); every table of 4 plays all of them, in relay: table i of a copy starts at the i-th
  étui and passes each étui to the table below (table 1 to the relay stand). When there are more
  tables than étuis, the round's étuis are duplicated (``copies``): tables 1 … boards use copy 1,
  the next ones copy 2, and so on — all copies have the same cards, so every table of 4 is
  compared with every other. Nobody plays an étui twice, since a player sits at one table a round
  and the étuis never come back in another round.
* **Meetings.** In each round North stays at its table and East, South and West are shifted by
  (a, b, c) tables; two shifts repeat a meeting only if a difference (a, b, c, b − a, c − a,
  c − b) repeats. The shifts of each round are chosen, among all, to repeat the fewest meetings
  so far (players who meet the fewest times first), ties to the smallest shifts. When the number
  of tables is prime to 6, no two players meet twice in the first ``tables`` rounds.
* **Counts not a multiple of 4** (``short``): ``"auto"`` (default) — one extra player sits out
  (a bye, rotating), two extra give two tables of 3, three extra one table of 3; ``"bye"`` — every
  extra player sits out in turn; ``"three"`` — only tables of 3 (three of them for one extra
  player). A table of 3 plays other étuis (Tarot à trois, numbered after all the étuis of 4, its
  own set each round): it is never compared with the tables of 4. The seats of a table of 3 and
  the byes go in turn to the players who have had the fewest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

ORIENTATION_NAMES = ("N", "E", "S", "W")
SHORT_POLICIES = ("auto", "bye", "three")


@dataclass(frozen=True)
class TableRound:
    """One table in one round: the seats (N, E, S, W, or three seats), the étuis in playing order.

    ``copy`` is the copy of the round's étuis the table uses; ``pass_to`` the table that receives
    each étui once played (None: the relay stand, where the étuis no table of the set is playing wait).
    """

    round: int
    table: int
    seats: tuple[Hashable, ...]
    boards: tuple[int, ...]
    copy: int = 1
    pass_to: int | None = None

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Movement:
    """A whole event's movement: the tables of every round, the byes, and each player's orientation."""

    players: tuple[Hashable, ...]
    rounds: int
    boards: int
    tables: tuple[TableRound, ...]
    byes: tuple[tuple[int, Hashable], ...] = ()

    def orientation(self, player: Hashable) -> int:
        """The player's orientation for the whole event (0 = North … 3 = West)."""
        return self.players.index(player) % 4

    def round_tables(self, round_number: int) -> tuple[TableRound, ...]:
        return tuple(t for t in self.tables if t.round == round_number)

    def expected(self) -> dict[int, int]:
        """E per étui: how many tables play it (what Neuberg rescales to)."""
        counts: Counter[int] = Counter()
        for t in self.tables:
            counts.update(t.boards)
        return dict(counts)

    def meetings(self) -> Counter[frozenset[Hashable]]:
        """How many rounds each pair of players shared a table."""
        met: Counter[frozenset[Hashable]] = Counter()
        for t in self.tables:
            met.update(frozenset(p) for p in combinations(t.seats, 2))
        return met

    def problems(self) -> list[str]:
        """What breaks the rules above (empty for a sound movement): used by the tests and the organizer."""
        out = []
        seen_board: set[tuple[Hashable, int]] = set()
        for r in range(1, self.rounds + 1):
            seated = [p for t in self.round_tables(r) for p in t.seats] + [p for rr, p in self.byes if rr == r]
            if sorted(map(repr, seated)) != sorted(map(repr, self.players)):
                out.append(f"round {r}: not every player exactly once")
            for t in self.round_tables(r):
                if t.size == 4 and any(self.orientation(p) != o for o, p in enumerate(t.seats)):
                    out.append(f"round {r} table {t.table}: a player out of his orientation")
                for p in t.seats:
                    for b in t.boards:
                        if (p, b) in seen_board:
                            out.append(f"player {p!r} plays étui {b} twice")
                        seen_board.add((p, b))
            stage_use: set[tuple[int, int, int]] = set()
            for t in self.round_tables(r):
                for stage, b in enumerate(t.boards):
                    if (t.copy, stage, b) in stage_use:
                        out.append(f"round {r}: étui {b} (copy {t.copy}) at two tables at once")
                    stage_use.add((t.copy, stage, b))
        return out


def table_plan(players: int, short: str = "auto") -> tuple[int, int, int]:
    """(tables of 4, tables of 3, byes) for a count of players."""
    if short not in SHORT_POLICIES:
        raise ValueError(f"short is one of {SHORT_POLICIES}: got {short!r}")
    if players < 4:
        raise ValueError("a duplicate needs at least 4 players")
    q, rem = divmod(players, 4)
    if rem == 0:
        return q, 0, 0
    if short == "bye" or (short == "auto" and rem == 1):
        return q, 0, rem
    threes = {1: 3, 2: 2, 3: 1}[rem]
    fours = (players - 3 * threes) // 4
    if fours < 1:
        return q, 0, rem  # too few players for tables of 3: byes
    return fours, threes, 0


def _table_group(n: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]]:
    """Add and subtract on table numbers 0 … n − 1: XOR when n is a power of 2 (the field GF(2ᵏ)
    then gives n rounds without a repeated meeting), the integers modulo n otherwise."""
    if n & (n - 1) == 0:
        return (lambda a, b: a ^ b), (lambda a, b: a ^ b)
    return (lambda a, b: (a + b) % n), (lambda a, b: (a - b) % n)


_GF2_MODULUS = {4: 0b111, 8: 0b1011, 16: 0b10011, 32: 0b100101, 64: 0b1000011}


def _gf2_mul(a: int, b: int, n: int) -> int:
    """Multiplication in GF(n), n a power of 2, elements as bit patterns (carry-less, reduced)."""
    out = 0
    while b:
        if b & 1:
            out ^= a
        b >>= 1
        a <<= 1
        if a & n:
            a ^= _GF2_MODULUS[n]
    return out


def field_shifts(n: int) -> list[tuple[int, int, int, int]] | None:
    """n rounds of shifts with no repeated difference, when the n tables form a field.

    Round r shifts orientation o by αₒ·r (α = 0, 1, 2, 3): the difference of two orientations,
    (αⱼ − αᵢ)·r, takes n distinct values over the n rounds, so nobody meets anybody twice. The
    integers modulo a prime n ≥ 5, or GF(n) for n = 4, 8, 16, 32, 64 (the table group is then XOR).
    """
    if n in _GF2_MODULUS:
        return [tuple(_gf2_mul(o, r, n) for o in range(4)) for r in range(n)]  # type: ignore[misc]
    if n >= 5 and all(n % d for d in range(2, int(n ** 0.5) + 1)):
        return [tuple((o * r) % n for o in range(4)) for r in range(n)]  # type: ignore[misc]
    return None


def _shift_cost(used: Counter[tuple[int, int, int]], shifts: tuple[int, ...], sub: Callable[[int, int], int]) -> int:
    cost = 0
    for (i, si), (j, sj) in combinations(enumerate(shifts), 2):
        cost += used[(i, j, sub(sj, si))] ** 2
    return cost


def _split_threes(out: list[Hashable], threes: int, met: Counter[frozenset[Hashable]]) -> list[tuple[Hashable, ...]]:
    """Deal the players out of the tables of 4 into tables of 3, fewest repeated meetings first."""
    def best(rest: tuple[Hashable, ...]) -> tuple[int, list[tuple[Hashable, ...]]]:
        if not rest:
            return 0, []
        first, others = rest[0], rest[1:]
        found: tuple[int, list[tuple[Hashable, ...]]] | None = None
        for pair in combinations(others, 2):
            group = (first, *pair)
            cost = sum(met[frozenset(pq)] ** 2 for pq in combinations(group, 2))
            sub_cost, sub_groups = best(tuple(p for p in others if p not in pair))
            if found is None or cost + sub_cost < found[0]:
                found = (cost + sub_cost, [group, *sub_groups])
        assert found is not None
        return found

    return best(tuple(out))[1] if len(out) == 3 * threes else [tuple(out[i::threes]) for i in range(threes)]


def _pick_out(players: Sequence[Hashable], k: int, history: Counter[Hashable], r: int, stride: int) -> list[Hashable]:
    """The k players who sit out of the tables of 4 this round: fewest so far, then in turn.

    Each orientation turns at its own ``stride`` so that the players out together change."""
    n = len(players)
    order = sorted(range(n), key=lambda i: (history[players[i]], (i - r * k * stride) % n))
    return [players[i] for i in order[:k]]


def _pass_to(index: int, count: int, boards: int, base: int) -> int | None:
    """The table number that receives the étuis of table ``index`` (0-based among ``count`` tables
    numbered from ``base`` + 1): the table below in its set; the first table of a full set hands
    them to the last one (the relay is a ring), of a short set to the relay stand (None)."""
    first = index - index % boards
    if index > first:
        return base + index  # the table below, numbered base + (index − 1) + 1
    size = min(boards, count - first)
    return base + first + size if size == boards and size > 1 else None


def build_movement(
    players: Sequence[Hashable], *, rounds: int, boards: int, short: str = "auto", first_round: int = 1,
    played: Sequence[Sequence[Hashable]] = (), sat_out: Sequence[Hashable] = (),
) -> Movement:
    """The movement of a duplicate for ``players`` over ``rounds`` rounds of ``boards`` étuis.

    A movement rebuilt after rounds were played (a withdrawal, a late arrival, a round added) starts at
    ``first_round``: the rounds before it are not built; ``played`` (the tables already played, as lists of
    players) and ``sat_out`` (a player once for each round he sat out or played at a table of 3) steer the new
    rounds away from the meetings and the byes already had."""
    players = tuple(players)
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if rounds < 1 or boards < 1:
        raise ValueError("at least one round and one étui a round")
    fours, threes, _byes = table_plan(len(players), short)
    by_orientation = [players[o::4] for o in range(4)]
    _add, sub = _table_group(fours)
    field = field_shifts(fours)
    used: Counter[tuple[int, int, int]] = Counter()
    met: Counter[frozenset[Hashable]] = Counter(
        frozenset(pq) for table in played for pq in combinations(table, 2))
    out_history: Counter[Hashable] = Counter(p for p in sat_out if p in players)
    tables: list[TableRound] = []
    bye_list: list[tuple[int, Hashable]] = []
    three_base = rounds * boards
    for r in range(max(1, first_round), rounds + 1):
        out: list[Hashable] = []
        playing = []
        for o, group in enumerate(by_orientation):
            extra = len(group) - fours
            gone = _pick_out(group, extra, out_history, r, o + 1) if extra > 0 else []
            out += gone
            playing.append([p for p in group if p not in gone])
        out_history.update(out)
        # shifts: North fixed; East, South, West by a, b, c tables; fewest repeated differences
        candidates = sorted(product(range(fours), repeat=3), key=lambda abc: (_shift_cost(used, (0, *abc), sub), abc))
        if field is not None and r <= len(field):
            candidates.insert(0, field[r - 1][1:])  # first: it wins the ties
        best, best_cost = None, None
        for abc in candidates[:max(60, 2 * fours)]:  # the real meetings decide among the cheapest patterns
            shifts = (0, *abc)
            cost = 0
            for t in range(fours):
                at_table = [playing[o][sub(t, shifts[o])] for o in range(4)]
                cost += sum(met[frozenset(pq)] ** 2 for pq in combinations(at_table, 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = shifts, cost
        assert best is not None
        for (i, si), (j, sj) in combinations(enumerate(best), 2):
            used[(i, j, sub(sj, si))] += 1
        for t in range(fours):
            seats = tuple(playing[o][sub(t, best[o])] for o in range(4))
            met.update(frozenset(pq) for pq in combinations(seats, 2))
            copy, pos = divmod(t, boards)
            first = (r - 1) * boards + 1
            order = tuple(first + (pos + j) % boards for j in range(boards))
            tables.append(TableRound(r, t + 1, seats, order, copy + 1, _pass_to(t, fours, boards, 0)))
        # the players out: tables of 3 (other étuis) or byes
        if threes:
            # deal the extra players to the tables of 3 so that the fewest meet again
            out.sort(key=lambda p: players.index(p))
            groups = _split_threes(out, threes, met)
            first = three_base + (r - 1) * boards + 1
            for i, seats3 in enumerate(groups):
                copy, pos = divmod(i, boards)
                order = tuple(first + (pos + j) % boards for j in range(boards))
                tables.append(TableRound(r, fours + i + 1, tuple(seats3), order, copy + 1,
                                         _pass_to(i, threes, boards, fours)))
                met.update(frozenset(pq) for pq in combinations(seats3, 2))
        else:
            bye_list += [(r, p) for p in out]
    return Movement(players, rounds, boards, tuple(tables), tuple(bye_list))


def table_card(movement: Movement, round_number: int, table: int) -> dict[str, object]:
    """What the card on a table says for a round: who sits where, the étuis in order, where they go next."""
    for t in movement.round_tables(round_number):
        if t.table == table:
            names = ORIENTATION_NAMES if t.size == 4 else ORIENTATION_NAMES[:3]
            return {"round": round_number, "table": table, "seats": tuple(zip(names, t.seats, strict=True)),
                    "boards": t.boards, "copy": t.copy, "pass_to": t.pass_to, "size": t.size}
    raise KeyError(f"no table {table} in round {round_number}")
