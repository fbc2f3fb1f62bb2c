"""Scoring La Triomphe (RULES.md §2.4, A-R4..A-R6): the point, the vole, the vole engagée, the
abandon du point, and the match to its target.

A deal gives at most one mark (``result["marks"]``, one item), to one party (a player, or every
member of a team alike):

* ``point`` (+1): most tricks, ties broken by primauté (the tied player nearest the first hand);
  also the party that won the first three tricks and laid its cards down (``stopped``);
* ``vole`` (+2): every trick (the party was committed after leading to the fourth trick);
* ``vole_failed`` (−2): the committed party — or the party that refused an abandon du point —
  lost a trick; nobody else scores (A-R5, §2.4 rule 13);
* ``abandon`` (+1): the point conceded and accepted, to the accepting party.

Scores are points per seat; with teams each member carries the team's points, so the match
totals of partners are equal. The match ends at the end of the deal in which a party reaches
the target (``MatchScore.ended`` names that deal and its mark); deals recorded after it are
violations and are not scored.
"""

from __future__ import annotations

from typing import Any

from rules.errors import Violation
from rules.messages import register
from rules.replay import DealReplay, Replay
from rules.triomphe import TriompheDeal, TriompheOptions

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

VOLE_THRESHOLD = 3
"""Tricks that make the point sure while nobody else has one (A-R4): leading to the next commits."""


def _mark(kind: str, side: tuple[int, ...], points: int, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "seats": list(side), "points": points, **extra}


def score_deal(deal: DealReplay, options: TriompheOptions) -> DealScore:
    """The mark of one deal (its scores per seat), or no score with the reason."""
    rules: TriompheDeal = deal.rules  # type: ignore[assignment]
    players = options.players
    sides = options.sides
    side_of = [options.side_of(seat) for seat in range(players)]
    tricks_by = [side_of[t.winner] for t in deal.tricks if t.winner is not None]
    won = [tricks_by.count(s) for s in range(len(sides))]
    result: dict[str, Any] = {"tricks": won, "sides": [list(s) for s in sides], "marks": []}
    if deal.violations:
        return DealScore(None, {**result, "reason": "violations"})
    violations: list[Violation] = []
    mark = None
    abandon = rules.abandon
    played = len(deal.tricks) + (1 if deal.unfinished else 0)
    if abandon is not None and not options.two_parties:
        violations.append(Violation("abandon_not_allowed", deal.index, None, abandon.by))
    elif abandon is not None and abandon.accepted:
        if played > 1:
            violations.append(Violation("play_after_abandon", deal.index, 1, None))
        other = 1 - side_of[abandon.by]
        mark = _mark("abandon", sides[other], 1, conceded_by=list(sides[side_of[abandon.by]]))
    elif abandon is not None:
        refuser = 1 - side_of[abandon.by]
        if rules.stopped:
            violations.append(Violation("stop_not_allowed", deal.index, len(deal.tricks), abandon.by))
        lost = next((i for i, s in enumerate(tricks_by) if s != refuser), None)
        if lost is not None:
            mark = _mark("vole_failed", sides[refuser], -2, trick=lost, refused_abandon=True)
        elif deal.complete:
            mark = _mark("vole", sides[refuser], 2, refused_abandon=True)
    elif rules.stopped:
        if len(deal.tricks) == VOLE_THRESHOLD and deal.unfinished is None and len(set(tricks_by)) == 1:
            mark = _mark("point", sides[tricks_by[0]], 1, stopped=True)
        else:
            violations.append(Violation("stop_not_allowed", deal.index, len(deal.tricks), None))
    elif len(tricks_by) >= VOLE_THRESHOLD and len(set(tricks_by[:VOLE_THRESHOLD])) == 1 and played > VOLE_THRESHOLD:
        engaged = tricks_by[0]
        lost = next((i for i, s in enumerate(tricks_by) if s != engaged), None)
        if lost is not None:
            mark = _mark("vole_failed", sides[engaged], -2, trick=lost)
        elif deal.complete:
            mark = _mark("vole", sides[engaged], 2)
    elif deal.complete:
        best = max(won)
        # primauté: the tied party whose seat comes first from the first hand
        winner = next(side_of[seat] for seat in rules.primaute if won[side_of[seat]] == best)
        mark = _mark("point", sides[winner], 1, tie=won.count(best) > 1)
    if violations:
        return DealScore(None, {**result, "reason": "violations"}, tuple(violations))
    if mark is None:
        return DealScore(None, {**result, "reason": "unfinished"})
    scores = [0] * players
    for seat in mark["seats"]:
        scores[seat] += mark["points"]
    result["marks"] = [mark]
    return DealScore(scores, result)


def score_match(replay: Replay) -> MatchScore:
    """The deals' marks, the arbiter's adjustments, the running totals, and the match's end at the target.

    An adjustment event (``record.adjustments``) counts its points toward the target where it stands: the
    end is checked at the end of each deal, after the adjustments that follow it (§2.4 rule 14: the game
    ends at the end of the deal in which a party reaches the target; a penalty given before the next deal
    is given at the end of that deal), and after the adjustments placed before the first deal. Parties
    that reach the target together with equal totals (possible only through an adjustment) are not
    separated by any text: ``adjustment_tie``, the arbiter rules otherwise.
    """
    record = replay.record
    options: TriompheOptions = record.options
    goal = options.goal
    sides = [tuple(side) for side in options.sides]
    totals = [0] * options.players
    deals: list[DealScore] = []
    ended: dict[str, int] | None = None
    winner: int | list[int] | None = None
    events = adjustments_after(record)
    outcomes: dict[int, dict[str, Any]] = {}
    problems: list[Violation] = []

    def end_of(after: int, deal_mark: bool) -> None:
        nonlocal ended, winner
        before = list(totals)
        applied = []
        for adj in events.get(after, ()):
            if ended is not None:
                outcomes[adj.index] = outcome(adj, False)
                problems.append(after_end(adj))
                continue
            for side, points in party_points(adj, sides):
                for seat in side:
                    totals[seat] += points
            outcomes[adj.index] = outcome(adj, True, totals=list(totals))
            applied.append(adj)
        if ended is not None:
            return
        top = leaders(totals, sides, goal)
        if len(top) > 1:
            if applied:  # (otherwise already reported where the tie arose)
                problems.append(tie_at_target(applied[-1], [side[0] for side in top]))
        elif top:
            side = top[0]
            by_deal = deal_mark and (not applied or leaders(before, sides, goal) == top)
            ended = {"deal": after, "event": 0} if by_deal else {"deal": after, "adjustment": applied[-1].index}
            winner = side[0] if len(side) == 1 else list(side)

    end_of(-1, False)
    for deal in replay.deals:
        if ended is not None:
            deals.append(DealScore(None, {"reason": "after_end", "marks": []},
                                   (Violation("match_over", deal.index, None, None),)))
            end_of(deal.index, False)
            continue
        scored = score_deal(deal, options)
        deals.append(scored)
        if scored.scores is not None:
            totals = [t + s for t, s in zip(totals, scored.scores, strict=True)]
        end_of(deal.index, scored.scores is not None)
    return MatchScore(deals, totals, winner, ended, {"target": goal, "sides": [list(s) for s in options.sides]},
                      [outcomes[a.index] for a in sorted(record.adjustments, key=lambda a: a.index)],
                      tuple(problems))


register({
    # the same code and text as the other games (scoring/jetons.py)
    "match_over": {
        "fr": "La partie était déjà terminée : cette donne ne compte pas.",
        "en": "The match was already over: this deal does not count.",
    },
})
