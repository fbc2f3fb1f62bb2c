"""Writing deals: record, correct, annul, approve.

Every write goes through :func:`scoring.verdict.judge` (the only place game rules live) inside
``transaction.atomic``: a deal with violations, or that cannot be read, saves nothing. A saved
deal is never overwritten silently: each correction or annulment bumps ``version`` and needs a
reason, and django-simple-history keeps every version with its user and reason.

Tarot deals are judged alone. For the games played to a target a table is one match: the
table's deals (not annulled, in order) form a ``levee.match/1`` record judged as a whole,
since a deal's marks depend on the ones before; a correction or annulment re-judges the match
and rewrites the marks of the deals that follow. A deal that follows annulled deals carries their
dealers (``annulled_dealers``, ``selectors.match_deals``): an annulled deal may have been dealt and
passed the deal on, so the dealer rotation accepts a dealer following it (``scoring.rotation``).

The FFT visa: a Tarot garde sans or garde contre entered by someone who cannot approve (a
table arbiter) is saved as ``pending``: its score rows exist but do not count in rankings
until the chief arbiter (or the organizer) approves it. Entered by the chief arbiter or the
organizer, it is approved at once.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import MalformedRecord, Violation
from scoring.base import UNSCORED_WHY
from scoring.verdict import Verdict, judge, judge_as_played
from tournaments.common import games, hooks, sql
from tournaments.common.errors import (
    DealRejected,
    IdempotencyMismatch,
    InvalidInput,
    MalformedDeal,
    ServiceError,
    StateConflict,
    VersionConflict,
)
from tournaments.common.users import acting_user
from tournaments.deals.models import Deal, IdempotencyKey, Ruling, ScoreRow
from tournaments.deals.selectors import (
    ANNULLED_DEALERS,
    build_deal_record,
    check_fixed_fields,
    deal_body,
    deal_fields,
    json_body,
    keep_json_texts,
    match_adjustments,
    match_deals,
    match_record,
    record_head,
    table_deals,
    table_seats,
)
from tournaments.event import permissions
from tournaments.event.models import Round, Table, Tournament

log = logging.getLogger(__name__)

DEAL_GONE = "idempotent_deal_gone"
"""The code of the StateConflict raised when a key's first deal no longer exists."""

# -- judging ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Judged:
    """A deal as it will be saved: its record, the verdict stored with it, the marks per seat."""

    record: dict[str, Any]
    verdict: dict[str, Any]
    scores: list[int]


def _judge(record: Mapping[str, Any], *, as_played: int | Collection[int] | None = None) -> Verdict:
    """judge() (``judge_as_played`` for the irregular deals at the indices ``as_played``), with anything unexpected
    turned into a 400 naming the record rather than a 500."""
    try:
        return judge(record) if as_played is None else judge_as_played(record, as_played)
    except MalformedRecord:
        raise
    except Exception as exc:  # a bug in a game module must not become a 500 at the desk
        log.exception("judge() failed on a record")
        raise MalformedRecord("$", f"the record could not be checked ({type(exc).__name__})",
                              fr=f"le record n'a pas pu être vérifié ({type(exc).__name__})") from exc


def _reject_if_illegal(verdict: Verdict, players: list[str]) -> None:
    if verdict.violations:
        raise DealRejected(verdict.violations, players, verdict.to_json("fr"))


def _unscored(index: int, players: list[str], verdict: Verdict, why: Any) -> DealRejected:
    # a known code in words; a sentence as it is; no reason, or a code not known here: not finished
    if isinstance(why, str) and why in UNSCORED_WHY:
        reason = UNSCORED_WHY[why]
    elif isinstance(why, str) and not why.isidentifier():
        reason = why
    else:
        reason = UNSCORED_WHY["unfinished"]
    return DealRejected([Violation("deal_unscored", index, params={"why": reason})], players, verdict.to_json("fr"))


def judge_tarot_deal(table: Table, fields: Any, *, irregular: bool = False) -> Judged:
    """Judge one Tarot deal; raise MalformedRecord or DealRejected. ``irregular``: a deal whose only problems are
    violations of play is returned scored as played, its verdict naming them."""
    record = build_deal_record(table=table, fields=fields)
    verdict = _judge(record)
    if not (irregular and _play_violations_only(verdict.violations, 0)):
        _reject_if_illegal(verdict, record["players"])
    scores = verdict.deals[0].scores if verdict.deals else None
    if scores is None:
        why = verdict.deals[0].result.get("reason") if verdict.deals else None
        raise _unscored(0, record["players"], verdict, why)
    return Judged(record, verdict.to_json("fr"), list(scores))


NOT_PLAY = frozenset({"table_full", "deal_unscored", "match_ended", "match_over", "adjustment_after_end",
                      "adjustment_tie"})
"""The refusals that are not violations of play: an irregular deal does not get past them."""


def _play_violations_only(violations: Any, index: int) -> bool:
    """Whether ``violations`` are all violations of play of the deal at ``index`` (a renonce, a forbidden card…)."""
    return bool(violations) and all(v.rule not in NOT_PLAY and v.deal in (None, index) for v in violations)


def _as_played_indices(table: Table, numbers: list[int | None] | None, count: int) -> set[int]:
    """The indices, in a match record of ``count`` deals numbered ``numbers`` (None: the table's saved deals in the
    match, then new ones), of the irregular deals the arbiter ruled « as played » into the match
    (``games.as_played_joins_match``): they are judged as played, their violations of play kept in their verdict."""
    if not games.as_played_joins_match(table.round.tournament.game):
        return set()
    ruled = set(Ruling.objects.filter(table=table, decision="as_played", withdrawn_at__isnull=True,
                                      deal__status__in=Deal.IN_MATCH).values_list("deal__number", flat=True))
    if not ruled:
        return set()
    if numbers is None:
        saved = sorted(Deal.objects.filter(table=table, status__in=Deal.IN_MATCH).values_list("number", flat=True))
        numbers = [*saved[:count], *[None] * max(0, count - len(saved))]
    return {i for i, n in enumerate(numbers) if n is not None and n in ruled}


def _ruled_violation(v: Any, as_played: Collection[int]) -> bool:
    """Whether ``v`` (a Violation or its JSON) is a violation of play of a deal ruled « as played »."""
    deal, trick = (v.get("deal"), v.get("trick")) if isinstance(v, Mapping) else (v.deal, v.trick)
    return deal in as_played and trick is not None


def _irregular_match_deal(table: Table, every: list[Deal], previous: list[Deal], own: Mapping[str, Any],
                          refused: DealRejected) -> Judged:
    """A new deal of a match judged irregular: scored as played after the deals in the match (its marks are
    kept on its score rows, which count nowhere); the match itself is left as it was (the deal is not in it)."""
    head = record_head(table)
    deals = match_deals(every, previous, new=[own])
    index = len(deals) - 1
    numbers: list[int | None] = [*[d.number for d in previous], None]
    adjustments = match_adjustments(table, numbers, len(deals))
    ruled = _as_played_indices(table, numbers, len(deals))
    verdict = _judge(match_record(table, deals, adjustments), as_played={*ruled, index})
    scored = verdict.deals[index] if index < len(verdict.deals) else None
    left = [v for v in verdict.violations if not _ruled_violation(v, ruled)]
    if not _play_violations_only(left, index) or scored is None or scored.scores is None:
        raise refused
    full = verdict.to_json("fr")
    mine = [v for v in full["violations"] if v.get("deal") in (None, index)]
    slice_ = {"format": full["format"], "game": full["game"], "players": head["players"], "legal": False,
              "violations": mine, "match_deal": index, "deals": [full["deals"][index]]}
    kept = {k: v for k, v in deal_fields(own).items() if k != ANNULLED_DEALERS}
    return Judged({**head, **kept}, slice_, list(scored.scores))


def _save_irregular(table: Table, mine: Judged, seats: list[Any], locked: _Locked, *, user: Any,
                    cursor: Any) -> Deal:
    """An irregular deal saved as played: status ``irregular``, rows that count nowhere until a ruling."""
    now = timezone.now()
    deal = Deal(table=table, number=locked.last_number + 1, record=mine.record, verdict=mine.verdict,
                status=Deal.Status.IRREGULAR, version=1, created_by=acting_user(user), updated_by=acting_user(user),
                created_at=now, updated_at=now)
    _insert_deal(deal, user=user, reason="saisie (donne irrégulière — décision de l'arbitre attendue)", cursor=cursor)
    _write_rows(deal, mine.scores, seats, new=True, cursor=cursor)
    deal.at_tables = locked.at_tables  # type: ignore[attr-defined]
    return deal


def judge_match(table: Table, deals: list[Mapping[str, Any]], *,
                numbers: list[int | None] | None = None) -> list[Judged]:
    """Judge a table's match made of ``deals`` (their own fields, in order); one Judged per deal.

    The table's rulings with points are adjustment events of the match, each where it was recorded
    (``selectors.match_adjustments``): ``numbers`` are the ``Deal.number`` of the deals judged (None for a
    new one); left out, ``deals`` are the table's saved deals (not annulled), then new ones. A ruling that
    would fall after the end of the match, or that brings parties to the target level, makes the match
    illegal (``adjustment_after_end``, ``adjustment_tie``): DealRejected.
    """
    head = record_head(table)
    players = head["players"]
    adjustments = match_adjustments(table, numbers, len(deals))
    if not deals and not adjustments:
        table.match_totals, table.match_winner, table.match_ended = None, None, False
        return []
    as_played = _as_played_indices(table, numbers, len(deals))
    verdict = _judge(match_record(table, deals, adjustments), as_played=as_played or None)
    problems = [v for v in verdict.violations if not _ruled_violation(v, as_played)]
    if problems:
        raise DealRejected(problems, players, verdict.to_json("fr"))
    full = verdict.to_json("fr")
    ended = verdict.match.ended
    if ended is not None and ended.get("deal", len(deals)) < len(deals) - 1:
        end = int(ended["deal"])
        raise DealRejected([Violation("match_ended", end + 1, params={"ended_deal": end + 1})], players, full)
    out = []
    for i, own in enumerate(deals):
        scored = verdict.deals[i] if i < len(verdict.deals) else None
        if scored is None or scored.scores is None:
            raise _unscored(i, players, verdict, scored.result.get("reason") if scored else None)
        ruled = [v for v in full["violations"] if i in as_played and _ruled_violation(v, as_played)
                 and v.get("deal") == i]  # a deal ruled « as played » keeps what was found in it
        slice_ = {
            "format": full["format"], "game": full["game"], "players": players,
            "legal": not ruled, "violations": ruled, "match_deal": i,
            "deals": [full["deals"][i]],
            "totals": full["totals"], "winner": full["winner"], "winner_names": full["winner_names"],
            "ended": full["ended"],
        }
        kept = {k: v for k, v in deal_fields(own).items() if k != ANNULLED_DEALERS}  # derived, never stored
        out.append(Judged({**head, **kept}, slice_, list(scored.scores)))
    table.match_totals = full["totals"]
    table.match_winner = full["winner"]
    table.match_ended = full["ended"] is not None
    return out


# -- score rows ------------------------------------------------------------------------------------

_ROW_FIELDS = ("tournament_id", "round_id", "table_id", "deal_id", "entry_id", "points", "counts", "taker")


def taker_seat(record: Any) -> int | None:
    """The taker's seat of a deal's record (``bid.taker``), or None: only an integer is a seat (a text, a fraction or
    a boolean is none). ``ScoreRow.taker`` is true on the row of the entry seated there; the data migration that
    brought the column (``0022_scorerow_taker``) applies the same rule in SQL to the rows written before it."""
    bid = record.get("bid") if isinstance(record, Mapping) else None
    taker = bid.get("taker") if isinstance(bid, Mapping) else None
    return taker if type(taker) is int else None


def _write_rows(deal: Deal, scores: list[int], seats: list[Any], *, new: bool = False, cursor: Any = None) -> None:
    """The deal's own rows (one per seat, ``counts`` as the deal's status says, ``taker`` on the taker's), replacing
    those it had unless ``new``."""
    if not new:
        ScoreRow.objects.filter(deal=deal, ruling__isnull=True).delete()
    table = deal.table
    counts = deal.counts
    taker = taker_seat(deal.record)
    sql.insert_many(ScoreRow, _ROW_FIELDS, [
        (table.round.tournament_id, table.round_id, table.pk, deal.pk, seat.entry_id, scores[seat.position], counts,
         seat.position == taker)
        for seat in seats
    ], cursor=cursor)
    deal.__dict__["_levee_scores"] = {seat.entry_id: scores[seat.position] for seat in seats}


def _set_counts(deal: Deal) -> None:
    ScoreRow.objects.filter(deal=deal, ruling__isnull=True).update(counts=deal.counts)


def _refresh_match(table: Table, deals: list[Deal], judged: list[Judged], *, skip: Deal | None = None) -> None:
    """Store the re-judged verdicts and marks of a match's other deals (no new version: nothing they say changed)."""
    seats = table_seats(table)
    for deal, j in zip(deals, judged, strict=True):
        if deal is skip:
            continue
        old = dict(ScoreRow.objects.filter(deal=deal, ruling__isnull=True).values_list("entry_id", "points"))
        new = {seat.entry_id: j.scores[seat.position] for seat in seats}
        Deal.objects.filter(pk=deal.pk).update(verdict=j.verdict)
        if old != new:
            _write_rows(deal, j.scores, seats)
    table.save(update_fields=["match_totals", "match_winner", "match_ended"])


def _history(deal: Deal, *, user: Any, reason: str) -> None:
    deal._change_reason = str(reason)  # type: ignore[attr-defined]
    if user is not None and getattr(user, "is_authenticated", False):
        deal._history_user = user  # type: ignore[attr-defined]


def _needs_visa(tournament: Tournament, record: Mapping[str, Any]) -> bool:
    return games.needs_visa(tournament.game, record)


# -- idempotency -----------------------------------------------------------------------------------

def request_hash(table_id: int, fields: Any) -> str:
    blob = json.dumps({"table": table_id, "deal": fields}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def _key_owner(user: Any, link: Any) -> dict[str, int]:
    """Who keeps an entry's key: the table's link it came through, or else the user's account."""
    if link is not None:
        return {"link_id": link.pk}
    if getattr(user, "is_authenticated", False):
        return {"user_id": user.pk}
    raise ValueError("an entry key is kept per user or per table's link: neither was given")


def _replay(key: IdempotencyKey, digest: str) -> Deal:
    if key.request_hash != digest:
        raise IdempotencyMismatch(_("this Idempotency-Key was already used for another request"),
                                  field="Idempotency-Key")
    deal = key.deal if key.deal_id else None
    if deal is None:
        raise StateConflict(_("the deal first saved with this Idempotency-Key no longer exists"),
                            field="Idempotency-Key", code=DEAL_GONE)
    deal.idempotent_replay = True  # type: ignore[attr-defined]
    deal.idempotent_response = key.response  # type: ignore[attr-defined]
    deal.idempotent_status = key.status_code  # type: ignore[attr-defined]
    return deal


def _used_key(owner: dict[str, int] | None, idempotency_key: str | None) -> IdempotencyKey | None:
    if not idempotency_key or owner is None:
        return None
    return IdempotencyKey.objects.filter(**owner, key=idempotency_key).select_related("deal").first()


# -- services --------------------------------------------------------------------------------------

def deal_record(*, table: Table, record: Any, user: Any, idempotency_key: str | None = None,
                link: Any = None, irregular: bool = False, after: int | None = None) -> Deal:
    """Check and save a new deal at a table.

    ``record`` holds the deal's own fields (a full record is accepted if its fixed fields agree
    with the table). Raises MalformedDeal, DealRejected (nothing saved), StateConflict,
    IdempotencyMismatch.

    ``idempotency_key`` (the API's ``Idempotency-Key``, an entry form's key, an offline outbox's key)
    is kept per owner: the table's ``link`` (a :class:`~tournaments.links.models.PrivateLink`) when the
    deal comes through one, else the user's account. Sent again by the same owner for the same
    request, it returns the first deal with ``idempotent_replay = True`` and the first response in
    ``idempotent_response`` (the JSON text sent; also set for a new deal entered with a key); for
    another request, IdempotencyMismatch; when the first deal is gone, StateConflict (code
    ``idempotent_deal_gone``).

    The key is not looked up first: it is inserted with the deal, in the same transaction, and
    its unique constraint recognises a retry (a concurrent twin waits on the table's lock, then
    on the key, and fails). A retry is therefore answered after its insert fails, or after the
    deal is refused (the tournament finished or the table full since the first attempt), from the
    stored first response. A new key, the common case, costs one INSERT and no look-up.

    ``irregular`` (said explicitly by the caller: « La saisir quand même », the API's ``irregular``): a deal whose
    only problems are violations of play (a renonce…) is saved as played with its violations, status
    ``irregular`` (« donne irrégulière — décision de l'arbitre attendue »): its score rows count nowhere, a match
    is judged without it, and :func:`hooks.deal_irregular` calls the arbiter; a ruling decides
    (``rulings.irregular_rule``). A record that cannot be read, or a deal refused for another reason (table
    full, unfinished deal, after the end of the match), is refused as without the flag.

    ``after``: the number of the table's last deal when the entry was opened (its page said « Donne after+1 »).
    Another device that saved a deal at this table since is a conflict (code ``deal_number_taken``): two phones
    entering the same deal would otherwise save it twice, as deals N and N+1. The refusal names the deal saved
    and its time; sent again with the new ``after``, the deal is saved as the next one. None: not checked (the
    API, a tool that does not say).
    """
    owner = _key_owner(user, link) if idempotency_key else None
    digest = request_hash(table.pk, record) if idempotency_key else ""
    if idempotency_key and len(idempotency_key) > 200:
        raise InvalidInput(_("at most 200 characters"), field="Idempotency-Key")
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            deal = _deal_record(table=table, record=record, user=user, cursor=cursor, irregular=irregular,
                                after=after)
            response = None
            if owner is not None:
                response = deal_body(deal)
                sql.insert(IdempotencyKey, {"user_id": None, "link_id": None, **owner, "key": idempotency_key,
                                            "request_hash": digest, "deal_id": deal.pk, "status_code": 201,
                                            "response": response, "created_at": deal.created_at},
                           returning=None, cursor=cursor)
            # last, so that the ranking clock's row lock is held only until the commit that follows
            hooks.scores_changed(table.round.tournament_id)
            deal.idempotent_replay = False  # type: ignore[attr-defined]
            deal.idempotent_response = response  # type: ignore[attr-defined]
        # after the deal's own commit (a duplicate table ties it to its étui), to the subscribers it concerns
        hooks.deal_saved(deal, user, at=deal.at_tables)  # type: ignore[attr-defined]
        if deal.status == Deal.Status.IRREGULAR and not deal.idempotent_replay:  # type: ignore[attr-defined]
            hooks.deal_irregular(deal, user)
        return deal
    except (IntegrityError, ServiceError):
        existing = _used_key(owner, idempotency_key)
        if existing is None:
            raise
        return _replay(existing, digest)


@dataclass(frozen=True)
class _Locked:
    """What :func:`_lock_table` read once it held the lock."""

    last_number: int
    played: int
    status: str
    deals_per_round: int | None
    #: per subscriber of the deals saved: whether this table is one it asked for (hooks.DealSavedSubscriber)
    at_tables: tuple[bool, ...] = ()


def _lock_table(table: Table, cursor: Any) -> _Locked | None:
    """Lock the table's row until the transaction ends (its deals are numbered one at a time), then read
    its last deal number, how many of its deals are not annulled, and the tournament's current status and
    deal limit.

    Two statements, on purpose: the lock first, the read after it. Under PostgreSQL's READ COMMITTED a
    statement sees the data as of its own start, so a read made in the statement that waited for the lock
    (a sub-select of the ``SELECT … FOR UPDATE``) would miss the deal the previous holder had just
    committed, and two entries at one table would both take the same number. The read that follows the
    lock starts after the lock was granted, and sees it.

    None when the table no longer exists. On SQLite (no row locks) the transaction begins IMMEDIATE
    (``levee/settings``): it holds the database's write lock from its first statement, which
    serialises the entries the same way.
    """
    tbl, deal = Table._meta.db_table, Deal._meta.db_table
    rnd, tour = Round._meta.db_table, Tournament._meta.db_table
    if connection.features.has_select_for_update:
        cursor.execute(f"SELECT t.id FROM {tbl} t WHERE t.id = %s FOR UPDATE", [table.pk])
        if cursor.fetchone() is None:
            return None
    # for each subscriber of the deals saved that wants only some tables: whether this table is one
    at = "".join(f", EXISTS (SELECT 1 FROM {m._meta.db_table} x WHERE x.{m._meta.get_field('table').column} = t.id)"
                 for m in (sub.table_model for sub in hooks.deal_saved_subscribers()) if m is not None)
    cursor.execute(
        f"SELECT (SELECT MAX(d.number) FROM {deal} d WHERE d.table_id = t.id), "
        f"CASE WHEN u.deals_per_round IS NULL THEN 0 "
        f"ELSE (SELECT COUNT(*) FROM {deal} d WHERE d.table_id = t.id AND d.status <> %s) END, "
        f"u.status, u.deals_per_round{at} "
        f"FROM {tbl} t JOIN {rnd} r ON r.id = t.round_id JOIN {tour} u ON u.id = r.tournament_id WHERE t.id = %s",
        [Deal.Status.ANNULLED.value, table.pk])
    row = cursor.fetchone()
    if row is None:
        return None
    flags = iter(bool(v) for v in row[4:])
    at_tables = tuple(next(flags) if sub.table_model is not None else True for sub in hooks.deal_saved_subscribers())
    return _Locked(row[0] or 0, row[1], row[2], row[3], at_tables)


class DealNumberTaken(StateConflict):
    """Another device saved a deal at the table since this entry was opened (:func:`deal_record`'s ``after``)."""

    code = "deal_number_taken"

    def __init__(self, message: str, *, last_number: int) -> None:
        super().__init__(message)
        self.last_number = last_number

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "after": self.last_number}


def _number_taken(table: Table, after: int, last_number: int) -> DealNumberTaken:
    """The refusal of an entry opened as deal ``after + 1`` when the table's last deal is ``last_number``."""
    taken = Deal.objects.filter(table=table, number=after + 1).only("number", "created_at").first()
    when = timezone.localtime(taken.created_at).strftime("%H:%M") if taken is not None else ""
    return DealNumberTaken(
        _("La donne %(n)s de cette table a déjà été enregistrée (à %(time)s), depuis un autre appareil. Regardez "
          "la feuille de la table : si c'est la même donne, ne l'enregistrez pas ; si c'est une autre, "
          "enregistrez-la de nouveau : elle sera la donne %(next)s.")
        % {"n": after + 1, "time": when, "next": last_number + 1}, last_number=last_number)


def _deal_record(*, table: Table, record: Any, user: Any, cursor: Any, irregular: bool = False,
                 after: int | None = None) -> Deal:
    """The deal saved with its score rows and first history version (inside the caller's transaction)."""
    locked = _lock_table(table, cursor)
    if locked is None:
        raise StateConflict(_("this table no longer exists"), field="table", code="table_gone")
    if after is not None and after < locked.last_number:
        raise _number_taken(table, after, locked.last_number)
    tournament = table.round.tournament
    tournament.status, tournament.deals_per_round = locked.status, locked.deals_per_round  # as of the lock
    if tournament.status != Tournament.Status.RUNNING:
        raise StateConflict(_("deals are entered while the tournament is running (it is %(status)s)")
                            % {"status": _status_label(Tournament.Status, tournament.status)},
                            field="tournament", code="tournament_not_running")
    seats = table_seats(table)
    if not seats:
        raise StateConflict(_("this table has no players seated"), field="table", code="table_not_seated")
    try:
        if tournament.is_match_game:
            every = table_deals(table)
            previous = [d for d in every if d.in_match]
            own = check_fixed_fields(record_head(table), record)
            try:
                judged = judge_match(table, match_deals(every, previous, new=[own]))
                mine = judged[-1]
            except DealRejected as exc:
                if not irregular:
                    raise
                mine = _irregular_match_deal(table, every, previous, own, exc)
        else:
            played = locked.played
            if tournament.deals_per_round and played >= tournament.deals_per_round:
                raise DealRejected([Violation("table_full", played, params={"limit": tournament.deals_per_round})],
                                   [s.entry.player.name for s in seats])
            mine = judge_tarot_deal(table, record, irregular=irregular)
    except MalformedRecord as exc:
        raise MalformedDeal.wrap(exc) from None
    found = hooks.deal_check(table, locked.last_number + 1, mine.record, at=locked.at_tables)
    if found:  # what the deal contradicts beyond its own rules (a duplicate's étui): refused, nothing saved
        raise DealRejected(found, [s.entry.player.name for s in seats])

    if mine.verdict.get("violations"):
        return _save_irregular(table, mine, seats, locked, user=user, cursor=cursor)
    needs_visa = _needs_visa(tournament, mine.record)
    pending = needs_visa and not permissions.can_approve(user, tournament)
    now = timezone.now()
    deal = Deal(table=table, number=locked.last_number + 1, record=mine.record, verdict=mine.verdict,
                status=Deal.Status.PENDING if pending else Deal.Status.VALID, version=1,
                created_by=acting_user(user), updated_by=acting_user(user), created_at=now, updated_at=now)
    if needs_visa and not pending:
        deal.approved_by, deal.approved_at = acting_user(user), now
    _insert_deal(deal, user=user, reason="saisie" if not pending else "saisie (en attente du visa)", cursor=cursor)
    _write_rows(deal, mine.scores, seats, new=True, cursor=cursor)
    deal.at_tables = locked.at_tables  # type: ignore[attr-defined]
    if tournament.is_match_game:
        table.save(update_fields=["match_totals", "match_winner", "match_ended"])
    return deal


def _insert_deal(deal: Deal, *, user: Any, reason: str, cursor: Any) -> None:
    """Save a new deal and its first version in the history: two plain INSERTs (the entry's hot path).

    The history row is the one django-simple-history writes on ``save()`` (every field of the deal,
    ``history_type`` "+", the date, the user and the reason); ``tests`` compare the two.
    """
    values = {f.attname: getattr(deal, f.attname) for f in Deal._meta.concrete_fields if not f.primary_key}
    values["record"], values["verdict"] = sql.JSONText(json_body(deal.record)), sql.JSONText(json_body(deal.verdict))
    keep_json_texts(deal, values["record"], values["verdict"])
    who = acting_user(user)
    deal.pk = sql.insert(Deal, values, cursor=cursor)
    sql.insert(_historical_deal(), {"id": deal.pk, **values, "history_date": deal.created_at,
                                    "history_change_reason": str(reason), "history_type": "+",
                                    "history_user_id": who.pk if who is not None else None},
               returning=None, cursor=cursor)
    deal._state.adding, deal._state.db = False, connection.alias


@cache
def _historical_deal() -> type[Model]:
    """django-simple-history's model of the deals' versions (``Deal.history.model`` builds a manager each time)."""
    return Deal.history.model


def _status_label(choices: Any, value: str) -> str:
    """A status in the active language (« terminé », "finished"), or as stored when unknown."""
    try:
        return str(choices(value).label)
    except ValueError:
        return value



def _lock(deal: Deal, expected_version: int | None) -> tuple[Deal, Table]:
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=deal.table_id)
    current = Deal.objects.select_for_update().get(pk=deal.pk)
    current.table = table
    if expected_version is not None and current.version != expected_version:
        raise VersionConflict(_("the deal is at version %(current)s, the change was based on version %(expected)s: "
                                "reload it and try again") % {"current": current.version, "expected": expected_version},
                              current_version=current.version)
    return current, table


def _need_reason(reason: str | None) -> str:
    if not reason or not str(reason).strip():
        raise InvalidInput(_("a correction needs a reason"), field="reason")
    return str(reason).strip()


@transaction.atomic
def deal_correct(*, deal: Deal, record: Any, expected_version: int | None, reason: str, user: Any) -> Deal:
    """Replace a deal's record by a corrected one: a new version, with who and why.

    ``expected_version`` is the version the correction was based on: another value than the
    current one raises VersionConflict (409) rather than losing an update. None skips the check
    (the admin). The corrected deal is judged like a new one; in a match the following deals
    are re-judged and must stay legal. An irregular deal may be corrected while it waits for the arbiter (it is
    then a valid deal); once a ruling decides it, StateConflict until that ruling is withdrawn (its points stand
    for the deal: both would count).
    """
    reason = _need_reason(reason)
    deal, table = _lock(deal, expected_version)
    tournament = table.round.tournament
    if deal.status == Deal.Status.ANNULLED:
        raise StateConflict(_("an annulled deal cannot be corrected"), field="status", code="deal_annulled")
    if deal.status == Deal.Status.IRREGULAR and deal.rulings.filter(withdrawn_at__isnull=True).exists():
        # the ruling's points stand for the deal: corrected (valid, its own marks counting), it would count twice
        raise StateConflict(_("this irregular deal was decided by the arbiter: withdraw that ruling before "
                              "correcting it"), field="status", code="irregular_ruled")
    seats = table_seats(table)
    try:
        if tournament.is_match_game:
            every = table_deals(table)
            deals = [d for d in every if d.in_match or d.pk == deal.pk]
            own = check_fixed_fields(record_head(table), record)
            fields = [own if d.pk == deal.pk else d.record for d in deals]
            judged = judge_match(table, match_deals(every, deals, fields=fields), numbers=[d.number for d in deals])
            mine = judged[[d.pk for d in deals].index(deal.pk)]
        else:
            mine = judge_tarot_deal(table, record)
    except MalformedRecord as exc:
        raise MalformedDeal.wrap(exc) from None
    found = hooks.deal_check(table, deal.number, mine.record)
    if found:
        raise DealRejected(found, [s.entry.player.name for s in seats])
    deal.record, deal.verdict = mine.record, mine.verdict
    deal.version += 1
    deal.updated_by = acting_user(user)
    if _needs_visa(tournament, mine.record) and not permissions.can_approve(user, tournament):
        deal.status = Deal.Status.PENDING
        deal.approved_by = deal.approved_at = None
    elif deal.status == Deal.Status.PENDING and _needs_visa(tournament, mine.record):
        deal.status, deal.approved_by, deal.approved_at = Deal.Status.VALID, acting_user(user), timezone.now()
    else:
        deal.status = Deal.Status.VALID
    _history(deal, user=user, reason=reason)
    deal.save()
    _write_rows(deal, mine.scores, seats)
    if tournament.is_match_game:
        _refresh_match(table, deals, judged, skip=next(d for d in deals if d.pk == deal.pk))
    else:
        hooks.deal_saved(deal, user)
    hooks.scores_changed(tournament.pk)
    return deal


@transaction.atomic
def deal_annul(*, deal: Deal, reason: str, user: Any, expected_version: int | None = None) -> Deal:
    """Annul a deal (kept, shown struck out, counting for nothing): a new version with the reason."""
    reason = _need_reason(reason)
    deal, table = _lock(deal, expected_version)
    tournament = table.round.tournament
    if deal.status == Deal.Status.ANNULLED:
        return deal
    if tournament.is_match_game:
        every = table_deals(table)
        rest = [d for d in every if d.in_match and d.pk != deal.pk]
        try:
            # the match without it, the rulings in place (with no deal and no ruling left: no match); the deal
            # after it may follow its dealer (it may have been dealt: scoring.rotation)
            judged = judge_match(table, match_deals(every, rest), numbers=[d.number for d in rest])
        except MalformedRecord as exc:
            raise MalformedDeal.wrap(exc) from None
    deal.status = Deal.Status.ANNULLED
    deal.version += 1
    deal.updated_by = acting_user(user)
    _history(deal, user=user, reason=reason)
    deal.save()
    _set_counts(deal)
    if tournament.is_match_game:
        _refresh_match(table, rest, judged)
    hooks.scores_changed(tournament.pk)
    return deal


def irregular_joins_match(*, deal: Deal, user: Any, reason: str) -> None:
    """An irregular deal ruled « as played » where the game carries marks from deal to deal
    (``games.as_played_joins_match``): it becomes a deal of the match (valid: a new version, with who and why) and
    counts as played; the ruling that says so then judges the match again (``match_rejudge``)."""
    deal.status = Deal.Status.VALID
    deal.version += 1
    deal.updated_by = acting_user(user)
    _history(deal, user=user, reason=reason)
    deal.save()
    _set_counts(deal)


def irregular_leaves_match(*, deal: Deal, user: Any, reason: str) -> None:
    """The ruling that let an irregular deal join its match withdrawn: the deal is irregular again (a new version),
    waiting for a ruling and counting nowhere; the caller judges the match again without it."""
    deal.status = Deal.Status.IRREGULAR
    deal.version += 1
    deal.updated_by = acting_user(user)
    _history(deal, user=user, reason=reason)
    deal.save()
    _set_counts(deal)


def match_rejudge(table: Table) -> None:
    """Judge a match table again with its rulings in place (a ruling was just recorded) and store its match
    totals, winner and end, and every deal's verdict and marks. DealRejected (the transaction is then rolled
    back by the caller) when the rulings no longer fit the match."""
    Table.objects.select_for_update().filter(pk=table.pk).first()
    every = table_deals(table)
    deals = [d for d in every if d.in_match]
    try:
        judged = judge_match(table, match_deals(every, deals), numbers=[d.number for d in deals])
    except MalformedRecord as exc:
        raise MalformedDeal.wrap(exc) from None
    _refresh_match(table, deals, judged)


@transaction.atomic
def deal_approve(*, deal: Deal, user: Any) -> Deal:
    """The chief arbiter's visa on a pending deal (garde sans / garde contre): it now counts."""
    deal, table = _lock(deal, None)
    if deal.status != Deal.Status.PENDING:
        raise StateConflict(_("only a pending deal is approved (this one is %(status)s)")
                            % {"status": _status_label(Deal.Status, deal.status)}, field="status", code="not_pending")
    deal.status = Deal.Status.VALID
    deal.approved_by, deal.approved_at = acting_user(user), timezone.now()
    deal.updated_by = acting_user(user)
    _history(deal, user=user, reason="visa de l'arbitre principal")
    deal.save()
    _set_counts(deal)
    hooks.scores_changed(table.round.tournament_id)
    return deal
