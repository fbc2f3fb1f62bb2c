"""Scoring L'Impériale (RULES.md §4.2–4.3, A-I1 … A-I11).

Every mark is applied in the chronology of §4.3 rule 15, one at a time, through a
:class:`~scoring.jetons.Tally`:

1. the retourne jeton (dealer, if the retourne is an honour);
2. for each seat in primauté: cartes blanches (2 fiches), impériales en main shown (quatrième
   majeure 1, in trump 2; carré 1), and for the dealer the impériale de retourne (option, 1);
   the dealer's retourne jeton of this deal survives these erasures (rule 14, A-I2) unless
   ``strict_auj_chronology``;
3. the Point (1 jeton) — not counted when the deal is not played (cartes blanches);
4. the honours, trick by trick: the winner of a trick scores 1 jeton per honour in it;
5. the impériale tombée (option; not for a seat that scored the trump quatrième majeure en main
   in the same deal, A-I7);
6. les cartes (1 jeton per trick above 6 at 2 players, above 4 at 3, in primauté order) or the
   capote (2 fiches instead).

With ``parlett_order`` (A-I1) the tombée comes before the honours, and the optional impériales
and cartes blanches erase nothing. With ``penalty_imperiale`` (A-I10) a seat that failed to take
when able (AUJ rule X) and a dealer who misdealt (rule IV) lose one fiche at the end of the deal
— or, having none, each opponent scores one (without erasing).

Each new impériale erases the opponents' jetons (rule 13); 6 jetons make a fiche, the excess
kept (A-I11). The match ends **at the mark** that brings a seat to ``target`` fiches:
``MatchScore.ended = {"deal": i, "event": k}`` with k the index of that mark in the deal's
``result["marks"]``; marks after it are not applied, deals after it get no score. An adjustment ruling on a fault
made in the deal that ended the match (``in_deal``) counts before that deal's marks, and the end is judged with
it in place (docs/deal-record.md, "A fault in the deal that ended the match").

Units: a deal's ``scores`` are the **fiches gained** in the deal by each seat (jetons are not a
stable quantity: an erasure can take them away); ``totals`` are the fiches at the end. The
jetons are in each deal's ``result`` and in ``detail``.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.cards import ACE, BIT, JACK, KING, QUEEN, card, format_card, mask_of
from rules.errors import Violation
from rules.imperiale import ImperialeDeal, ImperialeOptions, PointClaim
from rules.replay import DealReplay, Replay

from .base import DealScore, MatchScore, adjustments_after, after_end, outcome, tie_at_target
from .explain import explain_marks
from .jetons import Tally, deal_after_match_end, dealer_violations
from .summary import PlayFacts, check_honours, check_tricks, facts_from_tricks, honours_play_facts

FAILED_TO_TAKE = frozenset({"must_follow_higher", "must_trump", "must_overtrump", "must_go_higher",
                            "revoke_trump", "revoke_overtrump"})
"""Rule codes meaning « could take the card played and did not » (AUJ rule X)."""
MISDEAL = frozenset({"wrong_hand_size", "wrong_talon_size", "duplicate_card", "card_not_in_pack",
                     "turn_up_in_hand", "turn_up_not_with_dealer"})
"""Rule codes meaning a misdeal (AUJ rule IV, charged to the dealer)."""


def score_match(replay: Replay) -> MatchScore:
    """Score every deal of an Impériale record, in order, to the end of the match."""
    record = replay.record
    options: ImperialeOptions = record.options
    n = len(record.players)
    tally = Tally(n, target=options.target)
    deals: list[DealScore] = []
    ended = None
    previous_dealer: int | None = None
    events = adjustments_after(record)
    outcomes: dict[int, dict[str, Any]] = {}
    problems: list[Violation] = []

    def adjustments(after: int, only: bool | None = None) -> None:
        """The adjustments after deal ``after`` (``only``: those ruling on a fault in it, True, or the others)."""
        nonlocal ended
        for adj in events.get(after, ()):
            if only is not None and adj.in_deal != only:
                continue
            if tally.ended:
                outcomes[adj.index] = outcome(adj, False)
                problems.append(after_end(adj))
                continue
            top = tally.adjust(adj.points, unit="fiches", reason=adj.reason, rule=adj.rule)
            outcomes[adj.index] = outcome(adj, True, marks=tally.marks,
                                          fiches=list(tally.fiches), jetons=list(tally.jetons))
            if len(top) > 1:
                problems.append(tie_at_target(adj, top, record.players))
            if tally.ended and ended is None:
                ended = {"deal": after, "adjustment": adj.index}

    adjustments(-1)
    for i, deal in enumerate(replay.deals):
        rules: ImperialeDeal = deal.rules  # type: ignore[assignment]
        if tally.ended:
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
        faults = any(adj.in_deal for adj in events.get(i, ()))
        saved = copy.deepcopy(tally) if faults else None
        before = list(tally.fiches)
        result = score_deal(tally, deal, rules, options, facts)
        if saved is not None and tally.ended:
            # the deal ended the match and a fault made in it is ruled on: the penalty counts before the deal's
            # marks, and the end is judged with it in place (docs/deal-record.md, "A fault in the deal that ended
            # the match")
            tally.__dict__.update(saved.__dict__)
            adjustments(i, only=True)
            if tally.ended:  # the penalty itself brings a seat to the target: the deal's marks come after the end
                deals.append(DealScore([0] * n, {"status": "match_ended", "marks": [], "dealer": rules.dealer,
                                                 "ended_at_fault": True}, tuple(violations)))
                adjustments(i, only=False)
                continue
            before = list(tally.fiches)
            result = score_deal(tally, deal, rules, options, facts)
            faults = False
        if tally.ended and ended is None:
            ended = {"deal": i, "event": len(tally.marks) - 1}
        scores = None if result["status"] == "unfinished" else [a - b for a, b in zip(tally.fiches, before,
                                                                                         strict=True)]
        deals.append(DealScore(scores, result, tuple(violations)))
        adjustments(i, only=None if faults else False)
    following = None if previous_dealer is None else ((previous_dealer + 1) % n,)  # the previous first hand
    return MatchScore(deals, list(tally.fiches), tally.winner, ended,
                      {"fiches": list(tally.fiches), "jetons": list(tally.jetons), "target": options.target},
                      [outcomes[a.index] for a in sorted(record.adjustments, key=lambda a: a.index)],
                      tuple(problems), following)


def play_facts(deal: DealReplay, rules: ImperialeDeal) -> tuple[PlayFacts | None, list[Violation]]:
    """What the deal's play gave: from its tricks, or from its summary when the tricks are not complete (None,
    with the violations, when that summary cannot be true). A summary beside complete tricks is checked
    against them."""
    tricks = rules.tricks_per_deal if rules.played else 0
    return honours_play_facts(deal, rules.summary, rules.honours, len(rules.seats), tricks,
                              lambda: check_summary(deal, rules))


def check_summary(deal: DealReplay, rules: ImperialeDeal) -> list[Violation]:
    """What in an Impériale summary cannot be true: twelve tricks (none when the deal is not played), honours of
    this deal's trump each taken once by a seat that won a trick, none left out when the cards played are known
    (the hands; at 3 players the whole pack is dealt), never the retourne at 2 players (it is in no hand)."""
    summary = rules.summary
    assert summary is not None
    expected = rules.tricks_per_deal if rules.played else 0
    out = check_tricks(summary, deal.index, expected=expected, playing=rules.seats)
    played = None
    if deal.start is not None:
        played = 0
        for hand in deal.start:
            played |= hand
    elif len(rules.seats) == 3:
        played = rules.pack_mask
    if not rules.played:
        played = 0
    unplayed = BIT[rules.turn_up] if len(rules.seats) == 2 else 0
    return out + check_honours(summary, deal.index, honours=rules.honours, played=played, unplayed=unplayed)


def deal_point(deal: DealReplay, rules: ImperialeDeal) -> PointClaim | None:
    """Who scores the Point: from the hands when given (the recorded claim is checked by the rules),
    else the recorded claim; nobody when the record says ``"point": null``."""
    ann = rules.announcements
    if ann.point_recorded and ann.point is None:
        return None
    if deal.dealt is not None:
        return rules.true_point(deal.dealt)
    return ann.point


def score_deal(tally: Tally, deal: DealReplay, rules: ImperialeDeal, options: ImperialeOptions,
               facts: PlayFacts | None = None) -> dict[str, Any]:
    """Apply one deal's marks to the tally (``facts``: from :func:`play_facts`); the deal's ``result``."""
    if facts is None:
        facts = facts_from_tricks(deal, len(rules.seats), rules.honours)
    tally.begin_deal()
    result: dict[str, Any] = {"dealer": rules.dealer, "turn_up": format_card(rules.turn_up),
                              "marks": tally.marks, "source": facts.source}
    _marks(tally, deal, facts, rules, options, result)
    if "status" not in result:
        result["status"] = "complete"
    if tally.ended:
        result["status"] = "match_ended"
    result["fiches"] = list(tally.fiches)
    result["jetons"] = list(tally.jetons)
    return result


def _marks(tally: Tally, deal: DealReplay, facts: PlayFacts, rules: ImperialeDeal, options: ImperialeOptions,
           result: dict[str, Any]) -> None:
    dealer = rules.dealer
    parlett = options.parlett_order
    optional_erase = not parlett
    # 1. la retourne
    if rules.retourne_is_honour:
        if tally.add_jetons(dealer, 1, "retourne", card=format_card(rules.turn_up)):
            return
        if not options.strict_auj_chronology:
            tally.protect(dealer)
    # 2. announcement phase: cartes blanches, impériales en main, impériale de retourne
    _, shown = rules.check_announcements(deal.dealt)
    false_blanches = {v.seat for v in deal.violations if v.rule == "false_cartes_blanches"}
    trump_major_en_main: set[int] = set()
    for seat in rules.primaute:
        blanches = seat in rules.announcements.cartes_blanches and seat not in false_blanches
        if blanches and tally.add_fiches(seat, 2, "cartes_blanches", erase=optional_erase):
            return
        ordered = [s for s in shown if s.seat == seat and s.kind != "retourne"]
        ordered += [s for s in shown if s.seat == seat and s.kind == "retourne"]
        for item in ordered:
            if item.kind == "quatrieme_majeure" and item.fiches == 2:
                trump_major_en_main.add(seat)
            erase = optional_erase if item.kind == "retourne" else True
            if tally.add_fiches(seat, item.fiches, f"imperiale_{item.kind}", erase=erase,
                                cards=[format_card(c) for c in item.cards]):
                return
    tally.unprotect()
    if not rules.played:
        result["status"] = "not_played"
        return
    # 3. le Point
    point = deal_point(deal, rules)
    result["point"] = point.to_json() if point else None
    if point is not None and tally.add_jetons(point.seat, 1, "point", count=point.count, value=point.value):
        return
    complete = facts.complete
    # (Parlett) impériale tombée before the honours
    if parlett and complete and _tombee(tally, facts, rules, options, trump_major_en_main, erase=False):
        return
    # 4. honours, trick by trick (or in the order of the summary)
    for index, seat, cards in facts.honours:
        if tally.add_jetons(seat, len(cards), "honours", trick=index, cards=[format_card(c) for c in cards]):
            return
    if not complete:
        result["status"] = "unfinished"
        return
    # 5. impériale tombée
    if not parlett and _tombee(tally, facts, rules, options, trump_major_en_main, erase=True):
        return
    # 6. les cartes, or the capote
    won = list(facts.tricks_won)
    result["tricks_won"] = won
    capot = [seat for seat in rules.seats if won[seat] == rules.tricks_per_deal]
    if capot:
        if tally.add_fiches(capot[0], 2, "capote"):
            return
    else:
        quota = 6 if len(rules.seats) == 2 else 4
        for seat in rules.primaute:
            if won[seat] > quota and tally.add_jetons(seat, won[seat] - quota, "cartes", tricks=won[seat]):
                return
    if options.penalty_imperiale:
        _penalties(tally, deal, rules)


def _tombee(tally: Tally, facts: PlayFacts, rules: ImperialeDeal, options: ImperialeOptions,
            excluded: set[int], *, erase: bool) -> bool:
    if not options.imperiale_tombee:
        return False
    majors = mask_of(card(r, rules.trump) for r in (ACE, KING, QUEEN, JACK))
    for seat in rules.primaute:
        if seat not in excluded and facts.taken_mask(seat) & majors == majors:
            return tally.add_fiches(seat, 1, "imperiale_tombee", erase=erase)
    return False


def _penalties(tally: Tally, deal: DealReplay, rules: ImperialeDeal) -> None:
    offenders: dict[int, str] = {}
    if any(v.rule in MISDEAL for v in deal.violations):
        offenders[rules.dealer] = "misdeal"
    for v in deal.violations:
        if v.rule in FAILED_TO_TAKE and v.seat is not None:
            offenders.setdefault(v.seat, "failed_to_take")
    for seat in rules.primaute:
        if seat not in offenders:
            continue
        if tally.fiches[seat]:
            if tally.remove_fiche(seat, "penalty", reason=offenders[seat]):
                return
        else:
            for other in rules.primaute:
                if other != seat and tally.add_fiches(other, 1, "penalty", erase=False,
                                                      reason=offenders[seat], offender=seat):
                    return


explain = explain_marks
"""A deal's result for people: every mark in the order it was scored (:func:`scoring.explain.explain_marks`)."""
