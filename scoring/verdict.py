"""The verdict on a record: every play checked (``rules``), every deal and the match scored.

:func:`judge` is the one entry point that the command line, the REST API and the entry
desk call. It reads and replays the record, then asks the game's scoring module for the
scores. A record that cannot be read raises :class:`~rules.errors.MalformedRecord`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from rules.cards import CODE_OF
from rules.errors import Violation
from rules.frozen import quick_init
from rules.replay import Replay, replay

from .base import DealScore, MatchScore

#: the scoring module of each game (a module exposing ``score_match(replay) -> MatchScore``)
SCORING_MODULES = {
    "tarot": "scoring.tarot",
    "triomphe": "scoring.triomphe",
    "ecarte": "scoring.ecarte",
    "imperiale": "scoring.imperiale",
    "vingt-quatre": "scoring.vingt_quatre",
}


_SCORERS: dict[str, Callable[[Replay], MatchScore]] = {}
"""Each game's ``score_match``, imported on first use."""


def score(replayed: Replay) -> MatchScore:
    """Score a replayed record with its game's scoring module."""
    name = replayed.record.game.name
    scorer = _SCORERS.get(name)
    if scorer is None:
        scorer = _SCORERS[name] = importlib.import_module(SCORING_MODULES[name]).score_match
    return scorer(replayed)


@quick_init
@dataclass(frozen=True)
class Verdict:
    """What the service says of a record: legality, violations, the deals' scores, totals and winner."""

    replay: Replay
    match: MatchScore

    @property
    def players(self) -> list[str]:
        return self.replay.record.players

    @property
    def violations(self) -> list[Violation]:
        return self.replay.violations + self.match.violations

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def deals(self) -> list[DealScore]:
        return self.match.deals

    @property
    def totals(self) -> list[int] | None:
        return self.match.totals

    @property
    def winner(self) -> int | list[int] | None:
        return self.match.winner

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        """The verdict JSON of ``docs/deal-record.md``: the same dict, key for key and in the same order, as
        :meth:`to_json_reference`, built in fewer steps (a quarter of a judgement went into it): the violations
        listed once, each trick's dict written in place with its codes looked up in a dict, the tricks won
        counted among the winners at C speed, a game's result copied whole when its values are plain."""
        replayed = self.replay
        match = self.match
        record = replayed.record
        players = record.players
        seats = range(len(players))
        violations = replayed.violations + match.violations
        scored = match.deals
        code = CODE_OF.__getitem__
        deals = []
        for i, deal in enumerate(replayed.deals):
            found = scored[i] if i < len(scored) else _UNSCORED
            tricks = deal.tricks
            unfinished = deal.unfinished
            deals.append({
                "scores": found.scores,
                "result": _jsonable(found.result),
                "tricks_won": [*map([*map(_WINNER, tricks)].count, seats)],
                "complete": unfinished is None and len(tricks) == deal.rules.tricks_per_deal,
                "tricks": [{"leader": leader, "cards": [*map(code, cards)], "seats": [*trick_seats],
                            "winner": winner} for _, leader, cards, trick_seats, winner in tricks],
                "unfinished_trick": unfinished.to_json() if unfinished else None,
                "unchecked": [*deal.unchecked],
            })
        winner = match.winner
        out = {
            "format": record.format,
            "game": record.game.name,
            "players": players,
            "legal": not violations,
            "violations": [v.to_json(lang, players) for v in violations],
            "deals": deals,
            "totals": match.totals,
            "winner": winner,
            "winner_names": _names(winner, players),
            "ended": dict(match.ended) if match.ended else None,
        }
        if record.adjustments:
            out["adjustments"] = _jsonable(match.adjustments)
        return out

    def to_json_reference(self, lang: str = "fr") -> dict[str, Any]:
        """The straightforward verdict JSON that :meth:`to_json` must equal (``tests/scoring/test_judge_fast.py``)."""
        players = self.players
        deals = []
        for i, deal_replay in enumerate(self.replay.deals):
            scored = self.match.deals[i] if i < len(self.match.deals) else DealScore(None)
            deals.append({
                "scores": scored.scores,
                "result": _jsonable_reference(scored.result),
                "tricks_won": deal_replay.tricks_won(len(players)),
                **deal_replay.to_json(),
            })
        winner = self.match.winner
        extra = {"adjustments": _jsonable_reference(self.match.adjustments)} if self.replay.record.adjustments else {}
        return {
            "format": self.replay.record.format,
            "game": self.replay.record.game.name,
            "players": players,
            "legal": self.legal,
            "violations": [v.to_json(lang, players) for v in self.violations],
            "deals": deals,
            "totals": self.match.totals,
            "winner": winner,
            "winner_names": _names(winner, players),
            "ended": dict(self.match.ended) if self.match.ended else None,
            **extra,
        }


_UNSCORED = DealScore(None)
_WINNER = itemgetter(4)  # a Trick's winner


def _names(winner: int | list[int] | None, players: list[str]) -> list[str] | None:
    if winner is None:
        return None
    seats = winner if isinstance(winner, list) else [winner]
    return [players[s] for s in seats]


_PLAIN = frozenset({str, int, bool, float, type(None)})


def _jsonable(value: Any) -> Any:
    """A value of a game's result (or an adjustment) as JSON: the same as :func:`_jsonable_reference`, copied
    at C speed where every key is a text and every value plain."""
    kind = value.__class__
    if kind in _PLAIN:
        return value
    if kind is dict:  # (a game's result: plain values, lists and dicts, keys mostly texts)
        if {*map(type, value)} <= _TEXT:
            out = value.copy()
            if not {*map(type, out.values())} <= _PLAIN:
                for key, item in out.items():
                    if item.__class__ not in _PLAIN:
                        out[key] = _jsonable(item)
            return out
        return {key if key.__class__ is str else str(key): item if item.__class__ in _PLAIN else _jsonable(item)
                for key, item in value.items()}
    if kind is list or kind is tuple:
        if {*map(type, value)} <= _PLAIN:
            return [*value]
        return [item if item.__class__ in _PLAIN else _jsonable(item) for item in value]
    return _jsonable_reference(value)


_TEXT = frozenset({str})


def _jsonable_reference(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable_reference(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable_reference(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


def judge(record: Any) -> Verdict:
    """Check and score a record (a parsed JSON object). Raises MalformedRecord."""
    replayed = replay(record)
    return Verdict(replayed, score(replayed))


def judge_as_played(record: Any, index: int | Collection[int]) -> Verdict:
    """Judge a record whose deal ``index`` (or each deal of a collection of indices) is irregular: its violations
    of play (a renonce: each names its trick) stay in the verdict, but the deal is scored as played (RULES.md §1.13
    rule 37: the deal as played is kept and the arbiter rules; a deal an arbiter ruled « as played » stays so in
    its match). The other deals are judged as by :func:`judge`. Raises MalformedRecord."""
    replayed = replay(record)
    deals = list(replayed.deals)
    indices = {index} if isinstance(index, int) else set(index)
    irregular = [i for i in sorted(indices)
                 if 0 <= i < len(deals) and any(v.trick is not None for v in deals[i].violations)]
    if not irregular:
        return Verdict(replayed, score(replayed))
    for i in irregular:
        deals[i] = replace(deals[i], violations=tuple(v for v in deals[i].violations if v.trick is None))
    return Verdict(replayed, score(replace(replayed, deals=tuple(deals))))
