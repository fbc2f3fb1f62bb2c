"""Le Vingt-quatre (RULES.md §5, A-V1 … A-V5; seed 003): one deal's rules.

Conventions (:class:`VingtQuatreOptions`, record ``options``):

* ``players``: 5 (10 cards each dealt 3-3-4, talon of 2 with the virade) or 4 (12 each, talon 4);
  52 cards;
* ``honours``: ``figures`` (default: trump 9, 10, J, Q, K) or ``point`` (trump A, 2, 3, 4, 5);
  a deal may override it with its own ``honours`` field, for tables that alternate (A-V5);
* ``target``: the points of a partie, default 24 (a multiple of 4: 6 jetons); the record may
  also spell it ``target_points``;
* ``parties``: parties of ``target`` points in the match, default 1.

Deal fields (besides ``dealer``, ``hands``, ``tricks``):

* ``turn_up`` (required): the virade, the card turned on the talon (never in a hand);
* ``announcements`` (optional object), as declared at the table:

  - ``sequences``: each sequence shown, ``{"seat": s, "cards": [...]}`` — five or more cards of
    one suit that follow in the order A 2 … 10 J Q K. When the hands are given the sequences are
    found from them (every maximal run of five or more is one sequence, A-V2) and the shown ones
    are only checked; without hands the shown ones are scored;
  - ``point``: the Point as won, ``{"seat": s, "count": n, "value": v}`` (value optional), or
    ``null`` when it was not counted. With the hands the Point is found from them and the claim
    checked.

Order of the cards for play and sequences: K Q J 10 … 2 A (Ace lowest). Card play: the forcing
rule shared with L'Impériale (:mod:`rules.forcing`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import (
    ACE,
    BIT,
    FRENCH_52,
    JACK,
    KING,
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
    Choice,
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
from .imperiale import PointClaim, point_winner, read_point
from .messages import register as register_messages
from .record import join_path, read_card, read_cards, read_seat
from .summary import TricksSummary, read_summary

PACK_52 = mask_of(FRENCH_52)

PLAY_ORDER = CardOrder.from_ranks(rank_order("K Q J 10 9 8 7 6 5 4 3 2 A"))
"""Order for play and sequences: R D V 10 … 2 As."""

SEQUENCE_RANK = {ACE: 1, **{r: r for r in range(2, 11)}, JACK: 11, QUEEN: 12, KING: 13}
"""Height of a card in a sequence: As 1 … 10, V 11, D 12, R 13."""
_BY_HEIGHT = {height: rank for rank, height in SEQUENCE_RANK.items()}

POINT_VALUES: tuple[int, ...] = tuple(10 if RANK[c] > 10 else RANK[c] for c in range(64)) + (0,) * 23
"""Value of a card in the Point: As 1, 2 … 10 their pips, figures 10."""

HONOUR_RANKS = {"figures": (9, 10, JACK, QUEEN, KING), "point": (ACE, 2, 3, 4, 5)}
HONOURS = tuple(HONOUR_RANKS)

DEAL_SIZES = {5: (10, 2), 4: (12, 4)}
"""Cards each and talon (virade included), by number of players (§5 rule 1)."""


@dataclass(frozen=True)
class VingtQuatreOptions:
    """The conventions agreed before the game (see the module docstring)."""

    players: int = 5
    honours: str = "figures"
    target: int = 24
    parties: int = 1


@dataclass(frozen=True)
class Run:
    """A sequence: cards of one suit that follow, ``top`` the height of the highest (As 1 … R 13)."""

    seat: int
    suit: int
    cards: tuple[Card, ...]
    top: int

    @property
    def length(self) -> int:
        return len(self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": [format_card(c) for c in self.cards], "length": self.length,
                "top": format_card(card(_BY_HEIGHT[self.top], self.suit))}


def runs_of(hand: int, seat: int, *, minimum: int = 5) -> list[Run]:
    """Every maximal run of ``minimum`` or more cards of one suit in a hand (disjoint runs are separate)."""
    out = []
    for s in range(4):
        heights = sorted(SEQUENCE_RANK[RANK[c]] for c in cards_of(hand & SUIT_MASK[s]))
        start = 0
        for i in range(1, len(heights) + 1):
            if i == len(heights) or heights[i] != heights[i - 1] + 1:
                if i - start >= minimum:
                    run = heights[start:i]
                    out.append(Run(seat, s, tuple(card(_BY_HEIGHT[h], s) for h in run), run[-1]))
                start = i
    return out


def as_run(cards: Sequence[Card], seat: int) -> Run | None:
    """The sequence the cards make (five or more of one suit that follow), or None."""
    if len(cards) < 5 or len(set(cards)) != len(cards) or len({SUIT[c] for c in cards}) != 1:
        return None
    runs = runs_of(mask_of(cards), seat)
    return runs[0] if len(runs) == 1 and runs[0].length == len(cards) else None


def best_sequence(runs: Sequence[Run], primaute: Sequence[int], trump: int) -> Run | None:
    """The best sequence: most cards, then highest top card, then trump, then primauté."""
    best: Run | None = None
    rank = {seat: i for i, seat in enumerate(primaute)}
    for run in runs:
        key = (run.length, run.top, run.suit == trump, -rank[run.seat])
        if best is None or key > (best.length, best.top, best.suit == trump, -rank[best.seat]):
            best = run
    return best


@dataclass(frozen=True)
class Announcements:
    """The announcement phase as recorded: the sequences shown and the Point."""

    sequences: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    sequences_recorded: bool = False
    point: PointClaim | None = None
    point_recorded: bool = False


class VingtQuatreDeal(ForcingDealRules):
    """One deal of Le Vingt-quatre."""

    #: the quick summary entered instead of the tricks (``summary``), if any
    summary: TricksSummary | None = None

    def __init__(self, options: VingtQuatreOptions, *, dealer: int, turn_up: Card, honours: str,
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
        self.hand_size, self.talon_size = DEAL_SIZES[n]
        self.tricks_per_deal = self.hand_size
        self.pack = FRENCH_52
        self.pack_mask = PACK_52
        self.order = PLAY_ORDER
        self.trump = SUIT[turn_up]
        self.honours_convention = honours
        self.honours = mask_of(card(r, self.trump) for r in HONOUR_RANKS[honours])

    @property
    def retourne_is_honour(self) -> bool:
        return bool(self.honours & BIT[self.turn_up])

    def unplayed(self) -> int:
        """The virade is in no hand."""
        return BIT[self.turn_up]

    def true_point(self, dealt: Sequence[int]) -> PointClaim | None:
        return point_winner(dealt, self.primaute, POINT_VALUES)

    def shown_sequences(self, dealt: Sequence[int] | None) -> tuple[list[Violation], list[Run]]:
        """The violations of the sequences shown, and the shown sequences that are true."""
        found: list[Violation] = []
        valid: list[Run] = []
        for index, (seat, cards) in enumerate(self.announcements.sequences):
            params = {"shown": [format_card(c) for c in cards], "index": index + 1}
            run = as_run(cards, seat)
            if run is None:
                found.append(Violation("not_a_sequence", None, None, seat, None, params))
                continue
            if dealt is not None:
                missing = [c for c in cards if not dealt[seat] & BIT[c]]
                if missing:
                    found.append(Violation("sequence_not_in_hand", None, None, seat, missing[0], params))
                    continue
            touching = [other for other in valid if other.seat == seat and other.suit == run.suit
                        and as_run(sorted(set(other.cards) | set(cards)), seat) is not None]
            if dealt is not None and not touching:
                # with the hands: two runs joined by held cards are one sequence (A-V2)
                touching = [other for other in valid if other.seat == seat and other.suit == run.suit and any(
                    set(other.cards) <= set(big.cards) and set(cards) <= set(big.cards)
                    for big in runs_of(dealt[seat], seat))]
            if touching:
                found.append(Violation("sequences_form_one_run", None, None, seat, None, params))
                continue
            valid.append(run)
        return found, valid

    def sequences(self, dealt: Sequence[int] | None) -> list[Run]:
        """The sequences that count: from the hands when known, else the valid ones shown."""
        if dealt is not None:
            return [run for seat in self.primaute for run in runs_of(dealt[seat], seat)]
        return self.shown_sequences(None)[1]

    def setup(self, dealt: list[int] | None) -> Setup:
        violations, _ = self.shown_sequences(dealt)
        if dealt is None:
            return Setup(None, tuple(violations), unchecked=("declarations",))
        union = 0
        for seat, hand in enumerate(dealt):
            union |= hand
            if hand & BIT[self.turn_up]:
                violations.append(Violation("turn_up_in_hand", None, None, seat, self.turn_up))
        talon = (self.pack_mask & ~union).bit_count()
        if talon != self.talon_size:
            violations.append(Violation("wrong_talon_size", None, None, None, None,
                                        {"count": talon, "expected": self.talon_size}))
        claim = self.announcements.point
        if claim is not None:
            truth = self.true_point(dealt)
            if truth is None or (claim.seat, claim.count) != (truth.seat, truth.count) or (
                    claim.value is not None and claim.value != truth.value):
                violations.append(Violation("false_point", None, None, claim.seat, None, {
                    "count": claim.count, "value": claim.value if claim.value is not None else "",
                    "true_seat": truth.seat + 1 if truth else "", "true_count": truth.count if truth else 0,
                    "true_value": truth.value if truth else 0}))
        return Setup(list(dealt), tuple(violations))


class VingtQuatre(Game):
    """Le Vingt-quatre, 4 or 5 players."""

    name = "vingt-quatre"
    label = "Vingt-quatre"
    conventions: ClassVar[Mapping[str, Any]] = {"honours": "figures"}
    record_fields: ClassVar[Mapping[str, Any]] = {
        "turn_up": "", "announcements": {"sequences": []}, "hands": None, "tricks": []}
    options_type = VingtQuatreOptions
    player_counts = (4, 5)
    score_unit = ("jetons", "jetons")  # a jeton is 4 points; 6 win a partie of 24

    def parse_options(self, raw: Mapping[str, Any] | None, *, field: str = "options") -> Any:
        raw = dict(raw or {})
        if "target_points" in raw:
            if "target" in raw:
                raise MalformedRecord(f"{field}.target_points", "give target or target_points, not both",
                                      fr="donnez target ou target_points, pas les deux")
            raw["target"] = raw.pop("target_points")
        return super().parse_options(raw, field=field)

    def check_options(self, options: Any, *, field: str) -> None:
        super().check_options(options, field=field)
        if options.honours not in HONOURS:
            raise MalformedRecord(f"{field}.honours", f"one of {', '.join(HONOURS)}",
                                  fr=f"l'une des valeurs {', '.join(HONOURS)}")
        if options.target < 4 or options.target % 4:
            raise MalformedRecord(f"{field}.target", "the points of a partie: a positive multiple of 4 (24)",
                                  fr="les points d'une partie : un multiple positif de 4 (24)")
        if options.parties < 1:
            raise MalformedRecord(f"{field}.parties", "at least one partie", fr="au moins une partie")

    def describe_entry(self, options: Any) -> EntryForm:
        return entry_form(options)

    def deal_rules(self, options: Any, deal: Mapping[str, Any], *, players: int, field: str) -> VingtQuatreDeal:
        dealer = read_seat(deal.get("dealer"), join_path(field, "dealer"), players)
        if deal.get("turn_up") is None:
            raise MalformedRecord(join_path(field, "turn_up"), "the virade (turned-up card) is required: "
                                                               "it fixes trump",
                                  fr="la virade est obligatoire : elle fixe l'atout")
        turn_up = read_card(deal["turn_up"], join_path(field, "turn_up"))
        if turn_up not in FRENCH_52:
            raise MalformedRecord(join_path(field, "turn_up"), "not a card of the 52-card pack",
                                  fr="ce n'est pas une carte du jeu de 52 cartes")
        honours = deal.get("honours", options.honours)
        if honours not in HONOURS:
            raise MalformedRecord(join_path(field, "honours"), f"one of {', '.join(HONOURS)}",
                                  fr=f"l'une des valeurs {', '.join(HONOURS)}")
        rules = VingtQuatreDeal(options, dealer=dealer, turn_up=turn_up, honours=honours,
                                announcements=read_announcements(deal, field=field, players=players), field=field)
        if deal.get("summary") is not None:
            rules.summary = read_summary(deal["summary"], join_path(field, "summary"), players=players,
                                         keys=("honours",), pack=PACK_52)
        return rules


def read_announcements(deal: Mapping[str, Any], *, field: str, players: int) -> Announcements:
    """The ``announcements`` object of a deal."""
    path = join_path(field, "announcements")
    raw = deal.get("announcements")
    if raw is None:
        return Announcements()
    if not isinstance(raw, Mapping):
        raise MalformedRecord(path, "announcements is a JSON object", fr="announcements est un objet JSON")
    unknown = set(raw) - {"sequences", "point"}
    if unknown:
        raise MalformedRecord(f"{path}.{sorted(unknown)[0]}", "unknown announcement (known: sequences, point)",
                              fr="annonce inconnue (annonces connues : sequences, point)")
    shown = []
    items = raw.get("sequences")
    if items is not None and not isinstance(items, list):
        raise MalformedRecord(f"{path}.sequences", 'a list of {"seat": s, "cards": [...]}',
                              fr='une liste de {"seat": s, "cards": [...]}')
    for i, item in enumerate(items or []):
        item_path = f"{path}.sequences[{i}]"
        if not isinstance(item, Mapping):
            raise MalformedRecord(item_path, 'a sequence shown is {"seat": s, "cards": [...]}',
                                  fr='une séquence montrée s\'écrit {"seat": s, "cards": [...]}')
        seat = read_seat(item.get("seat"), f"{item_path}.seat", players)
        shown.append((seat, tuple(read_cards(item.get("cards"), f"{item_path}.cards", pack=PACK_52))))
    point, recorded = read_point(raw, path, players)
    return Announcements(tuple(shown), items is not None, point, recorded)


def random_record(rng: random.Random, *, players: int = 5, dealer: int | None = None,
                  **options: Any) -> dict[str, Any]:
    """A random legal deal record: shuffled hands, the virade and a random legal play of the tricks
    (sequences and the Point are found from the hands)."""
    from .play import DealState, play_out_randomly  # late: reading records does not need it

    size, _ = DEAL_SIZES[players]
    pack = list(FRENCH_52)
    rng.shuffle(pack)
    dealer = rng.randrange(players) if dealer is None else dealer
    hands = [pack[size * i:size * i + size] for i in range(players)]
    data: dict[str, Any] = {
        "format": "levee.deal/1", "game": "vingt-quatre", "options": {"players": players, **options},
        "players": [f"P{i + 1}" for i in range(players)], "dealer": dealer,
        "hands": [[format_card(c) for c in h] for h in hands], "turn_up": format_card(pack[size * players]),
    }
    game = GAMES["vingt-quatre"]
    rules = game.deal_rules(game.parse_options(data["options"]), data, players=players, field="")
    data["tricks"] = play_out_randomly(DealState(rules, [mask_of(h) for h in hands]), rng)
    return data


register(VingtQuatre())

register_messages({
    "not_a_sequence": {
        "fr": "Les cartes montrées par {who} (séquence {index}) ne forment pas une séquence d'au moins cinq cartes.",
        "en": "The cards shown by {who} (sequence {index}) are not a sequence of five cards or more.",
    },
    "sequence_not_in_hand": {
        "fr": "{who} montre une séquence avec {card}, absent(e) de sa main (séquence {index}).",
        "en": "{who} shows a sequence with {card}, which is not in their hand (sequence {index}).",
    },
    "sequences_form_one_run": {
        "fr": "{who} compte deux séquences qui n'en font qu'une (séquence {index}).",
        "en": "{who} counts as two sequences what is a single run (sequence {index}).",
    },
})


# -- what the entry of a deal asks for (rules/entry.py) ----------------------------------------------

HONOUR_LABELS = {"figures": "Aux figures (9, 10, valet, dame, roi d'atout)",
                 "point": "Au point (as, 2, 3, 4, 5 d'atout)"}


def entry_form(options: VingtQuatreOptions) -> EntryForm:
    """The phases of a Vingt-quatre deal and their declarations (§5 of RULES.md)."""
    hand_size, _ = DEAL_SIZES[options.players]
    phases = (
        Phase("deal", "Donne", (
            dealer_field(),
            turn_up_field("Virade", help="La carte retournée sur le talon : sa couleur est l'atout."),
            DeclarationField("honours", "choice", "Honneurs de cette donne", default=options.honours,
                             choices=tuple(Choice(h, HONOUR_LABELS[h]) for h in HONOURS)),
        )),
        Phase("announcements", "Annonces", (
            DeclarationField("announcements.sequences", "list", "Séquences", fields=(
                DeclarationField("seat", "seat", "Joueur", required=True),
                DeclarationField("cards", "cards", "Cartes de la séquence", required=True, min=5, max=13,
                                 help="Cinq cartes ou plus d'une couleur qui se suivent (as, 2 … 10, valet, "
                                      "dame, roi)."),
            )),
            point_field("announcements.point", "Le point"),
        )),
        play_phase(hand_size),
        Phase("summary", "Résumé de la donne", (
            tricks_summary_field(hand_size),
            honours_summary_field("les cinq atouts convenus (aux figures : 9, 10, valet, dame, roi ; au point : "
                                  "as, 2, 3, 4, 5)",
                                  "le premier à six jetons (vingt-quatre points) gagne la partie aussitôt"),
        ), kind="summary", help="Au lieu des plis, quand ils n'ont pas été notés."),
    )
    return EntryForm("vingt-quatre", options.players, phases, pack_in_order(FRENCH_52, PLAY_ORDER), hand_size,
                     hand_size)
