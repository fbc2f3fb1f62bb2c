"""Where the play of a deal being entered stands: what the tap-to-play page shows after each card.

:func:`play_position` reads a partial record (the declarations and the tricks so far, the hands
when the deal was reconstituted) and answers: the seat to play, the trick in progress, whether
the last card completed a trick and who won it, and which cards the seat may play. With the
hands, the seat's remaining hand, its legal cards and each forbidden card with the reason in one
French sentence; without them, the cards not yet played, and those a card already played proves
the seat cannot hold (playing one would show a revoke), with the sentence. Nothing is refused: an
illegal card may still be entered (a renonce must be recorded to be judged); the verdict reports it.

The play is checked by :class:`rules.play.DealState`, the same state the replay uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import BIT, Card, format_card
from .entry import french_name
from .errors import Violation
from .play import DealState, Trick, add_violation
from .record import read_record
from .replay import check_pack, check_tricks_shape, dealt_hands


@dataclass(frozen=True)
class Forbidden:
    """A card the seat to play may not play now, the rule code and the French sentence."""

    card: Card
    rule: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"card": format_card(self.card), "name": french_name(self.card), "rule": self.rule,
                "reason": self.reason}


@dataclass(frozen=True)
class PlayPosition:
    """Where the play stands after the cards entered so far."""

    players: list[str]
    over: bool
    trick_no: int
    seat: int | None
    leader: int
    current: tuple[Card, ...]
    last_trick: Trick | None
    trick_complete: bool
    played: tuple[Card, ...]
    hand: tuple[Card, ...] | None
    playable: tuple[Card, ...]
    forbidden: tuple[Forbidden, ...]
    violations: tuple[Violation, ...]
    tricks_won: tuple[int, ...]
    #: the sentence under the pack, true of every marked card (:func:`forbidden_note`)
    forbidden_note: str | None = None

    def to_json(self) -> dict[str, Any]:
        last = self.last_trick
        return {
            "over": self.over,
            "trick": self.trick_no,
            "seat": self.seat,
            "leader": self.leader,
            "current": [format_card(c) for c in self.current],
            "trick_complete": self.trick_complete,
            "last_trick": last.to_json() if last is not None else None,
            "winner": last.winner if self.trick_complete and last is not None else None,
            "played": [format_card(c) for c in self.played],
            "hand": [format_card(c) for c in self.hand] if self.hand is not None else None,
            "playable": [format_card(c) for c in self.playable],
            "forbidden": [f.to_json() for f in self.forbidden],
            "forbidden_note": self.forbidden_note,
            "violations": [v.to_json("fr", self.players) for v in self.violations],
            "tricks_won": list(self.tricks_won),
        }


#: the rules of a card forbidden because it would prove an earlier play wrong: its sentence names that card
#: (« … sa main contenait le 7 de pique »); the note under the pack says the earlier play instead
PROOF_RULES = ("revoke", "revoke_trump", "revoke_overtrump", "inconsistent_play")


def forbidden_note(violations: list[Violation], players: list[str], lang: str = "fr") -> str | None:
    """The one sentence the tap page shows under the pack for all the cards it marks forbidden (``violations``:
    the one of each marked card), or None when none is.

    Each marked card has its own reason, shown when it is tapped. The note below stands for all of them, so it
    must be true of every one: a reason that names the card it was built for (a card that would prove a revoke,
    « … contenait le 7 de pique ») is said without it — the earlier play it would prove wrong (« Pli 1 : X a joué
    le 3 de cœur sans fournir à pique : une carte marquée, jouée maintenant, prouverait une renonce. »). The
    sentences, each said once, in the order of the cards."""
    notes: list[str] = []
    for violation in violations:
        if violation.rule in PROOF_RULES:
            violation = Violation(f"{violation.rule}_note", violation.deal, violation.trick, violation.seat,
                                  violation.card, violation.params)
        text = violation.message(lang, players)
        if text not in notes:
            notes.append(text)
    return " ".join(notes) or None


def play_position(data: Any, *, deal: int = -1, lang: str = "fr") -> PlayPosition:
    """Where the play of a record's deal (the last by default) stands, the reasons in ``lang``. Raises
    MalformedRecord."""
    record = read_record(data)
    entry = record.deals[deal]
    players = len(record.players)
    rules = record.game.deal_rules(record.options, entry.raw, players=players, field=entry.field)
    tricks = check_tricks_shape(rules, entry)
    violations: list[Violation] = []
    dealt = None
    if entry.hands is not None:
        dealt, found = dealt_hands(rules, entry.hands, entry.index, f"{entry.field}.hands" if entry.field else "hands")
        violations += found
    setup = rules.setup(dealt)
    violations += [v.at(deal=entry.index) for v in setup.violations]
    check_pack(rules.pack_mask, tricks, f"{entry.field}.tricks" if entry.field else "tricks")
    state = DealState(rules, setup.hands, deal=entry.index)
    seen: dict[tuple[object, ...], int] = {}
    for trick in tricks:
        for c in trick:
            violation = state.check_play(c)
            if violation is not None:
                add_violation(violations, seen, violation)
            state.apply(c)
    return _position(state, record.players, violations, lang)


def _position(state: DealState, players: list[str], violations: list[Violation], lang: str = "fr") -> PlayPosition:
    rules = state.rules
    over = state.over or (not state.current and rules.decided(state.winners))
    seat = None if over else state.seat_to_play
    hand = None
    playable: list[Card] = []
    forbidden: list[Forbidden] = []
    refused: list[Violation] = []
    if not over and seat is not None:
        if state.hands is not None:
            held = state.hands[seat]
            hand = tuple(c for c in rules.pack if held & BIT[c])
            candidates = hand
        else:
            gone = state.played | rules.unplayed()
            candidates = tuple(c for c in rules.pack if not gone & BIT[c])
        for c in candidates:
            violation = state.check_play(c)
            if violation is None:
                playable.append(c)
            else:
                forbidden.append(Forbidden(c, violation.rule, violation.message(lang, players)))
                refused.append(violation)
    last = state.tricks[-1] if state.tricks else None
    won = [0] * len(players)
    for trick in state.tricks:
        if trick.winner is not None:
            won[trick.winner] += 1
    return PlayPosition(
        players=players, over=over, trick_no=state.trick_no, seat=seat, leader=state.leader,
        current=tuple(state.current), last_trick=last, trick_complete=bool(state.tricks) and not state.current,
        played=tuple(state.first_played), hand=hand, playable=tuple(playable), forbidden=tuple(forbidden),
        violations=tuple(violations), tricks_won=tuple(won), forbidden_note=forbidden_note(refused, players, lang),
    )
