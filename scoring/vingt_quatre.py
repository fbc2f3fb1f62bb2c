"""Scoring Le Vingt-quatre (RULES.md §5, A-V1 … A-V5).

Five ways to score, 1 jeton (4 points) each, applied in the precedence of §5 rule 5:

1. la retourne: the dealer, if the virade is an honour;
2. la séquence: the holder of the best sequence (most cards, then highest top card, then trump,
   then primauté) scores 1 jeton for **each** sequence in his hand (A-V1, A-V2); nobody else;
3. le Point: most cards in one suit, then value (As 1, figures 10), then primauté; 1 jeton;
4. the honours, trick by trick: the trick's winner scores 1 jeton per honour in it;
5. la carte: most tricks, ties to primauté; 1 jeton.

The first seat to reach ``target`` points (24 = 6 jetons) wins the partie **at once**: the marks
after that one are not applied. With ``parties`` > 1 a new partie starts with the next deal
(fresh jetons); the match ends when the last partie is won, and its winner is the seat that won
the most parties (None on a tie). ``MatchScore.ended`` names the deal and mark of that end.

Units: a deal's ``scores`` are the **jetons** each seat scored in it; ``totals`` are their sums
over the match; ``detail`` holds the parties won and the jetons of the partie in progress.
The next dealer is the previous first hand (dealer + 1), checked within a partie.
"""

from __future__ import annotations

from typing import Any

from rules.cards import BIT, format_card
from rules.errors import Violation
from rules.replay import DealReplay, Replay
from rules.vingt_quatre import VingtQuatreDeal, VingtQuatreOptions, best_sequence

from .base import DealScore, MatchScore, adjustments_after, after_end, outcome, tie_at_target
from .explain import explain_marks
from .jetons import Tally, deal_after_match_end, dealer_violations
from .summary import PlayFacts, check_honours, check_tricks, facts_from_tricks, honours_play_facts


def _new_partie(n: int, options: VingtQuatreOptions) -> Tally:
    return Tally(n, target=1, fiche_at=options.target // 4, wipe=False)


def _partie_end(tally: Tally) -> list[int]:
    """Every seat's jetons at the end of the partie ``tally`` has just seen won (§5 rule 4: at once, at 24 points):
    the winner's whole count, not the tally's rest once his six became the partie (« Bruno 6 », not « Bruno 0 »
    beside the others' counts); the mark that won it says so (``after.partie_end``). The next partie starts from
    nothing (a new tally)."""
    assert tally.winner is not None
    jetons = list(tally.jetons)
    jetons[tally.winner] += tally.fiches[tally.winner] * tally.fiche_at
    for mark in tally.marks:
        if mark.get("reaches_target"):
            mark["after"] = {**mark["after"], "jetons": jetons, "partie_end": True}
    return jetons


def score_match(replay: Replay) -> MatchScore:
    """Score every deal of a Vingt-quatre record, in order, to the end of the match."""
    record = replay.record
    options: VingtQuatreOptions = record.options
    n = len(record.players)
    tally = _new_partie(n, options)
    parties_won = [0] * n
    deals: list[DealScore] = []
    totals = [0] * n
    ended = None
    previous_dealer: int | None = None
    events = adjustments_after(record)
    outcomes: dict[int, dict[str, Any]] = {}
    problems: list[Violation] = []

    def adjustments(after: int) -> None:
        nonlocal ended, tally, previous_dealer, totals
        for adj in events.get(after, ()):
            if ended is not None:
                outcomes[adj.index] = outcome(adj, False)
                problems.append(after_end(adj))
                continue
            top = tally.adjust(adj.points, unit="jetons", reason=adj.reason, rule=adj.rule)
            totals = [a + b for a, b in zip(totals, adj.points, strict=True)]
            extra: dict[str, Any] = {"marks": tally.marks, "jetons": list(tally.jetons)}
            if len(top) > 1:
                problems.append(tie_at_target(adj, top, record.players))
            if tally.ended:
                assert tally.winner is not None
                extra["jetons"] = _partie_end(tally)
                parties_won[tally.winner] += 1
                extra["partie_won_by"] = tally.winner
                if sum(parties_won) >= options.parties:
                    ended = {"deal": after, "adjustment": adj.index}
                tally = _new_partie(n, options)
                previous_dealer = None
            outcomes[adj.index] = outcome(adj, True, **extra)

    adjustments(-1)
    for i, deal in enumerate(replay.deals):
        rules: VingtQuatreDeal = deal.rules  # type: ignore[assignment]
        if ended is not None:
            deals.append(deal_after_match_end(i))
            adjustments(i)
            continue
        violations = dealer_violations(i, rules.dealer, previous_dealer, n,
                                       record.deals[i].annulled_dealers)
        previous_dealer = rules.dealer
        facts, found = play_facts(deal, rules)
        violations += found
        if facts is None:
            deals.append(DealScore(None, {"status": "impossible_summary", "marks": []}, tuple(violations)))
            adjustments(i)
            continue
        result = score_deal(tally, deal, rules, facts)
        result["partie"] = sum(parties_won) + 1
        gained = [0] * n
        for mark in tally.marks:
            gained[mark["seat"]] += mark["jetons"]
        if tally.ended:
            assert tally.winner is not None
            parties_won[tally.winner] += 1
            result["partie_won_by"] = tally.winner
            if sum(parties_won) >= options.parties:
                ended = {"deal": i, "event": len(tally.marks) - 1}
            tally = _new_partie(n, options)
            previous_dealer = None
        scores = None if result["status"] == "unfinished" else gained
        if scores is not None:
            totals = [a + b for a, b in zip(totals, scores, strict=True)]
        deals.append(DealScore(scores, result, tuple(violations)))
        adjustments(i)
    winner = None
    if ended is not None:
        best = max(parties_won)
        leaders = [s for s in range(n) if parties_won[s] == best]
        winner = leaders[0] if len(leaders) == 1 else None
    detail = {"parties_won": parties_won, "jetons": list(tally.jetons), "parties": options.parties,
              "target": options.target}
    # the previous first hand (§5 rule 5); a new partie: None, the draw (no text says who deals it)
    following = None if previous_dealer is None else ((previous_dealer + 1) % n,)
    return MatchScore(deals, totals, winner, ended, detail,
                      [outcomes[a.index] for a in sorted(record.adjustments, key=lambda a: a.index)],
                      tuple(problems), following)


def play_facts(deal: DealReplay, rules: VingtQuatreDeal) -> tuple[PlayFacts | None, list[Violation]]:
    """What the deal's play gave: from its tricks, or from its summary when the tricks are not complete (None,
    with the violations, when that summary cannot be true). A summary beside complete tricks is checked
    against them."""
    return honours_play_facts(deal, rules.summary, rules.honours, len(rules.seats), rules.tricks_per_deal,
                              lambda: check_summary(deal, rules))


def check_summary(deal: DealReplay, rules: VingtQuatreDeal) -> list[Violation]:
    """What in a Vingt-quatre summary cannot be true: as many tricks as a deal holds, honours of this deal's
    trump (and convention) each taken once by a seat that won a trick, never the virade (in no hand), and with
    the hands none of the honours dealt left out."""
    summary = rules.summary
    assert summary is not None
    out = check_tricks(summary, deal.index, expected=rules.tricks_per_deal, playing=rules.seats)
    played = None
    if deal.start is not None:
        played = 0
        for hand in deal.start:
            played |= hand
    return out + check_honours(summary, deal.index, honours=rules.honours, played=played,
                               unplayed=BIT[rules.turn_up])


def score_deal(tally: Tally, deal: DealReplay, rules: VingtQuatreDeal,
               facts: PlayFacts | None = None) -> dict[str, Any]:
    """Apply one deal's marks to the partie's tally (``facts``: from :func:`play_facts`); the deal's ``result``."""
    if facts is None:
        facts = facts_from_tricks(deal, len(rules.seats), rules.honours)
    tally.begin_deal()
    result: dict[str, Any] = {"dealer": rules.dealer, "turn_up": format_card(rules.turn_up),
                              "honours": rules.honours_convention, "marks": tally.marks, "source": facts.source}
    _marks(tally, deal, facts, rules, result)
    result.setdefault("status", "complete")
    result["jetons"] = list(tally.jetons)
    if tally.ended:
        result["status"] = "partie_ended"
        result["jetons"] = _partie_end(tally)
    return result


def _marks(tally: Tally, deal: DealReplay, facts: PlayFacts, rules: VingtQuatreDeal, result: dict[str, Any]) -> None:
    # 1. la retourne
    if rules.retourne_is_honour and tally.add_jetons(rules.dealer, 1, "retourne", card=format_card(rules.turn_up)):
        return
    # 2. la séquence
    runs = rules.sequences(deal.dealt)
    best = best_sequence(runs, rules.primaute, rules.trump)
    if best is not None:
        mine = [run for run in runs if run.seat == best.seat]
        result["sequence"] = {"best": best.to_json(), "count": len(mine)}
        if tally.add_jetons(best.seat, len(mine), "sequences", sequences=[r.to_json() for r in mine]):
            return
    # 3. le Point
    ann = rules.announcements
    if ann.point_recorded and ann.point is None:
        point = None
    elif deal.dealt is not None:
        point = rules.true_point(deal.dealt)
    else:
        point = ann.point
    result["point"] = point.to_json() if point else None
    if point is not None and tally.add_jetons(point.seat, 1, "point", count=point.count, value=point.value):
        return
    # 4. honours, trick by trick (or in the order of the summary)
    for index, seat, cards in facts.honours:
        if tally.add_jetons(seat, len(cards), "honours", trick=index, cards=[format_card(c) for c in cards]):
            return
    if not facts.complete:
        result["status"] = "unfinished"
        return
    # 5. la carte
    won = list(facts.tricks_won)
    result["tricks_won"] = won
    most = max(won)
    seat = next(s for s in rules.primaute if won[s] == most)
    tally.add_jetons(seat, 1, "carte", tricks=most)


def explain(result: Any, players: Any, lang: str = "fr") -> Any:
    """A deal's result for people: every mark in the order it was scored, in Le Vingt-quatre's words (jetons, a
    partie won; never L'Impériale's fiches) (:func:`scoring.explain.explain_marks`)."""
    return explain_marks(result, players, lang, parties=True)
