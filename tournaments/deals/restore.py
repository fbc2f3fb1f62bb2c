"""Restoring an annulled deal (« rétablir une donne »): an annulment made by mistake is undone.

An annulment is never erased: the deal comes back with a new version (who, when, why), as every change
of a saved deal. It goes back to the status it had before the annulment, read from its history (``valid``,
or ``pending`` when it was still waiting for the chief arbiter's visa: restoring is not a visa), and its
score rows count again (a pending deal's still do not).

The deal is judged again as it stands (its record is not touched) and must still be legal:

* **Tarot**: the deal alone, and the table must have room for it: ``Tournament.deals_per_round`` counts
  the deals not annulled, as the entry does (``table_full``);
* **match games**: the table's match is judged again with the deal back in its place (deals in the order
  of their numbers, rulings where they were recorded: ``selectors.match_adjustments``). Refused when the
  match would no longer stand (``restore_breaks_match``): e.g. the match now ends before deals entered
  after the annulment, which would come after its end. The arbiter first annuls or corrects those.

Every refusal is a :class:`StateConflict` (409) and changes nothing. Like annulling, restoring is for
whoever referees the tournament (``permissions.can_restore``: organizer and chief arbiter; checked by the
views, as for ``deal_annul``). Like annulling, it is not tied to the tournament's status.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from rules.errors import MalformedRecord
from tournaments.common import hooks
from tournaments.common.errors import DealRejected, InvalidInput, StateConflict
from tournaments.common.users import acting_user
from tournaments.deals.models import Deal
from tournaments.deals.record import (
    Judged,
    _history,
    _lock,
    _refresh_match,
    _write_rows,
    judge_match,
    judge_tarot_deal,
)
from tournaments.deals.selectors import match_deals, table_deals, table_seats
from tournaments.event.models import Table


def status_before_annulment(deal: Deal) -> str:
    """The status the deal had before its (latest) annulment: its newest version in the history that is not
    annulled; ``valid`` when the history says nothing (a deal saved outside the services)."""
    before = (deal.history.exclude(status=Deal.Status.ANNULLED).order_by("-history_date", "-history_id")
              .values_list("status", flat=True).first())
    return Deal.Status.PENDING if before == Deal.Status.PENDING else Deal.Status.VALID


def _why(exc: DealRejected) -> str:
    """The first violation of a refused judgment, in the active language, without its final stop."""
    first = exc.violations[0] if exc.violations else None
    if first is None:
        return ""
    if first.rule in ("match_over", "match_ended") and first.deal is not None:
        return _("deal %(n)s would come after the end of the match") % {"n": first.deal + 1}
    lang = "en" if (translation.get_language() or "fr").startswith("en") else "fr"
    return first.message(lang, exc.players).rstrip(".")


def _judge_back(deal: Deal, table: Table) -> tuple[Judged, list[Deal], list[Judged]]:
    """The deal judged again with the table as it is now; for a match, also the table's deals with it back
    in place (in order) and their judgments. StateConflict when it cannot come back."""
    tournament = table.round.tournament
    try:
        if tournament.is_match_game:
            every = table_deals(table)
            deals = sorted([d for d in every if d.status != Deal.Status.ANNULLED and d.pk != deal.pk] + [deal],
                           key=lambda d: d.number)
            try:
                judged = judge_match(table, match_deals(every, deals), numbers=[d.number for d in deals])
            except DealRejected as exc:
                raise StateConflict(_("this deal cannot be restored: the match would not stand with it (%(why)s). "
                                      "Annul or correct the deals entered after it first.") % {"why": _why(exc)},
                                    field="status", code="restore_breaks_match") from None
            return judged[deals.index(deal)], deals, judged
        limit = tournament.deals_per_round
        if limit:
            played = Deal.objects.filter(table=table).exclude(status=Deal.Status.ANNULLED).count()
            if played >= limit:
                raise StateConflict(_("this deal cannot be restored: the table already has its %(limit)s deals; "
                                      "annul another deal first") % {"limit": limit},
                                    field="status", code="table_full")
        try:
            mine = judge_tarot_deal(table, deal.record)
        except DealRejected as exc:
            raise StateConflict(_("this deal cannot be restored: it is no longer legal (%(why)s)")
                                % {"why": _why(exc)}, field="record", code="restore_illegal") from None
        return mine, [], []
    except MalformedRecord as exc:
        lang = "en" if (translation.get_language() or "fr").startswith("en") else "fr"
        why = exc.text(lang)
        raise StateConflict(_("this deal cannot be restored: its record can no longer be read (%(why)s)")
                            % {"why": why}, field="record", code="restore_illegal") from None


@transaction.atomic
def deal_restore(*, deal: Deal, reason: str | None, user: Any, expected_version: int | None = None) -> Deal:
    """Bring an annulled deal back: its status before the annulment, a new version with the reason and user,
    its score rows counting again; a match judged again with it in place.

    ``expected_version``: the version the request was based on (VersionConflict, 409, otherwise); None skips
    the check. Raises InvalidInput (no reason), StateConflict (not annulled, table full, no longer legal, the
    match would not stand with it); nothing is changed then.
    """
    if not reason or not str(reason).strip():
        raise InvalidInput(_("restoring a deal needs a reason"), field="reason")
    reason = str(reason).strip()
    deal, table = _lock(deal, expected_version)  # the table first, then the deal
    tournament = table.round.tournament
    if deal.status != Deal.Status.ANNULLED:
        raise StateConflict(_("only an annulled deal can be restored (this one is %(status)s)")
                            % {"status": deal.get_status_display()}, field="status", code="deal_not_annulled")
    mine, deals, judged = _judge_back(deal, table)
    deal.status = status_before_annulment(deal)
    deal.verdict = mine.verdict  # the record stays as it was saved; the verdict is today's judgment of it
    deal.version += 1
    deal.updated_by = acting_user(user)
    _history(deal, user=user, reason=reason)
    deal.save()
    _write_rows(deal, mine.scores, table_seats(table))  # counting again, unless pending
    if tournament.is_match_game:
        _refresh_match(table, deals, judged, skip=deal)
    hooks.scores_changed(tournament.pk)
    return deal
