"""L'Écarté at 2, 3 and 4 players (RULES.md §3).

One deal: 32-card pack in the order K Q J A 10 9 8 7, 5 cards each, the next card turned up
(la retourne) names the trump; the rest is the talon, from which the exchange (l'écart) draws;
the retourne is never drawn. The first hand (``(dealer + 1) % n``, « premier en main ») leads
the first trick; 5 tricks.

Legality is Triomphe forcée at every table size (:func:`rules.triomphe.forcee_requirement`): at
2 players it is exactly §3.3 rule 10 (follow, and beat the led card if you can, also in trumps;
else trump), at 3 and 4 players it is the explicit forcée rule (A-E7, A-E8: under-trump duty).

Options (:class:`EcarteOptions`):

* ``players``: 2, 3 or 4 (4 = two teams of two, partners opposite: seats 0 and 2 against 1 and 3).
* ``target``: points of a manche: 5 by default at 2 players, 7 at 3 and 4 (§3.4 rule 15, §3.6, §3.7);
  a number, or ``"retourne"``: the value of the first retourne of the manche (figure 10, Ace 11,
  other cards their face value, A-E5).
* ``false_king_penalty`` (default true, A-E2): a false announcement of the king of trumps gives the
  adversary (each adversary at 3 players, the other team at 4) 1 point.
* ``partie_liee``: two manches and a belle (2 or 4 players); default false at 2, true at 4 (§3.7).

Deal fields (besides ``dealer``, ``hands`` — as dealt, before the exchange — and ``tricks``):

* ``turn_up`` (required, except in a quick summary without tricks, hands or talon when the target is not
  ``"retourne"``: ``summary.turned_king`` then says whether it was a king): la retourne.
* ``talon`` (optional): the undealt cards below the retourne, from the top (the next card drawn
  first): 32 − 5n − 1 cards. When given, every card drawn must be the next card of the talon.
* ``exchanges`` (required when ``tricks`` are given, at 2 and 3 players): the steps of the
  exchange, in the order they happened, each ``{"seat": s, "action": a, ...}``:

  - ``{"action": "play"}`` by the first hand: « je joue ». As the first step, he plays d'autorité
    (no exchange for anybody); after an exchange round, he simply starts the play.
  - ``{"action": "propose"}`` by the first hand: « cartes », « je propose ».
  - then each other player in turn from the first hand's right (at 2 players: the dealer)
    answers ``{"action": "accept"}`` (« combien ? ») or ``{"action": "refuse"}`` (« jouez »);
    a refusal starts the play at once (at 3 players a single refusal suffices).
  - when all accepted, each player in the same order exchanges:
    ``{"action": "exchange", "discards": [...], "draws": [...]}``. The first hand discards at least
    one card, the others 0 to 5 (A-E4); a 0-card exchange may be left out. ``draws`` may be left
    out when ``talon`` is given (they are then its next cards); otherwise one card is drawn for
    each card discarded. Then the first hand plays or proposes again (the list may end after an
    exchange round: the first hand then plays).

  At 4 players there is no exchange (A-E8): leave ``exchanges`` out or give ``[{"seat": f,
  "action": "play"}]``. A record without ``exchanges`` and without tricks is a deal that ended
  before the exchange (a turned king or a king announcement that ended the manche).
* ``king`` (optional): the king of trumps announced, ``{"seat": s, "trick": t}``: ``trick`` null
  when announced before any card was played, or the trick (from 0) during which the seat
  announced it as it played its card. Only ``trick`` 0 or null is in time (A-E1: no later than his
  first card); a later announcement is void. A king drawn in the exchange counts.
* ``seats`` (3 players only, after a player reached the target and withdrew, §3.6 rule 25): the two
  seats that still play; the deal is then a 2-player deal between them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .cards import ACE, BIT, KING, PIQUET_32, RANK, SUIT, Card, format_card, mask_of
from .entry import (
    Choice,
    DeclarationField,
    EntryForm,
    Phase,
    When,
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
from .triomphe import ORDER_1725, PACK_MASK, check_talon, forcee_requirement, trick_winner

HAND_SIZE = 5
TRICKS = 5
ACTIONS = ("play", "propose", "accept", "refuse", "exchange")


def retourne_value(turn_up: Card) -> int:
    """The target set by a retourne (A-E5): figure 10, Ace 11, other cards their face value."""
    rank = RANK[turn_up]
    if rank == ACE:
        return 11
    return 10 if rank > 10 else rank


@dataclass(frozen=True)
class EcarteOptions:
    """The conventions of an Écarté match (see the module docstring)."""

    players: int = 2
    target: int | str | None = None
    false_king_penalty: bool = True
    partie_liee: bool | None = None

    @property
    def liee(self) -> bool:
        """Two manches and a belle."""
        return self.partie_liee if self.partie_liee is not None else self.players == 4

    def goal(self, first_turn_up: Card | None) -> int | None:
        """The points of a manche, given the manche's first retourne (for ``"retourne"``)."""
        if self.target == "retourne":
            return retourne_value(first_turn_up) if first_turn_up is not None else None
        if isinstance(self.target, int):
            return self.target
        return 5 if self.players == 2 else 7

    @property
    def teams(self) -> tuple[tuple[int, ...], ...] | None:
        return ((0, 2), (1, 3)) if self.players == 4 else None


@dataclass(frozen=True)
class ExchangeStep:
    """One step of the exchange: the seat, the action, and for ``exchange`` the cards laid down and drawn."""

    seat: int
    action: str
    discards: tuple[Card, ...] = ()
    draws: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class King:
    """The king of trumps announced by ``seat``: before any card (``trick`` None) or during ``trick``."""

    seat: int
    trick: int | None

    @property
    def in_time(self) -> bool:
        """A-E1: no later than the announcer's first card (played to the first trick)."""
        return self.trick is None or self.trick == 0


class EcarteDeal(DealRules):
    """The rules of one Écarté deal."""

    #: the quick summary entered instead of the tricks (``summary``), if any
    summary: TricksSummary | None = None
    #: a summary's ``turned_king`` (the retourne was a king), when given
    summary_turned_king: bool | None = None
    #: a summary's ``declined_by``, when given: ``(seat or None,)`` — None when cards were exchanged
    summary_declined: tuple[int | None] | None = None

    tricks_per_deal = TRICKS
    hand_size = HAND_SIZE
    pack = PIQUET_32
    pack_mask = PACK_MASK
    order = ORDER_1725

    def __init__(self, options: EcarteOptions, *, dealer: int, turn_up: Card | None, seats: tuple[int, ...],
                 talon: list[Card] | None = None, exchanges: list[ExchangeStep] | None = None,
                 king: King | None = None) -> None:
        self.options = options
        self.seats = seats
        self.dealer = dealer
        self.first_leader = self.next_seat(dealer)
        self.turn_up = turn_up
        self.trump = SUIT[turn_up] if turn_up is not None else None  # unknown in a summary without the retourne
        self.talon = talon
        self.exchanges = exchanges
        self.king = king

    @property
    def primaute(self) -> tuple[int, ...]:
        """The playing seats from the first hand to the dealer."""
        i = self.seats.index(self.first_leader)
        return self.seats[i:] + self.seats[:i]

    @property
    def talon_size(self) -> int:
        return 32 - HAND_SIZE * len(self.seats) - 1

    def unplayed(self) -> int:
        """The retourne (never drawn) and the cards laid down in the exchange (dead)."""
        out = BIT[self.turn_up] if self.turn_up is not None else 0
        for step in self.exchanges or ():
            out |= mask_of(step.discards)
        return out

    @property
    def turned_king(self) -> bool:
        """Whether the dealer turned the king (A-E6): from the retourne, or from a summary without it."""
        if self.turn_up is not None:
            return RANK[self.turn_up] == KING
        return bool(self.summary_turned_king)

    @property
    def exchanged(self) -> bool:
        """Whether any card was exchanged (from the steps, or from a summary's ``declined_by`` without them)."""
        if self.exchanges is None and self.summary_declined is not None:
            return self.summary_declined[0] is None
        return any(s.action == "exchange" and s.discards for s in self.exchanges or ())

    @property
    def decliner(self) -> int | None:
        """The seat that declined the exchange when none at all took place (A-E3): the first hand who
        played d'autorité, or the player who refused the first proposal. None otherwise (and when
        an exchange took place, or at 4 players where there is none)."""
        if len(self.seats) == 4:
            return None
        if self.exchanges is None and self.summary_declined is not None:
            return self.summary_declined[0]
        if not self.exchanges:
            return None
        return self.steps_decliner

    @property
    def steps_decliner(self) -> int | None:
        """The seat that declined the exchange according to its steps (see :attr:`decliner`)."""
        for step in self.exchanges or ():
            if step.action == "exchange":
                return None
            if step.action in ("play", "refuse"):
                return step.seat
        return None

    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        return forcee_requirement(hand, trick, self.trump, ORDER_1725)  # type: ignore[arg-type]

    def winner(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> int:
        return trick_winner(trick, self.trump, ORDER_1725.strength)

    def setup(self, dealt: list[int] | None) -> Setup:
        violations: list[Violation] = []
        turn_up = self.turn_up
        if turn_up is None:  # a quick summary: no cards to check
            return Setup(list(dealt) if dealt is not None else None, (), None, ())
        if not BIT[turn_up] & PACK_MASK:
            violations.append(Violation("card_not_in_pack", None, None, None, turn_up, {"pack": 32}))
        if dealt is not None:
            for seat in range(len(dealt)):
                if seat not in self.seats and dealt[seat]:
                    violations.append(Violation("wrong_hand_size", None, None, seat, None,
                                                {"count": dealt[seat].bit_count(), "expected": 0}))
                if dealt[seat] & BIT[turn_up]:
                    violations.append(Violation("duplicate_card", None, None, seat, turn_up,
                                                {"where": f"main {seat + 1} et retourne"}))
        if self.talon is not None:
            violations += check_talon(self.talon, turn_up, dealt, self.talon_size)
        hands = list(dealt) if dealt is not None else None
        found, hands = self._check_exchanges(hands)
        violations += found
        return Setup(hands, tuple(violations), None, ())

    def _check_exchanges(self, hands: list[int] | None) -> tuple[list[Violation], list[int] | None]:
        """A-E4: discards from the hand (≥ 1 for the first hand), draws from the talon in order, never
        more than the talon holds, never the retourne."""
        out: list[Violation] = []
        dealt_all = 0
        for h in hands or ():
            dealt_all |= h
        drawn = 0
        used = 0  # cards taken from the talon so far
        first = self.first_leader
        for step in self.exchanges or ():
            if step.action != "exchange":
                continue
            seat = step.seat
            count = len(step.discards)
            if seat == first and count == 0:
                out.append(Violation("exchange_must_discard", None, None, seat, None))
            if count > HAND_SIZE:
                out.append(Violation("exchange_too_many", None, None, seat, None, {"count": count}))
            draws = step.draws
            if draws is None:
                draws = tuple(self.talon[used:used + count]) if self.talon is not None else ()
            elif len(draws) != count:
                out.append(Violation("exchange_draw_count", None, None, seat, None,
                                     {"count": len(draws), "expected": count}))
            wanted = count  # the cards asked for are the cards discarded
            if used + wanted > self.talon_size:
                out.append(Violation("exchange_talon_exceeded", None, None, seat, None,
                                     {"count": used + wanted, "talon": self.talon_size}))
            for k, c in enumerate(draws):
                if c == self.turn_up:
                    out.append(Violation("exchange_draws_turn_up", None, None, seat, c))
                elif self.talon is not None and step.draws is not None and (
                        used + k >= len(self.talon) or self.talon[used + k] != c):
                    expected = self.talon[used + k] if used + k < len(self.talon) else None
                    out.append(Violation("exchange_draw_out_of_order", None, None, seat, c,
                                         {"expected_card": format_card(expected) if expected is not None else ""}))
                elif (dealt_all | drawn) & BIT[c]:
                    out.append(Violation("duplicate_card", None, None, seat, c, {"where": "talon"}))
                drawn |= BIT[c]
            used += len(draws)
            if hands is not None:
                hand = hands[seat]
                for c in step.discards:
                    if not hand & BIT[c]:
                        out.append(Violation("exchange_discard_not_in_hand", None, None, seat, c))
                    hand &= ~BIT[c]
                for c in draws:
                    hand |= BIT[c]
                hands[seat] = hand
        return out, hands


# -- reading the record --------------------------------------------------------------------------

class Ecarte(Game):
    """L'Écarté."""

    name: ClassVar[str] = "ecarte"
    label: ClassVar[str] = "Écarté"
    record_fields: ClassVar[Mapping[str, Any]] = {"turn_up": "", "exchanges": [], "king": None, "hands": None,
                                                  "tricks": []}
    options_type: ClassVar[type] = EcarteOptions
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)

    def default_target(self, options: Mapping[str, Any] | None) -> int | None:
        """The points of a manche: 5 at 2 players, 7 at 3 and 4 (§3.4 rule 15); None for « retourne »."""
        return self.parse_options(dict(options or {})).goal(None)

    def parse_options(self, raw: Mapping[str, Any] | None, *, field: str = "options") -> EcarteOptions:
        raw = dict(raw or {})
        target = raw.pop("target", None)
        liee = raw.pop("partie_liee", None)
        options: EcarteOptions = super().parse_options(raw, field=field)
        if target is not None and target != "retourne" and (
                not isinstance(target, int) or isinstance(target, bool) or target < 1):
            raise MalformedRecord(f"{field}.target", f'the target is a number of points or "retourne", not {target!r}',
                                  fr=f'le but est un nombre de points ou « retourne », pas {target!r}')
        if liee is not None and not isinstance(liee, bool):
            raise MalformedRecord(f"{field}.partie_liee", "partie_liee is true or false",
                                  fr="partie_liee vaut true ou false")
        if liee and options.players == 3:
            raise MalformedRecord(f"{field}.partie_liee", "Écarté à trois is one game to 7 (the winner withdraws)",
                                  fr="l'Écarté à trois se joue en une seule partie de 7 points (le gagnant se retire)")
        return replace(options, target=target, partie_liee=liee)

    def describe_entry(self, options: EcarteOptions) -> EntryForm:
        return entry_form(options)

    def deal_rules(self, options: EcarteOptions, deal: Mapping[str, Any], *, players: int,
                   field: str) -> EcarteDeal:
        turn_up = optional_card(deal, "turn_up", field, pack=PACK_MASK)
        summary_only = (deal.get("summary") is not None and not deal.get("tricks") and deal.get("hands") is None
                        and deal.get("talon") is None)
        if turn_up is None and not (summary_only and options.target != "retourne"):
            why, why_fr = "it fixes the trump", "elle fixe l'atout"
            if summary_only:
                why, why_fr = "it sets the target of the manche", "elle fixe le but de la manche"
            raise MalformedRecord(join_path(field, "turn_up"), f"the retourne is required: {why}",
                                  fr=f"la retourne est obligatoire : {why_fr}")
        dealer = deal["dealer"]
        seats = tuple(range(players))
        if deal.get("seats") is not None:
            seats = _read_seats(deal["seats"], join_path(field, "seats"), players, dealer)
        talon = optional_cards(deal, "talon", field, pack=PACK_MASK)
        exchanges = None
        if deal.get("exchanges") is not None:
            exchanges = _read_exchanges(deal["exchanges"], join_path(field, "exchanges"), seats, dealer,
                                        talon_known=talon is not None, hands_known=deal.get("hands") is not None)
        elif deal.get("tricks") and len(seats) < 4:
            raise MalformedRecord(join_path(field, "exchanges"), "the exchange is needed with the tricks: at least "
                                                             "the first hand's « je joue »",
                                  fr="l'échange est à dire avec les plis : au moins le « je joue » du premier "
                                     "en main")
        king = None
        if deal.get("king") is not None:
            king = _read_king(deal["king"], join_path(field, "king"), seats)
        rules = EcarteDeal(options, dealer=dealer, turn_up=turn_up, seats=seats, talon=talon, exchanges=exchanges,
                           king=king)
        if deal.get("summary") is not None:
            where = join_path(field, "summary")
            rules.summary = read_summary(deal["summary"], where, players=players,
                                         keys=("first_to_two", "turned_king", "declined_by"), pack=PACK_MASK,
                                         sides=2 if options.players == 4 else None)
            _read_summary_extras(rules, deal["summary"], where)
        return rules


def _read_summary_extras(rules: EcarteDeal, raw: Mapping[str, Any], field: str) -> None:
    """A summary's king turned and who declined the exchange (what the steps and the retourne say in full)."""
    turned = raw.get("turned_king")
    if turned is not None:
        if not isinstance(turned, bool):
            raise MalformedRecord(join_path(field, "turned_king"), "true or false",
                                  fr="le roi retourné se dit par oui ou non")
        rules.summary_turned_king = turned
    if "declined_by" in raw:
        seat = raw["declined_by"]
        where = join_path(field, "declined_by")
        if len(rules.seats) == 4:
            if seat is not None:
                raise MalformedRecord(where, "no exchange at 4 players: nobody declines it",
                                      fr="pas d'échange à quatre joueurs : personne ne le refuse")
        elif seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or seat not in rules.seats):
            raise MalformedRecord(where, "a player of this deal, or nobody when cards were exchanged",
                                  fr="un joueur de cette donne, ou personne quand des cartes ont été échangées")
        rules.summary_declined = (seat,)
    elif rules.exchanges is None and len(rules.seats) < 4:
        raise MalformedRecord(join_path(field, "declined_by"),
                              "who declined the exchange (it decides the point de refus), or nobody when cards "
                              "were exchanged",
                              fr="dites qui a refusé l'échange (il décide du point de refus), ou personne quand "
                                 "des cartes ont été échangées")


def _read_seats(value: Any, field: str, players: int, dealer: int) -> tuple[int, ...]:
    if players != 3:
        raise MalformedRecord(field, "seats is only for Écarté à trois, after a player withdrew",
                              fr="seats ne sert qu'à l'Écarté à trois, après le retrait d'un joueur")
    if (not isinstance(value, list) or len(value) != 2 or len(set(value)) != 2
            or any(not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < players for s in value)):
        raise MalformedRecord(field, "seats lists the two seats that still play",
                              fr="seats donne les deux places qui jouent encore")
    if dealer not in value:
        raise MalformedRecord(field, "the dealer is one of the two seats that still play",
                              fr="le donneur est l'une des deux places qui jouent encore")
    return tuple(sorted(value))


def _read_king(value: Any, field: str, seats: tuple[int, ...]) -> King:
    if not isinstance(value, Mapping):
        raise MalformedRecord(field, 'king is {"seat": s, "trick": null or the trick of the announcement}',
                              fr='king s\'écrit {"seat": s, "trick": null ou le pli de l\'annonce}')
    seat = value.get("seat")
    if seat not in seats or isinstance(seat, bool):
        raise MalformedRecord(f"{field}.seat", f"a seat that plays this deal ({', '.join(map(str, seats))})",
                              fr=f"une place qui joue cette donne ({', '.join(map(str, seats))})")
    trick = value.get("trick")
    if trick is not None and (not isinstance(trick, int) or isinstance(trick, bool) or not 0 <= trick < TRICKS):
        raise MalformedRecord(f"{field}.trick", "null (before any card) or a trick from 0 to 4",
                              fr="null (avant toute carte) ou un pli de 0 à 4")
    return King(seat, trick)


def _read_exchanges(value: Any, field: str, seats: tuple[int, ...], dealer: int, *, talon_known: bool,
                    hands_known: bool) -> list[ExchangeStep]:
    """Read the steps and check their order (the grammar of the module docstring)."""
    if not isinstance(value, list) or not value:
        raise MalformedRecord(field, 'exchanges is a non-empty list of steps, e.g. [{"seat": 1, "action": "play"}]',
                              fr='exchanges est une liste non vide d\'étapes, par exemple '
                                 '[{"seat": 1, "action": "play"}]')
    steps = []
    for i, raw in enumerate(value):
        path = f"{field}[{i}]"
        if not isinstance(raw, Mapping):
            raise MalformedRecord(path, 'a step is {"seat": s, "action": ...}',
                                  fr='une étape s\'écrit {"seat": s, "action": ...}')
        seat = require_seat(raw, "seat", path, max(seats) + 1)
        action = raw.get("action")
        if action not in ACTIONS:
            raise MalformedRecord(f"{path}.action", f"one of {', '.join(ACTIONS)}",
                                  fr=f"l'une des actions {', '.join(ACTIONS)}")
        discards: tuple[Card, ...] = ()
        draws = None
        if action == "exchange":
            discards = tuple(read_cards(raw.get("discards", []), f"{path}.discards", pack=PACK_MASK))
            if raw.get("draws") is not None:
                draws = tuple(read_cards(raw["draws"], f"{path}.draws", pack=PACK_MASK))
            elif discards and hands_known and not talon_known:
                raise MalformedRecord(f"{path}.draws", "the cards drawn are needed (or give the talon)",
                                      fr="les cartes reçues sont nécessaires (ou donnez le talon)")
        steps.append(ExchangeStep(seat, action, discards, draws))  # type: ignore[arg-type]
    i = seats.index(dealer)
    order = seats[i + 1:] + seats[:i + 1]
    first = order[0]
    if len(seats) == 4:
        if len(steps) != 1 or steps[0].action != "play" or steps[0].seat != first:
            raise MalformedRecord(field, f'no exchange at 4 players: [{{"seat": {first}, "action": "play"}}] '
                                         'or nothing',
                                  fr=f'pas d\'échange à 4 joueurs : [{{"seat": {first}, "action": "play"}}] '
                                     'ou rien')
        return steps

    def expect(k: int, seat: int, actions: tuple[str, ...]) -> ExchangeStep:
        if k >= len(steps):
            raise MalformedRecord(field, f"the exchange stops short: seat {seat} must still say "
                                         f"{' or '.join(actions)}",
                                  fr=f"l'échange s'arrête trop tôt : la place {seat} doit encore dire "
                                     f"{' ou '.join(actions)}")
        step = steps[k]
        if step.seat != seat or step.action not in actions:
            raise MalformedRecord(f"{field}[{k}]", f"expected seat {seat} to say {' or '.join(actions)}, "
                                                   f"got seat {step.seat} saying {step.action}",
                                  fr=f"la place {seat} devait dire {' ou '.join(actions)}, "
                                     f"mais c'est la place {step.seat} qui dit {step.action}")
        return step

    k = 0
    rounds = 0
    while True:
        if k == len(steps) and rounds > 0:
            return steps  # after an exchange round the first hand plays
        step = expect(k, first, ("play", "propose"))
        k += 1
        if step.action == "play":
            break
        refused = False
        for seat in order[1:]:
            answer = expect(k, seat, ("accept", "refuse"))
            k += 1
            if answer.action == "refuse":
                refused = True
                break
        if refused:
            break
        expect(k, first, ("exchange",))
        k += 1
        for seat in order[1:]:
            if k < len(steps) and steps[k].seat == seat and steps[k].action == "exchange":
                k += 1
        rounds += 1
    if k != len(steps):
        raise MalformedRecord(f"{field}[{k}]", "the play has started: no exchange step may follow",
                              fr="le jeu a commencé : aucune étape d'échange ne peut suivre")
    return steps


def random_record(rng: random.Random, *, players: int = 2) -> dict[str, Any]:
    """A random legal deal record with hands, talon, a random exchange (2 and 3 players) and a random
    legal play of the five tricks: for benchmarks and demonstrations."""
    from .play import DealState, play_out_randomly  # late: rules.play is not needed to read records

    pack = list(PIQUET_32)
    rng.shuffle(pack)
    dealer = rng.randrange(players)
    order = [(dealer + 1 + k) % players for k in range(players)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i, seat in enumerate(order):
        hands[seat] = pack[5 * i:5 * i + 5]
    turn_up, talon = pack[5 * players], pack[5 * players + 1:]
    names = [f"P{i + 1}" for i in range(players)]
    data: dict[str, Any] = {"format": "levee.deal/1", "game": "ecarte", "players": names,
                            "dealer": dealer, "hands": [_codes(h) for h in hands], "turn_up": format_card(turn_up),
                            "talon": _codes(talon)}
    steps: list[dict[str, Any]] = [{"seat": order[0], "action": "play"}]
    if players < 4 and rng.random() < 0.7:
        steps = [{"seat": order[0], "action": "propose"}] + [{"seat": s, "action": "accept"} for s in order[1:]]
        used = 0
        for seat in order:
            k = rng.randint(1 if seat == order[0] else 0, 3)
            steps.append({"seat": seat, "action": "exchange", "discards": _codes(rng.sample(hands[seat], k)),
                          "draws": _codes(talon[used:used + k])})
            used += k
    data["exchanges"] = steps
    game = ECARTE
    options = game.parse_options({"players": players})
    rules = game.deal_rules(options, data, players=players, field="")
    dealt = [sum(BIT[c] for c in h) for h in hands]
    data["tricks"] = play_out_randomly(DealState(rules, rules.setup(dealt).hands), rng)
    return data


def _codes(cards: Sequence[Card]) -> list[str]:
    return [format_card(c) for c in cards]


register_messages({
    "exchange_must_discard": {
        "fr": "{who} a demandé des cartes : au moins une carte doit être écartée.",
        "en": "{who} asked for cards: they must discard at least one.",
    },
    "exchange_too_many": {
        "fr": "{who} écarte {count} cartes : on n'en écarte pas plus de 5.",
        "en": "{who} discards {count} cards: no more than 5 may be discarded.",
    },
    "exchange_draw_count": {
        "fr": "{who} reçoit {count} cartes pour {expected} écartées.",
        "en": "{who} draws {count} cards for {expected} discarded.",
    },
    "exchange_talon_exceeded": {
        "fr": "{who} demande plus de cartes que le talon n'en contient ({count} pour {talon}).",
        "en": "{who} asks for more cards than the talon holds ({count} of {talon}).",
    },
    "exchange_draws_turn_up": {
        "fr": "{who} reçoit la retourne ({card}), qui ne se distribue jamais.",
        "en": "{who} is given the retourne ({card}), which is never drawn.",
    },
    "exchange_draw_out_of_order": {
        "fr": "{who} reçoit {card}, mais la carte suivante du talon était {expected_card}.",
        "en": "{who} draws {card}, but the next card of the talon was {expected_card}.",
    },
    "exchange_discard_not_in_hand": {
        "fr": "{who} écarte {card}, absent(e) de sa main.",
        "en": "{who} discards {card}, which is not in their hand.",
    },
})

ECARTE = register(Ecarte())


# -- what the entry of a deal asks for (rules/entry.py) ----------------------------------------------

ACTION_LABELS = {"play": "Je joue", "propose": "Je propose (cartes)", "accept": "Accepté (combien ?)",
                 "refuse": "Refusé (jouez)", "exchange": "Écart et reprise"}


def entry_form(options: EcarteOptions) -> EntryForm:
    """The phases of an Écarté deal and their declarations (§3.2 to §3.7 of RULES.md).

    A quick summary asks only what its marks depend on: the tricks won, the king marked (turned by the dealer or
    announced) and, at 2 and 3 players, who declined the exchange (the point de refus); the retourne (unless it
    sets the target), the talon and the steps of the exchange are asked card by card only (``tricks_only``)."""
    talon = 32 - HAND_SIZE * options.players - 1
    by_retourne = options.target == "retourne"
    deal = [
        dealer_field(),
        turn_up_field(help="Sa couleur est l'atout ; un roi retourné marque 1 point au donneur.",
                      tricks_only=not by_retourne),
        DeclarationField("talon", "cards", "Talon (facultatif)", min=talon, max=talon, tricks_only=True,
                         help="Les cartes sous la retourne, de la première à piocher à la dernière."),
    ]
    if options.players == 3:
        deal.append(DeclarationField("seats", "seats", "Les deux joueurs restants", min=2, max=2,
                                     help="Quand un joueur a atteint le but et s'est retiré."))
    phases = [Phase("deal", "Donne", tuple(deal))]
    if options.players != 4:
        exchange = When("action", ("exchange",))
        phases.append(Phase("exchanges", "Propositions et écart", (
            DeclarationField("exchanges", "list", "Propositions, réponses et écarts, dans l'ordre", fields=(
                DeclarationField("seat", "seat", "Joueur", required=True),
                DeclarationField("action", "choice", "Action", required=True,
                                 choices=tuple(Choice(a, ACTION_LABELS[a]) for a in ACTIONS)),
                DeclarationField("discards", "cards", "Cartes écartées", min=0, max=HAND_SIZE, when=(exchange,)),
                DeclarationField("draws", "cards", "Cartes reprises (facultatif si le talon est donné)", min=0,
                                 max=HAND_SIZE, when=(exchange,)),
            ), tricks_only=True,
                help="Le premier en main joue ou propose ; chaque autre accepte ou refuse ; un refus fait jouer. "
                     "Après un tour d'écart, le premier en main joue ou propose encore."),
        )))
    phases.append(Phase("king", "Roi d'atout", (
        DeclarationField("king", "object", "Roi d'atout annoncé", fields=(
            DeclarationField("seat", "seat", "Joueur qui l'annonce", required=True),
            DeclarationField("trick", "choice", "Quand", nullable="Avant la première carte",
                             choices=(Choice(0, "En jouant sa première carte"),
                                      *(Choice(t, f"Au pli {t + 1} (trop tard)") for t in range(1, TRICKS))),
                             help="L'annonce compte au plus tard en jouant sa première carte."),
        )),
    )))
    phases.append(play_phase(TRICKS))
    summary = [tricks_summary_field(TRICKS)]
    if options.players == 3:
        summary.append(DeclarationField("summary.first_to_two", "seat", "Premier à deux plis", playing=True,
                                        help="Obligatoire quand les plis sont deux, deux et un : le point va au "
                                             "premier qui a fait deux plis."))
    if not by_retourne:
        summary.append(DeclarationField("summary.turned_king", "boolean", "Le donneur a retourné le roi",
                                        default=False, help="Un roi retourné marque 1 point au donneur."))
    if options.players != 4:
        summary.append(DeclarationField(
            "summary.declined_by", "seat", "Échange refusé par", required=True, playing=True,
            nullable="Personne : des cartes ont été échangées",
            help="Le premier en main qui a joué d'autorité, ou le joueur qui a refusé la première proposition : "
                 "c'est ce qui décide du point de refus."))
    phases.append(Phase("summary", "Résumé de la donne", tuple(summary), kind="summary",
                        help="Au lieu des plis, quand ils n'ont pas été notés."))
    return EntryForm("ecarte", options.players, tuple(phases), pack_in_order(PIQUET_32, ORDER_1725), TRICKS, HAND_SIZE)
