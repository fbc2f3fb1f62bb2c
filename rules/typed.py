"""Cards as people type them: the French way (« RC », « DK », « D♦ », « CT », « 21 », « Exc ») beside
the record's codes (``KS``, ``10H``, ``NC``, ``T21``, ``EX``).

Records keep the documented codes: what is typed is read here and written back with
:func:`rules.cards.format_card`. A token is a rank then a suit, case and spaces ignored:

* ranks: French ``R`` roi, ``D`` dame, ``C`` cavalier, ``V`` valet; English ``K``, ``Q``, ``N``,
  ``J``; ``A`` (or ``AS`` before a symbol) the ace; ``2`` … ``10``;
* suits: a symbol ``♠ ♥ ♦ ♣`` (``♤ ♡ ♢ ♧`` too); French ``P`` pique, ``Co`` cœur, ``K`` carreau,
  ``T`` trèfle; English ``S``, ``H``, ``D``; and ``C``, which is **cœur in French and clubs in the
  record's codes**:

  - after a French rank letter (R, D, C, V) ``C`` is cœur: « RC » roi de cœur, « CC » cavalier de cœur;
  - after an English rank letter (K, Q, N, J) it is clubs: « KC » king of clubs (a record code);
  - after the ace or a number (« AC », « 7C », « 10C ») it follows the entry: cœur when the entry is
    written the French way (a French rank letter, or the suits P, K, T, Co, anywhere in it, and no
    English-only letter: K, Q, N, J as ranks or S, H, D as suits), clubs otherwise — in doubt the
    record's code wins. « 7Co » / « 7♥ » and « 7T » / « 7♣ » are never ambiguous;
* Tarot trumps: ``1`` … ``21`` alone, or ``T1`` … ``T21``; the Excuse: ``Exc``, ``Excuse``, ``EX``.

A token that names no card raises :class:`~rules.cards.CardCodeError` whose message shows the
accepted forms (:data:`HINT_FR`, :data:`HINT_EN`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EXCUSE,
    HEARTS,
    JACK,
    KING,
    KNIGHT,
    QUEEN,
    SPADES,
    Card,
    CardCodeError,
    card,
    trump,
)

HINT_FR = ("formes acceptées : RC ou R♥ (roi de cœur), DK ou D♦ (dame de carreau), CT ou C♣ (cavalier de "
           "trèfle), VP (valet de pique), AT (as de trèfle), 10Co ou 10♥ ; atouts 1 à 21 ; Exc pour l'Excuse ; "
           "ou les codes du record (KS, 10H, NC, T21, EX)")
HINT_EN = ("accepted forms: RC or R♥ (roi de cœur, king of hearts), DK or D♦ (dame de carreau), CT or C♣ (cavalier "
           "de trèfle), VP (valet de pique), AT (as de trèfle), 10Co or 10♥; trumps 1 to 21; Exc for the Excuse; "
           "or the record's codes (KS, 10H, NC, T21, EX)")

_FRENCH_RANKS = {"R": KING, "D": QUEEN, "C": KNIGHT, "V": JACK}
_ENGLISH_RANKS = {"K": KING, "Q": QUEEN, "N": KNIGHT, "J": JACK}
_SYMBOLS = {"♠": SPADES, "♤": SPADES, "♥": HEARTS, "♡": HEARTS, "♦": DIAMONDS, "♢": DIAMONDS,
            "♣": CLUBS, "♧": CLUBS}
_FRENCH_SUITS = {"P": SPADES, "CO": HEARTS, "K": DIAMONDS, "T": CLUBS}
_ENGLISH_SUITS = {"S": SPADES, "H": HEARTS, "D": DIAMONDS}
_EXCUSE = {"EX", "EXC", "EXCUSE"}

_TOKEN = re.compile(r"^(10|[2-9AKQNJRDCV]|AS)(CO|[♠♤♥♡♦♢♣♧SHDCPKT])$")
_TRUMP = re.compile(r"^T?(\d{1,2})$")
_SEPARATORS = re.compile(r"[\s,;]+")


def split_tokens(text: str) -> list[str]:
    """Card tokens typed with spaces, commas or semicolons between them."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def _parts(token: str) -> tuple[str, str] | None:
    match = _TOKEN.match(token)
    if match is None:
        return None
    rank, suit = match.groups()
    if rank == "AS" and suit not in _SYMBOLS:
        return None  # « AS » alone is the ace of spades (a record code): rank A, suit S
    return rank, suit


def is_french(tokens: Iterable[str]) -> bool:
    """Whether an entry is written the French way (see the module docstring): some French-only letter and no
    English-only one."""
    french = english = False
    for raw in tokens:
        token = raw.strip().upper()
        parts = _parts(token)
        if parts is None:
            continue
        rank, suit = parts
        if rank in _ENGLISH_RANKS or suit in _ENGLISH_SUITS:
            english = True
        if rank in _FRENCH_RANKS or suit in _FRENCH_SUITS:
            french = True
    return french and not english


def parse_typed_card(token: str, *, french: bool = False, tarot: bool = True) -> Card:
    """The card a typed token names; ``french``: the entry is written the French way (« 7C » is then the 7 de
    cœur); ``tarot``: a number alone is a Tarot trump (otherwise it needs a suit)."""
    text = token.strip().upper().replace(" ", "")
    if text in _EXCUSE:
        return EXCUSE
    number = _TRUMP.match(text)
    if number is not None and (tarot or text.startswith("T")):
        n = int(number.group(1))
        if 1 <= n <= 21:
            return trump(n)
    parts = _parts(text)
    if parts is not None:
        rank_text, suit_text = parts
        if rank_text in ("A", "AS"):
            rank = ACE
        elif rank_text.isdigit():
            rank = int(rank_text)
        else:
            rank = _FRENCH_RANKS.get(rank_text) or _ENGLISH_RANKS[rank_text]
        if suit_text in _SYMBOLS:
            suit = _SYMBOLS[suit_text]
        elif suit_text == "C":
            if rank_text in _FRENCH_RANKS:
                suit = HEARTS
            elif rank_text in _ENGLISH_RANKS:
                suit = CLUBS
            else:
                suit = HEARTS if french else CLUBS
        else:
            suit = _FRENCH_SUITS[suit_text] if suit_text in _FRENCH_SUITS else _ENGLISH_SUITS[suit_text]
        return card(rank, suit)
    raise CardCodeError(f"{token!r} is not a card ({HINT_EN})", fr=f"« {token} » n'est pas une carte ({HINT_FR})")


def parse_typed_cards(text: str, *, french: bool | None = None, tarot: bool = True) -> list[Card]:
    """The cards of a typed entry (``french`` None: decided from the entry itself, :func:`is_french`)."""
    tokens = split_tokens(text)
    if french is None:
        french = is_french(tokens)
    return [parse_typed_card(token, french=french, tarot=tarot) for token in tokens]


def typing_help(pack: Iterable[Card], lang: str = "fr") -> str:
    """How to type the cards of ``pack`` (a game's deck), the French way, its examples taken from that deck: the
    cavalier, the trumps 1 to 21 and the Excuse only where the deck has them (the Tarot's), never the record's codes.
    French, or English around the French words (``lang="en"``)."""
    cards = set(pack)
    en = lang == "en"
    examples = [
        (card(KING, HEARTS), "RC ou R♥ (roi de cœur)", "RC or R♥ (roi de cœur, king of hearts)"),
        (card(QUEEN, DIAMONDS), "DK ou D♦ (dame de carreau)", "DK or D♦ (dame de carreau)"),
        (card(KNIGHT, CLUBS), "CT ou C♣ (cavalier de trèfle)", "CT or C♣ (cavalier de trèfle)"),
        (card(JACK, SPADES), "VP (valet de pique)", "VP (valet de pique)"),
        (card(ACE, CLUBS), "AT (as de trèfle)", "AT (as de trèfle)"),
        (card(10, HEARTS), "10Co ou 10♥ (10 de cœur)", "10Co or 10♥ (10 de cœur)"),
    ]
    text = (("Type the cards the French way: " if en else "Tapez les cartes à la française : ")
            + ", ".join(words_en if en else words_fr for c, words_fr, words_en in examples if c in cards))
    if trump(21) in cards:
        text += "; trumps 1 to 21" if en else " ; atouts 1 à 21"
    if EXCUSE in cards:
        text += "; Exc for the Excuse" if en else " ; Exc pour l'Excuse"
    return text + "."
