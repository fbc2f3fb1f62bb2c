"""The card play of one deal, as a state that accepts plays one by one.

In the manner of pokerkit: :meth:`DealState.verify_play` raises a
:class:`~rules.errors.RuleViolation`, :meth:`DealState.can_play` answers a bool and
:meth:`DealState.play` verifies then applies, returning a frozen :class:`Play`. For a
record whose hands are unknown, the state still checks what the plays alone prove: no card
twice, and no card from a suit the seat has shown it did not hold (a revoke).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .cards import BIT, SUIT, Card, cards_of, codes_of, format_card
from .errors import RuleViolation, Violation
from .game import DealRules
from .messages import register

SUIT_WORDS_FR = ("pique", "cœur", "carreau", "trèfle", "atout", "")
SUIT_WORDS_EN = ("spades", "hearts", "diamonds", "clubs", "trumps", "")


@dataclass(frozen=True)
class Play:
    """One card played: the trick (from 0), the seat and the card."""

    trick: int
    seat: int
    card: Card


class Trick(NamedTuple):
    """A finished (or, last, unfinished) trick: its leader, cards in order of play, their seats, the winner.

    A named tuple rather than a dataclass: replaying a deal builds one per trick, and this is the
    cheapest immutable record Python has.
    """

    index: int  # type: ignore[assignment]  # the field shadows tuple.index(), never called on a Trick
    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, object]:
        return {"leader": self.leader, "cards": codes_of(self.cards),
                "seats": list(self.seats), "winner": self.winner}


#: the rules whose proof holds whatever else the hand held: a card of the suit led, seen later, proves the seat
#: could follow. A proof under any other rule (trump, overtrump) assumes the seat could not follow.
FOLLOW_RULES = frozenset({"must_follow", "must_follow_higher"})

#: the codes of a revoke proved by a later card: one fault a play, whichever card proves it
REVOKES = frozenset({"revoke", "revoke_trump", "revoke_overtrump"})


@dataclass
class _Absence:
    """What a seat's plays prove it did not hold, and which play proved it."""

    mask: int = 0
    proofs: list[tuple[int, int, Card, str | None, int]] = field(default_factory=list)

    def settle(self, shown: int) -> None:
        """A card of ``shown`` was played: the earlier play it proves illegal proves nothing more.

        A card of the suit led ends every proof of that play (he could follow: a trump he held later says
        nothing). A trump ends only the proofs that assumed he could not follow; a card of the suit led seen
        later still names the fault better (« sans fournir », not « sans couper »).
        """
        proof = next(p for p in self.proofs if p[4] & shown)
        play = proof[:2]
        follow = proof[3] in FOLLOW_RULES
        self.proofs = [p for p in self.proofs
                       if p[:2] != play or (not follow and p[3] in FOLLOW_RULES)]
        mask = 0
        for p in self.proofs:
            mask |= p[4]
        self.mask = mask


def add_violation(found: list[Violation], seen: dict[tuple[object, ...], int], violation: Violation) -> None:
    """Add ``violation`` to ``found`` unless the same fault at the same trick and seat is there.

    A revoke is one fault whichever later card proves it: a second proof adds nothing, except that a card of the
    suit led names it better than a trump did (« sans fournir » replaces « sans couper »).
    """
    revoke = violation.rule in REVOKES
    key = (violation.trick, violation.seat, "revoke" if revoke else violation.rule)
    at = seen.get(key)
    if at is None:
        seen[key] = len(found)
        found.append(violation)
    elif revoke and violation.rule == "revoke" and found[at].rule != "revoke":
        found[at] = violation
    # (trick, position, card played, rule that would have applied, cards it proves absent)


class DealState:
    """The play of one deal: hands (or None when unknown), the trick in progress, the tricks done."""

    def __init__(self, rules: DealRules, hands: Sequence[int] | None, *, deal: int | None = None) -> None:
        self.rules = rules
        self.deal = deal
        self.hands: list[int] | None = list(hands) if hands is not None else None
        self.leader = rules.first_leader
        self.current: list[Card] = []
        self.tricks: list[Trick] = []
        self.winners: list[int] = []
        self.played = 0
        self.first_played: dict[Card, int] = {}
        self._absence = {seat: _Absence() for seat in rules.seats}

    # -- where the play stands -------------------------------------------------------------------

    @property
    def trick_no(self) -> int:
        return len(self.tricks)

    @property
    def over(self) -> bool:
        return len(self.tricks) >= self.rules.tricks_per_deal

    @property
    def seat_to_play(self) -> int:
        seat = self.leader
        for _ in self.current:
            seat = self.rules.next_seat(seat)
        return seat

    def legal_mask(self, seat: int | None = None) -> int:
        """The mask of the cards the seat to play may play (hands must be known)."""
        if self.hands is None:
            raise ValueError("the hands are unknown: legal cards cannot be listed")
        seat = self.seat_to_play if seat is None else seat
        mask, _ = self.rules.requirement(self.hands[seat], self.current, self.trick_no, seat)
        return mask

    def legal_cards(self) -> list[Card]:
        """The cards the seat to play may play now."""
        if self.over:
            return []
        return cards_of(self.legal_mask())

    # -- verify / can / play ----------------------------------------------------------------------

    def check_play(self, card: Card) -> Violation | None:
        """The violation that playing ``card`` now would be, or None when it is legal."""
        rules = self.rules
        trick_no = self.trick_no
        seat = self.seat_to_play
        if self.over:
            return Violation("deal_over", self.deal, trick_no, seat, card)
        if not BIT[card] & rules.pack_mask:
            return Violation("card_not_in_pack", self.deal, trick_no, seat, card, {"pack": len(rules.pack)})
        if self.played & BIT[card]:
            return Violation("card_played_twice", self.deal, trick_no, seat, card,
                             {"first_trick": self.first_played[card] + 1})
        if self.hands is not None:
            hand = self.hands[seat]
            if not hand & BIT[card]:
                return Violation("not_in_hand", self.deal, trick_no, seat, card)
            mask, rule = rules.requirement(hand, self.current, trick_no, seat)
            if not mask & BIT[card]:
                return self._explain(rule or "illegal_card", seat, card, mask)
            return None
        absence = self._absence[seat]
        if absence.mask & BIT[card]:
            return self._revoke(seat, card, absence)
        return None

    def verify_play(self, card: Card) -> None:
        """Raise :class:`RuleViolation` if ``card`` may not be played now."""
        violation = self.check_play(card)
        if violation is not None:
            raise RuleViolation(violation)

    def can_play(self, card: Card) -> bool:
        """Whether ``card`` may be played now."""
        return self.check_play(card) is None

    def play(self, card: Card) -> Play:
        """Verify, then apply a play."""
        self.verify_play(card)
        return self.apply(card)

    def apply(self, card: Card) -> Play:
        """Apply a play without verifying it (replay goes on after a violation)."""
        rules = self.rules
        seat = self.seat_to_play
        trick_no = self.trick_no
        if self.hands is None:
            absence = self._absence[seat]
            if absence.mask & BIT[card]:
                absence.settle(BIT[card])
            self._learn_absence(seat, card)
        else:
            self.hands[seat] &= ~BIT[card]
        if not self.played & BIT[card]:
            self.first_played[card] = trick_no
        self.played |= BIT[card]
        self.current.append(card)
        record = Play(trick_no, seat, card)
        if len(self.current) == len(rules.seats):
            self._close_trick()
        return record

    def _close_trick(self) -> None:
        rules = self.rules
        seats = []
        seat = self.leader
        for _ in self.current:
            seats.append(seat)
            seat = rules.next_seat(seat)
        position = rules.winner(self.current, self.trick_no, self.leader, self.winners)
        winner = seats[position]
        self.tricks.append(Trick(self.trick_no, self.leader, tuple(self.current), tuple(seats), winner))
        self.winners.append(winner)
        self.leader = winner
        self.current = []

    def unfinished_trick(self) -> Trick | None:
        """The trick in progress, if any card of it was played."""
        if not self.current:
            return None
        seats = []
        seat = self.leader
        for _ in self.current:
            seats.append(seat)
            seat = self.rules.next_seat(seat)
        return Trick(self.trick_no, self.leader, tuple(self.current), tuple(seats), None)

    # -- explaining -------------------------------------------------------------------------------

    def _explain(self, rule: str, seat: int, card: Card, mask: int) -> Violation:
        rules = self.rules
        led = rules.led_suit(self.current)
        best = rules.best_card(self.current, self.trick_no, self.leader, self.winners)
        example = max(cards_of(mask), key=lambda c: (SUIT[c] == rules.trump, rules.order.strength[c]))
        params = {
            "led": SUIT_WORDS_FR[led] if led is not None else "",
            "led_en": SUIT_WORDS_EN[led] if led is not None else "",
            "example": format_card(example),
            "best": format_card(best) if best is not None else "",
            "legal": [format_card(c) for c in cards_of(mask)],
        }
        return Violation(rule, self.deal, self.trick_no, seat, card, params)

    def _learn_absence(self, seat: int, card: Card) -> None:
        """Record the cards that a legal play of ``card`` proves the seat did not hold."""
        rules = self.rules
        bit = BIT[card]
        candidates = rules.pack_mask & ~self.played & ~bit & ~self._absence[seat].mask
        proved = 0
        by_rule: dict[str | None, int] = {}
        for other in cards_of(candidates):
            mask, rule = rules.requirement(bit | BIT[other], self.current, self.trick_no, seat)
            if not mask & bit:
                proved |= BIT[other]
                by_rule[rule] = by_rule.get(rule, 0) | BIT[other]
        if proved:
            absence = self._absence[seat]
            absence.mask |= proved
            # one proof per rule: a card of the suit led, seen later, proves he did not follow; a trump, that he
            # did not trump (never « sans fournir à pique » with a trump for proof)
            for rule, cards in by_rule.items():
                absence.proofs.append((self.trick_no, len(self.current), card, rule, cards))

    def _revoke(self, seat: int, card: Card, absence: _Absence) -> Violation:
        """The earlier play that ``card`` proves illegal."""
        for trick_no, _position, earlier, rule, proved in absence.proofs:
            if proved & BIT[card]:
                code = {"must_trump": "revoke_trump", "must_overtrump": "revoke_overtrump",
                        "must_go_higher": "revoke_overtrump", "must_undertrump": "revoke_trump",
                        "must_play_trump": "revoke_trump"}.get(rule or "", "revoke")
                if rule in ("must_follow", "must_follow_higher"):
                    code = "revoke"
                led_trick = self.tricks[trick_no] if trick_no < len(self.tricks) else None
                led = rules_led(self.rules, led_trick.cards if led_trick else self.current)
                return Violation(code, self.deal, trick_no, seat, earlier, {
                    "proof": format_card(card), "proof_trick": self.trick_no + 1,
                    "led": SUIT_WORDS_FR[led] if led is not None else "",
                    "led_en": SUIT_WORDS_EN[led] if led is not None else "",
                    "proof_card": format_card(card), "rule_broken": rule or "",
                })
        raise AssertionError("absence without proof")  # pragma: no cover


def play_out_randomly(state: DealState, rng: random.Random, *, tricks: int | None = None) -> list[list[str]]:
    """Play random legal cards until the deal is over (or ``tricks`` tricks are done); the tricks as codes.

    For generated test deals, demos and benchmarks: every game's random play-out goes through here.
    """
    limit = state.rules.tricks_per_deal if tricks is None else tricks
    while len(state.tricks) < limit:
        state.apply(rng.choice(state.legal_cards()))
    return [[format_card(c) for c in trick.cards] for trick in state.tricks]


def rules_led(rules: DealRules, cards: Sequence[Card]) -> int | None:
    return rules.led_suit(cards)


register({
    "illegal_card": {
        "fr": "{who} ne peut pas jouer {card} ici.",
        "en": "{who} may not play {card} here.",
    },
})
