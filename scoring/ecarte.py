"""Scoring L'Écarté (RULES.md §3.4, §3.6, §3.7, A-E1..A-E8).

Each deal gives marks in chronological order (``result["marks"]``), each
``{"kind", "seats", "points", "phase", "counted"}``; every seat in ``seats`` scores ``points``
(a team's two members at 4 players):

* phase ``start`` (before the first trick is scored):
  ``turned_king`` — the retourne is a king: the dealer scores 1 at once (A-E6);
  ``king`` — the king of trumps announced in time by its holder (A-E1): 1;
  ``false_king`` — announced by a seat that does not hold it: 1 to each adversary when
  ``false_king_penalty`` is on (A-E2). A late true announcement is void (``result["king"]``
  says so) and gives no mark.
* phase ``end`` (after the fifth trick): ``point`` — 1 to the winner of the deal (3 or 4 tricks;
  at 3 players most tricks, 2-2-1 to the first to reach 2 tricks); ``vole`` — 1 more for all 5
  tricks; ``refus`` — the point de refus when no exchange at all took place (A-E3): at 2 players
  to the winner if he is not the one who declined, never on top of the vole (at most 2 from the
  tricks); at 3 players, when the one who declined does not win, to the third player (§3.6 rule 24).

A manche ends at the exact mark that brings a party to the target; a start mark that does so
interrupts the deal (later marks are listed with ``counted: false``); end marks are
simultaneous, so the rest of them still count. Partie liée (2 or 4 players): the first party to
win two manches wins; each manche starts from 0. At 3 players the first to the target wins and
withdraws, the two others play on (their deals give ``seats``) until one of them reaches it.

``MatchScore.totals`` are the points of the whole partie per seat; ``detail["manches"]`` gives each
manche's totals, target, winner and end. ``ended`` is the mark that ends the partie.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.cards import BIT, KING, card
from rules.ecarte import EcarteDeal, EcarteOptions
from rules.errors import Violation
from rules.messages import register
from rules.record import Adjustment
from rules.replay import DealReplay, Replay
from rules.summary import TricksSummary

from .base import (
    DealScore,
    MatchScore,
    adjustments_after,
    after_end,
    leaders,
    outcome,
    party_points,
    tie_at_target,
)
from .explain import explain_marks
from .rotation import allowed_dealers, check_dealer
from .summary import SeatValue, check_tricks, compare, facts_from_tricks, mismatch


def sides_of(options: EcarteOptions) -> tuple[tuple[int, ...], ...]:
    """The scoring parties: two teams at 4 players, each player alone otherwise."""
    return options.teams or tuple((seat,) for seat in range(options.players))


def _side(options: EcarteOptions, seat: int) -> tuple[int, ...]:
    return next(side for side in sides_of(options) if seat in side)


def _mark(kind: str, seats: tuple[int, ...] | list[int], phase: str, points: int = 1) -> dict[str, Any]:
    return {"kind": kind, "seats": sorted(seats), "points": points, "phase": phase}


def king_holder(deal: DealReplay) -> tuple[int | None, bool]:
    """The seat holding the king of trumps at the first lead, and whether that is known for sure."""
    rules: EcarteDeal = deal.rules  # type: ignore[assignment]
    if rules.trump is None:  # a summary without the retourne: only a turned king is known
        return None, rules.turned_king
    king = card(KING, rules.trump)
    if rules.turn_up == king:
        return None, True
    if deal.start is not None:
        return next((s for s in rules.seats if deal.start[s] & BIT[king]), None), True
    for trick in [*deal.tricks, *([deal.unfinished] if deal.unfinished else [])]:
        if king in trick.cards:
            return trick.seats[trick.cards.index(king)], True
    return None, False


def start_marks(deal: DealReplay, options: EcarteOptions) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The turned king and the king announcement (A-E1, A-E2, A-E6)."""
    rules: EcarteDeal = deal.rules  # type: ignore[assignment]
    marks = []
    if rules.turned_king:
        marks.append(_mark("turned_king", _side(options, rules.dealer), "start"))
    announced = rules.king
    if announced is None:
        return marks, None
    holder, known = king_holder(deal)
    info: dict[str, Any] = {"seat": announced.seat, "trick": announced.trick}
    if known and holder != announced.seat:
        info["status"] = "false"
        if options.false_king_penalty:
            own = _side(options, announced.seat)
            marks.append(_mark("false_king", [s for s in rules.seats if s not in own], "start"))
    elif not announced.in_time:
        info["status"] = "late"
    else:
        info["status"] = "scored" if known else "unverified"
        marks.append(_mark("king", _side(options, announced.seat), "start"))
    return marks, info


@dataclass(frozen=True)
class TricksWon:
    """What the point, the vole and the refusal depend on: tricks per seat, who first reached two tricks (for
    2-2-1 at three), whether all five were played — from the tricks or from the summary."""

    won: tuple[int, ...]
    first_to_two: int | None
    complete: bool
    source: str = "tricks"


def tricks_won(deal: DealReplay, players: int) -> TricksWon:
    """The tricks of a replayed deal."""
    counts = [0] * players
    first_to_two = None
    for trick in deal.tricks:
        w = trick.winner
        if w is None:
            continue
        counts[w] += 1
        if counts[w] == 2 and first_to_two is None:
            first_to_two = w
    return TricksWon(tuple(counts), first_to_two, deal.complete)


def deal_winner(play: TricksWon, rules: EcarteDeal, options: EcarteOptions) -> tuple[tuple[int, ...], int]:
    """The party that wins a finished deal and its number of tricks."""
    if options.players == 4:
        for side in sides_of(options):
            got = sum(play.won[s] for s in side)
            if got >= 3:
                return side, got
    counts = {seat: play.won[seat] for seat in rules.seats}
    best = max(counts.values())
    tied = [s for s, n in counts.items() if n == best]
    seat = tied[0] if len(tied) == 1 else play.first_to_two  # 2-2-1 at 3 players (§3.6 rule 23)
    assert seat is not None  # a 2-2-1 tie at 3 players always has a first to two tricks
    return (seat,), counts[seat]


def end_marks(play: TricksWon, rules: EcarteDeal, options: EcarteOptions) -> list[dict[str, Any]]:
    """The point, the vole and the point de refus of a finished deal."""
    side, tricks = deal_winner(play, rules, options)
    marks = [_mark("point", side, "end")]
    vole = tricks == 5
    if vole:
        marks.append(_mark("vole", side, "end"))
    decliner = rules.decliner
    if decliner is not None and decliner not in side:
        if len(rules.seats) == 2 and not vole:
            marks.append(_mark("refus", side, "end"))
        elif len(rules.seats) == 3:
            third = [s for s in rules.seats if s != decliner and s not in side]
            marks.append(_mark("refus", third, "end"))
    return marks


def summary_won(summary: TricksSummary, options: EcarteOptions) -> tuple[int, ...]:
    """A summary's tricks per seat (given per side at four: each side's tricks on its first seat)."""
    if not summary.by_side:
        return summary.tricks
    won = [0] * options.players
    for side, n in zip(sides_of(options), summary.tricks, strict=True):
        won[side[0]] = n
    return tuple(won)


def _who(seat: int | None) -> SeatValue | None:
    return None if seat is None else SeatValue(seat)


def check_summary(rules: EcarteDeal, options: EcarteOptions, deal: int) -> list[Violation]:
    """What in an Écarté summary cannot be true: five tricks, none for a seat that does not play; at three, the
    first to reach two tricks is a seat with two tricks or more, and must be given on 2-2-1 (§3.6 rule 23)."""
    summary = rules.summary
    assert summary is not None
    out = check_tricks(summary, deal, expected=5, playing=rules.seats)
    if (rules.turn_up is not None and rules.summary_turned_king is not None
            and rules.summary_turned_king != rules.turned_king):
        out.append(mismatch(deal, "turned_king", rules.summary_turned_king, rules.turned_king))
    if rules.exchanges is not None and rules.summary_declined is not None and len(rules.seats) < 4:
        given, actual = rules.summary_declined[0], rules.steps_decliner
        if given != actual:
            out.append(mismatch(deal, "declined_by", _who(given), _who(actual)))
    if len(rules.seats) == 3 and not summary.by_side and not out:
        first = summary.first_to_two
        two_two = sorted(summary.tricks[s] for s in rules.seats) == [1, 2, 2]
        if first is not None and summary.tricks[first] < 2:
            out.append(Violation("summary_first_to_two", deal, None, first, None,
                                 {"count": summary.tricks[first]}))
        elif first is None and two_two:
            out.append(Violation("summary_first_to_two_missing", deal))
    return out


def play_of(deal: DealReplay, rules: EcarteDeal, options: EcarteOptions) -> tuple[TricksWon | None, list[Violation]]:
    """The tricks won: from the tricks, or from the summary when the tricks are not complete (None, with the
    violations, when it cannot be true). A summary beside complete tricks must agree with them."""
    summary = rules.summary
    if summary is None or ((deal.tricks or deal.unfinished) and deal.complete):
        play = tricks_won(deal, options.players)
        if summary is None:
            return play, []
        actual = list(play.won)
        if summary.by_side:
            actual = [sum(play.won[s] for s in side) for side in sides_of(options)]
        found = check_summary(rules, options, deal.index)
        found += compare(summary, facts_from_tricks(deal, options.players), deal.index, tricks=actual)
        if summary.first_to_two is not None and summary.first_to_two != play.first_to_two:
            found.append(mismatch(deal.index, "first_to_two", _who(summary.first_to_two), _who(play.first_to_two)))
        return play, found
    found = check_summary(rules, options, deal.index)
    if found:
        return None, found
    return TricksWon(summary_won(summary, options), summary.first_to_two, True, "summary"), []


class _Partie:
    """The running state of a partie: manches, points, withdrawals."""

    def __init__(self, options: EcarteOptions) -> None:
        self.options = options
        self.sides = sides_of(options)
        self.totals = [0] * options.players
        self.manche_points = [0] * options.players
        self.manches: list[dict[str, Any]] = []
        self.goal: int | None = None
        self.withdrawn: list[int] = []
        self.winner: int | list[int] | None = None
        self.ended: dict[str, int] | None = None
        self.manches_won = [0] * len(self.sides)
        self.closed = False  # the manche ended during the last deal (its simultaneous marks still count)

    def start_deal(self, deal: DealReplay) -> None:
        if self.closed:
            self.manche_points = [0] * self.options.players
            self.goal = None
            self.closed = False
        if self.goal is None:
            self.goal = self.options.goal(deal.rules.turn_up)  # type: ignore[attr-defined]
            self.manche_first = deal.index

    def apply(self, mark: dict[str, Any], deal: int, event: int,
              order: list[tuple[int, ...]] | None = None) -> bool:
        """Count a mark; True when it ends a manche or makes a player withdraw (``order``: the parties at the
        target, already chosen)."""
        for seat in mark["seats"]:
            self.totals[seat] += mark["points"]
            self.manche_points[seat] += mark["points"]
        if self.closed:
            return False
        reached = order or [side for side in self.sides
                            if side[0] not in self.withdrawn and self.manche_points[side[0]] >= self.goal]  # type: ignore[operator]
        if not reached:
            return False
        reached.sort(key=lambda side: side[0] not in mark["seats"])
        if self.options.players == 3:
            for side in reached:
                if side[0] not in self.withdrawn:
                    self.withdrawn.append(side[0])
            if self.winner is None:
                self.winner = self.withdrawn[0]
            if len(self.withdrawn) >= 2:
                self._close_manche(deal, event, self.withdrawn[0])
                self.ended = {"deal": deal, "event": event}
            return True
        side = reached[0]
        index = self.sides.index(side)
        self.manches_won[index] += 1
        self._close_manche(deal, event, side[0] if len(side) == 1 else list(side))
        if not self.options.liee or self.manches_won[index] == 2:
            self.winner = side[0] if len(side) == 1 else list(side)
            self.ended = {"deal": deal, "event": event}
        return True

    def adjust(self, adj: Adjustment) -> list[tuple[int, ...]]:
        """Apply an arbiter's adjustment between deals, all its points at once; the parties it leaves level at
        the target (more than one: a tie no text separates), else []. Points count in the manche in play, or,
        when the last deal closed one, in the next (the target of a "retourne" manche not yet known: the
        points wait for it)."""
        if self.closed:
            self.manche_points = [0] * self.options.players
            self.goal = None
            self.closed = False
        for side, points in party_points(adj, self.sides):
            for seat in side:
                self.totals[seat] += points
                self.manche_points[seat] += points
        if self.goal is None:
            return []
        playing = [side for side in self.sides if side[0] not in self.withdrawn]
        top = leaders(self.manche_points, playing, self.goal)
        if len(top) != 1:
            return top
        self.apply({"seats": [], "points": 0}, adj.after, -1, order=top)
        return []

    def _close_manche(self, deal: int, event: int, winner: int | list[int]) -> None:
        self.manches.append({"totals": list(self.manche_points), "target": self.goal, "winner": winner,
                             "ended": {"deal": deal, "event": event}, "first_deal": self.manche_first})
        self.closed = self.options.players != 3


def next_dealers(partie: _Partie, previous: int | None, seats: tuple[int, ...]) -> list[int] | None:
    """Who may deal the next deal (§3.1 rule 2; None: anybody, the first dealer is drawn): the players alternate —
    the deal passes to the previous first hand, the next seat that still plays (at three after a withdrawal, the
    other of the two left; at four, decision: to the right, as at three) —, except that in a partie liée the
    loser of a manche deals first in the next (at four, either player of the losing team)."""
    if previous is None:
        return None
    if partie.closed and partie.manches:
        winner = partie.manches[-1]["winner"]
        won = set(winner) if isinstance(winner, list) else {winner}
        return [seat for seat in seats if seat not in won]
    return passed_on(previous, seats, partie.options.players)


def passed_on(previous: int, seats: tuple[int, ...], players: int) -> list[int]:
    """The previous first hand: the next seat after ``previous`` that plays (``seats``)."""
    return [next(seat for seat in ((previous + k) % players for k in range(1, players + 1)) if seat in seats)]


def score_match(replay: Replay) -> MatchScore:
    """Every mark of every deal in order, the manches, and the end of the partie at its exact mark."""
    options: EcarteOptions = replay.record.options
    partie = _Partie(options)
    deals: list[DealScore] = []
    events = adjustments_after(replay.record)
    outcomes: dict[int, dict[str, Any]] = {}
    problems: list[Violation] = []

    def adjustments(after: int) -> None:
        for adj in events.get(after, ()):
            if partie.ended is not None:
                outcomes[adj.index] = outcome(adj, False)
                problems.append(after_end(adj))
                continue
            tied = partie.adjust(adj)
            outcomes[adj.index] = outcome(adj, True, totals=list(partie.totals))
            if tied:
                problems.append(tie_at_target(adj, [side[0] for side in tied], replay.record.players))
            if partie.ended is not None and partie.ended.get("event") == -1:
                partie.ended = {"deal": after, "adjustment": adj.index}
            if partie.manches and partie.manches[-1]["ended"].get("event") == -1:
                partie.manches[-1]["ended"] = {"deal": after, "adjustment": adj.index}

    adjustments(-1)
    previous_dealer: int | None = None
    for deal in replay.deals:
        rules: EcarteDeal = deal.rules  # type: ignore[assignment]
        if partie.ended is not None:
            deals.append(DealScore(None, {"reason": "after_end", "marks": []},
                                   (Violation("match_over", deal.index, None, None),)))
            adjustments(deal.index)
            continue
        # after annulled deals: an annulled deal that was dealt was the manche's first, and passed the deal on
        allowed = allowed_dealers(next_dealers(partie, previous_dealer, rules.seats),
                                  replay.record.deals[deal.index].annulled_dealers,
                                  lambda seat: passed_on(seat, rules.seats, options.players))  # noqa: B023
        previous_dealer = rules.dealer
        _score_deal(partie, deal, rules, options, deals)
        wrong = check_dealer(deal.index, rules.dealer, allowed)
        if wrong is not None:
            deals[-1] = DealScore(deals[-1].scores, deals[-1].result, (wrong, *deals[-1].violations))
        adjustments(deal.index)
    detail = {"manches": partie.manches, "current_manche": list(partie.manche_points),
              "target": partie.goal, "withdrawn": partie.withdrawn,
              "manches_won": partie.manches_won if options.liee else None}
    following = next_dealers(partie, previous_dealer, playing_seats(partie))
    return MatchScore(deals, partie.totals, partie.winner, partie.ended, detail,
                      [outcomes[a.index] for a in sorted(replay.record.adjustments, key=lambda a: a.index)],
                      tuple(problems), None if following is None else tuple(following))


def playing_seats(partie: _Partie) -> tuple[int, ...]:
    """The seats that play the next deal: at three, those that have not withdrawn (§3.6 rule 25)."""
    players = partie.options.players
    return tuple(s for s in range(players) if players != 3 or s not in partie.withdrawn)


def _score_deal(partie: _Partie, deal: DealReplay, rules: EcarteDeal, options: EcarteOptions,
                deals: list[DealScore]) -> None:
    """Score one deal of the partie (its marks applied in order), appending its DealScore."""
    if options.players == 3:
        expected = playing_seats(partie)
        if rules.seats != expected:
            deals.append(DealScore(None, {"reason": "wrong_seats", "marks": []},
                                   (Violation("ecarte_wrong_seats", deal.index, None, None, None,
                                              {"seats": ", ".join(str(s + 1) for s in expected)}),)))
            return
    if deal.violations:
        deals.append(DealScore(None, {"reason": "violations", "marks": []}))
        return
    play, found = play_of(deal, rules, options)
    if play is None:
        deals.append(DealScore(None, {"reason": "impossible_summary", "marks": []}, tuple(found)))
        return
    partie.start_deal(deal)
    marks, king = start_marks(deal, options)
    complete = play.complete
    if complete:
        marks += end_marks(play, rules, options)
    before = list(partie.totals)
    interrupted = False
    for k, mark in enumerate(marks):
        if interrupted:
            mark["counted"] = False
            continue
        mark["counted"] = True
        if partie.apply(mark, deal.index, k) and mark["phase"] == "start":
            interrupted = True
    result: dict[str, Any] = {"marks": marks, "tricks_won": list(play.won), "source": play.source,
                              "exchanged": rules.exchanged, "declined_by": rules.decliner}
    if king is not None:
        result["king"] = king
    if complete or interrupted:
        deals.append(DealScore([a - b for a, b in zip(partie.totals, before, strict=True)], result, tuple(found)))
    else:
        # unfinished: nothing of it counts (the start marks are taken back)
        for mark in marks:
            if mark["counted"]:
                for seat in mark["seats"]:
                    partie.totals[seat] -= mark["points"]
                    partie.manche_points[seat] -= mark["points"]
                mark["counted"] = False
        deals.append(DealScore(None, {**result, "reason": "unfinished"}, tuple(found)))


register({
    # the same code and text as the other games (scoring/jetons.py)
    "match_over": {
        "fr": "La partie était déjà terminée : cette donne ne compte pas.",
        "en": "The match was already over: this deal does not count.",
    },
    "summary_first_to_two": {
        "fr": "Le résumé donne {who} premier à deux plis, mais il n'en a fait que {count}.",
        "en": "The summary has {who} first to two tricks, but they won only {count}.",
    },
    "summary_first_to_two_missing": {
        "fr": "Avec deux plis, deux plis et un pli, le point va au premier qui a fait deux plis : le résumé doit "
              "le dire.",
        "en": "With two, two and one tricks the point goes to the first to reach two tricks: the summary must "
              "say who.",
    },
    "ecarte_wrong_seats": {
        "fr": "Cette donne doit être jouée par les joueurs {seats} (à trois, le premier à atteindre le but "
              "se retire).",
        "en": "This deal must be played by players {seats} (at three, the first to reach the target withdraws).",
    },
})


explain = explain_marks
"""A deal's result for people: every mark in the order it was scored (:func:`scoring.explain.explain_marks`)."""


def renonce_let_stand(scores: list[int], marks: list[dict[str, Any]], offender: int) -> list[int]:
    """The marks of a deal with a renonce that the adversary lets stand (RULES.md §3.5 rule 20, CAV law 43).

    The offender (``offender``, a seat) who wins the point marks nothing for it; with the vole he marks 1; with
    the point after the adversary played without proposing or refused the first proposal (the point de refus),
    only 1: his marks from the tricks are one less. A deal the offender does not win is scored as played; the
    king's mark, scored before the first trick, stays.
    """
    out = list(scores)
    won = next((m for m in marks if m.get("kind") == "point" and offender in m.get("seats", ())
                and m.get("counted", True)), None)
    if won is None:
        return out
    for seat in won["seats"]:
        out[seat] -= 1
    return out
