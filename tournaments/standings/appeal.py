"""Results that explain their life: the appeal window of a round, and the public ledger of what changed after.

When the organizer finishes a round its results are *provisional* for the tournament's appeal window
(``TablePolicy.appeal_minutes``), then *official* (:class:`~tournaments.links.models.RoundClosing`). Reopening the
round drops its closing. After a round's results are official, every correction, annulment, restoring,
ruling and ruling withdrawn on it is an entry of the tournament's public ledger: who, when, why, and which
ranks it moved (the ranking snapshots just before and just after, compared by ``scoring.ranking.diff``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import ranking as pure
from tournaments.common import hooks
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.rulings import made_by_ruling
from tournaments.event.models import Entry, Round, Tournament
from tournaments.event.setup import pending_check, unfinished_check
from tournaments.links.models import RoundClosing
from tournaments.links.service import policy_of
from tournaments.standings.models import RankingSnapshot


@transaction.atomic
def round_set_status(*, round: Round, status: str, confirm_unfinished: bool = False,
                     confirm_pending: bool = False) -> Round:
    """Move a round to ``status``; a round finished opens its appeal window, a round reopened closes it. A
    round whose matches are not all over is finished only with ``confirm_unfinished``; one with deals awaiting
    the chief arbiter's visa, only with ``confirm_pending``."""
    if status not in Round.Status.values:
        raise InvalidInput(_("status is one of %(values)s") % {"values": ", ".join(Round.Status.values)},
                           field="status")
    if status == Round.Status.FINISHED and round.status != Round.Status.FINISHED:
        unfinished_check(round, confirmed=confirm_unfinished, field="confirm_unfinished")
        pending_check(round, confirmed=confirm_pending)
    if status == Round.Status.RUNNING and round.status == Round.Status.PLANNED and not round.tables.exists():
        # a walk started round 1 before its draw: « en cours » over « Aucune table placée », the tournament
        # running too. Every format seats its tables as rows (the draw, the tables by hand, a duplicate's movement)
        raise StateConflict(_("Aucune table n'est placée dans la manche %(n)s : faites d'abord le tirage des "
                              "tables, puis commencez la manche.") % {"n": round.number},
                            field="status", code="no_tables")
    tournament = round.tournament
    if status == Round.Status.RUNNING and tournament.status in (Tournament.Status.DRAFT, Tournament.Status.OPEN):
        # a round begun is a tournament running: its deals can be entered (a walk drew round 1 of a draft
        # tournament, printed its tables' codes, and every deal was refused « il est brouillon »)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])
    finished_changed = Round.Status.FINISHED in (status, round.status) and status != round.status
    round.status = status
    round.save(update_fields=["status"])
    round_closing_update(round=round)
    if finished_changed:
        # a match left unfinished is in play while its round runs, over (worth nothing) once it is finished
        # (standings.rankings.match_results): the ranking's inputs change
        hooks.scores_changed(tournament.pk)
    return round


def round_closing_update(*, round: Round) -> RoundClosing | None:
    """Open the appeal window when a round is finished (kept if it already is), drop it when it is reopened."""
    if round.status != Round.Status.FINISHED:
        RoundClosing.objects.filter(round=round).delete()
        return None
    now = timezone.now()
    minutes = policy_of(round.tournament).appeal_minutes
    closing, _created = RoundClosing.objects.get_or_create(
        round=round, defaults={"finished_at": now, "official_at": now + timedelta(minutes=minutes)})
    return closing


@dataclass(frozen=True)
class AppealState:
    """Where a round's results stand: ``playing``, ``provisional`` (until ``deadline``) or ``official``."""

    state: str
    deadline: datetime | None = None

    @property
    def seconds_left(self) -> int:
        if self.deadline is None:
            return 0
        return max(0, int((self.deadline - timezone.now()).total_seconds()))


def appeal_state(rnd: Round, closing: RoundClosing | None = None) -> AppealState:
    if closing is None:
        closing = RoundClosing.objects.filter(round=rnd).first()
    if closing is None:
        return AppealState("playing")
    if timezone.now() >= closing.official_at:
        return AppealState("official", closing.official_at)
    return AppealState("provisional", closing.official_at)


# -- the ledger ----------------------------------------------------------------------------------------

@dataclass
class LedgerEntry:
    """One change after a round's results became official."""

    when: datetime
    kind: str  # added, correction, annulment, restore, ruling, ruling_withdrawn
    round: int
    table: int
    deal: int | None
    who: str
    why: str
    entries: set[int] = field(default_factory=set)  # the entries whose marks it touched
    moved: list[tuple[str, int, int]] = field(default_factory=list)  # (name, rank before, rank after)


RULING_MOMENT_SECONDS = 5
"""How close a deal's version and its ruling are (one transaction: milliseconds apart; a typed correction that quotes
a ruling's words is minutes away)."""


def _status_kind(before: str | None, after: str) -> str:
    if after == Deal.Status.ANNULLED and before != Deal.Status.ANNULLED:
        return "annulment"
    if before == Deal.Status.ANNULLED and after != Deal.Status.ANNULLED:
        return "restore"
    return "correction"


def _who(user: Any) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _part_of_a_ruling(version: Any, rulings: list[Ruling]) -> bool:
    """Whether a deal's version was made by a ruling or its withdrawal (annulled, restored, joined to or left out of
    its match): its reason says so and a ruling on that deal was recorded or withdrawn in the same moment."""
    if not made_by_ruling(version.history_change_reason):
        return False
    moments = [t for r in rulings if r.deal_id == version.id for t in (r.created_at, r.withdrawn_at) if t is not None]
    return any(abs((t - version.history_date).total_seconds()) < RULING_MOMENT_SECONDS for t in moments)


def ledger(tournament: Tournament, *, rounds: list[Round] | None = None) -> list[LedgerEntry]:
    """The changes made to official results (newest first), with the ranks each moved."""
    closings = {c.round_id: c for c in RoundClosing.objects.filter(round__tournament=tournament)
                .select_related("round")}
    if rounds is not None:
        allowed = {r.pk for r in rounds}
        closings = {k: v for k, v in closings.items() if k in allowed}
    if not closings:
        return []
    out: list[LedgerEntry] = []
    seats: dict[int, list[int]] = {}
    from tournaments.event.models import Seat, Table

    tables = {t.pk: t for t in Table.objects.filter(round_id__in=list(closings)).select_related("round")}
    for table_id, entry_id in Seat.objects.filter(table_id__in=list(tables)).values_list("table_id", "entry_id"):
        seats.setdefault(table_id, []).append(entry_id)
    rulings = list(Ruling.objects.filter(table_id__in=list(tables))
                   .select_related("created_by", "withdrawn_by", "deal"))
    # a deal's changes, and a deal added (a table's forgotten deal entered by the chief arbiter once the round was
    # over: the results change as much as by a correction)
    history = list(Deal.history.model.objects.filter(table_id__in=list(tables), history_type__in=("+", "~"))
                   .select_related("history_user").order_by("history_date"))
    # a deal entered through a table's link has no account: the link says who
    through = selectors.entered_through_links({h.id for h in history
                                               if h.history_type == "+" and h.history_user is None})
    for h in history:
        if _part_of_a_ruling(h, rulings):
            continue  # the ruling's own entry below says it
        table = tables[h.table_id]
        closing = closings[table.round_id]
        # a deal added counts from when the round was finished, too (it was entered during play otherwise)
        since = max(closing.official_at, closing.finished_at) if h.history_type == "+" else closing.official_at
        if h.history_date < since:
            continue
        prev = h.prev_record
        if prev is not None and prev.version == h.version and prev.status == h.status:
            continue  # not a change of what the deal says (e.g. a visa is not a correction)
        kind = "added" if h.history_type == "+" else _status_kind(prev.status if prev else None, h.status)
        out.append(LedgerEntry(h.history_date, kind,
                               table.round.number, table.number, h.number,
                               selectors.link_author(through[h.id]) if h.history_type == "+" and h.id in through
                               else _who(h.history_user),
                               h.history_change_reason or "", set(seats.get(table.pk, []))))
    for ruling in rulings:
        table = tables[ruling.table_id]
        official = closings[table.round_id].official_at
        touched = {int(k) for k in (ruling.adjustments or {})} or set(seats.get(table.pk, []))
        number = ruling.deal.number if ruling.deal else None
        if ruling.created_at >= official:
            out.append(LedgerEntry(ruling.created_at, "ruling", table.round.number, table.number, number,
                                   _who(ruling.created_by), f"{ruling.kind_words} — {ruling.reason}",
                                   touched))
        if ruling.withdrawn_at and ruling.withdrawn_at >= official:
            out.append(LedgerEntry(ruling.withdrawn_at, "ruling_withdrawn", table.round.number, table.number, number,
                                   _who(ruling.withdrawn_by), ruling.withdraw_reason, touched))
    out.sort(key=lambda e: e.when, reverse=True)
    _ranks_moved(tournament, out)
    return out


def _ranks_moved(tournament: Tournament, entries: list[LedgerEntry]) -> None:
    """Fill each entry's ``moved``: the snapshot before its time against the first one after it."""
    if not entries:
        return
    from tournaments.standings.rankings import snapshot_ranking

    snapshots = list(RankingSnapshot.objects.filter(tournament=tournament).defer("lines", "team_lines")
                     .order_by("created_at", "id"))
    names = dict(Entry.objects.filter(tournament=tournament).values_list("id", "player__name"))
    cache: dict[int, pure.RankingSnapshot | None] = {}

    def pure_of(snapshot: RankingSnapshot) -> pure.RankingSnapshot | None:
        if snapshot.pk not in cache:
            try:
                cache[snapshot.pk] = snapshot_ranking(snapshot)
            except Exception:  # a snapshot that no longer regenerates says nothing here
                cache[snapshot.pk] = None
        return cache[snapshot.pk]

    for item in entries:
        before = next((s for s in reversed(snapshots) if s.created_at < item.when), None)
        after = next((s for s in snapshots if s.created_at >= item.when), None)
        if before is None or after is None:
            continue
        old, new = pure_of(before), pure_of(after)
        if old is None or new is None:
            continue
        item.moved = [(names.get(m.entry, str(m.entry)), m.old_rank, m.new_rank)
                      for m in pure.diff(old, new).moved if isinstance(m.entry, int)]
