"""The dealer rotation across annulled deals (``wrong_dealer``), shared by the match games.

A match record holds the deals that count. A deal annulled between two of them is not in the record, but
it may have been dealt at the table: the deal after it then follows *its* dealer, not the dealer of the
previous deal that counts. The record says so with the optional ``annulled_dealers`` of the following deal
(docs/deal-record.md, "Annulled deals"). Whether an annulled deal was dealt is not in the record (a
deal entered by mistake never happened; a deal played with a faulty pack was dealt and is void), so the
next dealer may be any of:

* the dealer the game's rule gives after the previous deal that counts (the annulled deals never
  happened);
* the dealer the rule gives after an annulled deal (it was dealt and passed the deal on);
* the dealer of an annulled deal (a void deal dealt again by the same dealer: a faulty pack or a card
  turned in the deal, RULES.md §2.6 rule 19, §4.5 rule 20 I–II).

Anything else is still ``wrong_dealer``. The deals after that one follow its actual dealer, as before.

Who deals next: each game's ``score_match`` gives the dealers its rule allows after the record's last deal
(``MatchScore.next_dealers``); :func:`next_dealer` picks the one the entry desk proposes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.errors import Violation

from .base import wrong_dealer
from .verdict import judge


def allowed_dealers(after_counted: Sequence[int] | None, annulled: Sequence[int],
                    after_annulled: Callable[[int], Sequence[int]]) -> list[int] | None:
    """The seats that may deal a deal: ``after_counted`` (the rule's dealers after the previous deal that counts;
    None: anybody, the first dealer is drawn), widened by each annulled dealer in between and the dealers the
    rule gives after it (``after_annulled``). None when anybody may deal."""
    if after_counted is None:
        return None
    allowed = list(after_counted)
    for seat in annulled:
        for candidate in (seat, *after_annulled(seat)):
            if candidate not in allowed:
                allowed.append(candidate)
    return allowed


def check_dealer(index: int, dealer: int, allowed: Sequence[int] | None) -> Violation | None:
    """``wrong_dealer`` when ``dealer`` is not among ``allowed`` (None: anybody may deal)."""
    if allowed is None or dealer in allowed:
        return None
    return wrong_dealer(index, dealer, allowed)


def proposed_dealer(allowed: Sequence[int] | None, last: int | None, players: int) -> int:
    """The dealer to propose: of ``allowed``, the first in the order of play after the ``last`` dealer (Écarté
    à quatre, the losing team's player on the last dealer's right); anybody allowed: the last dealer's right-hand
    neighbour (A-X1), or seat 0 before the first deal (the draw decides: the arbiter changes it)."""
    if last is None:
        return allowed[0] if allowed else 0
    if not allowed:
        return (last + 1) % players
    return min(allowed, key=lambda seat: (seat - last - 1) % players)


def next_dealer(record: Mapping[str, Any]) -> int:
    """The seat that deals the deal after a record's deals (a ``levee.match/1`` record of the deals so far), by
    the game's rule. Raises MalformedRecord when the record cannot be read."""
    verdict = judge(record)
    deals = verdict.replay.record.deals
    return proposed_dealer(verdict.match.next_dealers, deals[-1].dealer if deals else None,
                           len(verdict.players))
