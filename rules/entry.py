"""What a deal's entry asks for, game by game: its phases, their declarations, the pack.

In the manner of OpenSpiel's phases and legal actions, each game module describes the deal an
arbiter enters at the table as an :class:`EntryForm`: the phases in the order they happen at the
table (the bid, the exchange, the announcements, the play, the summary that replaces the play),
each a list of :class:`DeclarationField` — the record's key path, what kind of value, the French
label, the choices with their French labels, which fields depend on which, and the bounds. Pages
render from this description, so that a game's knowledge stays in its module
(``Game.entry_form(options)``) and a new game needs no new template.

The description is plain data: :meth:`EntryForm.to_json` gives the JSON documented in
``docs/entry-form.md``. The values the page collects go into the record under the field names,
unchanged (seats as indices, cards as record codes), and the server judges the record as always.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import EXCUSE, PETIT, SUIT, SUIT_NAMES_FR, SUIT_SYMBOLS, TRUMP_BASE, TRUMPS, Card, CardOrder, format_card
from .entry_en import english

KINDS = ("choice", "seat", "seats", "card", "cards", "boolean", "integer", "number", "counts", "object", "list")
"""The kinds of a field's value: one of ``choices``; a seat (index into ``players``); a list of
seats; a card code; a list of card codes; true / false; a whole number; a number to the half
point; one whole number per seat (``total``: what they add up to); an object of sub-fields
(``fields``); a list of objects of sub-fields (``fields``)."""


@dataclass(frozen=True)
class Choice:
    """One value a ``choice`` field may take, and its French label."""

    value: Any
    label: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "label": self.label}


@dataclass(frozen=True)
class When:
    """A field is asked only when the field ``field`` (a key path of the same deal, or of the same
    list item for sub-fields) holds one of ``values``; with ``values`` empty, when it is filled at all."""

    field: str
    values: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field}
        if self.values:
            out["in"] = list(self.values)
        else:
            out["filled"] = True
        return out


@dataclass(frozen=True)
class DeclarationField:
    """One declaration: the record's key path (dots between keys; relative to the item inside a list or
    object), its kind (:data:`KINDS`), its French label and what bounds it.

    ``min`` / ``max`` bound an integer or number, or the length of a list (cards, seats, items).
    ``nullable`` names, in French, what ``null`` means when the record allows it (« non compté »).
    ``playing`` on seat kinds: only seats that play this deal (not the Tarot mort).
    ``tricks_only``: asked only when the tricks are entered card by card; a quick summary does without it (its
    summary phase asks what the score needs instead: Écarté's turned king and refusal).
    """

    name: str
    kind: str
    label: str
    required: bool = False
    choices: tuple[Choice, ...] = ()
    when: tuple[When, ...] = ()
    min: int | float | None = None
    max: int | float | None = None
    fields: tuple[DeclarationField, ...] = ()
    nullable: str | None = None
    default: Any = None
    step: float | None = None
    playing: bool = False
    total: int | None = None
    help: str = ""
    remind: str = ""
    #: left without a value, it is found from the hands when every hand is entered (then no reminder: L'Impériale's
    #: and Le Vingt-quatre's Point)
    from_hands: bool = False
    tricks_only: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"the choice field {self.name!r} has no choices")
        if self.kind in ("object", "list") and not self.fields:
            raise ValueError(f"the {self.kind} field {self.name!r} has no sub-fields")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label,
                               "required": self.required}
        if self.choices:
            out["choices"] = [c.to_json() for c in self.choices]
        if self.when:
            out["when"] = [w.to_json() for w in self.when]
        for key in ("min", "max", "step", "default", "nullable", "total"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.fields:
            out["fields"] = [f.to_json() for f in self.fields]
        if self.playing:
            out["playing"] = True
        if self.help:
            out["help"] = self.help
        if self.remind:
            out["remind"] = self.remind
        if self.from_hands:
            out["from_hands"] = True
        if self.tricks_only:
            out["tricks_only"] = True
        return out


PHASE_KINDS = ("declarations", "play", "summary")
"""A phase of declarations; the card play (the tricks, entered card by card); the summary, entered
instead of the tricks when they were not written down."""


@dataclass(frozen=True)
class Phase:
    """A moment of the deal, in table order, with the declarations made then."""

    name: str
    label: str
    fields: tuple[DeclarationField, ...] = ()
    kind: str = "declarations"
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PHASE_KINDS:
            raise ValueError(f"unknown phase kind {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label,
                               "fields": [f.to_json() for f in self.fields]}
        if self.help:
            out["help"] = self.help
        return out


@dataclass(frozen=True)
class PackCard:
    """A card of the pack as a page shows it: code of the record, French name, short label, suit."""

    code: str
    name: str
    label: str
    suit: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "name": self.name, "label": self.label, "suit": self.suit}


@dataclass(frozen=True)
class EntryForm:
    """A game's deal entry: the phases in table order and the pack in the game's order."""

    game: str
    players: int
    phases: tuple[Phase, ...]
    pack: tuple[PackCard, ...]
    tricks: int
    hand_size: int

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        """The description as JSON, its texts for people in French (the module's own) or English (``lang="en"``:
        :mod:`rules.entry_en`)."""
        out = {"game": self.game, "players": self.players, "tricks": self.tricks, "hand_size": self.hand_size,
               "phases": [p.to_json() for p in self.phases], "pack": [c.to_json() for c in self.pack]}
        if lang == "en":
            return dict(english(out))
        return out

    def outline(self, lang: str = "fr") -> str:
        """The deal's phases and what each says, on one line in the words of the table, as the expert entry's help
        shows them above the record: « Enchères : donneur, preneur, contrat · … · Jeu de la carte · Résumé de la
        donne : … » (never the record's field names)."""
        parts = []
        for phase in self.to_json(lang)["phases"]:
            labels = ", ".join(_lower_first(f["label"]) for f in phase["fields"])
            parts.append(f"{phase['label']}{' : ' if lang == 'fr' else ': '}{labels}" if labels else phase["label"])
        return " · ".join(parts)

    def phase(self, name: str) -> Phase:
        """The phase of that name."""
        for phase in self.phases:
            if phase.name == name:
                return phase
        raise KeyError(name)

    def field(self, path: str) -> DeclarationField:
        """A declaration by its key path (sub-fields as ``parent.child``)."""
        for phase in self.phases:
            found = _find(phase.fields, path)
            if found is not None:
                return found
        raise KeyError(path)


def _lower_first(label: str) -> str:
    """A label inside a sentence: « Retourne » → « retourne », an initialism (« PAB ») left as it is."""
    return label[:1].lower() + label[1:] if label[1:2].islower() or label[1:2] == " " else label


def _find(fields: Iterable[DeclarationField], path: str) -> DeclarationField | None:
    for f in fields:
        if f.name == path:
            return f
        if f.fields and path.startswith(f.name + "."):
            found = _find(f.fields, path[len(f.name) + 1:])
            if found is not None:
                return found
    return None


# -- cards for people -------------------------------------------------------------------------------

_RANK_FR = {1: "as", 11: "valet", 12: "cavalier", 13: "dame", 14: "roi"}
_RANK_SHORT = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}
_SUIT_KEYS = ("pique", "coeur", "carreau", "trefle", "atout", "excuse")


def french_name(c: Card) -> str:
    """A card's French name as said at the table: « roi de cœur », « 21 d'atout », « l'Excuse »."""
    if c == EXCUSE:
        return "l'Excuse"
    if c > TRUMP_BASE:
        n = c - TRUMP_BASE
        return "1 d'atout, le Petit" if c == PETIT else f"{n} d'atout"
    rank = c & 15
    return f"{_RANK_FR.get(rank, str(rank))} de {SUIT_NAMES_FR[c >> 4]}"


def short_label(c: Card) -> str:
    """A card's short label for a button: « R♥ », « 10♣ », « 21 », « Excuse »."""
    if c == EXCUSE:
        return "Excuse"
    if c > TRUMP_BASE:
        return str(c - TRUMP_BASE)
    rank = c & 15
    return _RANK_SHORT.get(rank, str(rank)) + SUIT_SYMBOLS[c >> 4]


def pack_in_order(pack: Sequence[Card], order: CardOrder) -> tuple[PackCard, ...]:
    """The pack as pages show it: ♠ ♥ ♦ ♣ each from the strongest card down, then the trumps from 21
    down, then the Excuse."""
    ordered = sorted(pack, key=lambda c: (SUIT[c], -order.strength[c] if SUIT[c] != TRUMPS else -c))
    return tuple(PackCard(format_card(c), french_name(c), short_label(c), _SUIT_KEYS[SUIT[c]]) for c in ordered)


def card_choices(cards: Iterable[Card]) -> tuple[Choice, ...]:
    """Cards as choices (code, French name)."""
    return tuple(Choice(format_card(c), french_name(c)) for c in cards)


# -- fields that several games share ----------------------------------------------------------------

def dealer_field() -> DeclarationField:
    return DeclarationField("dealer", "seat", "Donneur", required=True)


def turn_up_field(label: str = "Retourne", help: str = "", *, tricks_only: bool = False) -> DeclarationField:
    return DeclarationField("turn_up", "card", label, required=True, help=help, tricks_only=tricks_only)


def play_phase(tricks: int) -> Phase:
    return Phase("tricks", "Jeu de la carte", kind="play",
                 help=f"{tricks} plis, carte par carte ; le gagnant de chaque pli entame le suivant.")


def tricks_summary_field(tricks: int, help: str = "") -> DeclarationField:
    """The tricks won by each seat, in a quick summary."""
    return DeclarationField("summary.tricks", "counts", "Plis gagnés par chaque joueur", required=True, min=0,
                            max=tricks, total=tricks, playing=True, help=help)


def honours_summary_field(honours: str, order: str = "le premier à une impériale (ou au but) efface ou gagne "
                                                      "aussitôt") -> DeclarationField:
    """The honours taken, in the order taken, in a quick summary (L'Impériale, Le Vingt-quatre): ``order`` says
    why the order counts, in the game's own words."""
    return DeclarationField("summary.honours", "list", "Honneurs levés, dans l'ordre", fields=(
        DeclarationField("seat", "seat", "Joueur qui lève", required=True),
        DeclarationField("cards", "cards", "Honneurs du pli", required=True, min=1, max=5),
    ), help=f"Les honneurs sont {honours}. L'ordre compte : {order}.")


def point_field(name: str, label: str) -> DeclarationField:
    """The Point as won (L'Impériale, Le Vingt-quatre): seat, count of cards, value."""
    return DeclarationField(name, "object", label, nullable="Point non compté", fields=(
        DeclarationField("seat", "seat", "Gagnant du point", required=True),
        DeclarationField("count", "integer", "Nombre de cartes", required=True, min=1),
        DeclarationField("value", "integer", "Valeur (facultative)", min=1),
    ), help="Laisser vide : le point est trouvé dans les mains, ou n'est pas marqué sans elles.",
        remind="Aucun point n'est déclaré, alors que chaque donne a un point : déclarez son gagnant et son nombre "
               "de cartes, ou cochez « Point non compté ».", from_hands=True)
