"""The small interface every game module implements, and the registry of games.

A game module (``rules/tarot.py`` …) defines:

* its conventions as a frozen dataclass of options, with the defaults of ``RULES.md`` §6;
* a :class:`Game` subclass that reads those options and, for each deal of a record, builds
  the deal's :class:`DealRules` (pack, seats that play, first leader, trump, the hands at the
  first lead after chien, exchanges or pillage, and the checks of the deal's declarations);
* in its :class:`DealRules`: :meth:`~DealRules.requirement` (the cards a seat may play now,
  and the rule that restricts them) and :meth:`~DealRules.winner` (who wins a trick).

Everything else (verify / can / apply of a play, replay, revokes found without hands) is
common and lives in :mod:`rules.play` and :mod:`rules.replay`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .cards import SUIT, Card, CardOrder
from .errors import MalformedRecord, Violation
from .frozen import quick_init

if TYPE_CHECKING:
    from .entry import EntryForm


@quick_init
@dataclass(frozen=True)
class Setup:
    """The hands at the first lead and what the setup checks found.

    ``hands`` is None when the record gives no hands. ``extra_won`` holds cards that count
    in a seat's tricks without being played (Tarot: the écart for the taker, the chien in
    garde sans / garde contre), as seat → mask.
    """

    hands: list[int] | None
    violations: tuple[Violation, ...] = ()
    extra_won: Mapping[int, int] | None = None
    unchecked: tuple[str, ...] = ()


class DealRules(ABC):
    """The rules of one deal: who plays, in what order, what may be played, who wins a trick."""

    #: seats of the record that play this deal, in order of play (the Tarot « mort » sits out)
    seats: tuple[int, ...]
    #: tricks in a complete deal
    tricks_per_deal: int
    #: cards each playing seat holds at the first lead
    hand_size: int
    #: the pack of the deal
    pack: tuple[Card, ...]
    pack_mask: int
    #: the game's order of the cards within a suit
    order: CardOrder
    #: the trump suit (a suit index, cards.TRUMPS for Tarot), or None
    trump: int | None
    #: the seat that leads the first trick
    first_leader: int

    # -- what every game defines --------------------------------------------------------------------

    @abstractmethod
    def requirement(self, hand: int, trick: Sequence[Card], trick_no: int, seat: int) -> tuple[int, str | None]:
        """The cards of ``hand`` (a mask) that may be played to ``trick`` now, and the rule code
        that restricts them (None when every card of the hand may be played).

        ``trick`` holds the cards already played to the current trick, the leader's first.
        """

    @abstractmethod
    def winner(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> int:
        """The position in ``trick`` (0 = the leader's card) of the card that wins it.

        ``winners`` are the seats that won the previous tricks (Tarot's Excuse needs them).
        """

    @abstractmethod
    def setup(self, dealt: list[int] | None) -> Setup:
        """Check the hands as dealt and the deal's declarations; give the hands at the first lead."""

    def decided(self, winners: Sequence[int]) -> bool:
        """Whether the deal is over by a rule of the game before its last trick, after the tricks won by
        ``winners`` (Triomphe: the point conceded, the cards laid down, a vole engagée lost)."""
        return False

    def declarations_from_play(self, played: Sequence[int]) -> tuple[Violation, ...] | None:
        """The declarations checked against the hands the complete tricks show (``played``: each seat's cards, its
        hand at the first lead), when the hands were not entered; None when the game cannot say more so."""
        return None

    def unplayed(self) -> int:
        """The mask of the cards the declarations show will not be played (a retourne in no hand, an écart):
        the tap-to-play page does not offer them when the hands are unknown."""
        return 0

    # -- shared helpers -----------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        seats = self.seats
        return seats[(seats.index(seat) + 1) % len(seats)]

    def led_suit(self, trick: Sequence[Card]) -> int | None:
        """The suit led (the first card's suit; games with an Excuse override this)."""
        return SUIT[trick[0]] if trick else None

    def best_card(self, trick: Sequence[Card], trick_no: int, leader: int, winners: Sequence[int]) -> Card | None:
        """The card currently winning an incomplete trick."""
        if not trick:
            return None
        return trick[self.winner(trick, trick_no, leader, winners)]


class Game(ABC):
    """A game: its name, its options and how a deal of a record becomes :class:`DealRules`."""

    name: ClassVar[str]
    #: the game's name for people (French; the tournament's choice of game shows it)
    label: ClassVar[str]
    options_type: ClassVar[type]
    #: player counts the game can be played at (the seats per table)
    player_counts: ClassVar[tuple[int, ...]]
    #: whether a table plays a match to a target (scores depend on earlier deals) rather than single deals
    plays_matches: ClassVar[bool] = True
    #: the contracts (``bid.contract``) whose deal counts only once the chief arbiter has approved it
    visa_contracts: ClassVar[frozenset[str]] = frozenset()
    #: whether a deal's marks sum to zero (Tarot, RULES.md §1.12: each pays what another gains), so that the sum is a
    #: check worth showing; the match games mark points for one side only
    zero_sum_marks: ClassVar[bool] = False
    #: the contracts a taker may bid (``bid.contract``), none for games without a bid
    contracts: ClassVar[tuple[str, ...]] = ()
    #: whether the game is played in duplicate deals (étuis)
    duplicate_deals: ClassVar[bool] = False
    #: whether a deal leaves in the match more than its scores say (L'Impériale: the jetons a deal scores stay for
    #: the next deals, and its impériales erase the opponents' jetons): a deal ruled « as played » then joins the
    #: match itself instead of giving its scores as the ruling's points
    carries_marks: ClassVar[bool] = False
    #: what a deal of such a game leaves for the next ones, one and several (L'Impériale: « jeton », « jetons »),
    #: shown beside its scores on a table's score sheet
    carried_unit: ClassVar[tuple[str, str]] = ("", "")
    #: whether an arbiter's adjustment on a fault made in the deal that ended the match (``in_deal``) counts before
    #: that deal's marks, the end judged with it in place (docs/deal-record.md, "A fault in the deal that ended the
    #: match"): the games that end at the exact mark; La Triomphe ends at the end of the deal and counts it there
    fault_before_ending_deal: ClassVar[bool] = False
    #: what a deal's scores count, in French and in English (the unit of an arbiter's typed marks)
    score_unit: ClassVar[tuple[str, str]] = ("points", "points")
    #: what a match's target counts, in French and in English (plural): the impériales at L'Impériale, the points of
    #: a partie at the Vingt-quatre (24 points, 6 jetons), points elsewhere
    target_unit: ClassVar[tuple[str, str]] = ("points", "points")
    #: the deal's own fields of a record as the expert entry starts from them (``docs/deal-record.md``)
    record_fields: ClassVar[Mapping[str, Any]] = {"hands": None, "tricks": []}

    #: the conventions an organizer chooses for a tournament (option → the value written when none is chosen,
    #: None: left out); ``players`` is every game's
    conventions: ClassVar[Mapping[str, Any]] = {}
    #: whether the organizer chooses to have partners play together at a table (``partners`` in the conventions
    #: chosen: La Triomphe par équipes); the sides it makes are the rules module's (its ``tournament_options``)
    partners_chosen: ClassVar[bool] = False

    def tournament_options(self, chosen: Mapping[str, Any]) -> dict[str, Any]:
        """The ``options`` of a tournament's records from the conventions its organizer chose (option → value,
        empty when not chosen)."""
        options: dict[str, Any] = {}
        if chosen.get("players"):
            options["players"] = chosen["players"]
        for option, default in self.conventions.items():
            if chosen.get(option):
                options[option] = chosen[option]
            elif default is not None:
                options[option] = default
        return options

    def with_partners(self, options: Mapping[str, Any], partners: bool) -> dict[str, Any]:
        """A tournament's ``options`` with partners playing together (``partners``: the sides of its table size, as
        :meth:`tournament_options` writes them, ``teams``) or each playing alone (no ``teams``); the other
        conventions kept. A table size the team game is not played at is the :class:`MalformedRecord` of
        :meth:`tournament_options`."""
        out = {key: value for key, value in options.items() if key != "teams"}
        if partners:
            sides = self.tournament_options({"players": out.get("players"), "partners": True})
            out.update({key: sides[key] for key in ("players", "teams") if key in sides})
        return out

    def default_target(self, options: Mapping[str, Any] | None) -> int | None:
        """The target of a match when the tournament sets none, under ``options`` (its table size, its sides);
        None for a game of single deals, or a target set at the table (L'Écarté's « retourne »)."""
        if not self.plays_matches:
            return None
        target = getattr(self.parse_options(dict(options or {})), "target", None)
        return target if isinstance(target, int) and not isinstance(target, bool) else None

    def needs_visa(self, record: Mapping[str, Any]) -> bool:
        """Whether a deal of this record waits for the chief arbiter's visa (its contract)."""
        bid = record.get("bid")
        return isinstance(bid, Mapping) and bid.get("contract") in self.visa_contracts

    def parse_options(self, raw: Mapping[str, Any] | None, *, field: str = "options") -> Any:
        """The options dataclass from the record's ``options`` object.

        Unknown names and wrong types are :class:`MalformedRecord` errors naming the field.
        Subclasses add cross-field checks by overriding :meth:`check_options`.
        """
        raw = dict(raw or {})
        known = {f.name: f for f in fields(self.options_type)}
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise MalformedRecord(f"{field}.{key}", f"unknown option for {self.name} "
                                      f"(known: {', '.join(sorted(known))})",
                                      fr=f"option inconnue pour {self.name} "
                                         f"(options connues : {', '.join(sorted(known))})")
            default = getattr(self.options_type(), key) if _has_default(known[key]) else None
            if default is not None and not _same_kind(value, default):
                raise MalformedRecord(f"{field}.{key}", f"expected {type(default).__name__}, got {value!r}",
                                      fr=f"type attendu : {type(default).__name__}, reçu : {value!r}")
            values[key] = value
        options = self.options_type(**values)
        self.check_options(options, field=field)
        return options

    def check_options(self, options: Any, *, field: str) -> None:
        """Cross-field checks of the options (player count allowed, choices among names …)."""
        players = getattr(options, "players", None)
        if players is not None and players not in self.player_counts:
            counts = [str(n) for n in self.player_counts]
            fr_counts = f"{', '.join(counts[:-1])} ou {counts[-1]}" if len(counts) > 1 else counts[0]
            raise MalformedRecord(f"{field}.players", f"{self.name} is played at "
                                  f"{' or '.join(counts)} players, not {players}",
                                  fr=f"{self.name} se joue à {fr_counts} joueurs, pas à {players}")

    def entry_form(self, options: Any = None) -> EntryForm:
        """What the entry of one deal asks for under these options (:mod:`rules.entry`).

        ``options`` is the options dataclass, or the record's ``options`` object (None: the defaults).
        """
        if options is None or isinstance(options, Mapping):
            options = self.parse_options(options)
        return self.describe_entry(options)

    def describe_entry(self, options: Any) -> EntryForm:
        """The game's :class:`~rules.entry.EntryForm` for parsed options (each game defines it)."""
        raise NotImplementedError(f"{self.name} does not describe its entry")

    @abstractmethod
    def deal_rules(self, options: Any, deal: Mapping[str, Any], *, players: int, field: str) -> DealRules:
        """The rules of one deal of a record (``deal`` holds the deal's fields, cards still as codes).

        ``field`` is the JSON path of the deal, for error messages. Raises
        :class:`MalformedRecord` for fields that cannot be read.
        """


def _has_default(f: Any) -> bool:
    from dataclasses import MISSING

    return f.default is not MISSING or f.default_factory is not MISSING


def _same_kind(value: Any, default: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    return True


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under its name."""
    GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game of that name (the game modules are imported on first use)."""
    game = GAMES.get(name)
    if game is not None:
        return game
    _load_games()
    try:
        return GAMES[name]
    except KeyError:
        raise MalformedRecord("game", f"unknown game {name!r} (one of: {', '.join(sorted(GAMES))})",
                              fr=f"jeu inconnu : {name!r} (jeux connus : {', '.join(sorted(GAMES))})") from None


GAME_MODULES = ("tarot", "triomphe", "imperiale", "vingt_quatre", "ecarte")
"""The game modules, in the order the games are offered."""


def _load_games() -> None:
    import importlib

    for module in GAME_MODULES:
        importlib.import_module(f"rules.{module}")


def all_games() -> dict[str, Game]:
    """Every game, by name, in the order of :data:`GAME_MODULES`."""
    _load_games()
    order = {module: i for i, module in enumerate(GAME_MODULES)}
    return dict(sorted(GAMES.items(), key=lambda item: order.get(type(item[1]).__module__.rpartition(".")[2],
                                                                    len(order))))
