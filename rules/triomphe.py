"""La Triomphe (1725 rules), au forçat, au plaisant, and L'As qui pille (RULES.md §2).

One deal: 32-card piquet pack, 5 cards each, the next card turned up (la retourne) names the
trump suit (la triomphe), 5 tricks. Play is counter-clockwise: ``players`` lists the seats in
order of play, the first hand (premier en cartes) is ``(dealer + 1) % players`` and leads.

Options (``options`` of the record; :class:`TriompheOptions`):

* ``players``: 2 to 6.
* ``mode``: how trumps are handled (§2.3): ``forcee`` (default, 1725), ``forcat`` (must make
  oneself master whenever possible), ``plaisant`` (only the last player to the trick plays au
  forçat, the others only follow suit; individual games only).
* ``order``: ``1725`` (default: K Q J A 10 9 8 7) or ``piquet`` (A K Q J 10 9 8 7) (A-R1).
* ``as_qui_pille``: L'As qui pille (§2.5: 3 players or more, individual). It implies the piquet
  order: giving ``order: "1725"`` with it is an error.
* ``teams``: null for the individual game, or two lists of seats, 2 v 2 or 3 v 3. The seed
  seats partners on the same side of the table, so that in the order of play a team is a
  block of consecutive seats: ``[[0, 1], [2, 3]]``, ``[[0, 1, 2], [3, 4, 5]]`` (in the 6-player
  example C deals and D leads: players D E F A B C are seats 0..5). Any split into two equal
  teams is accepted; legality is the same for partners and opponents.
* ``target``: the points that end the match (§2.4 rule 14): 5 by default, 7 by default for 3 v 3.

Deal fields (besides ``dealer``, ``hands`` and ``tricks``):

* ``turn_up`` (required): la retourne, e.g. ``"9H"``; its suit is trump. It is in no hand.
* ``talon`` (optional): the cards left after the deal and the retourne, from the top (the
  next card turned in L'As qui pille first): 32 − 5 × players − 1 cards.
* ``pillage`` (As qui pille only, optional): ``{"seat": s, "taken": [...], "discarded": [...]}``.
  ``seat`` pillages: the dealer when the retourne is an Ace, otherwise the holder of the trump
  Ace (A-R7). ``taken`` lists the cards taken in order: first the retourne, then each next
  talon card, which must be a trump (pillage stops at the first non-trump, or at will).
  ``discarded[i]`` is the card laid face down after taking ``taken[i]`` (one for one, from
  the hand as it is at that moment, so a card just taken may be laid down again).
* ``abandon`` (optional): abandon du point (§2.4 rule 12, A-R6; 2 players or teams only):
  ``{"by": s, "accepted": true|false}``. ``by`` is a seat of the party that offers the point
  as it plays its first card. Accepted: the other party scores 1 and the deal is over (the
  tricks hold at most that first trick). Refused: the deal is played and the refusing party
  must make the vole (+2) or loses 2; the record may stop at the first trick it loses.
* ``stopped`` (optional, default false): vole engagée declined (§2.4 rule 11, A-R4): the party
  that won the first three tricks, nobody else having one, lays its cards down instead of
  leading to the fourth trick and scores 1. The record then holds exactly 3 tricks.

A party that leads to the fourth trick after winning the first three is committed to the vole
(vole engagée): the record may stop at the first trick it loses (−2 for it, nobody scores).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .cards import (
    ACE,
    BIT,
    PIQUET_32,
    RANK,
    SUIT,
    SUIT_MASK,
    Card,
    CardOrder,
    card,
    format_card,
    mask_of,
    rank_order,
)
from .entry import (
    DeclarationField,
    EntryForm,
    Phase,
    dealer_field,
    pack_in_order,
    play_phase,
    tricks_summary_field,
    turn_up_field,
)
from .errors import MalformedRecord, Violation
from .game import DealRules, Game, Setup, register
from .messages import register as register_messages
from .record import join_path, optional_card, optional_cards, read_cards, require_seat
from .summary import TricksSummary, read_summary

ORDER_1725 = CardOrder.from_ranks(rank_order("K Q J A 10 9 8 7"))
"""R > D > V > As > 10 > 9 > 8 > 7 (1725 Triomphe and Écarté)."""
ORDER_PIQUET = CardOrder.from_ranks(rank_order("A K Q J 10 9 8 7"))
"""As > R > D > V > 10 > 9 > 8 > 7 (the piquet order; As qui pille)."""

PACK_MASK = mask_of(PIQUET_32)
HAND_SIZE = 5
TRICKS = 5
MODES = ("forcee", "forcat", "plaisant")
ORDERS = ("1725", "piquet")

#: the suit masks restricted to the piquet pack
_SUIT32 = tuple(SUIT_MASK[s] & PACK_MASK for s in range(4))


# -- legality: one function per way of handling trumps (§2.3) -------------------------------------

def _best_of(trick: Sequence[Card], suit: int, strength: Sequence[int]) -> Card | None:
    best = None
    for c in trick:
        if SUIT[c] == suit and (best is None or strength[c] > strength[best]):
            best = c
    return best


def _result(hand: int, mask: int, rule: str) -> tuple[int, str | None]:
    return (mask, None) if mask == hand else (mask, rule)


def forcee_requirement(hand: int, trick: Sequence[Card], trump: int, order: CardOrder) -> tuple[int, str | None]:
    """Triomphe forcée (§2.3): always follow suit (heading if the trick is not trumped), else
    trump, overtrump if possible, else under-trump. Also Écarté at every table size (A-E7, A-E8;
    at 2 players it is exactly §3.3 rule 10)."""
    if not trick:
        return hand, None
    led = SUIT[trick[0]]
    trumps = hand & _SUIT32[trump]
    best_trump = _best_of(trick, trump, order.strength)
    if led == trump:
        higher = trumps & order.beats[best_trump]  # type: ignore[index]
        if higher:
            return _result(hand, higher, "must_go_higher")
        if trumps:
            return _result(hand, trumps, "must_follow")
        return hand, None
    followers = hand & _SUIT32[led]
    if best_trump is None:
        if followers:
            higher = followers & order.beats[_best_of(trick, led, order.strength)]  # type: ignore[index]
            if higher:
                return _result(hand, higher, "must_follow_higher")
            return _result(hand, followers, "must_follow")
        if trumps:
            return _result(hand, trumps, "must_trump")
        return hand, None
    if followers:
        return _result(hand, followers, "must_follow")
    higher = trumps & order.beats[best_trump]
    if higher:
        return _result(hand, higher, "must_overtrump")
    if trumps:
        return _result(hand, trumps, "must_undertrump")
    return hand, None


def forcat_requirement(hand: int, trick: Sequence[Card], trump: int, order: CardOrder) -> tuple[int, str | None]:
    """Triomphe au forçat (§2.3): make oneself master whenever possible — head in the suit led,
    else trump (even holding lower cards of the suit led), overtrump (even holding the suit led);
    no duty to under-trump when the trick is already trumped (A-R2)."""
    if not trick:
        return hand, None
    led = SUIT[trick[0]]
    if led == trump:
        return forcee_requirement(hand, trick, trump, order)
    trumps = hand & _SUIT32[trump]
    followers = hand & _SUIT32[led]
    best_trump = _best_of(trick, trump, order.strength)
    if best_trump is None:
        higher = followers & order.beats[_best_of(trick, led, order.strength)]  # type: ignore[index]
        if higher:
            return _result(hand, higher, "must_follow_higher")
        if trumps:
            return _result(hand, trumps, "must_trump_to_win" if followers else "must_trump")
        if followers:
            return _result(hand, followers, "must_follow")
        return hand, None
    higher = trumps & order.beats[best_trump]
    if higher:
        return _result(hand, higher, "must_overtrump")
    if followers:
        return _result(hand, followers, "must_follow")
    return hand, None


def plaisant_requirement(hand: int, trick: Sequence[Card], trump: int, order: CardOrder,
                         players: int) -> tuple[int, str | None]:
    """Triomphe au plaisant (§2.3): the last player to the trick plays au forçat; the others only
    follow suit (trump included when trump is led), and trump or discard at will when void."""
    if len(trick) == players - 1:
        return forcat_requirement(hand, trick, trump, order)
    if not trick:
        return hand, None
    followers = hand & _SUIT32[SUIT[trick[0]]]
    if followers:
        return _result(hand, followers, "must_follow")
    return hand, None


def trick_winner(trick: Sequence[Card], trump: int | None, strength: Sequence[int]) -> int:
    """The position of the winning card: the highest trump, else the highest card of the suit led
    (§2.4 rule 8; also Écarté §3.3 rule 11)."""
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        if SUIT[c] == SUIT[best_card]:
            if strength[c] > strength[best_card]:
                best, best_card = i, c
        elif SUIT[c] == trump:
            best, best_card = i, c
    return best


# -- options -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TriompheOptions:
    """The conventions of a Triomphe match (see the module docstring)."""

    players: int = 2
    mode: str = "forcee"
    order: str = "1725"
    as_qui_pille: bool = False
    teams: tuple[tuple[int, ...], ...] | None = None
    target: int | None = None

    @property
    def card_order(self) -> CardOrder:
        return ORDER_PIQUET if self.as_qui_pille or self.order == "piquet" else ORDER_1725

    @property
    def goal(self) -> int:
        """The target in force: ``target``, else 7 for 3 v 3 and 5 otherwise (§2.4 rule 14)."""
        if self.target is not None:
            return self.target
        return 7 if self.teams is not None and len(self.teams[0]) == 3 else 5

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The scoring parties: the two teams, or each player alone."""
        if self.teams is not None:
            return self.teams
        return tuple((seat,) for seat in range(self.players))

    def side_of(self, seat: int) -> int:
        """The index in :attr:`sides` of the party of ``seat``."""
        for i, side in enumerate(self.sides):
            if seat in side:
                return i
        raise ValueError(f"seat {seat} is in no side")

    @property
    def two_parties(self) -> bool:
        """1 v 1 or team v team: where the abandon du point is allowed (A-R6)."""
        return len(self.sides) == 2


# -- one deal ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Pillage:
    """As qui pille: who pillaged, the cards taken in order (the retourne first) and those laid down."""

    seat: int
    taken: tuple[Card, ...]
    discarded: tuple[Card, ...]


@dataclass(frozen=True)
class Abandon:
    """Abandon du point: the seat whose party offered the point, and whether it was accepted."""

    by: int
    accepted: bool


class TriompheDeal(DealRules):
    """The rules of one Triomphe deal."""

    #: the quick summary entered instead of the tricks (``summary``), if any
    summary: TricksSummary | None = None

    tricks_per_deal = TRICKS
    hand_size = HAND_SIZE
    pack = PIQUET_32
    pack_mask = PACK_MASK

    def __init__(self, options: TriompheOptions, *, dealer: int, turn_up: Card, talon: list[Card] | None = None,
                 pillage: Pillage | None = None, abandon: Abandon | None = None, stopped: bool = False) -> None:
        self.options = options
        self.players = options.players
        self.seats = tuple(range(options.players))
        self.dealer = dealer
        self.first_leader = (dealer + 1) % options.players
        self.order = options.card_order
        self.turn_up = turn_up
        self.trump = SUIT[turn_up]
        self.talon = talon
        self.pillage = pillage
        self.abandon = abandon
        self.stopped = stopped
        self._mode = options.mode

    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        mode = self._mode
        if mode == "forcee":
            return forcee_requirement(hand, trick, self.trump, self.order)  # type: ignore[arg-type]
        if mode == "forcat":
            return forcat_requirement(hand, trick, self.trump, self.order)  # type: ignore[arg-type]
        return plaisant_requirement(hand, trick, self.trump, self.order, self.players)  # type: ignore[arg-type]

    def winner(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> int:
        return trick_winner(trick, self.trump, self.order.strength)

    def decided(self, winners: Sequence[int]) -> bool:
        """The point conceded and accepted (the deal ends as the first card is played: at most one trick), the
        cards laid down after the first three tricks, or the side committed to the vole (engaged, or refusing a
        conceded point) losing a trick (§2.4 rules 11 and 12)."""
        abandon = self.abandon
        if abandon is not None and abandon.accepted:
            return len(winners) >= 1
        if self.stopped:
            return len(winners) >= 3
        options = self.options
        sides = [options.side_of(w) for w in winners]
        if abandon is not None:
            refuser = 1 - options.side_of(abandon.by)
            return any(side != refuser for side in sides)
        if len(sides) > 3 and len(set(sides[:3])) == 1:
            return any(side != sides[0] for side in sides[3:])
        return False

    def unplayed(self) -> int:
        """The retourne and the talon, less what a pillage took into hand, plus what it laid down."""
        out = BIT[self.turn_up] | mask_of(self.talon or ())
        if self.pillage is not None:
            out = (out & ~mask_of(self.pillage.taken)) | mask_of(self.pillage.discarded)
        return out

    @property
    def primaute(self) -> tuple[int, ...]:
        """The seats from the first hand to the dealer: the order that breaks ties (§2.4 rule 9)."""
        return tuple((self.dealer + 1 + k) % self.players for k in range(self.players))

    def setup(self, dealt: list[int] | None) -> Setup:
        violations: list[Violation] = []
        unchecked: list[str] = []
        turn_up = self.turn_up
        if not BIT[turn_up] & PACK_MASK:
            violations.append(Violation("card_not_in_pack", None, None, None, turn_up, {"pack": 32}))
        if dealt is not None:
            for seat, hand in enumerate(dealt):
                if hand & BIT[turn_up]:
                    violations.append(Violation("duplicate_card", None, None, seat, turn_up,
                                                {"where": f"main {seat + 1} et retourne"}))
        if self.talon is not None:
            violations += check_talon(self.talon, turn_up, dealt, 32 - HAND_SIZE * self.players - 1)
        hands = list(dealt) if dealt is not None else None
        if self.pillage is not None:
            found, hands = self._check_pillage(self.pillage, hands)
            violations += found
            if dealt is None:
                unchecked.append("declarations")
        return Setup(hands, tuple(violations), None, tuple(unchecked))

    def _check_pillage(self, pillage: Pillage, hands: list[int] | None) -> tuple[list[Violation], list[int] | None]:
        """A-R7 / §2.5: who may pillage, what may be taken, what is laid down."""
        out: list[Violation] = []
        seat = pillage.seat
        trump_ace = card(ACE, self.trump)  # type: ignore[arg-type]
        if RANK[self.turn_up] == ACE:
            if seat != self.dealer:
                out.append(Violation("pillage_not_entitled", None, None, seat, None,
                                     {"holder": "dealer", "ace": format_card(trump_ace)}))
        elif hands is not None and not hands[seat] & BIT[trump_ace]:
            out.append(Violation("pillage_not_entitled", None, None, seat, None,
                                 {"holder": "ace", "ace": format_card(trump_ace)}))
        for i, taken in enumerate(pillage.taken):
            if i == 0:
                if taken != self.turn_up:
                    out.append(Violation("pillage_out_of_order", None, None, seat, taken,
                                         {"expected_card": format_card(self.turn_up)}))
                continue
            if SUIT[taken] != self.trump:
                out.append(Violation("pillage_not_trump", None, None, seat, taken))
            if self.talon is not None and (i - 1 >= len(self.talon) or self.talon[i - 1] != taken):
                expected = self.talon[i - 1] if i - 1 < len(self.talon) else None
                out.append(Violation("pillage_out_of_order", None, None, seat, taken,
                                     {"expected_card": format_card(expected) if expected is not None else ""}))
            elif hands is not None and any(h & BIT[taken] for h in hands):
                holder = next(s for s, h in enumerate(hands) if h & BIT[taken])
                out.append(Violation("duplicate_card", None, None, holder, taken,
                                     {"where": f"main {holder + 1} et talon"}))
        if hands is None:
            return out, None
        hand = hands[seat]
        for taken, laid in zip(pillage.taken, pillage.discarded, strict=True):
            hand |= BIT[taken]
            if not hand & BIT[laid]:
                out.append(Violation("pillage_discard_not_in_hand", None, None, seat, laid))
            hand &= ~BIT[laid]
        hands = list(hands)
        hands[seat] = hand
        return out, hands


def check_talon(talon: Sequence[Card], turn_up: Card, dealt: Sequence[int] | None, size: int) -> list[Violation]:
    """The talon as given: its size, no card twice, none in a hand, not the retourne (shared with Écarté)."""
    out = []
    if len(talon) != size:
        out.append(Violation("wrong_talon_size", None, None, None, None, {"count": len(talon), "expected": size}))
    seen = BIT[turn_up]
    dealt_all = 0
    for hand in dealt or ():
        dealt_all |= hand
    for c in talon:
        if not BIT[c] & PACK_MASK:
            out.append(Violation("card_not_in_pack", None, None, None, c, {"pack": 32}))
        elif seen & BIT[c]:
            out.append(Violation("duplicate_card", None, None, None, c,
                                 {"where": "retourne et talon" if c == turn_up else "talon"}))
        elif dealt_all & BIT[c]:
            holder = next(s for s, h in enumerate(dealt or ()) if h & BIT[c])
            out.append(Violation("duplicate_card", None, None, holder, c, {"where": f"main {holder + 1} et talon"}))
        seen |= BIT[c]
    return out


# -- the game ------------------------------------------------------------------------------------

class Triomphe(Game):
    """La Triomphe and its variants."""

    name: ClassVar[str] = "triomphe"
    label: ClassVar[str] = "Triomphe"
    conventions: ClassVar[Mapping[str, Any]] = {"mode": "forcee", "as_qui_pille": None, "order": "1725"}
    record_fields: ClassVar[Mapping[str, Any]] = {"turn_up": "", "hands": None, "tricks": []}
    options_type: ClassVar[type] = TriompheOptions
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4, 5, 6)

    partners_chosen: ClassVar[bool] = True

    def tournament_options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """With the As qui pille the order of the cards is the piquet's: no ``order`` is written. With
        ``partners`` (the team game, §2.2 rule 3) the table is of 4 (2 contre 2, the default) or 6 (3 contre 3)
        and the sides are the two blocks of seats in the order of play (the seed: partners on the same side of
        the table, facing the other team): ``[[0, 1], [2, 3]]``, ``[[0, 1, 2], [3, 4, 5]]``. Another size is a
        :class:`MalformedRecord` on ``options.teams``."""
        options = super().tournament_options(chosen)
        if options.get("as_qui_pille"):
            options["as_qui_pille"] = True
            options.pop("order", None)
        if chosen.get("partners"):
            players = int(options.get("players") or 4)
            if players not in (4, 6):
                raise MalformedRecord("options.teams", f"the team game is played at tables of 4 (2 v 2) or 6 "
                                                       f"(3 v 3), not {players}",
                                      fr=f"le jeu par équipes se joue à 4 joueurs par table (deux contre deux) "
                                         f"ou à 6 (trois contre trois), pas à {players}")
            options["players"] = players
            half = players // 2
            options["teams"] = [list(range(half)), list(range(half, players))]
        return options

    def default_target(self, options: Mapping[str, Any] | None) -> int | None:
        """The points that end the match: 7 for 3 v 3, 5 otherwise (§2.4 rule 14)."""
        return self.parse_options(dict(options or {})).goal

    def parse_options(self, raw: Mapping[str, Any] | None, *, field: str = "options") -> TriompheOptions:
        raw = dict(raw or {})
        teams = raw.pop("teams", None)
        target = raw.pop("target", None)
        explicit_order = raw.get("order")
        options: TriompheOptions = super().parse_options(raw, field=field)
        if target is not None and (not isinstance(target, int) or isinstance(target, bool) or target < 1):
            raise MalformedRecord(f"{field}.target", f"the target is a whole number of points (1 or more), "
                                                     f"not {target!r}",
                                  fr=f"le but est un nombre entier de points (1 ou plus), pas {target!r}")
        options = replace(options, teams=_read_teams(teams, options.players, f"{field}.teams"), target=target)
        if options.as_qui_pille and explicit_order == "1725":
            raise MalformedRecord(f"{field}.order", "As qui pille is played in the piquet order (the Ace high)",
                                  fr="l'As qui pille se joue dans l'ordre du piquet (l'As en tête)")
        self.check_variants(options, field=field)
        return options

    def check_variants(self, options: TriompheOptions, *, field: str) -> None:
        if options.mode not in MODES:
            raise MalformedRecord(f"{field}.mode", f"{options.mode!r} is not one of {', '.join(MODES)}",
                                  fr=f"{options.mode!r} ne fait pas partie des modes {', '.join(MODES)}")
        if options.order not in ORDERS:
            raise MalformedRecord(f"{field}.order", f"{options.order!r} is not one of {', '.join(ORDERS)}",
                                  fr=f"{options.order!r} ne fait pas partie des ordres {', '.join(ORDERS)}")
        if options.as_qui_pille and (options.players < 3 or options.teams is not None):
            raise MalformedRecord(f"{field}.as_qui_pille", "As qui pille is an individual game of 3 players or more",
                                  fr="l'As qui pille se joue en individuel, à 3 joueurs ou plus")
        if options.mode == "plaisant" and options.teams is not None:
            raise MalformedRecord(f"{field}.mode", "Triomphe au plaisant is an individual game",
                                  fr="la Triomphe au plaisant se joue en individuel")

    def deal_rules(self, options: TriompheOptions, deal: Mapping[str, Any], *, players: int,
                   field: str) -> TriompheDeal:
        turn_up = optional_card(deal, "turn_up", field, pack=PACK_MASK)
        if turn_up is None:
            raise MalformedRecord(join_path(field, "turn_up"), "the retourne (turn_up) is required: it fixes the trump",
                                  fr="la retourne est obligatoire : elle fixe l'atout")
        talon = optional_cards(deal, "talon", field, pack=PACK_MASK)
        pillage = None
        if deal.get("pillage") is not None:
            pillage = _read_pillage(deal["pillage"], join_path(field, "pillage"), players, options)
        abandon = None
        if deal.get("abandon") is not None:
            abandon = _read_abandon(deal["abandon"], join_path(field, "abandon"), players)
        stopped = deal.get("stopped", False)
        if not isinstance(stopped, bool):
            raise MalformedRecord(join_path(field, "stopped"), "stopped is true or false",
                                  fr="stopped vaut true ou false")
        rules = TriompheDeal(options, dealer=deal["dealer"], turn_up=turn_up, talon=talon, pillage=pillage,
                             abandon=abandon, stopped=stopped)
        if deal.get("summary") is not None:
            rules.summary = read_summary(deal["summary"], join_path(field, "summary"), players=players,
                                         keys=("engaged",), pack=PACK_MASK,
                                         sides=len(options.teams) if options.teams else None)
        return rules

    def describe_entry(self, options: TriompheOptions) -> EntryForm:
        return entry_form(options)


def _read_teams(value: Any, players: int, field: str) -> tuple[tuple[int, ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(t, list) for t in value):
        raise MalformedRecord(field, "teams is two lists of seats (2 v 2 or 3 v 3)",
                              fr="teams est formé de deux listes de places (2 contre 2 ou 3 contre 3)")
    seats = [s for t in value for s in t]
    if any(not isinstance(s, int) or isinstance(s, bool) for s in seats) or sorted(seats) != list(range(players)):
        raise MalformedRecord(field, f"the two teams must share out the seats 0 to {players - 1}, each once",
                              fr=f"les deux équipes doivent se partager les places 0 à {players - 1}, "
                                 f"chacune une seule fois")
    if len(value[0]) != len(value[1]) or len(value[0]) not in (2, 3):
        raise MalformedRecord(field, "teams are 2 v 2 or 3 v 3", fr="les équipes sont de 2 contre 2 ou 3 contre 3")
    return tuple(tuple(t) for t in value)


def _read_pillage(value: Any, field: str, players: int, options: TriompheOptions) -> Pillage:
    if not options.as_qui_pille:
        raise MalformedRecord(field, "a pillage is only possible in As qui pille (options.as_qui_pille)",
                              fr="on ne pille qu'à l'As qui pille (une option du tournoi)")
    if not isinstance(value, Mapping):
        raise MalformedRecord(field, 'pillage is {"seat": s, "taken": [...], "discarded": [...]}',
                              fr='le pillage s\'écrit {"seat": s, "taken": [...], "discarded": [...]}')
    seat = require_seat(value, "seat", field, players)
    taken = read_cards(value.get("taken"), f"{field}.taken", pack=PACK_MASK)
    discarded = read_cards(value.get("discarded"), f"{field}.discarded", pack=PACK_MASK)
    if len(taken) != len(discarded):
        raise MalformedRecord(f"{field}.discarded", "one card is laid down for each card taken",
                              fr="on écarte une carte pour chaque carte prise")
    return Pillage(seat, tuple(taken), tuple(discarded))  # type: ignore[arg-type]


def _read_abandon(value: Any, field: str, players: int) -> Abandon:
    if not isinstance(value, Mapping):
        raise MalformedRecord(field, 'abandon is {"by": seat, "accepted": true|false}',
                              fr='l\'abandon s\'écrit {"by": place, "accepted": true|false}')
    by = require_seat(value, "by", field, players)
    accepted = value.get("accepted")
    if not isinstance(accepted, bool):
        raise MalformedRecord(f"{field}.accepted", "accepted is true or false", fr="accepted vaut true ou false")
    return Abandon(by, accepted)  # type: ignore[arg-type]


register_messages({
    "must_trump_to_win": {
        "fr": "Au forçat, {who} ne peut pas monter à {led} et doit couper : sa main contient {example}.",
        "en": "Au forçat, {who} cannot beat {best} in {led_en} and must trump: they hold {example}.",
    },
    "pillage_not_entitled": {
        "fr": "{who} ne peut pas piller : seul le donneur qui retourne un as, sinon le détenteur de {ace}, pille.",
        "en": "{who} may not pillage: only the dealer who turns up an Ace, otherwise the holder of {ace}, does.",
    },
    "pillage_not_trump": {
        "fr": "{who} pille {card}, qui n'est pas de la triomphe : le pillage s'arrête à la première carte "
              "qui n'est pas de la triomphe.",
        "en": "{who} takes {card}, which is not a trump: the pillage stops at the first card that is not a trump.",
    },
    "pillage_out_of_order": {
        "fr": "{who} pille {card}, mais la carte à prendre était {expected_card} (la retourne, puis le talon "
              "dans l'ordre).",
        "en": "{who} takes {card}, but the card to take was {expected_card} (the retourne, then the talon "
              "in order).",
    },
    "pillage_discard_not_in_hand": {
        "fr": "{who} écarte {card}, absent(e) de sa main.",
        "en": "{who} lays down {card}, which is not in their hand.",
    },
    "abandon_not_allowed": {
        "fr": "L'abandon du point ne se joue qu'à un contre un ou équipe contre équipe.",
        "en": "The point may be conceded only one against one or team against team.",
    },
    "play_after_abandon": {
        "fr": "Le point abandonné a été accepté : le coup était terminé, aucune autre carte ne se joue.",
        "en": "The conceded point was accepted: the deal was over, no further card is played.",
    },
    "stop_not_allowed": {
        "fr": "On ne baisse ses cartes pour marquer 1 point qu'après avoir fait les trois premières levées, "
              "les autres n'en ayant aucune (et sans avoir refusé un abandon).",
        "en": "A player may lay down his cards for 1 point only after winning the first three tricks, nobody "
              "else having one (and not after refusing a conceded point).",
    },
})

TRIOMPHE = register(Triomphe())


def random_match(rng: random.Random, *, deals: int = 6) -> dict[str, Any]:
    """A match record of La Triomphe at 2 (forcée), for benchmarks and tests: ``deals`` random deals, the
    dealer alternating, each played out at random to its last trick; the target high enough that every deal
    counts."""
    from .play import DealState, play_out_randomly  # late: reading records does not need it

    options = TriompheOptions(players=2, target=100)
    out: list[dict[str, Any]] = []
    for i in range(deals):
        pack = list(PIQUET_32)
        rng.shuffle(pack)
        dealer = i % 2
        hands = [pack[0:5], pack[5:10]]
        deal: dict[str, Any] = {"dealer": dealer, "turn_up": format_card(pack[10]),
                                "hands": [[format_card(c) for c in h] for h in hands],
                                "talon": [format_card(c) for c in pack[11:]]}
        rules = TriompheDeal(options, dealer=dealer, turn_up=pack[10], talon=pack[11:])
        deal["tricks"] = play_out_randomly(DealState(rules, [mask_of(h) for h in hands]), rng)
        out.append(deal)
    return {"format": "levee.match/1", "game": "triomphe", "options": {"players": 2, "target": 100},
            "players": ["Ana", "Bruno"], "deals": out}


# -- what the entry of a deal asks for (rules/entry.py) ----------------------------------------------

def entry_form(options: TriompheOptions) -> EntryForm:
    """The phases of a Triomphe deal and their declarations (§2.2 to §2.5 of RULES.md)."""
    talon = 32 - HAND_SIZE * options.players - 1
    phases = [Phase("deal", "Donne", (
        dealer_field(),
        turn_up_field(help="Sa couleur est la triomphe (l'atout)."),
        DeclarationField("talon", "cards", "Talon (facultatif)", min=talon, max=talon,
                         help="Les cartes restantes, de la première à piocher à la dernière."),
    ))]
    if options.as_qui_pille:
        phases.append(Phase("pillage", "Pillage (l'As qui pille)", (
            DeclarationField("pillage", "object", "Pillage", fields=(
                DeclarationField("seat", "seat", "Pilleur", required=True,
                                 help="Le donneur s'il retourne un as, sinon le détenteur de l'as d'atout."),
                DeclarationField("taken", "cards", "Cartes prises, dans l'ordre", required=True, min=1,
                                 help="La retourne, puis chaque carte suivante du talon tant qu'elle est d'atout."),
                DeclarationField("discarded", "cards", "Cartes écartées, une par carte prise", required=True, min=1),
            )),
        )))
    play_fields: list[DeclarationField] = []
    if options.two_parties:
        play_fields.append(DeclarationField("abandon", "object", "Abandon du point", fields=(
            DeclarationField("by", "seat", "Camp qui abandonne (en jouant sa première carte)", required=True),
            DeclarationField("accepted", "boolean", "Abandon accepté", required=True,
                             help="Accepté : l'autre camp marque 1 et le coup s'arrête. Refusé : le camp qui "
                                  "refuse doit faire la vole (+2) ou perd 2."),
        )))
    play_fields.append(DeclarationField(
        "stopped", "boolean", "Vole non engagée : cartes baissées après les trois premières levées", default=False,
        help="Le camp qui a fait les trois premières levées baisse ses cartes et marque 1 ; s'il entame la "
             "quatrième, la vole est engagée."))
    phases.append(Phase("announcements", "Abandon et vole", tuple(play_fields)))
    phases.append(play_phase(TRICKS))
    phases.append(Phase("summary", "Résumé de la donne", (
        tricks_summary_field(TRICKS, help="Les plis de chaque joueur : seul le total de son camp compte." if
                             options.teams else ""),
        DeclarationField("summary.engaged", "boolean", "Vole engagée", default=False,
                         help="Le camp qui a fait les trois premières levées, les autres n'en ayant aucune, a "
                              "entamé la quatrième."),
    ), kind="summary", help="Au lieu des plis, quand ils n'ont pas été notés."))
    return EntryForm("triomphe", options.players, tuple(phases), pack_in_order(PIQUET_32, options.card_order),
                     TRICKS, HAND_SIZE)
