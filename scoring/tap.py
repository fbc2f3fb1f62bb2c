"""The tap page's answer after each card: where the play stands and, once every trick is in, the deal's score.

One function for both engines: the server's state view (``tournaments/desk/play.py``) answers with
:func:`play_state`, and the page without network runs this very module in the browser (Pyodide,
``static/js/rules-engine-worker.js``) through :func:`answer_json`. The two cannot say different things.

The page sends the declarations and the cards tapped so far as one flat list; the game's ``DealRules`` say how
many seats play a trick and in what order, so the cards are cut into tricks here and each card of the trick in
progress gets its seat. Everything else — the seat to play, its legal and forbidden cards with the reason, the
winner of the trick just completed, what the cards entered break — is :func:`rules.tap.play_position`'s answer.
Once the play is over, the deal is judged as the save judges it (:func:`scoring.verdict.judge`; for a game played
in matches, after the table's deals so far, given as ``match``) and its marks are added. No game knowledge here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from rules.cards import format_card
from rules.errors import MalformedRecord
from rules.normalise import normalise_deal
from rules.record import DEAL_FORMAT, MATCH_FORMAT, read_record
from rules.tap import play_position

from .explain import explain
from .verdict import judge

#: the fields of a record that the table fixes (the rest are the deal's own)
HEAD = ("format", "game", "options", "players")


def tricks_of(cards: list[Any], size: int) -> list[list[Any]]:
    """A flat list of cards cut into tricks of ``size`` cards (the last may be unfinished)."""
    return [cards[i:i + size] for i in range(0, len(cards), size)]


def play_state(record: dict[str, Any], cards: list[Any], lang: str = "fr",
               match: Mapping[str, Any] | Callable[[], Mapping[str, Any] | None] | None = None) -> dict[str, Any]:
    """Where the play stands after ``cards`` (record codes, in the order played) under the record's declarations;
    once it is over, ``score``: the deal's marks as the save would give them (:func:`deal_score`).

    ``match``: for a game played in matches, the table's deals so far (``deals``: their own fields, in order), what
    the new deal carries from them (``new``: the dealers of the deals annulled since) and the rulings'
    ``adjustments`` — or a function giving them, asked only once the play is over (the server reads the table's
    deals then). A record whose declarations cannot be read yet answers ``ready: false`` with the sentence and the
    field.
    """
    players = list(record.get("players") or [])
    try:
        read = read_record({**record, "tricks": []})
        deal = read.deals[0]
        rules = read.game.deal_rules(read.options, deal.raw, players=len(players), field=deal.field)
        size = len(rules.seats)
        tricks = tricks_of(cards, size)
        position = play_position({**record, "tricks": tricks}, lang=lang)
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
        "score": deal_score({**record, "tricks": tricks}, lang, match() if callable(match) else match)
        if position.over else None,
    })
    del answer["violations"]
    return answer


def deal_score(record: Mapping[str, Any], lang: str = "fr", match: Mapping[str, Any] | None = None
               ) -> dict[str, Any] | None:
    """The marks of the deal of ``record`` (its head and its own fields) as the save judges them: each seat's
    ``scores`` (None when the deal cannot be scored), the game's one-line ``headline``, the match's ``totals``
    after it, and the ``problems`` that would refuse it, in words. None when the record cannot be read."""
    head = {k: record[k] for k in HEAD if k in record}
    game = str(head.get("game", ""))
    players = list(head.get("players") or [])
    own = normalise_deal(game, {k: v for k, v in record.items() if k not in HEAD})
    if match is not None:
        deals = [*(match.get("deals") or []), {**own, **(match.get("new") or {})}]
        whole: dict[str, Any] = {**head, "format": MATCH_FORMAT, "deals": deals}
        if match.get("adjustments"):
            whole["adjustments"] = list(match["adjustments"])
    else:
        whole = {**head, "format": DEAL_FORMAT, **own}
    try:
        verdict = judge(whole)
    except MalformedRecord as exc:
        return {"scores": None, "headline": "", "totals": None, "problems": [exc.text(lang)]}
    full = verdict.to_json(lang)
    last = full["deals"][-1] if full["deals"] else {}
    return {
        "scores": last.get("scores"),
        "headline": explain(game, last.get("result"), players, lang).headline,
        "totals": full["totals"] if match is not None else None,
        "problems": [v["message"] for v in full["violations"]],
    }


def answer_json(text: str) -> str:
    """:func:`play_state` from JSON text to JSON text (``{"record", "cards", "lang", "match"}``): what the page
    asks the engine in the browser."""
    asked = json.loads(text)
    answer = play_state(asked["record"], list(asked.get("cards") or []), str(asked.get("lang") or "fr"),
                        asked.get("match"))
    return json.dumps(answer, ensure_ascii=False)
