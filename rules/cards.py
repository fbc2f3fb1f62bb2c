"""Cards, suits, packs and card orders.

A card is a small integer so that hands and tricks can be bit masks:

* suit cards: ``suit * 16 + rank`` with suits ``S H D C`` = 0..3 and ranks
  ``A`` = 1, ``2`` … ``10``, ``J`` = 11, ``N`` (cavalier) = 12, ``Q`` = 13, ``K`` = 14;
* Tarot trumps ``T1`` … ``T21`` = 64 + n (65..85), the Excuse ``EX`` = 86.

The text codes are those of the deal record (``KS``, ``10H``, ``NC``, ``T21``, ``EX``):
upper case on output, any case on input. Which card beats which is not a property of
the card but of the game: each game builds a :class:`CardOrder` from its rank order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

Card = int
"""A card id (see the module docstring)."""

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
TRUMPS = 4
"""The Tarot trump 'suit' (atouts)."""
NO_SUIT = 5
"""The Excuse belongs to no suit."""

SUIT_CODES = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES_FR = ("pique", "cœur", "carreau", "trèfle")
SUIT_NAMES_EN = ("spades", "hearts", "diamonds", "clubs")

ACE, JACK, KNIGHT, QUEEN, KING = 1, 11, 12, 13, 14
RANK_CODES = {1: "A", 11: "J", 12: "N", 13: "Q", 14: "K"} | {n: str(n) for n in range(2, 11)}
_CODE_RANKS = {code: rank for rank, code in RANK_CODES.items()}
RANK_NAMES_FR = {1: "as", 11: "valet", 12: "cavalier", 13: "dame", 14: "roi"} | {n: str(n) for n in range(2, 11)}
RANK_NAMES_EN = {1: "ace", 11: "jack", 12: "knight", 13: "queen", 14: "king"} | {n: str(n) for n in range(2, 11)}

TRUMP_BASE = 64
EXCUSE: Card = 86
PETIT: Card = TRUMP_BASE + 1
VINGT_ET_UN: Card = TRUMP_BASE + 21
CARD_COUNT = 87

ALL_MASK = (1 << CARD_COUNT) - 1


def card(rank: int, suit: int) -> Card:
    """The suit card of ``rank`` (1..14) in ``suit`` (0..3)."""
    return suit * 16 + rank


def trump(number: int) -> Card:
    """The Tarot trump numbered ``number`` (1..21)."""
    return TRUMP_BASE + number


def _suit_of(c: int) -> int:
    if c == EXCUSE:
        return NO_SUIT
    if c > TRUMP_BASE:
        return TRUMPS
    return c >> 4


SUIT: tuple[int, ...] = tuple(_suit_of(c) for c in range(CARD_COUNT))
"""``SUIT[card]``: the suit index of a card (TRUMPS for Tarot trumps, NO_SUIT for the Excuse)."""
RANK: tuple[int, ...] = tuple(
    (c - TRUMP_BASE if TRUMP_BASE < c < EXCUSE else 0) if c >= TRUMP_BASE else c & 15 for c in range(CARD_COUNT)
)
"""``RANK[card]``: the rank (1..14) of a suit card, the number of a Tarot trump, 0 for the Excuse."""


def suit_of(c: Card) -> int:
    """The suit of a card (0..3, TRUMPS or NO_SUIT)."""
    return SUIT[c]


def rank_of(c: Card) -> int:
    """The rank of a suit card, or the number of a Tarot trump."""
    return RANK[c]


def is_valid(c: int) -> bool:
    """Whether ``c`` names a card of some pack."""
    if c == EXCUSE or TRUMP_BASE < c < EXCUSE:
        return True
    return 0 <= c < TRUMP_BASE and 1 <= (c & 15) <= 14


class CardCodeError(ValueError):
    """A card code that names no card: the English text, and the French one in ``fr``."""

    def __init__(self, message: str, *, fr: str | None = None) -> None:
        super().__init__(message)
        self.fr = fr or message


def parse_card(code: str) -> Card:
    """Parse a card code (``KS``, ``10h``, ``T21``, ``ex``) into a card id.

    >>> format_card(parse_card("10h"))
    '10H'
    """
    if code.__class__ is str:
        known = _PARSED.get(code)
        if known is not None:
            return known
    elif not isinstance(code, str):
        raise CardCodeError(f"a card code is a string, not {code!r}",
                            fr=f"un code de carte est une chaîne de caractères, pas {code!r}")
    text = code.strip().upper()
    if text == "EX":
        return EXCUSE
    if text.startswith("T") and text[1:].isdigit():
        number = int(text[1:])
        if 1 <= number <= 21:
            return trump(number)
        raise CardCodeError(f"no trump numbered {number} (T1 to T21)",
                            fr=f"il n'y a pas d'atout numéro {number} (T1 à T21)")
    if len(text) >= 2 and text[-1] in SUIT_CODES and text[:-1] in _CODE_RANKS:
        return card(_CODE_RANKS[text[:-1]], SUIT_CODES.index(text[-1]))
    raise CardCodeError(f"{code!r} is not a card code (examples: KS, 10H, NC, T21, EX)",
                        fr=f"{code!r} n'est pas un code de carte (exemples : KS, 10H, NC, T21, EX)")


_PARSED: dict[str, Card] = {}
"""Cache of :func:`parse_card` for the exact codes of every card (upper and lower case): records hold
thousands of codes and parsing is the larger part of reading one."""
CARD_BY_CODE: Mapping[str, Card] = _PARSED
"""The card of each exact code (``KS``, ``ks``, ``10H``, ``T21``, ``EX`` …: every card of the Tarot and French
packs, upper and lower case), built once at import: what :func:`parse_card` returns for these codes."""


def format_card(c: Card) -> str:
    """The code of a card, as in the deal record."""
    if c == EXCUSE:
        return "EX"
    if c > TRUMP_BASE:
        return f"T{c - TRUMP_BASE}"
    return RANK_CODES[c & 15] + SUIT_CODES[c >> 4]


def codes_of(cards: Iterable[Card]) -> list[str]:
    """The codes of cards (a table look-up: verdicts list every card of every trick)."""
    return cast("list[str]", [*map(CODE_OF.__getitem__, cards)])  # a card id always has a code


def card_name(c: Card, lang: str = "fr") -> str:
    """A card's name for people: ``roi de pique``, ``atout 21``, ``l'Excuse`` (or English)."""
    if c == EXCUSE:
        return "l'Excuse" if lang == "fr" else "the Excuse"
    if c > TRUMP_BASE:
        n = c - TRUMP_BASE
        if lang == "fr":
            return "le Petit (atout 1)" if n == 1 else f"atout {n}"
        return "the Petit (trump 1)" if n == 1 else f"trump {n}"
    rank, suit = c & 15, c >> 4
    if lang == "fr":
        return f"{RANK_NAMES_FR[rank]} de {SUIT_NAMES_FR[suit]}"
    return f"{RANK_NAMES_EN[rank]} of {SUIT_NAMES_EN[suit]}"


def card_with_article(c: Card, lang: str = "fr") -> str:
    """A card's name with its definite article, as a sentence says it: « la dame de cœur », « l'as de pique »,
    « le 10 de trèfle », « l'atout 21 », « le Petit », « l'Excuse » (English: « the queen of hearts »)."""
    name = card_name(c, lang)
    if lang != "fr":
        return name if name.startswith("the ") else f"the {name}"
    if name.startswith(("l'", "le ")):
        return name
    if name.startswith(("as ", "atout ")):
        return f"l'{name}"
    if name.startswith("dame "):
        return f"la {name}"
    return f"le {name}"


def card_label(c: Card) -> str:
    """A short label with the suit symbol, for pages: ``R♠``, ``10♥``, ``21``, ``Exc``."""
    if c == EXCUSE:
        return "Exc"
    if c > TRUMP_BASE:
        return str(c - TRUMP_BASE)
    short_fr = {1: "1", 11: "V", 12: "C", 13: "D", 14: "R"}
    rank = c & 15
    return short_fr.get(rank, str(rank)) + SUIT_SYMBOLS[c >> 4]


# -- masks --------------------------------------------------------------------------------------------

BIT: tuple[int, ...] = tuple(1 << c for c in range(CARD_COUNT))
CODE: tuple[str | None, ...] = tuple(format_card(c) if is_valid(c) else None for c in range(CARD_COUNT))
"""The code of each card id (None for the ids no card has)."""
BIT_OF: dict[int, int] = dict(enumerate(BIT))
""":data:`BIT` as a dict: ``map(BIT_OF.__getitem__, cards)`` costs less than through the tuple's ``__getitem__``
(a slot wrapper); a subscript ``BIT[c]`` is quicker on the tuple."""
CODE_OF: dict[int, str | None] = dict(enumerate(CODE))
""":data:`CODE` as a dict (for ``map``, as :data:`BIT_OF`)."""


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in id order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


SUIT_MASK: tuple[int, ...] = tuple(mask_of(c for c in range(CARD_COUNT) if is_valid(c) and SUIT[c] == s)
                                   for s in range(6))
"""``SUIT_MASK[s]``: every card of suit ``s`` in any pack (TRUMPS: T1..T21; NO_SUIT: the Excuse)."""
TRUMP_MASK = SUIT_MASK[TRUMPS]


# -- packs --------------------------------------------------------------------------------------------

def _pack(ranks: Sequence[int], tarot: bool = False) -> tuple[Card, ...]:
    cards = [card(r, s) for s in range(4) for r in ranks]
    if tarot:
        cards += [trump(n) for n in range(1, 22)] + [EXCUSE]
    return tuple(cards)


PIQUET_32 = _pack([ACE, 7, 8, 9, 10, JACK, QUEEN, KING])
"""The 32-card piquet pack (7 to Ace): Triomphe, Écarté, Impériale at 2."""
PIQUET_36 = _pack([ACE, 6, 7, 8, 9, 10, JACK, QUEEN, KING])
"""The 36-card pack (6 to Ace): Impériale at 3 players."""
FRENCH_52 = _pack([ACE, *range(2, 11), JACK, QUEEN, KING])
"""The 52-card French pack: Le Vingt-quatre."""
TAROT_78 = _pack([ACE, *range(2, 11), JACK, KNIGHT, QUEEN, KING], tarot=True)
"""The 78-card Tarot pack."""

for _c in set(TAROT_78) | set(FRENCH_52):
    _PARSED[format_card(_c)] = _PARSED[format_card(_c).lower()] = _c


# -- orders -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CardOrder:
    """A game's ranking of the cards within each suit, from a rank order high→low.

    ``strength[c]`` grows with the card's power in its suit; Tarot trumps rank by number
    above everything else and the Excuse has strength 0. ``beats[c]`` is the mask of the
    cards of the same suit that beat ``c``.
    """

    ranks_high_to_low: tuple[int, ...]
    strength: tuple[int, ...]
    beats: tuple[int, ...]

    @classmethod
    def from_ranks(cls, ranks_high_to_low: Sequence[int]) -> CardOrder:
        n = len(ranks_high_to_low)
        position = {rank: n - i for i, rank in enumerate(ranks_high_to_low)}
        strength = []
        for c in range(CARD_COUNT):
            if c == EXCUSE or not is_valid(c):
                strength.append(0)
            elif c > TRUMP_BASE:
                strength.append(100 + c - TRUMP_BASE)
            else:
                strength.append(position.get(c & 15, 0))
        beats = []
        for c in range(CARD_COUNT):
            if not is_valid(c) or c == EXCUSE or strength[c] == 0:
                beats.append(0)
                continue
            beats.append(mask_of(x for x in range(CARD_COUNT)
                                 if is_valid(x) and SUIT[x] == SUIT[c] and strength[x] > strength[c]))
        return cls(tuple(ranks_high_to_low), tuple(strength), tuple(beats))

    def key(self, c: Card) -> int:
        """Sort key: higher is stronger within a suit."""
        return self.strength[c]


def rank_order(text: str) -> tuple[int, ...]:
    """Ranks from a spaced string high→low, e.g. ``"K Q J A 10 9 8 7"``."""
    return tuple(_CODE_RANKS[token] for token in text.split())


def sort_hand(cards: Iterable[Card], order: CardOrder | None = None) -> list[Card]:
    """Cards grouped by suit (♠ ♥ ♦ ♣, trumps, Excuse), strongest first within each suit."""
    strength = order.strength if order else tuple(RANK[c] for c in range(CARD_COUNT))
    return sorted(cards, key=lambda c: (SUIT[c], -strength[c]))


def iter_codes(cards: Iterable[Card]) -> Iterator[str]:
    """Card codes of the cards."""
    return (format_card(c) for c in cards)
