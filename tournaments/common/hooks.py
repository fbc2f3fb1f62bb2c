"""The ports through which the rest of the house learns what the deals changed.

* :func:`scores_changed` — **the** hook: a tournament's ranking inputs changed. A writer (a deal recorded,
  corrected, annulled or restored; a ruling; a forfeit; a round released; an entry registered, withdrawn or
  moved to another team; the tie-breaks changed) calls it inside its writing transaction. The standings
  subscribe: they bump the ranking's input version in that transaction and queue the recomputation once it
  commits.
* :func:`deal_saved` — a deal's cards were saved (recorded, or corrected). Duplicate Tarot subscribes: a deal
  of a duplicate table is tied to its étui and checked against its cards.
* :func:`deal_check` — a deal is about to be saved (recorded, or corrected): a subscriber of :func:`deal_saved` may
  give a check that returns what the deal contradicts (rule violations), and the deal is refused with them, nothing
  saved. Duplicate Tarot checks a summary's poignées against the étui's hands.
* :func:`deal_irregular` — a deal was saved as played with violations (an irregular deal): the links subscribe
  and call the arbiter to the table.
* :func:`irregular_ruled` — the chief arbiter ruled on an irregular deal: the links subscribe and answer the
  table's call with the ruling.
* :func:`player_anonymized` — a player was made anonymous on request (GDPR): the deals subscribe and write his
  new name into the records of the deals he played (and their history), where the old one was kept.
* :func:`ranking_published` — a tournament's ranking was published (a new snapshot). The public pages subscribe:
  they render the new state's pages and PDFs outside the web requests.
* :func:`championship_published` — a championship's ranking was published (a new snapshot, ``tournaments.seasons``).
  The public pages subscribe: the prints worker renders its PDF, its CSVs and its page.

* :func:`tournament_finished_changed` — a tournament became finished, or was reopened: the championships
  subscribe (a championship counting a tournament not finished is provisional, and says so in its documents).

Subscriptions are made once, at ``AppConfig.ready()`` (``tournaments/apps.py``); no model signal does any of
this behind the writer's back, and a lower package never imports the package that listens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ScoresChanged = Callable[[int], None]
DealSaved = Callable[[Any, Any], None]
DealCheck = Callable[[Any, int, Any], list[Any]]
RankingPublished = Callable[[int, int], None]

_subscribers: list[ScoresChanged] = []
_deal_savers: list[DealSavedSubscriber] = []
_publication_listeners: list[RankingPublished] = []
_irregular_listeners: list[DealSaved] = []
PlayerAnonymized = Callable[[int, str, str], None]
_anonymized_listeners: list[PlayerAnonymized] = []


def subscribe(callback: ScoresChanged) -> None:
    """Call ``callback(tournament_id)`` whenever a tournament's scores change (once per callback)."""
    if callback not in _subscribers:
        _subscribers.append(callback)


def subscribers() -> tuple[ScoresChanged, ...]:
    """The callbacks subscribed to :func:`scores_changed`, in order."""
    return tuple(_subscribers)


def scores_changed(tournament_id: int) -> None:
    """Tell the subscribers that the ranking inputs of ``tournament_id`` changed; call inside the writing
    transaction (a subscriber may write in it, and acts on commit)."""
    for callback in _subscribers:
        callback(tournament_id)


@dataclass(frozen=True)
class DealSavedSubscriber:
    """A callback for :func:`deal_saved`. With ``table_model`` (a model holding a ``table`` one-to-one), it is
    called only for deals at tables that have such a row: the deal service asks in the statement it already runs
    under the table's lock, so a deal at an ordinary table costs no query for it."""

    callback: DealSaved
    table_model: Any = None
    #: ``check(table, number, record)``: the violations of the deal ``number`` about to be saved at ``table`` with
    #: ``record`` (its judged record), empty when it may be saved (:func:`deal_check`)
    check: DealCheck | None = None


def subscribe_deal_saved(callback: DealSaved, *, table_model: Any = None, check: DealCheck | None = None) -> None:
    """Call ``callback(deal, user)`` whenever a deal's cards are saved (once per callback), only at tables
    that have a ``table_model`` row when one is given; and ``check`` before it is saved (:func:`deal_check`)."""
    if all(sub.callback is not callback for sub in _deal_savers):
        _deal_savers.append(DealSavedSubscriber(callback, table_model, check))


def deal_saved_subscribers() -> tuple[DealSavedSubscriber, ...]:
    """The subscribers of :func:`deal_saved`, in order."""
    return tuple(_deal_savers)


def deal_saved(deal: Any, user: Any, *, at: tuple[bool, ...] | None = None) -> None:
    """Tell the subscribers that ``deal`` was recorded or corrected by ``user``.

    ``at``: for each subscriber, whether the deal's table has its ``table_model`` row (as the deal service read
    it under the table's lock); None when not known, and then every subscriber is called (it checks itself)."""
    for k, sub in enumerate(_deal_savers):
        if at is None or sub.table_model is None or (k < len(at) and at[k]):
            sub.callback(deal, user)


def deal_check(table: Any, number: int, record: Any, *, at: tuple[bool, ...] | None = None) -> list[Any]:
    """What the subscribers' checks find against the deal ``number`` about to be saved at ``table`` (its judged
    ``record``): rule violations, empty when it may be saved. ``at`` as for :func:`deal_saved`."""
    found: list[Any] = []
    for k, sub in enumerate(_deal_savers):
        if sub.check is not None and (at is None or sub.table_model is None or (k < len(at) and at[k])):
            found += sub.check(table, number, record)
    return found


def subscribe_ranking_published(callback: RankingPublished) -> None:
    """Call ``callback(tournament_id, input_version)`` whenever a ranking is published (once per callback)."""
    if callback not in _publication_listeners:
        _publication_listeners.append(callback)


def ranking_published(tournament_id: int, input_version: int) -> None:
    """Tell the subscribers that the ranking of ``tournament_id`` at ``input_version`` was published (after its
    transaction committed)."""
    for callback in _publication_listeners:
        callback(tournament_id, input_version)


_championship_listeners: list[RankingPublished] = []


def subscribe_championship_published(callback: RankingPublished) -> None:
    """Call ``callback(championship_id, version)`` whenever a championship's ranking is published (once each)."""
    if callback not in _championship_listeners:
        _championship_listeners.append(callback)


def championship_published(championship_id: int, version: int) -> None:
    """Tell the subscribers that the ranking ``version`` of a championship was published (after its commit)."""
    for callback in _championship_listeners:
        callback(championship_id, version)


def subscribe_deal_irregular(callback: DealSaved) -> None:
    """Call ``callback(deal, user)`` whenever a deal is saved as irregular (once per callback)."""
    if callback not in _irregular_listeners:
        _irregular_listeners.append(callback)


def deal_irregular(deal: Any, user: Any) -> None:
    """Tell the subscribers that ``deal`` was saved as irregular (after its transaction committed)."""
    for callback in _irregular_listeners:
        callback(deal, user)


_ruled_listeners: list[Callable[[Any, Any], None]] = []


def subscribe_irregular_ruled(callback: Callable[[Any, Any], None]) -> None:
    """Call ``callback(ruling, user)`` whenever a ruling decides an irregular deal (once per callback)."""
    if callback not in _ruled_listeners:
        _ruled_listeners.append(callback)


def irregular_ruled(ruling: Any, user: Any) -> None:
    """Tell the subscribers that ``ruling`` decided an irregular deal (inside the ruling's transaction)."""
    for callback in _ruled_listeners:
        callback(ruling, user)


def subscribe_player_anonymized(callback: PlayerAnonymized) -> None:
    """Call ``callback(player_id, old_name, new_name)`` whenever a player is made anonymous (once per callback)."""
    if callback not in _anonymized_listeners:
        _anonymized_listeners.append(callback)


def player_anonymized(player_id: int, old_name: str, new_name: str) -> None:
    """Tell the subscribers that a player was made anonymous, inside the writer's transaction."""
    for callback in _anonymized_listeners:
        callback(player_id, old_name, new_name)


TournamentChanged = Callable[[int], None]
_finished_listeners: list[TournamentChanged] = []


def subscribe_tournament_finished_changed(callback: TournamentChanged) -> None:
    """Call ``callback(tournament_id)`` whenever a tournament becomes finished or is reopened (once each)."""
    if callback not in _finished_listeners:
        _finished_listeners.append(callback)


def tournament_finished_changed(tournament_id: int) -> None:
    """Tell the subscribers that ``tournament_id`` became finished or was reopened (inside the writing
    transaction: a subscriber acts on commit)."""
    for callback in _finished_listeners:
        callback(tournament_id)
