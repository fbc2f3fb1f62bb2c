"""L'Impériale (RULES.md §4, §6 A-I1 … A-I11; seed 001): one deal's rules.

Conventions (:class:`ImperialeOptions`, record ``options``):

* ``players``: 2 (32 cards, talon of 8 with the retourne) or 3 (36 cards with the sixes, no
  talon; the dealer's last card, shown, stays in his hand and fixes trump);
* ``target``: impériales (fiches) that win the game, default 5;
* ``imperiale_de_retourne`` and ``imperiale_tombee``: the two optional impériales of §4.2 rule
  11. Default **off**: the seed says their validity "doit être convenue entre les joueurs avant
  le début de la partie"; without that agreement they do not count;
* ``strict_auj_chronology`` (A-I2, default false): the dealer's retourne jeton can be erased by
  an impériale scored in the announcement phase;
* ``parlett_order`` (A-I1, default false): Parlett's chronology — impériale tombée before the
  honours, and the optional impériales (de retourne, tombée) and cartes blanches do not erase;
* ``first_lead_trump_at_3`` (§4.4 rule 19, default false): at 3 players the first lead of a
  deal must be a trump when the leader holds one;
* ``penalty_imperiale`` (A-I10, default false): AUJ rules IV and X — a misdeal (dealer) and a
  failure to take when able (forcing rule) cost one impériale (see ``scoring/imperiale.py``).

Deal fields (besides ``dealer``, ``hands``, ``tricks``):

* ``turn_up`` (required): at 2 players the retourne (never in a hand); at 3 players the dealer's
  last card (in his hand);
* ``announcements`` (optional object), as declared at the table:

  - ``cartes_blanches``: seats that showed twelve cards without K, Q or J (the deal is then not
    played: ``tricks`` must be empty or absent);
  - ``imperiales``: each impériale shown, ``{"seat": s, "cards": [...]}``: four cards A K Q J
    of one suit (quatrième majeure), four J, Q, K, A or 7 (6 at 3 players: carré), or — for the
    dealer with ``imperiale_de_retourne`` at 2 players — the three cards that the retourne
    completes (impériale de retourne). Only impériales shown count (§4.2 rule 12);
  - ``point``: the Point as won at the table, ``{"seat": s, "count": n, "value": v}`` (``value``
    optional); ``null`` when it was not counted (AUJ rule VII). When absent and the hands are
    given, the Point is found from the hands; when absent without hands, it is not scored.

With the hands, every announcement is checked: cartes blanches true, impériales shown held and
well formed, the Point claimed equal to the best Point of the hands (count, then value, then
primauté).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import (
    ACE,
    BIT,
    JACK,
    KING,
    PIQUET_32,
    PIQUET_36,
    QUEEN,
    RANK,
    SUIT,
    SUIT_MASK,
    Card,
    CardOrder,
    card,
    cards_of,
    format_card,
    mask_of,
    rank_order,
)
from .entry import (
    DeclarationField,
    EntryForm,
    Phase,
    dealer_field,
    honours_summary_field,
    pack_in_order,
    play_phase,
    point_field,
    tricks_summary_field,
    turn_up_field,
)
from .errors import MalformedRecord, Violation
from .forcing import ForcingDealRules
from .game import GAMES, Game, Setup, register
from .messages import register as register_messages
from .record import join_path, read_card, read_cards, read_seat
from .summary import TricksSummary, read_summary

PLAY_ORDER = CardOrder.from_ranks(rank_order("K Q J A 10 9 8 7 6"))
"""Order for play (« à la triomphe »): R D V As 10 9 8 7 (6)."""
ANNOUNCE_ORDER = CardOrder.from_ranks(rank_order("A K Q J 10 9 8 7 6"))
"""Order for announcements (« au piquet »): As R D V 10 … 7 (6)."""

FIGURES = mask_of(card(r, s) for s in range(4) for r in (JACK, QUEEN, KING))
"""K, Q and J of every suit: a hand without any has « cartes blanches »."""

POINT_VALUES: tuple[int, ...] = tuple(11 if RANK[c] == ACE else 10 if RANK[c] > 10 else RANK[c]
                                      for c in range(64)) + (0,) * 23
"""Value of a card in the Point: As 11, figures 10, other cards their pips."""

MAJOR_RANKS = (ACE, KING, QUEEN, JACK)


@dataclass(frozen=True)
class ImperialeOptions:
    """The conventions agreed before the game (see the module docstring)."""

    players: int = 2
    target: int = 5
    imperiale_de_retourne: bool = False
    imperiale_tombee: bool = False
    strict_auj_chronology: bool = False
    parlett_order: bool = False
    first_lead_trump_at_3: bool = False
    penalty_imperiale: bool = False


@dataclass(frozen=True)
class ShownImperiale:
    """An impériale shown in the announcement phase: ``kind`` is ``quatrieme_majeure``, ``carre``,
    ``retourne`` (impériale de retourne) or ``""`` when the cards make none."""

    index: int
    seat: int
    cards: tuple[Card, ...]
    kind: str
    fiches: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": [format_card(c) for c in self.cards], "kind": self.kind,
                "fiches": self.fiches}


@dataclass(frozen=True)
class PointClaim:
    """The Point as declared: who won it, with how many cards, and their value (None if not said)."""

    seat: int
    count: int
    value: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "count": self.count, "value": self.value}


@dataclass(frozen=True)
class Announcements:
    """The announcement phase as recorded: cartes blanches, impériales shown, the Point."""

    cartes_blanches: tuple[int, ...] = ()
    imperiales: tuple[ShownImperiale, ...] = ()
    point: PointClaim | None = None
    point_recorded: bool = False
    """Whether the record says anything of the Point (``point`` present, possibly null)."""


# -- the Point ------------------------------------------------------------------------------------

def point_of(hand: int, values: Sequence[int]) -> tuple[int, int]:
    """A hand's Point: the most cards in one suit, and the best value among suits of that length."""
    best = (0, 0)
    for s in range(4):
        cards = hand & SUIT_MASK[s]
        if cards:
            candidate = (cards.bit_count(), sum(values[c] for c in cards_of(cards)))
            best = max(best, candidate)
    return best


def point_winner(hands: Sequence[int], primaute: Sequence[int], values: Sequence[int]) -> PointClaim | None:
    """Who wins the Point: most cards, then value, then primauté (first hand first)."""
    winner: PointClaim | None = None
    for seat in primaute:
        count, value = point_of(hands[seat], values)
        if count and (winner is None or (count, value) > (winner.count, winner.value or 0)):
            winner = PointClaim(seat, count, value)
    return winner


# -- impériales en main ---------------------------------------------------------------------------

def imperiale_kind(cards: Sequence[Card], *, trump: int, players: int) -> tuple[str, int]:
    """The impériale four cards make and its fiches: ``("quatrieme_majeure", 1|2)``, ``("carre", 1)``
    or ``("", 0)``."""
    if len(cards) != 4 or len(set(cards)) != 4:
        return "", 0
    suits = {SUIT[c] for c in cards}
    ranks = {RANK[c] for c in cards}
    if len(suits) == 1 and ranks == set(MAJOR_RANKS):
        return "quatrieme_majeure", 2 if suits == {trump} else 1
    low = 6 if players == 3 else 7
    if len(ranks) == 1 and ranks <= {ACE, KING, QUEEN, JACK, low} and suits == {0, 1, 2, 3}:
        return "carre", 1
    return "", 0


def shown_kind(cards: Sequence[Card], seat: int, *, dealer: int, turn_up: Card, trump: int,
               options: ImperialeOptions) -> tuple[str, int]:
    """The impériale a showing makes (impériale de retourne: the dealer's three cards + the retourne)."""
    if len(cards) == 3:
        if (options.imperiale_de_retourne and options.players == 2 and seat == dealer
                and turn_up not in cards):
            kind, _ = imperiale_kind([*cards, turn_up], trump=trump, players=options.players)
            if kind:
                return "retourne", 1
        return "", 0
    return imperiale_kind(cards, trump=trump, players=options.players)


# -- the deal -------------------------------------------------------------------------------------

def read_count(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MalformedRecord(field, "a non-negative integer", fr="un nombre entier positif ou nul")
    return value


def read_point(raw: Mapping[str, Any], field: str, players: int) -> tuple[PointClaim | None, bool]:
    """The ``point`` of an ``announcements`` object: (claim or None, whether the key is present)."""
    if "point" not in raw:
        return None, False
    value = raw["point"]
    path = join_path(field, "point")
    if value is None:
        return None, True
    if not isinstance(value, Mapping):
        raise MalformedRecord(path, 'the Point is {"seat": s, "count": n, "value": v} or null',
                              fr='le Point s\'écrit {"seat": s, "count": n, "value": v} ou null')
    seat = read_seat(value.get("seat"), f"{path}.seat", players)
    count = read_count(value.get("count"), f"{path}.count")
    points = value.get("value")
    return PointClaim(seat, count, None if points is None else read_count(points, f"{path}.value")), True


class ImperialeDeal(ForcingDealRules):
    """One deal of L'Impériale."""

    #: the quick summary entered instead of the tricks (``summary``), if any
    summary: TricksSummary | None = None

    def __init__(self, options: ImperialeOptions, *, dealer: int, turn_up: Card,
                 announcements: Announcements, field: str = "") -> None:
        n = options.players
        self.options = options
        self.dealer = dealer
        self.turn_up = turn_up
        self.announcements = announcements
        self.field = field
        self.seats = tuple(range(n))
        self.primaute = tuple((dealer + 1 + i) % n for i in range(n))
        self.first_leader = self.primaute[0]
        self.played = not announcements.cartes_blanches
        self.tricks_per_deal = 12 if self.played else 0
        self.hand_size = 12
        self.pack = PIQUET_32 if n == 2 else PIQUET_36
        self.pack_mask = mask_of(self.pack)
        self.order = PLAY_ORDER
        self.trump = SUIT[turn_up]
        low = 6 if n == 3 else 7
        self.honours = mask_of(card(r, self.trump) for r in (ACE, KING, QUEEN, JACK, low))
        self.lead_trump_first = options.first_lead_trump_at_3 and n == 3

    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        if not trick and trick_no == 0 and self.lead_trump_first:
            trumps = hand & SUIT_MASK[self.trump]
            return (trumps, "must_lead_trump") if trumps else (hand, None)
        return super().requirement(hand, trick, trick_no, seat)

    @property
    def retourne_is_honour(self) -> bool:
        """Whether the retourne is an honour (the dealer scores one jeton, §4.2 rule 7)."""
        return bool(self.honours & BIT[self.turn_up])

    def unplayed(self) -> int:
        """At 2 players the retourne is in no hand (at 3 it is the dealer's)."""
        return BIT[self.turn_up] if self.options.players == 2 else 0

    def true_point(self, dealt: Sequence[int]) -> PointClaim | None:
        """The Point of the hands as dealt."""
        return point_winner(dealt, self.primaute, POINT_VALUES)

    def check_announcements(self, dealt: list[int] | None) -> tuple[list[Violation], list[ShownImperiale]]:
        """The violations of the announcements, and the impériales shown that count."""
        found: list[Violation] = []
        valid: list[ShownImperiale] = []
        ann = self.announcements
        for seat in ann.cartes_blanches:
            if dealt is not None and dealt[seat] & FIGURES:
                figure = cards_of(dealt[seat] & FIGURES)[0]
                found.append(Violation("false_cartes_blanches", None, None, seat, figure,
                                       {"proof": format_card(figure)}))
        seen: set[tuple[int, frozenset[Card]]] = set()
        shown_by: dict[Card, int] = {}
        for shown in ann.imperiales:
            params = {"shown": [format_card(c) for c in shown.cards], "index": shown.index + 1}
            key = (shown.seat, frozenset(shown.cards))
            if not shown.kind:
                found.append(Violation("not_an_imperiale", None, None, shown.seat, None, params))
                continue
            if key in seen:
                found.append(Violation("imperiale_claimed_twice", None, None, shown.seat, None, params))
                continue
            seen.add(key)
            if dealt is not None:
                missing = [c for c in shown.cards if not dealt[shown.seat] & BIT[c]]
                if missing:
                    found.append(Violation("imperiale_not_in_hand", None, None, shown.seat, missing[0], params))
                    continue
            else:
                clash = [c for c in shown.cards if shown_by.get(c, shown.seat) != shown.seat]
                clash += [c for c in shown.cards if c == self.turn_up and self.options.players == 2]
                if clash:
                    found.append(Violation("imperiale_not_in_hand", None, None, shown.seat, clash[0], params))
                    continue
                for c in shown.cards:
                    shown_by[c] = shown.seat
            valid.append(shown)
        return found, valid

    def setup(self, dealt: list[int] | None) -> Setup:
        violations, _ = self.check_announcements(dealt)
        unchecked: tuple[str, ...] = ()
        if dealt is None:
            return Setup(None, tuple(violations), unchecked=("declarations",))
        union = 0
        for hand in dealt:
            union |= hand
        if self.options.players == 2:
            for seat, hand in enumerate(dealt):
                if hand & BIT[self.turn_up]:
                    violations.append(Violation("turn_up_in_hand", None, None, seat, self.turn_up))
            talon = (self.pack_mask & ~union).bit_count()
            if talon != 8:
                violations.append(Violation("wrong_talon_size", None, None, None, None,
                                            {"count": talon, "expected": 8}))
        elif not dealt[self.dealer] & BIT[self.turn_up]:
            violations.append(Violation("turn_up_not_with_dealer", None, None, self.dealer, self.turn_up))
        claim = self.announcements.point
        if claim is not None and self.played:
            truth = self.true_point(dealt)
            if truth is None or (claim.seat, claim.count) != (truth.seat, truth.count) or (
                    claim.value is not None and claim.value != truth.value):
                violations.append(Violation("false_point", None, None, claim.seat, None, {
                    "count": claim.count, "value": claim.value if claim.value is not None else "",
                    "true_seat": truth.seat + 1 if truth else "", "true_count": truth.count if truth else 0,
                    "true_value": truth.value if truth else 0}))
        return Setup(list(dealt), tuple(violations), unchecked=unchecked)


class Imperiale(Game):
    """L'Impériale, 2 or 3 players."""

    name = "imperiale"
    label = "Impériale"
    record_fields: ClassVar[Mapping[str, Any]] = {
        "turn_up": "", "announcements": {"cartes_blanches": [], "imperiales": []}, "hands": None, "tricks": []}
    options_type = ImperialeOptions
    player_counts = (2, 3)
    score_unit = ("impériales", "impériales")  # a deal's scores are the impériales (fiches) it gained
    fault_before_ending_deal = True  # the match ends at the exact mark (§4.3 rule 15)
    target_unit = ("impériales", "impériales")  # a game is won at so many impériales (fiches), 5 by default
    carries_marks = True  # scores are impériales gained; the jetons go on to the next deal (§4.2 rule 6, §4.3)
    carried_unit = ("jeton", "jetons")  # the same words in English: the table's own (RULES.md §0.2)

    def check_options(self, options: Any, *, field: str) -> None:
        super().check_options(options, field=field)
        if options.target < 1:
            raise MalformedRecord(f"{field}.target", "the game is played to at least one impériale",
                                  fr="la partie se joue en une impériale au moins")

    def describe_entry(self, options: Any) -> EntryForm:
        return entry_form(options)

    def deal_rules(self, options: Any, deal: Mapping[str, Any], *, players: int, field: str) -> ImperialeDeal:
        dealer = read_seat(deal.get("dealer"), join_path(field, "dealer"), players)
        if deal.get("turn_up") is None:
            raise MalformedRecord(join_path(field, "turn_up"),
                                  "the turned-up card (retourne) is required: it fixes trump",
                                  fr="la retourne est obligatoire : elle fixe l'atout")
        turn_up = read_card(deal["turn_up"], join_path(field, "turn_up"))
        pack = PIQUET_32 if players == 2 else PIQUET_36
        if turn_up not in pack:
            raise MalformedRecord(join_path(field, "turn_up"), f"not a card of the {len(pack)}-card pack",
                                  fr=f"ce n'est pas une carte du jeu de {len(pack)} cartes")
        announcements = read_announcements(deal, options, dealer=dealer, turn_up=turn_up, players=players,
                                           field=field)
        if announcements.cartes_blanches and deal.get("tricks"):
            raise MalformedRecord(join_path(field, "tricks"), "a deal with cartes blanches is not played: "
                                                          "no tricks may be recorded",
                                  fr="une donne avec cartes blanches ne se joue pas : aucun pli ne peut être "
                                     "enregistré")
        rules = ImperialeDeal(options, dealer=dealer, turn_up=turn_up, announcements=announcements, field=field)
        if deal.get("summary") is not None:
            rules.summary = read_summary(deal["summary"], join_path(field, "summary"), players=players,
                                         keys=("honours",), pack=mask_of(pack))
        return rules


def read_announcements(deal: Mapping[str, Any], options: ImperialeOptions, *, dealer: int, turn_up: Card,
                       players: int, field: str) -> Announcements:
    """The ``announcements`` object of a deal."""
    path = join_path(field, "announcements")
    raw = deal.get("announcements")
    if raw is None:
        return Announcements()
    if not isinstance(raw, Mapping):
        raise MalformedRecord(path, "announcements is a JSON object", fr="announcements est un objet JSON")
    unknown = set(raw) - {"cartes_blanches", "imperiales", "point"}
    if unknown:
        raise MalformedRecord(f"{path}.{sorted(unknown)[0]}", "unknown announcement "
                                                              "(known: cartes_blanches, imperiales, point)",
                              fr="annonce inconnue (annonces connues : cartes_blanches, imperiales, point)")
    blanches_raw = raw.get("cartes_blanches") or []
    if not isinstance(blanches_raw, list):
        raise MalformedRecord(f"{path}.cartes_blanches", "a list of seats", fr="une liste de places")
    blanches = tuple(dict.fromkeys(read_seat(s, f"{path}.cartes_blanches[{i}]", players)
                                   for i, s in enumerate(blanches_raw)))
    shown_raw = raw.get("imperiales") or []
    if not isinstance(shown_raw, list):
        raise MalformedRecord(f"{path}.imperiales", 'a list of {"seat": s, "cards": [...]}',
                              fr='une liste de {"seat": s, "cards": [...]}')
    trump = SUIT[turn_up]
    shown = []
    for i, item in enumerate(shown_raw):
        item_path = f"{path}.imperiales[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedRecord(item_path, 'an impériale shown is {"seat": s, "cards": [...]}',
                                  fr='une impériale montrée s\'écrit {"seat": s, "cards": [...]}')
        seat = read_seat(item.get("seat"), f"{item_path}.seat", players)
        pack = mask_of(PIQUET_32 if players == 2 else PIQUET_36)
        cards = tuple(read_cards(item.get("cards"), f"{item_path}.cards", pack=pack))
        kind, fiches = shown_kind(cards, seat, dealer=dealer, turn_up=turn_up, trump=trump, options=options)
        shown.append(ShownImperiale(i, seat, cards, kind, fiches))
    point, recorded = read_point(raw, path, players)
    return Announcements(blanches, tuple(shown), point, recorded)


def random_record(rng: random.Random, *, players: int = 2, dealer: int | None = None,
                  **options: Any) -> dict[str, Any]:
    """A random legal deal record: shuffled hands, the retourne, every impériale en main held shown,
    and a random legal play of the twelve tricks — for benchmarks, demonstrations and property tests."""
    from .play import DealState, play_out_randomly  # late: reading records does not need it

    pack = list(PIQUET_32 if players == 2 else PIQUET_36)
    rng.shuffle(pack)
    dealer = rng.randrange(players) if dealer is None else dealer
    hands = [pack[12 * i:12 * i + 12] for i in range(players)]
    turn_up = pack[24] if players == 2 else hands[dealer][-1]
    shown = []
    for seat, hand in enumerate(hands):
        held = set(hand)
        fours = [[card(r, s) for r in MAJOR_RANKS] for s in range(4)]
        fours += [[card(r, s) for s in range(4)] for r in (*MAJOR_RANKS, 6 if players == 3 else 7)]
        shown += [{"seat": seat, "cards": [format_card(c) for c in four]} for four in fours if held.issuperset(four)]
    data: dict[str, Any] = {
        "format": "levee.deal/1", "game": "imperiale", "options": {"players": players, **options},
        "players": [f"P{i + 1}" for i in range(players)], "dealer": dealer,
        "hands": [[format_card(c) for c in h] for h in hands], "turn_up": format_card(turn_up),
        "announcements": {"imperiales": shown},
    }
    game = GAMES["imperiale"]
    rules = game.deal_rules(game.parse_options(data["options"]), data, players=players, field="")
    data["tricks"] = play_out_randomly(DealState(rules, [mask_of(h) for h in hands]), rng)
    return data


register(Imperiale())

register_messages({
    "turn_up_in_hand": {
        "fr": "La retourne ({card}) figure dans la main de {who}.",
        "en": "The turned-up card ({card}) is in {who}'s hand.",
    },
    "turn_up_not_with_dealer": {
        "fr": "La carte qui fait l'atout ({card}) doit être la dernière carte du donneur, {who}.",
        "en": "The card that fixes trump ({card}) must be the dealer's ({who}) last card.",
    },
    "false_cartes_blanches": {
        "fr": "{who} annonce des cartes blanches mais détient {proof}.",
        "en": "{who} announces cartes blanches but holds {proof}.",
    },
    "not_an_imperiale": {
        "fr": "Les cartes montrées par {who} (annonce {index}) ne forment pas une impériale.",
        "en": "The cards shown by {who} (announcement {index}) make no impériale.",
    },
    "imperiale_claimed_twice": {
        "fr": "{who} montre deux fois la même impériale (annonce {index}).",
        "en": "{who} shows the same impériale twice (announcement {index}).",
    },
    "imperiale_not_in_hand": {
        "fr": "{who} montre une impériale avec {card}, absent(e) de sa main (annonce {index}).",
        "en": "{who} shows an impériale with {card}, which is not in their hand (announcement {index}).",
    },
    "false_point": {
        "fr": "Le Point annoncé pour {who} ({count} cartes) ne correspond pas aux mains : le Point revient "
              "au joueur {true_seat} avec {true_count} cartes valant {true_value}.",
        "en": "The Point declared for {who} ({count} cards) does not match the hands: the Point belongs "
              "to player {true_seat} with {true_count} cards worth {true_value}.",
    },
    "must_lead_trump": {
        "fr": "{who} doit entamer la donne par un atout : sa main contient {example}.",
        "en": "{who} must lead a trump to the first trick: they hold {example}.",
    },
})


# -- what the entry of a deal asks for (rules/entry.py) ----------------------------------------------

def entry_form(options: ImperialeOptions) -> EntryForm:
    """The phases of an Impériale deal and their declarations (§4.1 to §4.3 of RULES.md)."""
    three = options.players == 3
    retourne_help = ("La dernière carte du donneur, montrée : elle reste dans sa main et fixe l'atout." if three
                     else "Sa couleur est l'atout ; elle n'est dans aucune main.")
    phases = (
        Phase("deal", "Donne", (dealer_field(), turn_up_field(help=retourne_help))),
        Phase("announcements", "Annonces", (
            DeclarationField("announcements.cartes_blanches", "seats", "Cartes blanches",
                             help="Joueurs qui ont montré douze cartes sans roi, dame ni valet : le coup n'est "
                                  "pas joué."),
            DeclarationField("announcements.imperiales", "list", "Impériales en main", fields=(
                DeclarationField("seat", "seat", "Joueur", required=True),
                DeclarationField("cards", "cards", "Cartes montrées", required=True, min=3, max=4,
                                 help="As, roi, dame, valet d'une couleur ; ou quatre valets, dames, rois, as ou "
                                      + ("six" if three else "sept") + "."),
            ), help="Seules les impériales montrées comptent."),
            point_field("announcements.point", "Le point"),
        )),
        play_phase(12),
        Phase("summary", "Résumé de la donne", (
            tricks_summary_field(12),
            honours_summary_field("l'as, le roi, la dame, le valet et le " + ("six" if three else "sept")
                                  + " d'atout"),
        ), kind="summary", help="Au lieu des plis, quand ils n'ont pas été notés."),
    )
    pack = PIQUET_36 if three else PIQUET_32
    return EntryForm("imperiale", options.players, phases, pack_in_order(pack, PLAY_ORDER), 12, 12)
