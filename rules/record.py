"""Reading a deal record (``levee.deal/1``) or a match record (``levee.match/1``).

The published contract is the JSON Schema ``rules/schema/deal-record.schema.json``
(documented in ``docs/deal-record.md``). This module reads a record with the standard
library only and raises :class:`~rules.errors.MalformedRecord` naming the first field that
cannot be read: a JSON path such as ``deals[1].tricks[4][2]``. Game-specific fields are
read by the game's :meth:`~rules.game.Game.deal_rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARD_BY_CODE, Card, CardCodeError, format_card, parse_card
from .errors import MalformedRecord
from .frozen import quick_init
from .game import Game, get_game
from .limits import check_size, scan

DEAL_FORMAT = "levee.deal/1"
MATCH_FORMAT = "levee.match/1"

#: fields shared by every deal, read here (the rest belongs to the game)
COMMON_DEAL_FIELDS = frozenset({"dealer", "hands", "tricks", "annulled_dealers"})


@quick_init
@dataclass(frozen=True)
class DealInput:
    """One deal as read from a record: its JSON path, dealer, hands and tricks as card ids, raw fields."""

    index: int
    field: str
    dealer: int
    hands: list[list[Card]] | None
    tricks: list[list[Card]] | None
    raw: Mapping[str, Any]
    annulled_dealers: tuple[int, ...] = ()
    """(match) The dealers of the annulled deals between the previous deal of the record and this one, in the
    order dealt: the dealer rotation accepts a dealer following them too (``scoring.rotation``)."""


@quick_init
@dataclass(frozen=True)
class Adjustment:
    """An arbiter's adjustment event in a match (Levée's extension of ``levee.match/1``, RULES.md §1.13 rule 40).

    ``after``: the index of the deal it follows (−1: before the first deal); ``points``: per seat, in the
    game's score unit (Triomphe and Écarté points, Impériale fiches, Vingt-quatre jetons); ``reason`` and
    ``rule``: for people; ``ref``: the caller's own reference (Levée writes the ruling's id); ``in_deal``: the
    adjustment rules on a fault made in the deal it follows (docs/deal-record.md, "A fault in the deal that ended
    the match": where that deal ended the match, the adjustment counts before the deal's marks).
    """

    index: int
    field: str
    after: int
    points: tuple[int, ...]
    reason: str = ""
    rule: str = ""
    ref: Any = None
    in_deal: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"after": self.after, "points": list(self.points)}
        if self.in_deal:
            out["in_deal"] = True
        if self.reason:
            out["reason"] = self.reason
        if self.rule:
            out["rule"] = self.rule
        if self.ref is not None:
            out["ref"] = self.ref
        return out


@quick_init
@dataclass(frozen=True)
class Record:
    """A whole record: a single deal is a match of one deal."""

    format: str
    game: Game
    options: Any
    players: list[str]
    deals: list[DealInput]
    raw: Mapping[str, Any]
    adjustments: tuple[Adjustment, ...] = ()
    """The match's adjustment events, in the order they apply (by ``after``, then as written)."""

    @property
    def is_match(self) -> bool:
        return self.format == MATCH_FORMAT


def read_record(data: Any) -> Record:
    """Read a record (already parsed from JSON), within the bounds of :mod:`rules.limits`.

    One pass (:func:`rules.limits.scan`) bounds the record and looks each card code of its hands and tricks
    up in :data:`rules.cards.CARD_BY_CODE`; the fields are then read from what it found. Only a record past a
    bound is walked again, by :func:`rules.limits.check_size`, to name the field at fault."""
    if not isinstance(data, Mapping):
        raise MalformedRecord("$", "a record is a JSON object", fr="un record est un objet JSON")
    decoded = scan(data, CARD_BY_CODE)
    if decoded is None:
        check_size(data)  # raises, naming the field
        decoded = {}
    return _read_fields(data, decoded)


def read_record_reference(data: Any) -> Record:
    """The straightforward reader :func:`read_record` must agree with (tests): every bound checked by
    :func:`rules.limits.check_size` first, then every card code parsed by :func:`read_card`, one by one."""
    if not isinstance(data, Mapping):
        raise MalformedRecord("$", "a record is a JSON object", fr="un record est un objet JSON")
    check_size(data)
    return _read_fields(data, {})


def _read_fields(data: Mapping[str, Any], decoded: Mapping[int, list[list[Card]]]) -> Record:
    """Read a record within bounds; ``decoded``: the lists of card lists already read, by ``id()`` (see
    :func:`rules.limits.scan`)."""
    fmt = data.get("format")
    if fmt not in (DEAL_FORMAT, MATCH_FORMAT):
        raise MalformedRecord("format", f"expected {DEAL_FORMAT!r} or {MATCH_FORMAT!r}, got {fmt!r}",
                              fr=f"format attendu : {DEAL_FORMAT!r} ou {MATCH_FORMAT!r}, reçu : {fmt!r}")
    game_name = data.get("game")
    if not isinstance(game_name, str):
        raise MalformedRecord("game", "the game is required (tarot, triomphe, imperiale, vingt-quatre, ecarte)",
                              fr="le jeu est obligatoire (tarot, triomphe, imperiale, vingt-quatre, ecarte)")
    game = get_game(game_name)
    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise MalformedRecord("options", "options is a JSON object", fr="options est un objet JSON")
    players = read_players(data.get("players"))
    options = parse_options(game, {"players": len(players), **raw_options})
    if getattr(options, "players", len(players)) != len(players):
        raise MalformedRecord("options.players", f"options.players is {options.players} but the record "
                                                 f"names {len(players)} players",
                              fr=f"options.players vaut {options.players} mais le record nomme "
                                 f"{len(players)} joueurs")
    if fmt == DEAL_FORMAT:
        deals = [read_deal(data, index=0, field="", players=len(players), decoded=decoded)]
    else:
        raw_deals = data.get("deals")
        if not isinstance(raw_deals, list):
            raise MalformedRecord("deals", "a match record holds a list of deals",
                                  fr="un record de partie contient une liste de donnes")
        deals = []
        for i, raw in enumerate(raw_deals):
            if not isinstance(raw, Mapping):
                raise MalformedRecord(f"deals[{i}]", "a deal is a JSON object", fr="une donne est un objet JSON")
            deals.append(read_deal(raw, index=i, field=f"deals[{i}]", players=len(players), decoded=decoded))
    adjustments = read_adjustments(data.get("adjustments"), players=len(players), deals=len(deals)) \
        if fmt == MATCH_FORMAT else ()
    return Record(fmt, game, options, players, deals, data, adjustments)


_OPTIONS: dict[tuple[Any, ...], Any] = {}
"""The options read from each ``options`` object met (of texts, whole numbers, booleans and nulls only), by game."""
_SCALARS = frozenset({str, int, bool, type(None)})


def parse_options(game: Game, raw: dict[str, Any]) -> Any:
    """``game.parse_options(raw)``, read once per distinct ``options`` object: the options of a tournament's deals
    are the same from one record to the next. An options object is a frozen dataclass, shared safely; one that
    cannot be read is read again each time (the same error); anything but plain values is not kept."""
    kinds = (*map(type, raw.values()),)
    if not {*kinds} <= _SCALARS:
        return game.parse_options(raw)
    key = (game.name, *raw.items(), *kinds)  # (the classes tell 1 from True and 1.0)
    options = _OPTIONS.get(key)
    if options is None:
        options = game.parse_options(raw)
        if len(_OPTIONS) >= 256:
            _OPTIONS.clear()
        _OPTIONS[key] = options
    return options


def read_adjustments(value: Any, *, players: int, deals: int) -> tuple[Adjustment, ...]:
    """A match's ``adjustments`` (optional; ``null`` or absent: none), sorted by the deal they follow."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise MalformedRecord("adjustments", "adjustments is a list of adjustment events",
                              fr="adjustments est une liste d'ajustements")
    out = []
    for j, raw in enumerate(value):
        field = f"adjustments[{j}]"
        if not isinstance(raw, Mapping):
            raise MalformedRecord(field, "an adjustment is a JSON object", fr="un ajustement est un objet JSON")
        after = raw.get("after")
        if not isinstance(after, int) or isinstance(after, bool) or not -1 <= after < deals:
            raise MalformedRecord(f"{field}.after", f"the index of the deal it follows, from -1 (before the "
                                                    f"first deal) to {deals - 1}",
                                  fr=f"l'indice de la donne qu'il suit, de -1 (avant la première donne) "
                                     f"à {deals - 1}")
        points = raw.get("points")
        if not isinstance(points, list) or len(points) != players or not all(
                isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise MalformedRecord(f"{field}.points", f"points holds one whole number per player ({players})",
                                  fr=f"points contient un nombre entier par joueur ({players})")
        texts = {}
        for name in ("reason", "rule"):
            text = raw.get(name)
            if text is not None and not isinstance(text, str):
                raise MalformedRecord(f"{field}.{name}", f"{name} is a string", fr=f"{name} est une chaîne")
            texts[name] = text or ""
        in_deal = raw.get("in_deal", False)
        if in_deal is None:
            in_deal = False
        if not isinstance(in_deal, bool) or (in_deal and after < 0):
            raise MalformedRecord(f"{field}.in_deal", "in_deal is true or false, true only after a deal (the deal "
                                                      "the fault was made in)",
                                  fr="in_deal vaut true ou false, true seulement après une donne (celle où la faute "
                                     "a été commise)")
        out.append(Adjustment(j, field, after, tuple(points), texts["reason"], texts["rule"], raw.get("ref"),
                              in_deal))
    return tuple(sorted(out, key=lambda a: a.after))


def read_players(value: Any) -> list[str]:
    if not isinstance(value, list) or not value:
        raise MalformedRecord("players", "players is a non-empty list of names, in the order of play",
                              fr="players est une liste non vide de noms, dans l'ordre de jeu")
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise MalformedRecord(f"players[{i}]", "a player's name is a non-empty string",
                                  fr="le nom d'un joueur est une chaîne non vide")
    if len(set(value)) != len(value):
        raise MalformedRecord("players", "two players have the same name", fr="deux joueurs portent le même nom")
    return list(value)


def join_path(base: str, name: str) -> str:
    """The JSON path of a field inside ``base`` (``deals[1]`` + ``bid`` → ``deals[1].bid``)."""
    return f"{base}.{name}" if base else name


def read_seat(value: Any, field: str, players: int) -> int:
    """A seat index (0 to players − 1); anything else is malformed, naming the field."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise MalformedRecord(field, f"a seat from 0 to {players - 1}", fr=f"une place de 0 à {players - 1}")
    return value


def read_deal(raw: Mapping[str, Any], *, index: int, field: str, players: int,
              decoded: Mapping[int, list[list[Card]]] | None = None) -> DealInput:
    """A deal's common fields; ``decoded``: the lists of card lists already read by :func:`rules.limits.scan`,
    by ``id()``."""
    known = decoded or {}
    dealer = raw.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise MalformedRecord(join_path(field, "dealer"), f"the dealer is a seat from 0 to {players - 1}",
                              fr=f"le donneur est une place de 0 à {players - 1}")
    hands = raw.get("hands")
    if hands is not None:
        if not isinstance(hands, list) or len(hands) != players:
            raise MalformedRecord(join_path(field, "hands"), f"hands holds one list of cards per player ({players})",
                                  fr=f"hands contient une liste de cartes par joueur ({players})")
        hands = known.get(id(hands)) or [read_cards(hand, f"{join_path(field, 'hands')}[{i}]")
                                         for i, hand in enumerate(hands)]
    tricks = raw.get("tricks")
    if tricks is not None:
        if not isinstance(tricks, list):
            raise MalformedRecord(join_path(field, "tricks"), "tricks is a list of tricks, each a list of cards",
                                  fr="tricks est une liste de plis, chacun une liste de cartes")
        tricks = known.get(id(tricks)) or [read_cards(trick, f"{join_path(field, 'tricks')}[{i}]")
                                           for i, trick in enumerate(tricks)]
    annulled = read_annulled_dealers(raw, field, players) if "annulled_dealers" in raw else ()
    return DealInput(index, field, dealer, hands, tricks, raw, annulled)


def read_annulled_dealers(raw: Mapping[str, Any], field: str, players: int) -> tuple[int, ...]:
    """A deal's optional ``annulled_dealers``: a list of seats (absent or ``null``: none)."""
    value = raw.get("annulled_dealers")
    if value is None:
        return ()
    path = join_path(field, "annulled_dealers")
    if not isinstance(value, list):
        raise MalformedRecord(path, "annulled_dealers is a list of seats, the dealers of the annulled deals "
                                    "before this one",
                              fr="annulled_dealers est une liste de places, les donneurs des donnes annulées "
                                 "avant celle-ci")
    return tuple(read_seat(seat, f"{path}[{i}]", players) for i, seat in enumerate(value))


def read_cards(value: Any, field: str, *, pack: int | None = None) -> list[Card]:
    """A list of card codes, each error naming its place (and, given the pack's mask, refusing foreign cards)."""
    if not isinstance(value, list):
        raise MalformedRecord(field, "expected a list of card codes", fr="une liste de codes de cartes est attendue")
    out = []
    for i, code in enumerate(value):
        out.append(read_card(code, f"{field}[{i}]", pack=pack))
    return out


def read_card(code: Any, field: str, *, pack: int | None = None) -> Card:
    """One card code; given the pack's mask, a card of another pack (T5 at Écarté) is refused too."""
    try:
        card = parse_card(code)
    except CardCodeError as exc:
        raise MalformedRecord(field, str(exc), fr=exc.fr) from None
    if pack is not None:
        check_in_pack(card, pack, field)
    return card


def check_in_pack(card: Card, pack: int, field: str) -> None:
    """Refuse a card that is not part of the deal's pack, naming the field."""
    if not pack >> card & 1:
        raise MalformedRecord(field, f"{format_card(card)} is not a card of this game's "
                                     f"{pack.bit_count()}-card pack",
                              fr=f"{format_card(card)} n'appartient pas au jeu de {pack.bit_count()} cartes "
                                 f"de cette partie")


def optional_card(raw: Mapping[str, Any], name: str, field: str, *, pack: int | None = None) -> Card | None:
    """A game field holding one card code, or None when absent."""
    value = raw.get(name)
    if value is None:
        return None
    return read_card(value, join_path(field, name), pack=pack)


def optional_cards(raw: Mapping[str, Any], name: str, field: str, *, pack: int | None = None) -> list[Card] | None:
    """A game field holding a list of card codes, or None when absent."""
    value = raw.get(name)
    if value is None:
        return None
    return read_cards(value, join_path(field, name), pack=pack)


def require_choice(raw: Mapping[str, Any], name: str, field: str, choices: Sequence[Any],
                   default: Any = ...) -> Any:
    """A game field whose value is one of ``choices``."""
    if name not in raw or raw[name] is None:
        if default is ...:
            raise MalformedRecord(join_path(field, name), f"required: one of {', '.join(map(str, choices))}",
                                  fr=f"obligatoire : l'une des valeurs {', '.join(map(str, choices))}")
        return default
    value = raw[name]
    if value not in choices:
        raise MalformedRecord(join_path(field, name), f"{value!r} is not one of {', '.join(map(str, choices))}",
                              fr=f"{value!r} ne fait pas partie des valeurs {', '.join(map(str, choices))}")
    return value


def require_seat(raw: Mapping[str, Any], name: str, field: str, players: int, *, optional: bool = False) -> int | None:
    """A game field holding a seat index."""
    value = raw.get(name)
    if value is None and optional:
        return None
    return read_seat(value, join_path(field, name), players)
