"""The table in the players' hands: private links, the players' answers on a deal, calls to the arbiter.

Writes only; what a link may do is :mod:`tournaments.desk.link_session`. Every write says who and when: the
link used (a table's or a player's) or the account, and the time.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.errors import MalformedRecord
from tournaments.common import games, hooks
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.common.users import acting_user
from tournaments.deals.models import Deal, ScoreRow
from tournaments.event.models import Entry, Round, Seat, Table, Tournament
from tournaments.links.models import ArbiterCall, DealAnswer, DealSheet, PrivateLink, RoundClosing, TablePolicy

TOKEN_BYTES = 18
"""Random bytes of a link's token: 24 URL-safe characters, 144 bits (Tabbycat's private URLs, longer)."""


def policy_of(tournament: Tournament) -> TablePolicy:
    """The tournament's table policy (the defaults, unsaved, when the organizer has chosen nothing)."""
    try:
        return tournament.table_policy
    except TablePolicy.DoesNotExist:
        return TablePolicy(tournament=tournament)


def most_confirmations(tournament: Tournament) -> int:
    """The most players who can confirm a deal: the tournament's largest table, from the game registry (its table
    sizes under the tournament's « Joueurs par table »: 2 at L'Impériale, up to 6 at a Triomphe of 5)."""
    try:
        sizes = games.table_sizes(tournament.game, tournament.record_options())
    except (MalformedRecord, KeyError):
        sizes = games.player_counts(tournament.game)
    return max(sizes)


def policy_set(*, tournament: Tournament, tables_enter: bool, confirmations_needed: int | None,
               unconfirmed_count: bool, appeal_minutes: int) -> TablePolicy:
    """Save the organizer's choices; the ranking is recomputed when what counts changed."""
    most = most_confirmations(tournament)
    if confirmations_needed is not None and not 1 <= confirmations_needed <= most:
        raise InvalidInput(_("entre 1 et %(n)s joueurs : une table de ce tournoi (%(game)s) en compte au plus %(n)s")
                           % {"n": most, "game": games.label(tournament.game)}, field="confirmations_needed")
    if not 0 <= appeal_minutes <= 24 * 60:
        raise InvalidInput(_("between 0 and 1440 minutes"), field="appeal_minutes")
    with transaction.atomic():
        policy = policy_of(tournament)
        changed = policy.pk is None or (policy.unconfirmed_count, policy.confirmations_needed) != (
            unconfirmed_count, confirmations_needed)
        policy.tables_enter, policy.confirmations_needed = tables_enter, confirmations_needed
        policy.unconfirmed_count, policy.appeal_minutes = unconfirmed_count, appeal_minutes
        policy.save()
        tournament.table_policy = policy
        if changed:
            for deal in Deal.objects.filter(table__round__tournament=tournament, sheet__isnull=False):
                sheet_refresh(deal=deal, policy=policy)
            hooks.scores_changed(tournament.pk)
    return policy


# -- links -----------------------------------------------------------------------------------------

def _new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def link_for_table(*, table: Table, user: Any = None) -> PrivateLink:
    """The table's live link, made the first time it is asked for."""
    live = PrivateLink.objects.filter(table=table, revoked_at__isnull=True).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return PrivateLink.objects.create(tournament_id=table.round.tournament_id, table=table,
                                              token=_new_token(), created_by=acting_user(user))
    except IntegrityError:  # made at the same moment by another request: use it
        return PrivateLink.objects.get(table=table, revoked_at__isnull=True)


def links_for_round(*, tables: list[Table], user: Any = None) -> dict[int, PrivateLink]:
    """Each table's live link (made where missing), by table id."""
    return _live_links("table", tables, lambda table: link_for_table(table=table, user=user))


def links_for_entries(*, entries: list[Entry], user: Any = None) -> dict[int, PrivateLink]:
    """Each player's live link (made where missing), by entry id: one statement for those that exist."""
    return _live_links("entry", entries, lambda entry: link_for_entry(entry=entry, user=user))


def _live_links(field: str, owners: list[Any], make: Callable[[Any], PrivateLink]) -> dict[int, PrivateLink]:
    have = {getattr(link, f"{field}_id"): link
            for link in PrivateLink.objects.filter(**{f"{field}__in": owners, "revoked_at__isnull": True})}
    for owner in owners:
        if owner.pk not in have:
            have[owner.pk] = make(owner)
    return have


def link_for_entry(*, entry: Entry, user: Any = None) -> PrivateLink:
    """The player's live link in the tournament, made the first time it is asked for."""
    live = PrivateLink.objects.filter(entry=entry, revoked_at__isnull=True).first()
    if live is not None:
        return live
    try:
        with transaction.atomic():
            return PrivateLink.objects.create(tournament_id=entry.tournament_id, entry=entry, token=_new_token(),
                                              created_by=acting_user(user))
    except IntegrityError:
        return PrivateLink.objects.get(entry=entry, revoked_at__isnull=True)


def link_revoke(*, link: PrivateLink, user: Any, renew: bool = True) -> PrivateLink | None:
    """Revoke a link at once (its holder is refused from the next request); with ``renew``, the new link."""
    with transaction.atomic():
        updated = PrivateLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now(), revoked_by=acting_user(user))
        if not updated:
            raise StateConflict(_("this link was already revoked"), field="link", code="link_revoked")
        link.refresh_from_db()
        if not renew:
            return None
        if link.table_id is not None:
            return link_for_table(table=link.table, user=user)
        return link_for_entry(entry=link.entry, user=user)


MAX_TOKEN = 64


def link_by_token(token: str) -> PrivateLink | None:
    """The link of ``token``, live or revoked (None when there is no such link)."""
    if not token or len(token) > MAX_TOKEN:
        return None
    return (PrivateLink.objects.select_related("table__round__tournament", "entry__player", "tournament")
            .filter(token=token).first())


def answer_allowed(link: PrivateLink | None, deal: Deal, entry: Entry) -> bool:
    """A table link answers for the players of its table; a player link for its player, at his tables."""
    if link is None or not link.is_live:
        return False
    if link.table_id is not None:
        if deal.table_id != link.table_id:
            return False
    elif link.entry_id != entry.pk:
        return False
    return Seat.objects.filter(table_id=deal.table_id, entry=entry).exists()


# -- the co-signed score sheet ----------------------------------------------------------------------

def current_answers(deal: Deal) -> dict[int, DealAnswer]:
    """Each player's latest answer on the deal's current version, by entry id."""
    out: dict[int, DealAnswer] = {}
    for answer in DealAnswer.objects.filter(deal=deal, version=deal.version).order_by("created_at", "id"):
        out[answer.entry_id] = answer
    return out


def sheet_refresh(*, deal: Deal, policy: TablePolicy | None = None) -> DealSheet:
    """Count the answers on the deal's current version and store the sheet's state: disputed while a dispute
    on it waits for the arbiter, confirmed once enough players of the table confirmed, else entered."""
    policy = policy or policy_of(deal.table.round.tournament)
    answers = current_answers(deal)
    seated = set(Seat.objects.filter(table_id=deal.table_id).values_list("entry_id", flat=True))
    confirmed = sum(1 for e, a in answers.items() if e in seated and a.answer == DealAnswer.Answer.CONFIRMED)
    # disputed while the call it made is not answered; then the confirmations alone decide
    disputed = ArbiterCall.objects.filter(deal=deal, reason=ArbiterCall.Reason.DISPUTE).exclude(
        state=ArbiterCall.State.RESOLVED).exists()
    if disputed:
        state = DealSheet.State.DISPUTED
    elif confirmed >= policy.needed(len(seated)):
        state = DealSheet.State.CONFIRMED
    else:
        state = DealSheet.State.ENTERED
    sheet, _created = DealSheet.objects.update_or_create(
        deal=deal, defaults={"version": deal.version, "state": state, "confirmed": confirmed})
    return sheet


def dispute_closed(deal: Deal) -> bool:
    """Whether the deal can no longer be disputed: its tournament is finished and its round's results are
    official (the appeal window is over, or the round was closed without one)."""
    return disputes_closed(deal.table.round)


def disputes_closed(rnd: Round) -> bool:
    """:func:`dispute_closed` for every deal of the round ``rnd`` (its tournament read with it)."""
    if rnd.tournament.status != Tournament.Status.FINISHED or rnd.status != Round.Status.FINISHED:
        return False
    official = RoundClosing.objects.filter(round=rnd).values_list("official_at", flat=True).first()
    return official is None or official <= timezone.now()


@dataclass(frozen=True)
class SheetFacts:
    """What a deal's sheet shows besides the deal: each seat's mark (its own rows, not a ruling's), each player's
    latest answer on its current version, and the sheet's stored state (None: entered)."""

    scores: dict[int, int | None]
    answers: dict[int, DealAnswer]
    sheet: DealSheet | None


def sheet_facts(deals: Sequence[Deal]) -> dict[int, SheetFacts]:
    """:class:`SheetFacts` of each of ``deals`` by id, read together: three statements whatever the deals (a
    player's page of ten rounds read them deal by deal: 335 statements)."""
    ids = [d.pk for d in deals]
    version = {d.pk: d.version for d in deals}
    scores: dict[int, dict[int, int | None]] = {pk: {} for pk in ids}
    for deal_id, entry_id, points in (ScoreRow.objects.filter(deal_id__in=ids, ruling__isnull=True)
                                      .values_list("deal_id", "entry_id", "points")):
        scores[deal_id][entry_id] = points
    answers: dict[int, dict[int, DealAnswer]] = {pk: {} for pk in ids}
    for answer in DealAnswer.objects.filter(deal_id__in=ids).order_by("created_at", "id"):
        if answer.version == version[answer.deal_id]:
            answers[answer.deal_id][answer.entry_id] = answer
    sheets = {s.deal_id: s for s in DealSheet.objects.filter(deal_id__in=ids) if s.version == version[s.deal_id]}
    return {pk: SheetFacts(scores[pk], answers[pk], sheets.get(pk)) for pk in ids}


NOTE_MAX = 300
"""The most a dispute's reason or a call's note holds (``ArbiterCall.note``)."""


def deal_answer(*, deal: Deal, entry: Entry, answer: str, link: PrivateLink | None = None, user: Any = None,
                note: str = "") -> DealAnswer:
    """A player confirms or disputes the deal as it stands (its current version).

    The player must sit at the deal's table; an annulled deal takes no answer. A dispute says why in a few
    words (``note``, read by the chief arbiter) and calls the arbiter (an :class:`ArbiterCall` « litige » on the
    deal); none is taken once the tournament is finished and the results official. When unconfirmed deals do
    not count, the ranking is recomputed once the answer is saved.
    """
    if answer not in DealAnswer.Answer.values:
        raise InvalidInput(_("confirm or dispute"), field="answer")
    note = (note or "").strip()
    if answer == DealAnswer.Answer.DISPUTED and not note:
        raise InvalidInput(_("say in a few words what you dispute: the arbiter reads it"), field="note")
    if len(note) > NOTE_MAX:
        raise InvalidInput(_("at most 300 characters"), field="note")
    with transaction.atomic():
        deal = Deal.objects.select_for_update().select_related("table__round__tournament").get(pk=deal.pk)
        if deal.status == Deal.Status.ANNULLED:
            raise StateConflict(_("this deal was annulled"), field="deal", code="deal_annulled")
        if answer == DealAnswer.Answer.DISPUTED and dispute_closed(deal):
            raise StateConflict(_("the results are official and the tournament is finished: no more disputes"),
                                field="answer", code="dispute_closed")
        if not Seat.objects.filter(table_id=deal.table_id, entry=entry).exists():
            raise InvalidInput(_("this player does not sit at this table"), field="entry")
        row = DealAnswer.objects.create(deal=deal, version=deal.version, entry=entry, answer=answer, link=link,
                                        user=acting_user(user))
        before = DealSheet.objects.filter(deal=deal, version=deal.version).values_list("state", flat=True).first()
        if answer == DealAnswer.Answer.DISPUTED:
            call_create(table=deal.table, reason=ArbiterCall.Reason.DISPUTE, deal=deal, entry=entry, link=link,
                        note=note)
        sheet = sheet_refresh(deal=deal)
        tournament = deal.table.round.tournament
        if not policy_of(tournament).unconfirmed_count and before != sheet.state:
            hooks.scores_changed(tournament.pk)
    return row


# -- calls to the arbiter ------------------------------------------------------------------------------

def call_create(*, table: Table, reason: str, deal: Deal | None = None, entry: Entry | None = None,
                link: PrivateLink | None = None, note: str = "") -> ArbiterCall:
    """« Appeler l'arbitre »: one open call per table and reason at a time (a second tap is the same call)."""
    if reason not in ArbiterCall.Reason.values:
        raise InvalidInput(_("choose a reason"), field="reason")
    open_call = ArbiterCall.objects.filter(table=table, reason=reason, deal=deal,
                                           state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN]).first()
    if open_call is not None:
        return open_call
    return ArbiterCall.objects.create(tournament_id=table.round.tournament_id, table=table, deal=deal, reason=reason,
                                      note=(note or "")[:300], entry=entry, link=link)


IRREGULAR_NOTE = "donne irrégulière — décision de l'arbitre attendue"


def irregular_deal_call(deal: Deal, user: Any) -> ArbiterCall:
    """The arbiter called automatically to the table of a deal saved as irregular (``hooks.deal_irregular``)."""
    rules = {str(v.get("rule", "")) for v in (deal.verdict or {}).get("violations", [])}
    # « renonce », else « donne irrégulière » (never « autre »: the table and the chief read the reason)
    reason = ArbiterCall.Reason.RENONCE if games.is_renonce(rules) else ArbiterCall.Reason.IRREGULAR
    return call_create(table=deal.table, reason=reason, deal=deal,
                       note=f"Donne {deal.number} : {IRREGULAR_NOTE}")


def irregular_ruled_answer(ruling: Any, user: Any) -> None:
    """The table's calls about an irregular deal answered by the chief's ruling on it (``hooks.irregular_ruled``):
    the table reads the decision as the call's answer."""
    if ruling.deal_id is None:
        return
    answer = f"Décision de l'arbitre : {ruling.reason}"
    for call in ArbiterCall.objects.filter(deal_id=ruling.deal_id, note__endswith=IRREGULAR_NOTE,
                                           state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN]):
        call_resolve(call=call, user=user, outcome=ArbiterCall.Outcome.RULING, answer=answer)


def calls_answered_by_ruling(*, ruling: Any, user: Any, call_id: int | None = None) -> int:
    """The table's calls a ruling answers: those about its deal, and the call it was made from (``call_id``, at the
    same table), still open or taken (a walk's « maldonne, donne 3 » stayed « en attente » after the chief annulled
    deal 3 from the ruling page). The table reads the decision as the answer. How many were answered."""
    calls = ArbiterCall.objects.filter(table_id=ruling.table_id,
                                       state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN])
    wanted = Q(pk=call_id) if call_id is not None else Q(pk__in=[])
    if ruling.deal_id is not None:
        wanted |= Q(deal_id=ruling.deal_id)
    answered = 0
    for call in calls.filter(wanted):
        call_resolve(call=call, user=user, outcome=ArbiterCall.Outcome.RULING,
                     answer=f"Décision de l'arbitre : {ruling.reason}")
        answered += 1
    return answered


def call_take(*, call: ArbiterCall, user: Any) -> ArbiterCall:
    """An arbiter takes the call (the table sees someone is coming)."""
    updated = ArbiterCall.objects.filter(pk=call.pk, state=ArbiterCall.State.OPEN).update(
        state=ArbiterCall.State.TAKEN, taken_by=acting_user(user), taken_at=timezone.now())
    call.refresh_from_db()
    if not updated and call.state == ArbiterCall.State.RESOLVED:
        raise StateConflict(_("this call was already answered"), field="call", code="call_resolved")
    return call


def calls_answered_by_correction(*, deal: Deal, user: Any, reason: str = "") -> int:
    """A deal corrected answers the table's calls about it still open (« donne corrigée », the correction's reason
    for the table to read): a walk's table kept « Arbitre appelé — litige (donne 1) … arrive » after the chief's
    correction. How many calls were answered."""
    answer = _("Donne %(n)s corrigée (version %(v)s)") % {"n": deal.number, "v": deal.version}
    if reason.strip():
        answer += " : " + reason.strip()
    answered = 0
    for call in ArbiterCall.objects.filter(deal=deal).exclude(state=ArbiterCall.State.RESOLVED):
        try:
            call_resolve(call=call, user=user, outcome=ArbiterCall.Outcome.CORRECTION, answer=answer)
        except StateConflict:  # answered meanwhile by hand
            continue
        answered += 1
    return answered


def call_resolve(*, call: ArbiterCall, user: Any, outcome: str, answer: str) -> ArbiterCall:
    """Close the call with its outcome (a ruling, a correction, nothing) and the answer the table reads."""
    if outcome not in ArbiterCall.Outcome.values:
        raise InvalidInput(_("choose what was done"), field="outcome")
    answer = (answer or "").strip()
    if not answer:
        raise InvalidInput(_("say what was decided: the table reads it"), field="answer")
    now = timezone.now()
    with transaction.atomic():
        updated = ArbiterCall.objects.filter(pk=call.pk).exclude(state=ArbiterCall.State.RESOLVED).update(
            state=ArbiterCall.State.RESOLVED, resolved_by=acting_user(user), resolved_at=now, outcome=outcome,
            answer=answer[:2000])
        if not updated:
            raise StateConflict(_("this call was already answered"), field="call", code="call_resolved")
        ArbiterCall.objects.filter(pk=call.pk, taken_at__isnull=True).update(taken_by=acting_user(user), taken_at=now)
        call.refresh_from_db()
        if call.deal_id is not None and call.reason == ArbiterCall.Reason.DISPUTE:
            # the dispute is answered: it stays in the log and on the call; the confirmations decide again
            deal = Deal.objects.select_related("table__round__tournament").get(pk=call.deal_id)
            before = DealSheet.objects.filter(deal=deal).values_list("state", flat=True).first()
            counted = not policy_of(deal.table.round.tournament).unconfirmed_count
            if sheet_refresh(deal=deal).state != before and counted:
                hooks.scores_changed(deal.table.round.tournament_id)
    return call
