"""Where the play of a partial deal stands, for the tap-to-play page (JSON for ``static/js/deal-entry.js``).

Only the shared machinery of ``rules/`` is used (the record reader, the game's ``DealRules``, ``DealState``'s
verify / apply): no game knowledge lives here. The answer: the seat to play, each trick with its seats and
winner, the cards the seat may play and, when the hands are known, the cards it holds but may not play with
the reason in one sentence; the violations of the cards already entered; or, when the declarations cannot be
read yet, the sentence that says what is missing.
"""

from __future__ import annotations

from typing import Any

from rules.cards import BIT, cards_of, format_card
from rules.errors import MalformedRecord
from rules.play import DealState
from rules.record import read_record
from rules.replay import _dealt_hands


def play_state(record: dict[str, Any], lang: str = "fr") -> dict[str, Any]:
    """The state of the play of a one-deal record (the last trick may be unfinished)."""
    players = list(record.get("players") or [])
    tricks_raw = record.get("tricks") or []
    record = {**record, "tricks": []}
    try:
        read = read_record(record)
        deal = read.deals[0]
        rules = read.game.deal_rules(read.options, deal.raw, players=len(read.players), field="")
        dealt = None
        problems: list[dict[str, Any]] = []
        if deal.hands is not None:
            dealt, found = _dealt_hands(rules, deal.hands, 0, "hands")
            problems += [_problem(v, lang, players) for v in found]
        setup = rules.setup(dealt)
        plays = [rules_card(code, rules.pack_mask) for trick in tricks_raw for code in trick]
    except MalformedRecord as exc:
        return {"ready": False, "message": exc.text(lang) if hasattr(exc, "text") else str(exc),
                "field": exc.field}
    problems += [_problem(v, lang, players) for v in setup.violations]
    hands = setup.hands
    if hands is not None and any(hands[s].bit_count() != rules.hand_size for s in rules.seats):
        hands = None  # hands not (yet) complete: no check of what each seat holds
    state = DealState(rules, hands)
    for card in plays:
        if card is None or state.over:
            break
        violation = state.check_play(card)
        if violation is not None:
            problems.append(_problem(violation, lang, players))
        state.apply(card)
    tricks = [t.to_json() for t in state.tricks]
    current = state.unfinished_trick()
    if current is not None:
        tricks.append(current.to_json())
    answer: dict[str, Any] = {
        "ready": True, "trick_size": len(rules.seats), "tricks_per_deal": rules.tricks_per_deal,
        "tricks": tricks, "over": state.over, "problems": problems,
        "played": [format_card(c) for c in cards_of(state.played)],
    }
    if state.over:
        return answer
    seat = state.seat_to_play
    answer.update({"seat": seat, "trick": state.trick_no, "hand": None, "legal": None, "forbidden": []})
    if hands is not None:
        hand = state.hands[seat] if state.hands is not None else 0
        legal = state.legal_mask(seat)
        answer["hand"] = [format_card(c) for c in cards_of(hand)]
        answer["legal"] = [format_card(c) for c in cards_of(legal)]
        for card in cards_of(hand & ~legal):
            violation = state.check_play(card)
            if violation is not None:
                answer["forbidden"].append({"card": format_card(card),
                                            "reason": violation.message(lang, players)})
    return answer


def rules_card(code: Any, pack_mask: int) -> int | None:
    """A card id from a code of the record (None when it is not a card of this pack)."""
    from rules.cards import CardCodeError, parse_card

    try:
        card = parse_card(str(code))
    except CardCodeError:
        return None
    return card if BIT[card] & pack_mask else None


def _problem(violation: Any, lang: str, players: list[str]) -> dict[str, Any]:
    return {"message": violation.message(lang, players), "trick": violation.trick, "seat": violation.seat,
            "card": format_card(violation.card) if violation.card is not None else None, "rule": violation.rule}
