"""Replay of a whole record: every card play checked, every trick's winner found.

:func:`replay` reads a record and replays each deal; :func:`replay_deal` replays one. With
the hands, every play is checked against the holder's hand and the game's obligations; the
deal's declarations are checked by the game's ``setup``. Without them, what the plays prove
is still checked (no card twice, revokes shown by a later card) and the result says which
checks could not be made.

The common case, a legal deal with hands, goes through a tight loop on bit masks; any
problem sends the deal through :class:`~rules.play.DealState`, which explains it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import BIT, BIT_OF, Card, cards_of, mask_of
from .errors import MalformedRecord, Violation
from .frozen import quick_init
from .game import DealRules
from .play import DealState, Trick, add_violation
from .record import DealInput, Record, check_in_pack, read_record

UNCHECKED_WITHOUT_HANDS = (
    "hands",  # counts, no card twice in the deal, the talon
    "ownership",  # every card played from its player's hand
    "obligations",  # only revokes proved by a later card are found
    "declarations",  # announcements that need the hands
)


@quick_init
@dataclass(frozen=True)
class DealReplay:
    """What replaying one deal found."""

    index: int
    rules: DealRules
    dealt: list[int] | None
    start: list[int] | None
    tricks: tuple[Trick, ...]
    unfinished: Trick | None
    violations: tuple[Violation, ...]
    unchecked: tuple[str, ...]
    extra_won: Mapping[int, int] = field(default_factory=dict)
    won: Sequence[int] | None = None
    """By seat of the record, the cards of the tricks it won (masks), when the replay gathered them on its way
    (the fast path of a game that supplies it: Tarot); None otherwise. Not :attr:`extra_won`."""

    @property
    def complete(self) -> bool:
        """Every trick of the deal was played."""
        return self.unfinished is None and len(self.tricks) == self.rules.tricks_per_deal

    @property
    def legal(self) -> bool:
        return not self.violations

    def tricks_won(self, players: int) -> list[int]:
        """How many tricks each seat won."""
        won = [0] * players
        for trick in self.tricks:
            if trick.winner is not None:
                won[trick.winner] += 1
        return won

    def won_mask(self, seat: int) -> int:
        """The cards in the tricks a seat won, plus what counts for it without being played."""
        mask = self.extra_won.get(seat, 0)
        if self.won is not None:
            return mask | self.won[seat]
        for trick in self.tricks:
            if trick.winner == seat:
                mask |= mask_of(trick.cards)
        return mask

    def winners(self) -> list[int]:
        return [t.winner for t in self.tricks if t.winner is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "complete": self.complete,
            "tricks": [t.to_json() for t in self.tricks],
            "unfinished_trick": self.unfinished.to_json() if self.unfinished else None,
            "unchecked": list(self.unchecked),
        }


@quick_init
@dataclass(frozen=True)
class Replay:
    """A whole record replayed."""

    record: Record
    deals: tuple[DealReplay, ...]

    @property
    def violations(self) -> list[Violation]:
        return [v for d in self.deals for v in d.violations]

    @property
    def legal(self) -> bool:
        return all(d.legal for d in self.deals)


def replay(data: Any) -> Replay:
    """Read and replay a record (a parsed JSON object). Raises MalformedRecord."""
    record = read_record(data)
    return replay_record(record)


def replay_record(record: Record) -> Replay:
    deals = []
    for deal in record.deals:
        rules = record.game.deal_rules(record.options, deal.raw, players=len(record.players), field=deal.field)
        deals.append(replay_deal(rules, deal, players=len(record.players), names=record.players))
    return Replay(record, tuple(deals))


def check_tricks_shape(rules: DealRules, deal: DealInput, names: Sequence[str] | None = None) -> list[list[Card]]:
    """Every trick holds one card per seat but the last, which may be unfinished; not too many tricks.

    A trick short of cards is told by its number and, when the tricks before it show who leads it, by the player
    whose card is missing (``names``: the record's players; else « le joueur 2 »)."""
    tricks = deal.tricks or []
    size = len(rules.seats)
    base = f"{deal.field}.tricks" if deal.field else "tricks"
    if len(tricks) > rules.tricks_per_deal:
        raise MalformedRecord(base, f"a deal has {rules.tricks_per_deal} tricks, the record gives {len(tricks)}",
                              fr=f"une donne compte {rules.tricks_per_deal} plis, le record en donne {len(tricks)}")
    if tricks and set(map(len, tricks[:-1])) <= {size} and 0 < len(tricks[-1]) <= size:
        return tricks  # the common case
    for i, trick in enumerate(tricks):
        last = i == len(tricks) - 1
        if len(trick) > size:
            raise MalformedRecord(f"{base}[{i}]", f"Trick {i + 1}: a trick holds {size} cards, this one holds "
                                                 f"{len(trick)}",
                                  fr=f"Pli {i + 1} : un pli compte {size} cartes, celui-ci en compte {len(trick)}")
        if (not last and len(trick) != size) or not trick:
            missing = _missing_seats(rules, tricks[:i], len(trick))
            en_who = " and ".join(_seat_words(s, names, "en") for s in missing)
            fr_who = " et ".join(_seat_words(s, names, "fr") for s in missing)
            plural = len(missing) > 1
            raise MalformedRecord(
                f"{base}[{i}]",
                f"Trick {i + 1}: a trick holds {size} cards (only the last may be unfinished), this one holds "
                f"{len(trick)}" + (f": {en_who}'s card{'s are' if plural else ' is'} missing" if missing else ""),
                fr=f"Pli {i + 1} : un pli compte {size} cartes (seul le dernier peut être inachevé), celui-ci en "
                   f"compte {len(trick)}" + (f" : il manque la carte de {fr_who}" if missing else ""))
    return tricks


def _seat_words(seat: int, names: Sequence[str] | None, lang: str) -> str:
    """A player by name, else by seat as the violations say it (« le joueur 2 »)."""
    if names and 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"le joueur {seat + 1}" if lang == "fr" else f"player {seat + 1}"


def _missing_seats(rules: DealRules, before: Sequence[Sequence[Card]], count: int) -> list[int]:
    """The seats that did not play to a trick of ``count`` cards after the complete tricks ``before`` (its leader
    found by playing them without hands); empty when they cannot tell (a card of another pack …)."""
    try:
        state = DealState(rules, None)
        for trick in before:
            for card in trick:
                state.apply(card)
        seats = list(rules.seats)
        start = seats.index(state.leader)
    except Exception:  # the shape check only names what it can; the replay refuses the rest
        return []
    order = seats[start:] + seats[:start]
    return order[count:]


def check_pack(pack: int, groups: Sequence[Sequence[Card]], base: str) -> None:
    """Refuse cards of another pack (a Tarot trump at Écarté …), naming the first one's field."""
    seen = 0
    for group in groups:
        for card in group:
            seen |= BIT[card]
    if not seen & ~pack:
        return
    for i, group in enumerate(groups):
        for j, card in enumerate(group):
            check_in_pack(card, pack, f"{base}[{i}][{j}]")


def replay_deal(rules: DealRules, deal: DealInput, *, players: int, names: Sequence[str] | None = None) -> DealReplay:
    """Replay one deal under its rules (``names``: the record's players, for the sentences of a malformed trick)."""
    tricks = check_tricks_shape(rules, deal, names)
    violations: list[Violation] = []
    dealt = None
    unchecked: tuple[str, ...] = ()
    if deal.hands is not None:
        dealt, found = dealt_hands(rules, deal.hands, deal.index, f"{deal.field}.hands" if deal.field else "hands")
        violations += found
    setup = rules.setup(dealt)
    if setup.violations:
        violations += [v.at(deal=deal.index) for v in setup.violations]
    start = setup.hands
    if start is None:
        unchecked = UNCHECKED_WITHOUT_HANDS
    else:
        for seat in rules.seats:
            size = start[seat].bit_count()
            if size != rules.hand_size:
                violations.append(Violation("wrong_hand_size", deal.index, None, seat, None,
                                            {"count": size, "expected": rules.hand_size}))
    if unchecked or setup.unchecked:
        unchecked = tuple(dict.fromkeys(unchecked + setup.unchecked))
    extra = dict(setup.extra_won or {})

    if start is not None and not violations:
        fast = _fast_replay(rules, start, tricks)
        if fast is not None:
            return DealReplay(deal.index, rules, dealt, start, fast[0], None, (), unchecked, extra, fast[1])

    # the fast path vouches for the pack (every card came from a hand); here the game's code must not
    # meet a card of another pack
    check_pack(rules.pack_mask, tricks, f"{deal.field}.tricks" if deal.field else "tricks")
    state = DealState(rules, start, deal=deal.index)
    seen: dict[tuple[object, ...], int] = {}
    for trick in tricks:
        for card in trick:
            violation = state.check_play(card)
            if violation is not None:
                add_violation(violations, seen, violation)
            state.apply(card)
    if start is None and len(state.tricks) == rules.tricks_per_deal and not state.current:
        # hands not entered, every trick is: each seat's cards are its hand at the first lead
        played = [0] * players
        for done in state.tricks:
            for seat, card in zip(done.seats, done.cards, strict=True):
                played[seat] |= BIT[card]
        declared = rules.declarations_from_play(played)
        if declared is not None:
            violations += [v.at(deal=deal.index) for v in declared]
            unchecked = tuple(u for u in unchecked if u != "declarations")
    return DealReplay(deal.index, rules, dealt, start, tuple(state.tricks), state.unfinished_trick(),
                      tuple(violations), unchecked, extra)


def dealt_hands(rules: DealRules, hands: Sequence[Sequence[Card]], deal: int,
                 field: str) -> tuple[list[int], list[Violation]]:
    """Hands as masks; a card twice is a violation, a card of another pack a malformed record."""
    bit = BIT_OF.__getitem__
    masks = [sum(map(bit, hand)) for hand in hands]
    union = sum(masks)
    # a sum of bits has as many bits set as terms only when no bit repeats (then it is their union)
    if union.bit_count() == sum(map(len, hands)) and not union & ~rules.pack_mask:
        return masks, []  # the common case: no card twice, every card in the pack
    check_pack(rules.pack_mask, hands, field)
    violations = []
    seen: dict[Card, int] = {}
    masks = []
    for seat, hand in enumerate(hands):
        mask = 0
        for card in hand:
            mask |= BIT[card]
            if card in seen:
                violations.append(Violation("duplicate_card", deal, None, seat, card,
                                            {"where": f"mains {seen[card] + 1} et {seat + 1}"}))
            seen[card] = seat
        masks.append(mask)
    return masks, violations


def _fast_replay(rules: DealRules, start: list[int], tricks: list[list[Card]]
                 ) -> tuple[tuple[Trick, ...], Sequence[int] | None] | None:
    """Replay a deal whose setup is sound: its tricks and, when gathered, the cards each seat won
    (:attr:`DealReplay.won`); None at the first problem (then DealState explains it).

    A game may supply its own loop as ``rules.fast_replay(start, tricks)`` with the same result
    (Tarot does, for speed).
    """
    special = getattr(rules, "fast_replay", None)
    if special is not None:
        replayed: tuple[tuple[Trick, ...], Sequence[int] | None] | None = special(start, tricks)
        return replayed
    hands = list(start)
    requirement = rules.requirement
    winner_of = rules.winner
    seats = rules.seats
    n = len(seats)
    rotations = {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)}
    leader = rules.first_leader
    winners: list[int] = []
    out = []
    for trick_no, trick in enumerate(tricks):
        if len(trick) != n:
            return None
        trick_seats = rotations[leader]
        for k in range(n):
            seat = trick_seats[k]
            card = trick[k]
            bit = BIT[card]
            hand = hands[seat]
            if not hand & bit:
                return None
            if not requirement(hand, trick[:k], trick_no, seat)[0] & bit:
                return None
            hands[seat] = hand ^ bit
        won = trick_seats[winner_of(trick, trick_no, leader, winners)]
        winners.append(won)
        out.append(Trick(trick_no, leader, tuple(trick), trick_seats, won))
        leader = won
    return tuple(out), None


def legal_cards(rules: DealRules, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> list[Card]:
    """The cards a seat may play (a convenience over ``rules.requirement``)."""
    mask, _ = rules.requirement(hand, trick, trick_no, seat)
    return cards_of(mask)
