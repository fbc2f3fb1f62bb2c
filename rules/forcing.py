"""Card play « à la triomphe » without under-trump duty: L'Impériale and Le Vingt-quatre.

One implementation of RULES.md §4.4 rule 18 (A-I8), used by both games (§5 rule 6, A-V4):

* trick led in a plain suit, not yet trumped: follow suit and **force** (beat the best card of
  the suit) if able, else any card of the suit;
* trick led in a plain suit and already trumped: follow suit (no duty to beat);
* void in the suit led: trump; if the trick is already trumped, **overtrump** if able; a player
  who has no trump or cannot overtrump plays any card (no under-trump duty);
* trumps led: a higher trump if able, else any trump, else any card.

The winner of a trick is the highest trump, else the highest card of the suit led.
Everything works on bit masks (``rules.cards``) so that a replay stays fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import BIT, SUIT, SUIT_MASK, Card
from .game import DealRules


def best_position(trick: Sequence[Card], trump: int, beats: Sequence[int]) -> int:
    """The position in ``trick`` of the card that wins it so far."""
    best = 0
    top = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if BIT[c] & beats[top] or (SUIT[c] == trump and SUIT[top] != trump):
            best, top = i, c
    return best


def forcing_requirement(hand: int, trick: Sequence[Card], trump: int, beats: Sequence[int]) -> tuple[int, str | None]:
    """The cards of ``hand`` that may be played to ``trick``, and the rule that restricts them."""
    if not trick:
        return hand, None
    top = trick[best_position(trick, trump, beats)]
    led = SUIT[trick[0]]
    trumps = hand & SUIT_MASK[trump]
    if led == trump:
        higher = hand & beats[top]
        if higher:
            return higher, "must_go_higher"
        if trumps:
            return trumps, "must_play_trump"
        return hand, None
    follow = hand & SUIT_MASK[led]
    if follow:
        if SUIT[top] == led:
            higher = follow & beats[top]
            if higher:
                return higher, "must_follow_higher"
        return follow, "must_follow"
    if not trumps:
        return hand, None
    if SUIT[top] == trump:
        higher = trumps & beats[top]
        if higher:
            return higher, "must_overtrump"
        return hand, None
    return trumps, "must_trump"


class ForcingDealRules(DealRules):
    """A deal played under the forcing rule: subclasses set the pack, order, seats, trump and setup."""

    trump: int

    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        return forcing_requirement(hand, trick, self.trump, self.order.beats)

    def winner(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> int:
        return best_position(trick, self.trump, self.order.beats)
