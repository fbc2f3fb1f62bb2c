"""The answer of the tap-to-play page's state endpoint: :func:`rules.tap.play_position`, shaped for the page.

The page sends the declarations and the cards tapped so far as one flat list; the game's ``DealRules`` say how
many seats play a trick and in what order, so the cards are cut into tricks here and each card of the trick in
progress gets its seat. Everything else — the seat to play, its legal and forbidden cards with the reason, the
winner of the trick just completed, what the cards entered break — is ``play_position``'s answer. No game
knowledge lives here.
"""

from __future__ import annotations

from typing import Any

from rules.cards import format_card
from rules.errors import MalformedRecord
from rules.record import read_record
from rules.tap import play_position


def tricks_of(cards: list[Any], size: int) -> list[list[Any]]:
    """A flat list of cards cut into tricks of ``size`` cards (the last may be unfinished)."""
    return [cards[i:i + size] for i in range(0, len(cards), size)]


def play_state(record: dict[str, Any], cards: list[Any], lang: str = "fr") -> dict[str, Any]:
    """Where the play stands after ``cards`` (record codes, in the order played) under the record's declarations.

    A record whose declarations cannot be read yet answers ``ready: false`` with the sentence and the field.
    """
    players = list(record.get("players") or [])
    try:
        read = read_record({**record, "tricks": []})
        deal = read.deals[0]
        rules = read.game.deal_rules(read.options, deal.raw, players=len(players), field=deal.field)
        size = len(rules.seats)
        position = play_position({**record, "tricks": tricks_of(cards, size)}, lang=lang)
    except MalformedRecord as exc:
        return {"ready": False, "message": exc.text(lang), "field": exc.field}
    answer = position.to_json()
    seats = []
    seat = position.leader
    for _card in position.current:
        seats.append(seat)
        seat = rules.next_seat(seat)
    answer.update({
        "ready": True, "trick_size": size, "tricks_per_deal": rules.tricks_per_deal, "current_seats": seats,
        "problems": [{"message": v.message(lang, players), "trick": v.trick, "seat": v.seat,
                      "card": format_card(v.card) if v.card is not None else None} for v in position.violations],
    })
    del answer["violations"]
    return answer
