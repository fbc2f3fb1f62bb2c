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

from collections.abc import Sequence
from typing import Any

from rules.errors import Violation
from rules.messages import register
from rules.replay import DealReplay, Replay
from rules.summary import TricksSummary
from rules.triomphe import TRICKS, TriompheDeal, TriompheOptions

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
from .summary import check_tricks, compare, facts_from_tricks, mismatch

VOLE_THRESHOLD = 3
"""Tricks that make the point sure while nobody else has one (A-R4): leading to the next commits."""


def _mark(kind: str, side: tuple[int, ...], points: int, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "seats": list(side), "points": points, **extra}


def score_deal(deal: DealReplay, options: TriompheOptions) -> DealScore:
    """The mark of one deal (its scores per seat), or no score with the reason: from the tricks, or from the
    summary when the tricks are not complete."""
    rules: TriompheDeal = deal.rules  # type: ignore[assignment]
    side_of = [options.side_of(seat) for seat in range(options.players)]
    tricks_by = [side_of[t.winner] for t in deal.tricks if t.winner is not None]
    summary = rules.summary
    if summary is None or ((deal.tricks or deal.unfinished) and deal.complete):
        played = len(deal.tricks) + (1 if deal.unfinished else 0)
        scored = _score(deal, rules, options, tricks_by, played, deal.complete, "tricks")
        if summary is None:
            return scored
        found = check_summary(rules, options, deal.index) + _compare(summary, tricks_by, deal, options)
        return DealScore(scored.scores, scored.result, scored.violations + tuple(found))
    found = check_summary(rules, options, deal.index)
    if found:
        return DealScore(None, {"reason": "impossible_summary", "marks": []}, tuple(found))
    order = summary_order(side_totals(summary, options), summary.engaged, rules, options)
    scored = _score(deal, rules, options, order, len(order), len(order) == TRICKS, "summary")
    if scored.scores is None and not scored.violations and scored.result.get("reason") == "unfinished":
        problem = Violation("summary_incomplete", deal.index, params={"count": len(order), "expected": TRICKS})
        return DealScore(None, {**scored.result, "reason": "impossible_summary"}, (problem,))
    return scored


def side_totals(summary: TricksSummary, options: TriompheOptions) -> list[int]:
    """The tricks of each side from a summary given per seat or per side."""
    if summary.by_side:
        return list(summary.tricks)
    return [sum(summary.tricks[seat] for seat in side) for side in options.sides]


def summary_order(won: list[int], engaged: bool, rules: TriompheDeal, options: TriompheOptions) -> list[int]:
    """An order of the tricks (the side that won each) that a summary stands for: its marks depend only on
    the counts, on whether one side won the first three and led to the fourth (the vole engagée, or a vole),
    and, after a refused abandon, on whether the refusing side lost a trick."""
    sides = range(len(won))
    top = max(sides, key=lambda s: won[s])
    if engaged or won[top] == TRICKS:
        return [top] * min(won[top], 3) + [s for s in sides if s != top for _ in range(won[s])] \
            + [top] * max(won[top] - 3, 0)
    abandon = rules.abandon
    if abandon is not None and not abandon.accepted:
        refuser = 1 - options.side_of(abandon.by)
        return [refuser] * won[refuser] + [s for s in sides if s != refuser for _ in range(won[s])]
    order = [s for s in sides for _ in range(won[s])]
    if len(order) > 3 and len(set(order[:3])) == 1:  # not engaged: another side won one of the first three
        other = next(i for i, s in enumerate(order) if s != order[0])
        order.insert(2, order.pop(other))
    return order


def check_summary(rules: TriompheDeal, options: TriompheOptions, deal: int) -> list[Violation]:
    """What in a Triomphe summary cannot be true: more than five tricks, a vole engagée without a side that
    won the first three."""
    summary = rules.summary
    assert summary is not None
    out = check_tricks(summary, deal, expected=TRICKS, playing=rules.seats, exact=False)
    won = side_totals(summary, options)
    if summary.engaged and max(won) < VOLE_THRESHOLD:
        out.append(Violation("summary_engaged", deal, params={"most": max(won)}))
    return out


def _compare(summary: TricksSummary, tricks_by: list[int], deal: DealReplay,
             options: TriompheOptions) -> list[Violation]:
    """The summary against complete tricks: the tricks won (per seat or per side, as given), the vole engagée."""
    per_seat = deal.tricks_won(options.players)
    actual = [tricks_by.count(s) for s in range(len(options.sides))] if summary.by_side else per_seat
    engaged = len(set(tricks_by[:VOLE_THRESHOLD])) == 1 and len(tricks_by) > VOLE_THRESHOLD
    out = compare(summary, facts_from_tricks(deal, options.players), deal.index, tricks=actual)
    if summary.engaged != engaged and not (engaged and tricks_by.count(tricks_by[0]) == TRICKS):
        out.append(mismatch(deal.index, "engaged", summary.engaged, engaged))
    return out


def _score(deal: DealReplay, rules: TriompheDeal, options: TriompheOptions, tricks_by: list[int], played: int,
           complete: bool, source: str) -> DealScore:
    """The mark from the order of the tricks won (each trick's winning side)."""
    sides = options.sides
    won = [tricks_by.count(s) for s in range(len(sides))]
    side_of = [options.side_of(seat) for seat in range(options.players)]
    players = options.players
    result: dict[str, Any] = {"tricks": won, "sides": [list(s) for s in sides], "marks": [], "source": source}
    if deal.violations:
        return DealScore(None, {**result, "reason": "violations"})
    violations: list[Violation] = []
    mark = None
    abandon = rules.abandon
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
            violations.append(Violation("stop_not_allowed", deal.index, len(tricks_by), abandon.by))
        lost = next((i for i, s in enumerate(tricks_by) if s != refuser), None)
        if lost is not None:
            mark = _mark("vole_failed", sides[refuser], -2, trick=lost if source == "tricks" else None,
                         refused_abandon=True)
        elif complete:
            mark = _mark("vole", sides[refuser], 2, refused_abandon=True)
    elif rules.stopped:
        if played == VOLE_THRESHOLD == len(tricks_by) and len(set(tricks_by)) == 1:
            mark = _mark("point", sides[tricks_by[0]], 1, stopped=True)
        else:
            violations.append(Violation("stop_not_allowed", deal.index, len(tricks_by), None))
    elif len(tricks_by) >= VOLE_THRESHOLD and len(set(tricks_by[:VOLE_THRESHOLD])) == 1 and played > VOLE_THRESHOLD:
        engaged = tricks_by[0]
        lost = next((i for i, s in enumerate(tricks_by) if s != engaged), None)
        if lost is not None:
            mark = _mark("vole_failed", sides[engaged], -2, trick=lost if source == "tricks" else None)
        elif complete:
            mark = _mark("vole", sides[engaged], 2)
    elif complete:
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


class DealerRotation:
    """Who deals next (§2.2 rule 6). Individual game: the previous first hand (the dealer's right). Team game:
    the teams alternate, each always dealing through the same player: not « the next first hand ». The first
    deal follows the draw, which the record does not hold: its dealer is taken as given. The other team's
    player is, with partners seated together (each team a block in the order of play), the one nearest the
    first team, whose right-hand neighbour — the first hand — is an opponent (the seed's example at six: C
    deals and D leads, then F deals and A leads; C and F alternate); with other seatings, any of its players,
    then always the same."""

    def __init__(self, options: TriompheOptions) -> None:
        self.options = options
        self.previous: int | None = None
        self.by_side: dict[int, int] = {}
        teams = options.teams
        players = options.players
        self.blocks = teams is not None and all(
            sum(1 for seat in team if (seat + 1) % players not in team) == 1 for team in teams)

    def after(self, previous: int | None) -> list[int] | None:
        """The seats that may deal after a deal dealt by ``previous`` (None: anybody, the first deal follows the
        draw)."""
        if previous is None:
            return None  # the draw decides the first dealer
        options = self.options
        if options.teams is None:  # the previous first hand, as at L'Impériale
            return [(previous + 1) % options.players]
        side = 1 - options.side_of(previous)  # the teams alternate
        if side in self.by_side:
            return [self.by_side[side]]
        team = options.sides[side]
        if self.blocks:
            return [seat for seat in team if (seat + 1) % options.players not in team]
        return list(team)

    def expected(self) -> list[int] | None:
        """The seats that may deal the next deal (None: any, for the first deal)."""
        return self.after(self.previous)

    def check(self, index: int, dealer: int, annulled: Sequence[int] = ()) -> Violation | None:
        """``wrong_dealer`` when ``dealer`` may not deal deal ``index`` (after the annulled deals dealt by
        ``annulled`` since the previous one: ``scoring.rotation``); then remember who dealt."""
        allowed = allowed_dealers(self.expected(), annulled, lambda seat: self.after(seat) or [])
        self.previous = dealer
        if self.options.teams is not None:
            self.by_side.setdefault(self.options.side_of(dealer), dealer)
        return check_dealer(index, dealer, allowed)


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
                problems.append(tie_at_target(applied[-1], [side[0] for side in top], record.players))
        elif top:
            side = top[0]
            by_deal = deal_mark and (not applied or leaders(before, sides, goal) == top)
            ended = {"deal": after, "event": 0} if by_deal else {"deal": after, "adjustment": applied[-1].index}
            winner = side[0] if len(side) == 1 else list(side)

    end_of(-1, False)
    rotation = DealerRotation(options)
    for deal in replay.deals:
        if ended is not None:
            deals.append(DealScore(None, {"reason": "after_end", "marks": []},
                                   (Violation("match_over", deal.index, None, None),)))
            end_of(deal.index, False)
            continue
        scored = score_deal(deal, options)
        wrong = rotation.check(deal.index, deal.rules.dealer,  # type: ignore[attr-defined]
                               record.deals[deal.index].annulled_dealers)
        if wrong is not None:
            scored = DealScore(scored.scores, scored.result, (wrong, *scored.violations))
        deals.append(scored)
        if scored.scores is not None:
            totals = [t + s for t, s in zip(totals, scored.scores, strict=True)]
        end_of(deal.index, scored.scores is not None)
    following = rotation.expected()
    return MatchScore(deals, totals, winner, ended, {"target": goal, "sides": [list(s) for s in options.sides]},
                      [outcomes[a.index] for a in sorted(record.adjustments, key=lambda a: a.index)],
                      tuple(problems), None if following is None else tuple(following))


register({
    "summary_engaged": {
        "fr": "Vole engagée impossible : aucun camp n'a fait les trois premières levées (au plus {most} pli(s) "
              "dans le résumé).",
        "en": "Impossible vole engagée: no side won the first three tricks (at most {most} in the summary).",
    },
    "summary_incomplete": {
        "fr": "Le résumé compte {count} plis sur {expected} : la donne n'est pas finie (ni vole engagée perdue, "
              "ni point abandonné, ni cartes baissées).",
        "en": "The summary counts {count} tricks of {expected}: the deal is not over (no vole engagée lost, no "
              "point conceded, no cards laid down).",
    },
    # the same code and text as the other games (scoring/jetons.py)
    "match_over": {
        "fr": "La partie était déjà terminée : cette donne ne compte pas.",
        "en": "The match was already over: this deal does not count.",
    },
})


explain = explain_marks
"""A deal's result for people: every mark in the order it was scored (:func:`scoring.explain.explain_marks`)."""
