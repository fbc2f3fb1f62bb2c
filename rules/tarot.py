"""French Tarot (FFT rules) at 3, 4 and 5 players: the conventions, the deal's setup, card play.

Sources and decisions: ``RULES.md`` §1 (FFT *Règlement officiel*) and §6 A-T1…A-T12; the record's
fields: ``deal-record.md`` "Tarot fields (fixed)".

* **Seats.** Players are listed in the order of play; the dealer's right-hand neighbour
  (``dealer + 1``) plays first. At 5 players in the « mort » format the dealer deals to the four
  others and sits the deal out (his entry in ``hands`` is an empty list).
* **Setup** (:meth:`TarotDeal.setup`): hand sizes (18 / 24 / 15, chien 6 / 6 / 3), the chien against
  the pack, the écart (right size, no King, no bout, trumps only when indispensable — rule 15),
  the called card and the partner at 5 players (rule 18), every poignée against its holder's hand
  (rule 19, A-T9). The taker's hand at the first lead is hand + chien − écart on a petite or a
  garde; on a garde sans / garde contre the chien stays apart and counts for the taker / the defence.
* **Play** (:meth:`TarotDeal.requirement`): exactly the algorithm of §1.7 on bit masks — the Excuse
  is always legal; the led suit is the first card that is not the Excuse; follow, else trump over
  the best trump if able, else any trump, else anything; on a trump lead one must go higher even
  over a partner; at 5 players the opening lead may not be in the called suit (rule 24, A-T8).
* **Winner** (:meth:`TarotDeal.winner`): the highest trump, else the highest card of the led suit;
  the Excuse never wins except when led to the last trick by a side that won every previous trick
  (A-T3).

:func:`random_record` plays random legal deals, for property tests and the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from itertools import repeat
from typing import Any, ClassVar, Final

from .cards import (
    _PARSED,
    BIT,
    EXCUSE,
    KING,
    KNIGHT,
    PETIT,
    QUEEN,
    SUIT,
    SUIT_MASK,
    TAROT_78,
    TRUMP_BASE,
    TRUMP_MASK,
    TRUMPS,
    VINGT_ET_UN,
    Card,
    CardOrder,
    card,
    cards_of,
    format_card,
    mask_of,
    rank_order,
)
from .entry import (
    Choice,
    DeclarationField,
    EntryForm,
    Phase,
    When,
    card_choices,
    dealer_field,
    pack_in_order,
    play_phase,
)
from .errors import MalformedRecord, Violation
from .game import DealRules, Game, Setup, register
from .messages import register as register_messages
from .play import Trick
from .record import join_path, optional_cards, read_card, read_seat

# -- the pack and its tables ------------------------------------------------------------------------

ORDER = CardOrder.from_ranks(rank_order("K Q N J 10 9 8 7 6 5 4 3 2 A"))
"""Order within a plain suit: R > D > C > V > 10 > … > As (rule 2); trumps by number."""

PACK_MASK = mask_of(TAROT_78)
EXCUSE_BIT = BIT[EXCUSE]
BOUTS = (VINGT_ET_UN, PETIT, EXCUSE)
BOUTS_MASK = mask_of(BOUTS)
KINGS_MASK = mask_of(card(KING, s) for s in range(4))
QUEENS_MASK = mask_of(card(QUEEN, s) for s in range(4))
KNIGHTS_MASK = mask_of(card(KNIGHT, s) for s in range(4))
PLAIN_MASK = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2] | SUIT_MASK[3]

#: ``_SUIT_OF_MASK[c]``: the mask of the suit of card ``c`` (plain suits only; 0 otherwise)
_SUIT_OF_MASK: tuple[int, ...] = tuple(SUIT_MASK[SUIT[c]] if SUIT[c] < TRUMPS else 0 for c in range(EXCUSE + 1))
#: ``_ABOVE[c]``: the trumps that beat ``c`` — for a trump, the higher trumps; for any other card, every trump
_ABOVE: tuple[int, ...] = tuple(
    (TRUMP_MASK & ~((1 << (c + 1)) - 1)) if TRUMP_BASE < c < EXCUSE else TRUMP_MASK for c in range(EXCUSE + 1)
)


def _half_points(c: Card) -> int:
    if c in BOUTS:
        return 9
    if SUIT[c] < TRUMPS:
        return {KING: 9, QUEEN: 7, KNIGHT: 5, 11: 3}.get(c & 15, 1)
    return 1


HALF_POINTS: tuple[int, ...] = tuple(_half_points(c) for c in range(EXCUSE + 1))
"""Card values in half-points (rule 4): bouts and Kings 9, Queens 7, Knights 5, Jacks 3, others 1; 182 in all."""

CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")
COEFFICIENTS = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
HANDFUL_SIZES = ("simple", "double", "triple")

#: (cards per player, chien, handful thresholds simple/double/triple), by number of players taking part
TABLE = {
    3: (24, 6, (13, 15, 18)),
    4: (18, 6, (10, 13, 15)),
    5: (15, 3, (8, 10, 13)),
}

register_messages({
    "called_suit_lead": {
        "fr": "{who} ne peut pas entamer dans la couleur de la carte appelée ({called}), sauf par la carte "
              "appelée elle-même.",
        "en": "{who} may not open in the suit of the called card ({called}), except with the called card itself.",
    },
    "wrong_dog_size": {
        "fr": "Le chien compte {count} cartes au lieu de {expected}.",
        "en": "The chien holds {count} cards instead of {expected}.",
    },
    "missing_card": {
        "fr": "Les mains et le chien ne forment pas le jeu complet : il manque {cards}.",
        "en": "The hands and the chien do not make up the whole pack: {cards} missing.",
    },
    "mort_holds_cards": {
        "fr": "{who}, le mort, ne reçoit pas de cartes ; il en a {count}.",
        "en": "{who}, the mort, is dealt no cards; they have {count}.",
    },
    "wrong_discard_size": {
        "fr": "L'écart compte {count} cartes au lieu de {expected}.",
        "en": "The écart holds {count} cards instead of {expected}.",
    },
    "discard_not_held": {
        "fr": "L'écart contient {card}, qui n'est ni dans la main du preneur ni au chien.",
        "en": "The écart holds {card}, which is neither in the taker's hand nor in the chien.",
    },
    "discard_king": {
        "fr": "L'écart ne peut pas contenir de Roi ({card}).",
        "en": "The écart may not hold a King ({card}).",
    },
    "discard_bout": {
        "fr": "L'écart ne peut pas contenir de bout ({card}).",
        "en": "The écart may not hold a bout ({card}).",
    },
    "discard_trump": {
        "fr": "L'écart contient {count} atout(s) alors que le preneur n'avait besoin d'en écarter que {allowed}.",
        "en": "The écart holds {count} trump(s) although the taker needed to discard only {allowed}.",
    },
    "discard_not_allowed": {
        "fr": "Pas d'écart en {contract} : le chien reste à part.",
        "en": "No écart on a {contract}: the chien stays apart.",
    },
    "called_card_not_allowed": {
        "fr": "Le preneur ne peut pas appeler {called} : {reason_fr}",
        "en": "The taker may not call {called}: {reason_en}",
    },
    "wrong_partner": {
        "fr": "Le partenaire indiqué ({given}) n'est pas le détenteur de la carte appelée ({actual}).",
        "en": "The partner given ({given}) is not the holder of the called card ({actual}).",
    },
    "handful_wrong_count": {
        "fr": "{who} montre une poignée de {count} cartes ; il faut exactement {sizes}.",
        "en": "{who} shows a poignée of {count} cards; it must be exactly {sizes}.",
    },
    "handful_not_trump": {
        "fr": "{who} montre {card} dans sa poignée : seuls les atouts et l'Excuse y figurent.",
        "en": "{who} shows {card} in a poignée: only trumps and the Excuse may be shown.",
    },
    "handful_not_in_hand": {
        "fr": "{who} montre {card} dans sa poignée sans le détenir.",
        "en": "{who} shows {card} in a poignée without holding it.",
    },
    "handful_excuse_hidden_trump": {
        "fr": "{who} montre l'Excuse dans sa poignée mais garde {example} caché : l'Excuse ne peut remplacer "
              "un atout que s'il n'en reste aucun.",
        "en": "{who} shows the Excuse in a poignée but keeps {example} hidden: the Excuse may stand in for a trump "
              "only when no other trump is held.",
    },
    "handful_not_held": {
        "fr": "{who} annonce une poignée {size} ({needed} atouts) mais n'en détient que {count} (Excuse comprise).",
        "en": "{who} announces a {size} poignée ({needed} trumps) but holds only {count} (Excuse included).",
    },
    "handful_size_mismatch": {
        "fr": "{who} annonce une poignée {size} mais montre {count} cartes.",
        "en": "{who} announces a {size} poignée but shows {count} cards.",
    },
    "handful_twice": {
        "fr": "{who} ne peut présenter qu'une poignée.",
        "en": "{who} may show only one poignée.",
    },
    "handfuls_too_many_trumps": {
        "fr": "Les poignées annoncées demandent {count} atouts (Excuse comprise) ; il n'y en a que 22.",
        "en": "The poignées announced need {count} trumps (Excuse included); there are only 22.",
    },
})


# -- options -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TarotOptions:
    """The conventions of a Tarot table.

    ``players``: 3, 4 or 5 at the table.
    ``five``: at 5 players, ``"mort"`` (default, A-T6: the dealer deals to the four others, sits the deal
    out and scores 0 — the format of FFT tournament tables of 5) or ``"called_king"`` (the true
    5-player game: 15 cards each, chien of 3, the taker calls a King). Ignored at 3 and 4 players.
    """

    players: int = 4
    five: str = "mort"

    @property
    def playing(self) -> int:
        """How many players take part in each deal (4 in the « mort » format at 5)."""
        return 4 if self.players == 5 and self.five == "mort" else self.players


class Tarot(Game):
    """French Tarot (FFT), registered as ``tarot``."""

    name = "tarot"
    label = "Tarot"
    options_type = TarotOptions
    player_counts = (3, 4, 5)
    plays_matches = False
    contracts = CONTRACTS
    visa_contracts = frozenset({"garde_sans", "garde_contre"})  # the chief arbiter's visa (and a chelem: needs_visa)
    duplicate_deals = True
    zero_sum_marks = True
    record_fields: ClassVar[Mapping[str, Any]] = {
        "bid": {"taker": 0, "contract": "garde", "called": None},
        "chelem_announced": False,
        "handfuls": [],
        "hands": None,
        "dog": None,
        "discard": None,
        "tricks": [],
    }

    conventions: ClassVar[Mapping[str, Any]] = {"five": None}

    def needs_visa(self, record: Mapping[str, Any]) -> bool:
        """A garde sans or garde contre, or a chelem announced (RULES.md §1.3 rule 14: the arbiter must be called;
        A-T5: an announced chelem the defence makes is flagged for his review): the chief arbiter's visa."""
        return super().needs_visa(record) or record.get("chelem_announced") is True

    def tournament_options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """``five`` is kept at 5 players and « selon le jeu » (tables of 4, 3 and 5: a table of 5 may be drawn);
        dropped at 3 and 4 (no table of 5 then: ``tournaments.common.games.table_sizes``)."""
        options = super().tournament_options(chosen)
        if options.get("players") not in (None, 5):
            options.pop("five", None)
        return options

    def check_options(self, options: Any, *, field: str) -> None:
        super().check_options(options, field=field)
        if options.five not in ("mort", "called_king"):
            raise MalformedRecord(f"{field}.five", f"{options.five!r} is not one of mort, called_king",
                                  fr=f"{options.five!r} n'est ni mort ni called_king (roi appelé)")

    def deal_rules(self, options: Any, deal: Mapping[str, Any], *, players: int, field: str) -> TarotDeal:
        return TarotDeal(options, deal, players=players, field=field)

    def describe_entry(self, options: Any) -> EntryForm:
        return entry_form(options)


# -- the facts of a deal read from the record -----------------------------------------------------

@dataclass(frozen=True)
class Handful:
    """A poignée shown: the seat, its size name and the cards shown (None when only the size was entered)."""

    seat: int
    size: str | None
    cards: tuple[Card, ...] | None
    index: int


@dataclass(frozen=True)
class TarotSummary:
    """What an arbiter enters instead of the tricks (``summary``); values are checked by scoring.

    ``points`` is exact (a :class:`~fractions.Fraction`), ``petit_au_bout`` and ``chelem`` are
    ``"attack"``, ``"defence"`` or None.
    """

    oudlers: int
    points: Fraction
    petit_au_bout: str | None
    chelem: str | None


SIDES = ("attack", "defence")


def _read_summary(raw: Any, field: str) -> TarotSummary:
    if not isinstance(raw, Mapping):
        raise MalformedRecord(field, "the summary is an object {oudlers, points, petit_au_bout, chelem}",
                              fr="le résumé est un objet {oudlers, points, petit_au_bout, chelem}")
    oudlers = raw.get("oudlers")
    if not isinstance(oudlers, int) or isinstance(oudlers, bool):
        raise MalformedRecord(f"{field}.oudlers", "the number of bouts of the taker's side, an integer",
                              fr="le nombre de bouts du camp du preneur, un nombre entier")
    points = raw.get("points")
    if isinstance(points, bool) or not isinstance(points, (int, float, str)):
        raise MalformedRecord(f"{field}.points", "the card points of the taker's side, a number such as 40.5",
                              fr="les points de cartes du camp du preneur, un nombre comme 40,5")
    try:
        exact = Fraction(str(points).strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise MalformedRecord(f"{field}.points", f"{points!r} is not a number",
                              fr=f"{points!r} n'est pas un nombre") from None
    sides: dict[str, str | None] = {}
    for name in ("petit_au_bout", "chelem"):
        value = raw.get(name)
        if value is not None and value not in SIDES:
            raise MalformedRecord(f"{field}.{name}", f"{value!r} is not one of attack, defence, null",
                                  fr=f"{value!r} n'est ni attack (l'attaque), ni defence (la défense), ni null")
        sides[name] = value
    return TarotSummary(oudlers, exact, sides["petit_au_bout"], sides["chelem"])


# -- the rules of one deal -----------------------------------------------------------------------------

class TarotDeal(DealRules):
    """The rules of one Tarot deal, built from the record's fields (cards still as codes).

    Public facts for scoring: ``taker``, ``contract``, ``coefficient``, ``called``, ``partner``
    (None when the taker plays alone or when it is not known), ``attack`` (seats of the taker's side),
    ``chelem_announced``, ``handfuls``, ``dog``, ``discard`` (masks or None), ``summary``, ``mort``,
    ``playing`` (seats taking part) and ``table`` (3, 4 or 5: the rules table used).
    """

    pack = TAROT_78
    pack_mask = PACK_MASK
    order = ORDER
    trump = TRUMPS

    HANDFUL_VALUES: ClassVar[dict[str, int]] = {"simple": 20, "double": 30, "triple": 40}

    def __init__(self, options: TarotOptions, raw: Mapping[str, Any], *, players: int, field: str) -> None:
        self.options = options
        self.field = field
        self.players = players
        dealer = raw["dealer"]
        self.dealer = dealer
        self.mort: int | None = dealer if options.playing != players else None
        count = options.playing
        self.table = count
        self.seats, self._position, self._rotations = _seating(players, count, dealer)
        self.hand_size, self.dog_size, self.thresholds = TABLE[count]
        self.tricks_per_deal = self.hand_size
        self._last = self.hand_size - 1
        self._pending: list[Violation] = []

        bid_field = join_path(field, "bid")
        bid = raw.get("bid")
        if not isinstance(bid, Mapping):
            raise MalformedRecord(bid_field, "the bid is required: {taker, contract, called}",
                                  fr="choisissez le preneur et le contrat (et, à cinq, le roi appelé)")
        taker = bid.get("taker")
        self.taker = taker if taker.__class__ is int and 0 <= taker < players else read_seat(
            taker, f"{bid_field}.taker", players)
        if self.taker not in self._position:
            raise MalformedRecord(f"{bid_field}.taker", "the mort (the dealer at 5 players) does not play this deal",
                                  fr="le mort (le donneur à 5 joueurs) ne joue pas cette donne")
        contract = bid.get("contract")
        if contract not in CONTRACTS:
            raise MalformedRecord(f"{bid_field}.contract", f"{contract!r} is not one of {', '.join(CONTRACTS)}",
                                  fr=f"{contract!r} n'est pas un contrat connu ({', '.join(CONTRACTS)})")
        self.contract: str = contract
        self.coefficient = COEFFICIENTS[contract]
        self.called: Card | None = None
        self._entame_forbidden = 0
        if count == 5:
            if bid.get("called") is None:
                raise MalformedRecord(f"{bid_field}.called", "at 5 players the taker calls a card (a King, usually)",
                                      fr="à 5 joueurs, le preneur appelle une carte (un Roi, d'ordinaire)")
            self.called = read_card(bid["called"], f"{bid_field}.called", pack=PACK_MASK)
            if SUIT[self.called] < TRUMPS:
                self._entame_forbidden = _SUIT_OF_MASK[self.called] & ~BIT[self.called]
        elif bid.get("called") is not None:
            raise MalformedRecord(f"{bid_field}.called", "a card is called only at 5 players (called king)",
                                  fr="on n'appelle une carte qu'à 5 joueurs (roi appelé)")

        chelem = raw.get("chelem_announced", False)
        if chelem is None:
            chelem = False
        if not isinstance(chelem, bool):
            raise MalformedRecord(join_path(field, "chelem_announced"), "true or false", fr="true ou false")
        self.chelem_announced = chelem
        self.first_leader = self.taker if chelem else self.seats[0]

        self.dog = _mask_field(raw, "dog", field)
        self.discard = _mask_field(raw, "discard", field)
        self.handfuls = self._read_handfuls(raw.get("handfuls"), join_path(field, "handfuls"))
        summary = raw.get("summary")
        self.summary = _read_summary(summary, join_path(field, "summary")) if summary is not None else None

        self.partner: int | None = None
        self._partner_given: int | None = None
        self._partner_field = "partner" in raw
        if "partner" in raw and raw["partner"] is not None:
            if count != 5:
                raise MalformedRecord(join_path(field, "partner"), "a partner exists only at 5 players (called king)",
                                      fr="il n'y a de partenaire qu'à 5 joueurs (roi appelé)")
            partner = read_seat(raw["partner"], join_path(field, "partner"), players)
            if partner not in self._position or partner == self.taker:
                raise MalformedRecord(join_path(field, "partner"), "the partner is a playing seat other than the taker",
                                      fr="le partenaire est une place qui joue, autre que le preneur")
            self._partner_given = partner
            self.partner = partner
        self._raw_tricks = raw.get("tricks")
        if count == 5 and raw.get("hands") is None and self.called is not None:
            self._set_sides()  # (the winner of the last trick may depend on the sides: A-T3)
            from_tricks = self._partner_from_tricks(self._walk(self._raw_tricks))
            if from_tricks is not _UNKNOWN:
                if self._partner_given is not None and from_tricks != self._partner_given:
                    self._pending.append(_wrong_partner(self._partner_given, from_tricks))
                self.partner = from_tricks
            elif self.summary is not None and not self._partner_field:
                raise MalformedRecord(join_path(field, "partner"), "at 5 players with a called king, give the "
                                      "partner's seat (null when the taker plays alone) when the hands are not given",
                                      fr="à 5 joueurs avec roi appelé, indiquez la place du partenaire (null si le "
                                         "preneur joue seul) quand les mains ne sont pas données")
        self._set_sides()

    # -- reading -------------------------------------------------------------------------------------

    def _read_handfuls(self, raw: Any, field: str) -> tuple[Handful, ...]:
        if raw is None:
            return ()
        if not isinstance(raw, list):
            raise MalformedRecord(field, "a list of {seat, size} or {seat, cards}",
                                  fr="une liste de {seat, size} ou de {seat, cards}")
        out = []
        for i, item in enumerate(raw):
            where = f"{field}[{i}]"
            if not isinstance(item, Mapping):
                raise MalformedRecord(where, "a poignée is {seat, size} or {seat, cards}",
                                      fr="une poignée s'écrit {seat, size} ou {seat, cards}")
            seat = read_seat(item.get("seat"), f"{where}.seat", self.players)
            if seat not in self._position:
                raise MalformedRecord(f"{where}.seat", "the mort does not play this deal",
                                      fr="le mort ne joue pas cette donne")
            size = item.get("size")
            if size is not None and size not in HANDFUL_SIZES:
                raise MalformedRecord(f"{where}.size", f"{size!r} is not one of simple, double, triple",
                                      fr=f"{size!r} n'est ni simple, ni double, ni triple")
            cards = optional_cards(item, "cards", where, pack=PACK_MASK)
            if size is None and cards is None:
                raise MalformedRecord(where, "give the size (simple, double, triple) or the cards shown",
                                      fr="indiquez la taille (simple, double, triple) ou les cartes montrées")
            out.append(Handful(seat, size, tuple(cards) if cards is not None else None, i))
        return tuple(out)

    def _walk(self, raw_tricks: Any) -> tuple[list[tuple[int, Card]], bool] | None:
        """Who played each card of the record's tricks, and whether the deal is complete (None if unreadable).

        The seats of a trick depend only on the winners of the tricks before it, so this needs no
        knowledge of the partner (which only matters for the Excuse in the last trick).
        """
        if not isinstance(raw_tricks, list):
            return None
        try:
            tricks = [[read_card(c, "") for c in t] for t in raw_tricks]
        except (MalformedRecord, TypeError):
            return None  # replay reports the field
        leader = self.first_leader
        winners: list[int] = []
        n = len(self.seats)
        plays: list[tuple[int, Card]] = []
        for trick_no, trick in enumerate(tricks):
            if not trick or len(trick) > n:
                return None
            base = self._position[leader]
            plays += [(self.seats[(base + k) % n], c) for k, c in enumerate(trick)]
            if len(trick) < n:
                return plays, False
            winner = self.seats[(base + self.winner(trick, trick_no, leader, winners)) % n]
            winners.append(winner)
            leader = winner
        return plays, len(tricks) == self.tricks_per_deal

    def _partner_from_tricks(self, walk: tuple[list[tuple[int, Card]], bool] | None) -> int | _Unknown | None:
        """Who played the called card (None if the deal was played out without it), or _UNKNOWN."""
        if walk is None:
            return _UNKNOWN
        plays, complete = walk
        for seat, c in plays:
            if c == self.called:
                return None if seat == self.taker else seat
        return None if complete else _UNKNOWN

    def _set_sides(self) -> None:
        self.attack = frozenset((self.taker,) if self.partner is None else (self.taker, self.partner))
        self.defence = frozenset(self.seats).difference(self.attack)

    # -- play ----------------------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        seats = self.seats
        return seats[(self._position[seat] + 1) % len(seats)]

    def unplayed(self) -> int:
        """The écart on a petite or a garde, the chien on a garde sans or contre, when given."""
        if self.contract in ("petite", "garde"):
            return self.discard or 0
        return self.dog or 0

    def led_suit(self, trick: Sequence[Card]) -> int | None:
        """The suit of the first card that is not the Excuse (None while only the Excuse is down)."""
        for c in trick:
            if c != EXCUSE:
                return SUIT[c]
        return None

    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        """The legal cards of ``hand`` (§1.7) and the rule that restricts them."""
        if not trick:
            if trick_no == 0 and self._entame_forbidden:
                bad = hand & self._entame_forbidden
                if bad and hand ^ bad:
                    return hand ^ bad, "called_suit_lead"
            return hand, None
        first = trick[0]
        if first == 86:  # the Excuse led: the next card fixes the suit
            if len(trick) == 1:
                return hand, None
            first = trick[1]
        if first < 64:  # a plain suit led
            follow = hand & _SUIT_OF_MASK[first]
            if follow:
                return follow | (hand & EXCUSE_BIT), "must_follow"
            trumps = hand & TRUMP_MASK
            if not trumps:
                return hand, None
            top = max(trick)
            if top == 86:
                top = max([c for c in trick if c != 86])
            over = trumps & _ABOVE[top]
            if over:
                return over | (hand & EXCUSE_BIT), ("must_overtrump" if top > 64 else "must_trump")
            return trumps | (hand & EXCUSE_BIT), "must_undertrump"
        trumps = hand & TRUMP_MASK  # a trump led: go higher if able, even over a partner
        if not trumps:
            return hand, None
        top = max(trick)
        if top == 86:
            top = max([c for c in trick if c != 86], default=0)
        over = trumps & _ABOVE[top]
        if over:
            return over | (hand & EXCUSE_BIT), "must_go_higher"
        return trumps | (hand & EXCUSE_BIT), "must_play_trump"

    def winner(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> int:
        """The position of the winning card (§1.8, A-T3)."""
        top = max(trick)
        if top == 86:
            if trick[0] == 86 and trick_no == self._last and self._won_all(leader, winners):
                return 0  # A-T3: the Excuse led to the last trick by a side that won every trick
            rest = [c for c in trick if c != 86]
            if not rest:
                return 0
            top = max(rest)
        if top > 64:
            return trick.index(top)
        first = trick[0] if trick[0] != 86 else trick[1]
        suit = first >> 4
        if top >> 4 == suit:
            return trick.index(top)
        best = first
        for c in trick:
            if c >> 4 == suit and c > best:
                best = c
        return trick.index(best)

    def fast_replay(self, start: list[int], tricks: Sequence[Sequence[Card]]
                    ) -> tuple[tuple[Trick, ...], list[int]] | None:
        """:func:`rules.replay._fast_replay` for Tarot: the same tricks, in one loop without calls, and the cards
        each seat won (masks, by seat of the record: what scoring counts).

        Checks every play (ownership and §1.7) and finds every winner (§1.8) on bit masks; returns
        None at the first problem, and :class:`~rules.play.DealState` then explains it. The property
        tests check that it agrees with :meth:`requirement` and :meth:`winner` card for card.

        A seat's hand at its play is its hand at the first lead less the cards of the tricks before (the other
        cards of the trick in progress are other seats'): the hands are never rewritten; each trick's cards are
        gathered in one mask, which is also what the trick's winner wins.
        """
        n = len(self.seats)
        rotations = self._rotations
        bits = BIT
        suit_of_mask = _SUIT_OF_MASK
        above = _ABOVE
        trumps_mask = TRUMP_MASK
        forbidden = self._entame_forbidden
        last = self._last
        leader = self.first_leader
        won = [0] * len(start)
        gone = 0  # the cards of the tricks so far
        winners: list[int] = []
        leaders: list[int] = []
        seatings: list[tuple[int, ...]] = []
        for trick_no, trick in enumerate(tricks):
            if len(trick) != n:
                return None
            seats = rotations[leader]
            held = ~gone
            c = trick[0]
            hand = start[leader] & held
            cards = bits[c]
            if not hand & cards:
                return None
            if forbidden and not trick_no and cards & forbidden and hand & ~forbidden:
                return None  # rule 24: opening in the called suit
            # the led suit (None while only the Excuse is down), the best trump, the best card of the led suit
            win = leader
            if c == 86:
                led = None
                top = 0
                best = -1
            elif c < 64:
                led = suit_of_mask[c]
                top = 0
                best = c
            else:
                led = trumps_mask
                top = c
                best = c
            for k in range(1, n):
                c = trick[k]
                seat = seats[k]
                hand = start[seat] & held
                bit = bits[c]
                if not hand & bit:
                    return None  # not in the hand (or played before)
                cards |= bit
                if c == 86:
                    continue  # always legal, never wins here
                if led is None:  # after an Excuse lead, this card fixes the suit
                    if c < 64:
                        led = suit_of_mask[c]
                    else:
                        led = trumps_mask
                        top = c
                    best = c
                    win = seat
                    continue
                if led is trumps_mask:
                    trumps = hand & trumps_mask
                    if trumps and not bit & (trumps & above[top] or trumps):
                        return None
                    if c > top:  # (a plain card is below any trump)
                        top = c
                        win = seat
                    continue
                if hand & led:
                    if not bit & led:
                        return None
                    if not top and c > best:
                        best = c
                        win = seat
                    continue
                trumps = hand & trumps_mask
                if trumps and not bit & (trumps & above[top] or trumps):
                    return None
                if c > 64 and c > top:
                    top = c
                    win = seat
            if best < 0:  # only the Excuse (cannot happen in a full trick of a sound deal)
                return None
            if trick_no == last and trick[0] == 86 and self._won_all(leader, winners):
                win = leader  # A-T3
            gone |= cards
            won[win] |= cards
            winners.append(win)
            leaders.append(leader)
            seatings.append(seats)
            leader = win
        return tuple(map(_new_tuple, repeat(Trick), zip(range(len(winners)), leaders, map(tuple, tricks), seatings,
                                                           winners, strict=True))), won

    def _won_all(self, leader: int, winners: Sequence[int]) -> bool:
        side = self.attack if leader in self.attack else self.defence
        return all(w in side for w in winners)

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self, dealt: list[int] | None) -> Setup:
        """Check the deal as dealt and its declarations; the hands at the first lead (see the module doc)."""
        violations: list[Violation] = list(self._pending)
        unchecked: list[str] = []
        dog, discard = self.dog, self.discard
        taker = self.taker
        if dog is not None and dog.bit_count() != self.dog_size:
            violations.append(Violation("wrong_dog_size", params={"count": dog.bit_count(), "expected": self.dog_size}))
        if self.contract in ("garde_sans", "garde_contre"):
            if discard is not None:
                violations.append(Violation("discard_not_allowed", seat=taker,
                                            params={"contract": self.contract.replace("_", " ")}))
                discard = None
        elif discard is not None:
            violations += self._check_discard_blind(discard)

        hands: list[int] | None = None
        if dealt is not None:
            hands = list(dealt)
            if self.mort is not None and hands[self.mort]:
                violations.append(Violation("mort_holds_cards", seat=self.mort,
                                            params={"count": hands[self.mort].bit_count()}))
                hands[self.mort] = 0
            union = 0
            for seat in self.seats:
                union |= hands[seat]
            if dog is None:
                dog = PACK_MASK & ~union
            else:
                for c in cards_of(dog & union):
                    holder = next(s for s in self.seats if hands[s] & BIT[c])
                    violations.append(Violation("duplicate_card", seat=holder, card=c,
                                                params={"where": f"chien et main {holder + 1}"}))
                missing = PACK_MASK & ~(union | dog)
                if missing:
                    violations.append(Violation("missing_card",
                                                params={"cards": " ".join(format_card(c) for c in cards_of(missing))}))
            violations += self._check_called(hands, dog)
            dealt_taker = hands[taker]
            if self.contract in ("petite", "garde"):
                if discard is None:  # not entered: the taker's cards never played (checked as if entered)
                    discard = self._infer_discard(dealt_taker | dog)
                    violations += self._check_discard_blind(discard)
                violations += self._check_discard(discard, dealt_taker | dog)
                hands[taker] = (dealt_taker | dog) & ~discard
            violations += self._check_handfuls(hands, dealt_taker | (dog if self.contract in ("petite", "garde")
                                                                     else 0))
        else:
            violations += self._check_handfuls(None, 0)
            if self.table == 5 and self.called is not None:
                violations += self._check_called_blind()
        self.dog, self.discard = dog, discard  # as found: for scoring and pages
        extra: dict[int, int] = {}
        if discard:
            extra[taker] = discard
        if dog is not None and self.contract == "garde_sans":
            extra[taker] = extra.get(taker, 0) | dog
        if dog is not None and self.contract == "garde_contre":
            extra[self.dog_holder()] = dog
        return Setup(hands, tuple(violations), extra, tuple(unchecked))

    def dog_holder(self) -> int:
        """The defender who takes the chien on a garde contre (the one opposite the taker)."""
        n = len(self.seats)
        base = self._position[self.taker]
        steps: tuple[int, ...] = (n // 2, *range(1, n))
        for step in steps:
            seat = self.seats[(base + step) % n]
            if seat in self.defence:
                return seat
        return self.taker  # pragma: no cover  (a taker always has defenders)

    def _infer_discard(self, held: int) -> int:
        """The écart when the record omits it: the taker's cards never played, once the deal is complete."""
        walk = self._walk(self._raw_tricks)
        if walk is not None and walk[1]:
            played = mask_of(c for seat, c in walk[0] if seat == self.taker)
            return held & ~played
        raise MalformedRecord(join_path(self.field, "discard"), "the écart is required with the hands on a petite or "
                              "a garde (it can be inferred only from a complete deal)",
                              fr="l'écart est obligatoire avec les mains sur une petite ou une garde (on ne peut "
                                 "le déduire que d'une donne complète)")

    def _check_discard_blind(self, discard: int) -> list[Violation]:
        out = []
        if discard.bit_count() != self.dog_size:
            out.append(Violation("wrong_discard_size", seat=self.taker,
                                 params={"count": discard.bit_count(), "expected": self.dog_size}))
        out += [Violation("discard_king", seat=self.taker, card=c) for c in cards_of(discard & KINGS_MASK)]
        out += [Violation("discard_bout", seat=self.taker, card=c) for c in cards_of(discard & BOUTS_MASK)]
        return out

    def _check_discard(self, discard: int, held: int) -> list[Violation]:
        out = [Violation("discard_not_held", seat=self.taker, card=c) for c in cards_of(discard & ~held)]
        trumps = (discard & TRUMP_MASK & ~BOUTS_MASK).bit_count()  # bouts: already refused
        if trumps:
            eligible = (held & PLAIN_MASK & ~KINGS_MASK).bit_count()
            allowed = max(0, self.dog_size - eligible)
            if trumps > allowed:
                out.append(Violation("discard_trump", seat=self.taker, params={"count": trumps, "allowed": allowed}))
        return out

    def _check_called(self, hands: list[int], dog: int) -> list[Violation]:
        if self.table != 5 or self.called is None:
            return []
        out = self._check_called_card(hands[self.taker])
        holder = next((s for s in self.seats if hands[s] & BIT[self.called]), None)
        partner = None if holder is None or holder == self.taker else holder
        if self._partner_given is not None and partner != self._partner_given:
            out.append(_wrong_partner(self._partner_given, partner))
        self.partner = partner
        self._set_sides()
        return out

    def _check_called_blind(self) -> list[Violation]:
        called = self.called
        assert called is not None
        if SUIT[called] >= TRUMPS or (called & 15) < 11:
            return self._check_called_card(None)
        return []

    def _check_called_card(self, hand: int | None) -> list[Violation]:
        """Rule 18: a King; a Queen with 4 Kings; a Knight with 4 Kings and 4 Queens; a Jack with every R, D, C."""
        called = self.called
        assert called is not None
        rank = called & 15 if SUIT[called] < TRUMPS else 0
        needs = {KING: 0, QUEEN: KINGS_MASK, KNIGHT: KINGS_MASK | QUEENS_MASK,
                 11: KINGS_MASK | QUEENS_MASK | KNIGHTS_MASK}
        if rank not in needs:
            return [Violation("called_card_not_allowed", seat=self.taker, params={
                "called": format_card(called), "reason_fr": "on appelle un Roi (ou une Dame, un Cavalier, un Valet).",
                "reason_en": "one calls a King (or a Queen, a Knight, a Jack)."})]
        if hand is not None and hand & needs[rank] != needs[rank]:
            return [Violation("called_card_not_allowed", seat=self.taker, params={
                "called": format_card(called),
                "reason_fr": "on n'appelle une figure plus basse que si l'on détient toutes celles au-dessus.",
                "reason_en": "a lower face card may be called only when holding every higher one."})]
        return []

    def _check_handfuls(self, hands: list[int] | None, taker_held: int) -> list[Violation]:
        out: list[Violation] = []
        thresholds = self.thresholds
        seen: set[int] = set()
        needed_total = 0
        for h in self.handfuls:
            if h.seat in seen:
                out.append(Violation("handful_twice", seat=h.seat))
            seen.add(h.seat)
            size = h.size
            if h.cards is not None:
                shown = mask_of(h.cards)
                count = len(h.cards)
                if count not in thresholds:
                    out.append(Violation("handful_wrong_count", seat=h.seat, params={
                        "count": count, "sizes": " / ".join(map(str, thresholds))}))
                elif size is not None and thresholds[HANDFUL_SIZES.index(size)] != count:
                    out.append(Violation("handful_size_mismatch", seat=h.seat, params={"size": size, "count": count}))
                elif size is None:
                    size = HANDFUL_SIZES[thresholds.index(count)]
                out += [Violation("handful_not_trump", seat=h.seat, card=c)
                        for c in cards_of(shown & ~(TRUMP_MASK | EXCUSE_BIT))]
                if hands is not None:
                    held = taker_held if h.seat == self.taker else hands[h.seat]
                    out += [Violation("handful_not_in_hand", seat=h.seat, card=c) for c in cards_of(shown & ~held)]
                    hidden = held & TRUMP_MASK & ~shown
                    if shown & EXCUSE_BIT and hidden:
                        out.append(Violation("handful_excuse_hidden_trump", seat=h.seat,
                                             params={"example": format_card(cards_of(hidden)[-1])}))
            elif hands is not None and size is not None:
                held = taker_held if h.seat == self.taker else hands[h.seat]
                have = (held & (TRUMP_MASK | EXCUSE_BIT)).bit_count()
                needed = thresholds[HANDFUL_SIZES.index(size)]
                if have < needed:
                    out.append(Violation("handful_not_held", seat=h.seat, params={
                        "size": size, "needed": needed, "count": have}))
            if size is not None:
                needed_total += thresholds[HANDFUL_SIZES.index(size)]
        if needed_total > 22:
            out.append(Violation("handfuls_too_many_trumps", params={"count": needed_total}))
        return out

    def declarations_from_play(self, played: Sequence[int]) -> tuple[Violation, ...] | None:
        """Every poignée against the trumps its holder played (the deal's 18, 24 or 15 tricks show each hand at the
        first lead; a walk saved « Joël : poignée simple » with five trumps played). The cards never played are the
        écart at a petite or a garde (the taker's: a trump he had to discard counts in his poignée, RULES.md rule
        19), the chien at a garde sans or contre. Only the checks that need the hands: the others were made."""
        if not self.handfuls:
            return ()
        hands = list(played)
        rest = PACK_MASK
        for hand in hands:
            rest &= ~hand
        taker_held = hands[self.taker] | (rest if self.contract in ("petite", "garde") else 0)
        return tuple(v for v in self._check_handfuls(hands, taker_held) if v.rule in HANDFUL_HAND_CHECKS)

    def handful_sizes(self) -> list[tuple[int, str]]:
        """(seat, size name) of each poignée whose size is known (from ``size`` or the number of cards shown)."""
        out = []
        for h in self.handfuls:
            size = h.size
            if size is None and h.cards is not None and len(h.cards) in self.thresholds:
                size = HANDFUL_SIZES[self.thresholds.index(len(h.cards))]
            if size is not None:
                out.append((h.seat, size))
        return out


#: the poignée checks that need the holder's hand (the others are made without it)
HANDFUL_HAND_CHECKS = frozenset({"handful_not_in_hand", "handful_excuse_hidden_trump", "handful_not_held"})


def handful_cards(cards: Iterable[Card]) -> int:
    """How many of ``cards`` a poignée may show: the trumps and the Excuse (rule 19; the Excuse stands in for a
    trump, A-T9) — what ``handful_not_held`` counts."""
    return (mask_of(cards) & (TRUMP_MASK | EXCUSE_BIT)).bit_count()


def handful_needed(players: int, size: str) -> int:
    """The cards a poignée of ``size`` (simple, double, triple) shows at a table of ``players`` (§1.2)."""
    return TABLE[players][2][HANDFUL_SIZES.index(size)]


def handful_with_chien(contract: str) -> bool:
    """Whether the taker of ``contract`` shows his poignée with the chien in hand (a petite or a garde: he takes it
    before the first card, rule 19; a garde sans or contre leaves it aside)."""
    return contract in ("petite", "garde")


class _Unknown(Enum):
    """The tricks do not tell who the partner is (a sentinel, distinct from None: « the taker plays alone »)."""

    UNKNOWN = "unknown"


_UNKNOWN: Final = _Unknown.UNKNOWN

_new_tuple = tuple.__new__
"""Tricks are built at C speed at the end of a replay: ``tuple.__new__(Trick, fields)`` is the named tuple."""


def _wrong_partner(given: int | None, actual: int | None) -> Violation:
    def name(seat: int | None) -> str:
        return "personne" if seat is None else f"joueur {seat + 1}"

    return Violation("wrong_partner", seat=given, params={"given": name(given), "actual": name(actual)})


_Seating = tuple[tuple[int, ...], dict[int, int], dict[int, tuple[int, ...]]]


def _seating(players: int, count: int, dealer: int) -> _Seating:
    """The seats in order of play from the dealer's right, each seat's position, the order from each leader."""
    key = (players, count, dealer)
    found = _SEATINGS.get(key)
    if found is None:
        seats = tuple((dealer + k) % players for k in range(1, count + 1))
        found = (seats, {seat: i for i, seat in enumerate(seats)},
                 {seat: seats[i:] + seats[:i] for i, seat in enumerate(seats)})
        _SEATINGS[key] = found
    return found


_SEATINGS: dict[tuple[int, int, int], _Seating] = {}


def _mask_field(raw: Mapping[str, Any], name: str, field: str) -> int | None:
    value = raw.get(name)
    if value is None:
        return None
    if value.__class__ is list:
        try:
            mask = sum([BIT[_PARSED[code]] for code in value])  # the union when no card repeats (checked)
        except (KeyError, TypeError):
            pass
        else:
            if mask.bit_count() == len(value):
                return mask
    cards = optional_cards(raw, name, field, pack=PACK_MASK) or []
    seen = 0
    for i, c in enumerate(cards):
        if seen & BIT[c]:
            raise MalformedRecord(f"{join_path(field, name)}[{i}]", f"{format_card(c)} is given twice",
                                  fr=f"la carte {format_card(c)} figure deux fois")
        seen |= BIT[c]
    return seen


TAROT = register(Tarot())


# -- random legal deals (property tests, benchmark) ------------------------------------------------

def random_record(rng: random.Random, *, players: int = 4, five: str = "mort", contract: str | None = None,
                  names: Sequence[str] | None = None, dealer: int | None = None) -> dict[str, Any]:
    """A ``levee.deal/1`` record of a random deal played out with random legal cards.

    Hands, chien, a legal écart (petite / garde) and every trick are given; at 5 players with a called
    King the taker calls a King he does not hold when he can.
    """
    options = TarotOptions(players=players, five=five)
    count = options.playing
    size, dog_size, _ = TABLE[count]
    dealer = rng.randrange(players) if dealer is None else dealer
    seats = [(dealer + k) % players for k in range(1, count + 1)]
    pack = list(TAROT_78)
    rng.shuffle(pack)
    dealt: list[list[Card]] = [[] for _ in range(players)]
    for i, seat in enumerate(seats):
        dealt[seat] = pack[i * size:(i + 1) * size]
    dog = pack[count * size:]
    taker = rng.choice(seats)
    contract = contract or rng.choice(CONTRACTS)
    bid: dict[str, Any] = {"taker": taker, "contract": contract, "called": None}
    if count == 5:
        kings = [card(KING, s) for s in range(4)]
        own = set(dealt[taker])
        choices = [k for k in kings if k not in own] or kings
        bid["called"] = format_card(rng.choice(choices))
    discard = None
    if contract in ("petite", "garde"):
        held = dealt[taker] + dog
        eligible = [c for c in held if SUIT[c] < TRUMPS and c & 15 != KING]
        rng.shuffle(eligible)
        discard = eligible[:dog_size]
        if len(discard) < dog_size:
            trumps = [c for c in held if TRUMP_BASE < c < EXCUSE and c not in BOUTS]
            discard += trumps[:dog_size - len(discard)]
    record: dict[str, Any] = {
        "format": "levee.deal/1", "game": "tarot", "options": {"players": players},
        "players": list(names) if names else [f"P{i + 1}" for i in range(players)],
        "dealer": dealer, "bid": bid, "partner": None, "chelem_announced": False, "handfuls": [],
        "hands": [[format_card(c) for c in h] for h in dealt], "dog": [format_card(c) for c in dog],
    }
    if players == 5:
        record["options"]["five"] = five
    if discard is not None:
        record["discard"] = [format_card(c) for c in discard]
    record["tricks"] = random_playout(rng, record)
    return record


def random_playout(rng: random.Random, record: Mapping[str, Any], tricks: int | None = None) -> list[list[str]]:
    """Random legal tricks for a record holding hands (as codes), using :class:`~rules.play.DealState`."""
    from .play import DealState, play_out_randomly
    from .record import read_deal

    players = len(record["players"])
    options = TAROT.parse_options({"players": players, **record.get("options", {})})
    deal = read_deal(record, index=0, field="", players=players)
    rules = TAROT.deal_rules(options, deal.raw, players=players, field="")
    dealt = [mask_of(h) for h in deal.hands] if deal.hands is not None else None
    setup = rules.setup(dealt)
    return play_out_randomly(DealState(rules, setup.hands), rng, tricks=tricks)


# -- what the entry of a deal asks for (rules/entry.py) ----------------------------------------------

CONTRACT_LABELS = {"petite": "Petite", "garde": "Garde", "garde_sans": "Garde sans le chien",
                   "garde_contre": "Garde contre le chien"}
SIDE_CHOICES = (Choice("attack", "Le camp du preneur"), Choice("defence", "La défense"))


def entry_form(options: TarotOptions) -> EntryForm:
    """The phases of a Tarot deal and their declarations (§1.3 to §1.6 of RULES.md)."""
    count = options.playing
    hand_size, dog_size, thresholds = TABLE[count]
    called_king = count == 5
    bid = [
        dealer_field(),
        DeclarationField("bid.taker", "seat", "Preneur", required=True, playing=True),
        DeclarationField("bid.contract", "choice", "Contrat", required=True,
                         choices=tuple(Choice(c, CONTRACT_LABELS[c]) for c in CONTRACTS)),
    ]
    if called_king:
        bid += [
            DeclarationField("bid.called", "card", "Carte appelée", required=True,
                             choices=card_choices(card(KING, s) for s in range(4)),
                             help="Un roi d'ordinaire ; une dame, un cavalier… si le preneur a les quatre rois."),
            DeclarationField("partner", "seat", "Partenaire (appelé)", playing=True,
                             nullable="Le preneur joue seul",
                             help="Nécessaire avec un résumé quand les mains ne sont pas données."),
        ]
    chien = Phase("chien", "Chien et écart", (
        DeclarationField("dog", "cards", "Chien", min=dog_size, max=dog_size,
                         help="Facultatif : déduit des mains quand elles sont données."),
        DeclarationField("discard", "cards", "Écart du preneur", min=dog_size, max=dog_size,
                         when=(When("bid.contract", ("petite", "garde")),),
                         help="Ni roi ni bout ; des atouts seulement s'il ne peut faire autrement."),
    ))
    sizes = tuple(Choice(name, f"{name.capitalize()} ({n} atouts)") for name, n in zip(HANDFUL_SIZES, thresholds,
                                                                                       strict=True))
    announcements = Phase("announcements", "Annonces", (
        DeclarationField("handfuls", "list", "Poignées", fields=(
            DeclarationField("seat", "seat", "Joueur", required=True, playing=True),
            DeclarationField("size", "choice", "Poignée", choices=sizes),
            DeclarationField("cards", "cards", "Atouts montrés (facultatif)", min=thresholds[0], max=22),
        ), help="La poignée se montre avant de jouer sa première carte."),
        DeclarationField("chelem_announced", "boolean", "Chelem annoncé", default=False,
                         help="Le preneur entame alors le premier pli."),
    ))
    step = 1 if count == 4 else 0.5
    summary = Phase("summary", "Résumé de la donne", (
        DeclarationField("summary.oudlers", "integer", "Bouts du camp du preneur", required=True, min=0, max=3),
        DeclarationField("summary.points", "number", "Points du camp du preneur", required=True, min=0, max=91,
                         step=step, help="Points de cartes comptés par le camp du preneur : "
                                         + ("un nombre entier à quatre joueurs." if count == 4
                                            else "demi-points permis (40,5).")),
        DeclarationField("summary.petit_au_bout", "choice", "Petit au bout", choices=SIDE_CHOICES,
                         nullable="Personne"),
        DeclarationField("summary.chelem", "choice", "Chelem réalisé", choices=SIDE_CHOICES, nullable="Personne"),
    ), kind="summary", help="Au lieu des plis, quand ils n'ont pas été notés.")
    phases = (Phase("bid", "Enchères", tuple(bid)), chien, announcements, play_phase(hand_size), summary)
    return EntryForm("tarot", options.players, phases, pack_in_order(TAROT_78, ORDER), hand_size, hand_size)

