"""Rulings: the chief arbiter's decisions on incidents (renonce, misdeal, exposed card, slow play …).

A ruling adjusts points per entry and/or annuls a deal, with a reason (RULES.md §1.13: the FFT
*Code d'arbitrage* tables are not available, so no fixed penalty is invented: the arbiter
enters the adjustment). Adjustments that transfer points must sum to zero; only a ruling
marked as a penalty may take (or give) points without a counterpart. The adjustments become
score rows of the ruling, counted in rankings like deals.

Instead of typed adjustments, a ruling may name a **penalty preset** (``penalty`` code +
``offender`` entry): the penalties the rule texts fix as amounts (``scoring.penalties``: Triomphe
§2.6, Impériale §4.5; none for Tarot, Écarté, Vingt-quatre). The service computes the points (the
offender's total at the table decides "if he has a point"), marks the ruling as a penalty when the
result is not zero-sum and opens the reason with the preset's label (its rule reference in ``penalty_rule``).

In the games played to a target (Triomphe, Impériale, Écarté, Vingt-quatre) a ruling with points is
also an **adjustment event of the table's match** (RULES.md §1.13 rule 40): recording it re-judges the
match (``deals.match_rejudge``) with the ruling in its place — after the deals entered before it —
and stores ``Table.match_totals``, ``match_winner`` and ``match_ended``: a penalty can end a match, or
change who wins it. Later deals, corrections and annulments are judged with it in place. A ruling
whose points would come after the end of the match (or bring two parties to the target level) is
refused, so the table's score rows (deals and rulings) always add up to the match totals. Only the
match results rank a match game (``tournaments.standings.rankings``); the ruling's score rows show it on the
table's score sheet. Tarot is unchanged: its rulings are score rows summed by the ranking.

A ruling recorded by mistake is **withdrawn** (:func:`ruling_withdraw`), never deleted nor overwritten: it
stays listed, marked withdrawn with who, when and why (a new version in its history); its score rows stop
counting (``counts=False``) and a match is judged again without it, so a match it ended reopens. It is
refused when the match could not stand without it (a deal or a later ruling would then follow the end).
Withdrawing a ruling that annulled a deal restores the deal (``restore.deal_restore``, in the same
transaction), unless the deal was restored and annulled again since, or the restore is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring import penalties as presets
from tournaments.common import games, hooks
from tournaments.common.errors import DealRejected, InvalidInput, StateConflict, VersionConflict
from tournaments.common.users import acting_user
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_annul, irregular_joins_match, irregular_leaves_match, match_rejudge
from tournaments.deals.restore import deal_restore
from tournaments.deals.selectors import table_seats, table_totals
from tournaments.event.models import Table

MAX_ADJUSTMENT = 100_000
"""The most points one ruling moves for one entry, either way (far beyond any deal's marks)."""

#: how a version of a deal made by a ruling (annulled, restored, joined to or left out of its match) gives its
#: reason: that version is part of the ruling, not a correction of its own (the public ledger lists it once)
BY_RULING = "décision d'arbitrage"


def made_by_ruling(reason: str | None) -> bool:
    """Whether a deal's version with this reason was made by a ruling or its withdrawal."""
    return bool(reason) and str(reason).startswith(BY_RULING)


def _adjustments(table: Table, adjustments: Mapping[Any, Any] | None) -> dict[int, int]:
    seated = {s.entry_id for s in table_seats(table)}
    out: dict[int, int] = {}
    for key, value in (adjustments or {}).items():
        path = f"adjustments.{key}"
        try:
            entry_id = int(key)
        except (TypeError, ValueError):
            raise InvalidInput(_("%(value)s is not an entry id") % {"value": repr(key)}, field=path) from None
        if entry_id not in seated:
            raise InvalidInput(_("entry %(entry)s is not seated at this table") % {"entry": entry_id}, field=path)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(_("points are whole numbers"), field=path)
        if abs(value) > MAX_ADJUSTMENT:
            raise InvalidInput(_("an adjustment is at most %(max)s points either way") % {"max": MAX_ADJUSTMENT},
                               field=path)
        if value:
            out[entry_id] = out.get(entry_id, 0) + value
    return out


def parties(table: Table) -> list[list[int]] | None:
    """The table's scoring parties as lists of entry ids when partners play as one side (Triomphe
    ``options.teams``, Écarté à quatre, as the rules read the options), else None (each player alone)."""
    seats = table_seats(table)
    teams = games.partnerships(table.round.tournament, len(seats))
    if not teams:
        return None
    return [[seats[i].entry_id for i in team if i < len(seats)] for team in teams]


def totals_for_penalty(table: Table, deal: Deal | None = None, *, annuls_deal: bool = False) -> dict[int, int]:
    """Each entry's total at the table as a penalty's "if he has one" reads it (AUJ-IMP rules IV and X, A-I10;
    Triomphe §2.6 rule 20): the table's totals — without the own marks of ``deal`` when the ruling annuls it (they
    are out before the penalty is worked out), or when that deal ended the match at one of its own marks (the
    penalty then counts before the deal's marks: docs/deal-record.md, "A fault in the deal that ended the match")."""
    totals = table_totals(table)
    if deal is None or deal.status not in Deal.IN_MATCH:
        return totals
    verdict = deal.verdict if isinstance(deal.verdict, Mapping) else {}
    ended = verdict.get("ended") if isinstance(verdict.get("ended"), Mapping) else None
    ended_here = (ended is not None and "event" in ended and verdict.get("match_deal") is not None
                  and ended.get("deal") == verdict.get("match_deal"))
    if not annuls_deal and not (ended_here and games.fault_before_ending_deal(table.round.tournament.game)):
        return totals
    for entry_id, points in ScoreRow.objects.filter(deal=deal, ruling__isnull=True,
                                                    counts=True).values_list("entry_id", "points"):
        totals[entry_id] = totals.get(entry_id, 0) - points
    return totals


def penalty_adjustment(*, table: Table, penalty: Any, offender: Any, deal: Deal | None = None,
                       annuls_deal: bool = False) -> tuple[presets.Preset, int, presets.Adjustment]:
    """The preset named ``penalty`` applied to ``offender`` (an entry id seated at the table):
    (preset, offender entry id, adjustment); ``deal`` (the deal ruled on) and ``annuls_deal``: which totals the
    preset reads (:func:`totals_for_penalty`). ``InvalidInput`` names the field at fault."""
    tournament = table.round.tournament
    available = presets.presets_for(tournament.game, tournament.record_options())
    preset = presets.preset(str(penalty)) if penalty else None
    if preset is None or preset not in available:
        known = ", ".join(p.code for p in available) or _("none for this game")
        raise InvalidInput(_("no penalty preset %(code)s for this game (%(known)s)")
                           % {"code": repr(penalty), "known": known}, field="penalty")
    if offender in (None, ""):
        raise InvalidInput(_("name the offender (an entry seated at the table)"), field="offender")
    try:
        offender_id = int(offender)
    except (TypeError, ValueError):
        raise InvalidInput(_("%(value)s is not an entry id") % {"value": repr(offender)}, field="offender") from None
    seated = [s.entry_id for s in table_seats(table)]
    if offender_id not in seated:
        raise InvalidInput(_("entry %(entry)s is not seated at this table") % {"entry": offender_id}, field="offender")
    result = presets.adjustments(preset, offender=offender_id, seats=seated,
                                 totals=totals_for_penalty(table, deal, annuls_deal=annuls_deal),
                                 parties=parties(table))
    return preset, offender_id, result


@transaction.atomic
def ruling_record(*, table: Table, kind: str | None, reason: str | None, user: Any, deal: Deal | None = None,
                  adjustments: Mapping[Any, int] | None = None, is_penalty: bool = False,
                  annuls_deal: bool = False, penalty: str | None = None, offender: Any = None,
                  settles_deal: bool = False, decision: str = "", played: Mapping[str, int] | None = None) -> Ruling:
    """Record a ruling at a table: point adjustments (entry id → points) and/or an annulled deal.

    With ``penalty`` (a preset code of the tournament's game) and ``offender`` (an entry id), the
    adjustments are computed from the rule texts (``scoring.penalties``) instead of typed: ``kind``
    is the preset's when none or « autre » is given, ``is_penalty`` is set when they are not zero-sum, and the
    reason starts with the preset's label (its rule reference goes to ``penalty_rule``; the typed reason, optional
    then, follows).
    ``settles_deal``: the ruling decides an irregular deal (:func:`irregular_rule`) and may give no points;
    ``decision``: which of :data:`DECISIONS` it is; ``played`` (entry id → points, with ``penalty`` only): the
    irregular deal's marks as played, counted with the penalty added (``Preset.deal_counts``).
    """
    preset = None
    offender_id = None
    if penalty:
        if adjustments:
            raise InvalidInput(_("give a penalty preset or typed adjustments, not both"), field="adjustments")
        preset, offender_id, computed = penalty_adjustment(table=table, penalty=penalty, offender=offender,
                                                           deal=deal if deal is not None and deal.table_id == table.pk
                                                           else None, annuls_deal=annuls_deal)
        merged = {str(k): int(v) for k, v in (played or {}).items()}
        for k, v in computed.points.items():
            merged[str(k)] = merged.get(str(k), 0) + v
        adjustments = merged
        is_penalty = computed.is_penalty or sum(merged.values()) != 0
        # the preset's own kind (« maldonne », « renonce ») when the ruling's was left at « autre »: a walk read
        # « autre — Carte non prise … »
        if not kind or (kind == Ruling.Kind.OTHER and preset.kind in Ruling.Kind.values):
            kind = preset.kind
        head = preset.label_fr  # the rule reference is kept apart (``penalty_rule``), not in the words shown
        if played is not None:
            head = f"{head} — {DECISIONS['as_played'].lower()}"
        typed = str(reason or "").strip()
        reason = f"{head} — {typed}" if typed else head
    elif offender not in (None, ""):
        raise InvalidInput(_("an offender goes with a penalty preset"), field="offender")
    if kind not in Ruling.Kind.values:
        raise InvalidInput(_("kind is one of %(values)s") % {"values": ", ".join(Ruling.Kind.values)}, field="kind")
    if not reason or not str(reason).strip():
        raise InvalidInput(_("a ruling needs a reason"), field="reason")
    if deal is not None and deal.table_id != table.pk:
        raise InvalidInput(_("the deal was played at another table"), field="deal")
    if annuls_deal and deal is None:
        raise InvalidInput(_("name the deal to annul"), field="deal")
    points = _adjustments(table, adjustments)
    total = sum(points.values())
    if total and not is_penalty:
        raise InvalidInput(_("adjustments transfer points and must sum to zero (they sum to %(total)s); "
                             "mark the ruling as a penalty otherwise") % {"total": total}, field="adjustments")
    if not points and not annuls_deal and not settles_deal:
        raise InvalidInput(_("a ruling adjusts points or annuls a deal"), field="adjustments")
    ruling = Ruling(tournament_id=table.round.tournament_id, table=table, deal=deal, kind=kind,
                    adjustments={str(k): v for k, v in points.items()}, is_penalty=is_penalty,
                    annuls_deal=annuls_deal, reason=str(reason).strip(), created_by=acting_user(user),
                    penalty=preset.code if preset else "", penalty_rule=preset.rule if preset else "",
                    offender_id=offender_id, decision=decision)
    ruling._change_reason = ruling.reason  # type: ignore[attr-defined]
    ruling.save()
    ScoreRow.objects.bulk_create([
        ScoreRow(tournament_id=table.round.tournament_id, round_id=table.round_id, table=table, deal=deal,
                 ruling=ruling, entry_id=entry_id, points=value, counts=True)
        for entry_id, value in points.items()
    ])
    if annuls_deal and deal is not None:
        deal_annul(deal=deal, reason=f"{BY_RULING} ({ruling.kind_words}) : {ruling.reason}",
                   user=user)
    elif (points or settles_deal) and table.round.tournament.is_match_game:
        match_rejudge(table)  # (deal_annul has just re-judged the match with this ruling in place)
    hooks.scores_changed(table.round.tournament_id)
    return ruling


@transaction.atomic
def ruling_withdraw(*, ruling: Ruling, reason: str | None, user: Any, expected_version: int | None = None) -> Ruling:
    """Withdraw a ruling recorded by mistake: kept and shown as withdrawn (who, when, why), counting for nothing.

    Its score rows stop counting (Tarot rankings and every table total leave them out); at a match table the
    match is judged again without it (``deals.match_rejudge``), so a match it ended reopens. A ruling that
    annulled a deal brings the deal back (:func:`~tournaments.deals.restore.deal_restore`: a new version
    of the deal, its status before the annulment) — see :func:`_annulled_by` for when it does not. Refused
    (409, nothing changed) when the ruling is already withdrawn, when its deal cannot be restored (the code
    is the restore's: ``table_full``, ``restore_breaks_match`` …; ``deal_annulled_since`` when the deal was
    restored and annulled again since), and when the match could not stand without it: a deal entered after
    it, or a later ruling, would then come after the end of the match. ``expected_version``: the version the
    request was based on (VersionConflict otherwise); None skips the check.
    """
    if not reason or not str(reason).strip():
        raise InvalidInput(_("withdrawing a ruling needs a reason"), field="reason")
    reason = str(reason).strip()
    # the table first, then the ruling: the order the deal services lock in
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=ruling.table_id)
    current = Ruling.objects.select_for_update().get(pk=ruling.pk)
    current.table = table
    if expected_version is not None and current.version != expected_version:
        raise VersionConflict(_("the ruling is at version %(current)s, the change was based on version "
                                "%(expected)s: reload it and try again")
                              % {"current": current.version, "expected": expected_version},
                              current_version=current.version)
    if current.is_withdrawn:
        raise StateConflict(_("this ruling was already withdrawn"), field="ruling", code="ruling_withdrawn")
    restore = _annulled_by(current)
    rejoined = _joined_by(current)
    current.withdrawn_at = timezone.now()
    current.withdrawn_by = acting_user(user)
    current.withdraw_reason = reason
    current.version += 1
    current._change_reason = str(reason)  # type: ignore[attr-defined]  # django-simple-history: why, and who
    if acting_user(user) is not None:
        current._history_user = user  # type: ignore[attr-defined]
    current.save()
    ScoreRow.objects.filter(ruling=current).update(counts=False)
    tournament = table.round.tournament
    if restore is not None:
        # the ruling already withdrawn above, so that a match is judged with the deal back and without it
        try:
            deal_restore(deal=restore, reason=f"{BY_RULING} retirée : {reason}", user=user)
        except StateConflict as exc:  # the whole withdrawal is rolled back; the restore's reason, as it is
            raise StateConflict(exc.message, field="ruling", code=exc.code) from None
    elif tournament.is_match_game and (current.adjustments or rejoined is not None):
        if rejoined is not None:  # the deal it counted « as played » waits for a ruling again, out of the match
            irregular_leaves_match(deal=rejoined, user=user, reason=f"{BY_RULING} retirée : {reason}")
        try:
            match_rejudge(table)  # without it: match_adjustments leaves withdrawn rulings out
        except DealRejected as exc:  # the whole withdrawal is rolled back
            first = exc.violations[0] if exc.violations else None
            if first is not None and first.rule in ("match_over", "match_ended") and first.deal is not None:
                why = _("deal %(n)s would come after the end of the match") % {"n": first.deal + 1}
            else:
                lang = "en" if (translation.get_language() or "fr").startswith("en") else "fr"
                why = first.message(lang, exc.players) if first is not None else ""
            raise StateConflict(_("this ruling cannot be withdrawn: the match would not stand without it "
                                  "(%(why)s). Annul or correct the deals entered after it, or withdraw the "
                                  "later rulings, first.") % {"why": why.rstrip(".")},
                                field="ruling", code="withdraw_breaks_match") from None
    hooks.scores_changed(tournament.pk)
    waiting = Deal.objects.filter(pk=current.deal_id, status=Deal.Status.IRREGULAR).first()
    if waiting is not None and irregular_waiting(waiting):
        # the irregular deal waits for a ruling again: the arbiter is called back to the table, once it is saved
        transaction.on_commit(lambda: hooks.deal_irregular(waiting, user))
    return current


def _joined_by(ruling: Ruling) -> Deal | None:
    """The deal a ruling counted « as played » into its match (``games.as_played_joins_match``), still in it; else
    None."""
    if ruling.decision != "as_played" or ruling.deal_id is None:
        return None
    deal = Deal.objects.select_for_update().filter(pk=ruling.deal_id, status=Deal.Status.VALID).first()
    if deal is None or not games.as_played_joins_match(ruling.table.round.tournament.game):
        return None
    deal.table = ruling.table
    return deal


def _annulled_by(ruling: Ruling) -> Deal | None:
    """The deal to restore when ``ruling`` is withdrawn: the deal it annulled, if that annulment still stands.

    None when the ruling annulled no deal, when its deal is no longer annulled (restored since: nothing to bring
    back) or was annulled before the ruling (the ruling changed nothing then). StateConflict when the deal was
    restored and then annulled again since: that later annulment is not this ruling's to undo.
    """
    if not ruling.annuls_deal or ruling.deal_id is None:
        return None
    deal = Deal.objects.filter(pk=ruling.deal_id).first()
    if deal is None or deal.status != Deal.Status.ANNULLED:
        return None
    since = list(deal.history.filter(history_date__gte=ruling.created_at).values_list("status", flat=True))
    if not since:
        return None
    if any(status != Deal.Status.ANNULLED for status in since):
        raise StateConflict(_("this ruling cannot be withdrawn: the deal it annulled was restored and annulled "
                              "again since; restore the deal on its page if it should count"),
                            field="ruling", code="deal_annulled_since")
    return deal


# -- irregular deals -------------------------------------------------------------------------------

DECISIONS: dict[str, str] = {
    "let_stand": "Donne laissée telle que jouée (loi 43 : le fautif marque un point de moins : rien pour le point, "
                 "1 pour la vole ou pour le point après que l'adversaire a joué sans proposer ou refusé)",
    "replay": "Donne à rejouer (loi 43, au choix de l'adversaire)",
    "penalty": "Pénalité fixée par les textes",
    "as_played": "Donne comptée telle que jouée",
    "annul": "Donne annulée",
    "adjustment": "Marques fixées par l'arbitre",
}
"""What the chief arbiter may decide on an irregular deal (``games.irregular_decisions`` says which, per game),
in French: the head of the ruling's reason."""


def irregular_waiting(deal: Deal) -> bool:
    """Whether ``deal`` is irregular and no ruling (not withdrawn) has decided it yet."""
    return deal.status == Deal.Status.IRREGULAR and not deal.rulings.filter(withdrawn_at__isnull=True).exists()


def irregular_offender(deal: Deal) -> int | None:
    """The seat of the first violation of an irregular deal (who played the forbidden card), None if unknown."""
    for violation in (deal.verdict or {}).get("violations", []):
        if isinstance(violation.get("seat"), int):
            return int(violation["seat"])
    return None


def deal_own_marks(deal: Deal) -> list[int]:
    """An irregular deal's own marks as played, by seat (never counted; the chief reads them beside his ruling)."""
    return _deal_scores(deal)


def _deal_scores(deal: Deal) -> list[int]:
    deals = (deal.verdict or {}).get("deals") or [{}]
    scores = deals[0].get("scores") if deals else None
    if scores is None:  # a Tarot verdict keeps its scores at the top
        top = (deal.verdict or {}).get("scores") or [[]]
        scores = top[0] if top and isinstance(top[0], list) else top
    return [int(v) for v in scores or []]


@transaction.atomic
def irregular_rule(*, deal: Deal, decision: str | None, reason: str | None, user: Any,
                   adjustments: Mapping[Any, Any] | None = None, penalty: str | None = None,
                   offender: Any = None, is_penalty: bool | None = None) -> Ruling:
    """The chief arbiter's ruling on an irregular deal (RULES.md §1.13 rules 37–40): a ruling naming the deal,
    versioned with who, when and why, from what the rule texts fix for the game (``games.irregular_decisions``):

    * ``as_played``: the deal's marks as played, as the ruling's points — or, where the game carries marks from
      deal to deal (L'Impériale's jetons, ``games.as_played_joins_match``), the deal itself joins the match
      (valid, judged as played; withdrawing the ruling makes it irregular again); ``let_stand`` (L'Écarté, law 43): the
      same, the offender's marks from the tricks one less (``scoring.ecarte.renonce_let_stand``);
    * ``replay`` (L'Écarté, law 43) and ``annul``: the deal annulled (a new deal is expected);
    * ``penalty`` (Triomphe, L'Impériale): a preset of ``scoring.penalties`` on ``offender`` (an entry id); at La
      Triomphe a fault in play (``games.penalty_counts_deal``) counts the deal as played (as ``as_played``) with
      the penalty added; a misdeal, and any penalty at L'Impériale, only the penalty;
    * ``adjustment``: the marks the arbiter types (entry id → points) with a reason.

    The deal's own score rows never count; the ruling's rows do (a match game: an adjustment event of the match,
    where the ruling is recorded). InvalidInput names the field at fault; StateConflict when the deal is not
    irregular or was already decided (withdraw that ruling first).
    """
    deal = Deal.objects.select_for_update().select_related("table__round__tournament").get(pk=deal.pk)
    table = deal.table
    tournament = table.round.tournament
    if deal.status != Deal.Status.IRREGULAR:
        raise StateConflict(_("only an irregular deal is decided here"), field="deal", code="not_irregular")
    if deal.rulings.filter(withdrawn_at__isnull=True).exists():
        raise StateConflict(_("this irregular deal was already decided: withdraw that ruling first"),
                            field="deal", code="already_ruled")
    allowed = games.irregular_decisions(tournament.game, tournament.record_options())
    if decision not in allowed:
        raise InvalidInput(_("decision is one of %(values)s") % {"values": ", ".join(allowed)}, field="decision")
    typed = str(reason or "").strip()
    if decision == "adjustment" and not typed:
        raise InvalidInput(_("a ruling needs a reason"), field="reason")
    head = DECISIONS[decision]
    full = f"{head} — {typed}" if typed else head
    rules = {str(v.get("rule", "")) for v in (deal.verdict or {}).get("violations", [])}
    # a renonce found from the hands (must_follow, must_trump …) or proved by a later card (revoke, revoke_trump …)
    kind = Ruling.Kind.RENONCE if games.is_renonce(rules) else Ruling.Kind.OTHER
    if decision in ("replay", "annul"):
        return _ruled(ruling_record(table=table, kind=kind, reason=full, user=user, deal=deal, annuls_deal=True,
                                    decision=decision), user)
    if decision == "penalty":
        if not penalty:
            raise InvalidInput(_("la pénalité manque"), field="penalty")
        chosen = presets.preset(str(penalty))
        # filed under what the panel decided: a renonce found in the deal stays a renonce (a walk read « ⚖ autre —
        # Carte non prise … » on a renonce); a preset of its own kind (« maldonne ») keeps it
        filed = kind if kind == Ruling.Kind.RENONCE and chosen is not None and chosen.kind == "other" else None
        if chosen is not None and games.penalty_counts_deal(tournament.game, chosen):
            # a fault in play: the deal counts as played and the penalty is added to it (``Preset.deal_counts``)
            penalty_adjustment(table=table, penalty=penalty, offender=offender)  # refused before anything moves
            scores = _deal_scores(deal)
            seats = table_seats(table)
            if len(scores) != len(seats):
                raise StateConflict(_("this deal has no marks to count"), field="deal", code="deal_unscored")
            return _ruled(ruling_record(table=table, kind=filed, reason=typed, user=user, deal=deal,
                                        penalty=penalty, offender=offender, settles_deal=True, decision=decision,
                                        played={str(s.entry_id): scores[s.position] for s in seats}), user)
        return _ruled(ruling_record(table=table, kind=filed, reason=typed, user=user, deal=deal, penalty=penalty,
                                    offender=offender, settles_deal=True, decision=decision), user)
    if decision == "as_played" and games.as_played_joins_match(tournament.game):
        # L'Impériale: the deal's jetons go on to the next deals and its impériales erase; the deal itself joins
        # the match (its scores as a ruling's points would drop the jetons)
        irregular_joins_match(deal=deal, user=user, reason=f"{BY_RULING} : {full}")
        return _ruled(ruling_record(table=table, kind=kind, reason=full, user=user, deal=deal, settles_deal=True,
                                    decision=decision), user)
    seats = table_seats(table)
    if decision == "adjustment":
        points = adjustments
        if is_penalty is None:
            is_penalty = tournament.is_match_game
    else:
        scores = _deal_scores(deal)
        if decision == "let_stand":
            seat = irregular_offender(deal)
            if seat is None:
                raise StateConflict(_("the offender of this deal is not known"), field="deal", code="no_offender")
            scores = games.renonce_let_stand(tournament.game, ((deal.verdict or {}).get("deals") or [{}])[0], seat)
        if len(scores) != len(seats):
            raise StateConflict(_("this deal has no marks to count"), field="deal", code="deal_unscored")
        points = {str(s.entry_id): scores[s.position] for s in seats}
        is_penalty = sum(scores) != 0
    return _ruled(ruling_record(table=table, kind=kind, reason=full, user=user, deal=deal, adjustments=points,
                                is_penalty=bool(is_penalty), settles_deal=decision != "adjustment",
                                decision=decision), user)


def _ruled(ruling: Ruling, user: Any) -> Ruling:
    """The ruling on an irregular deal told to the subscribers (the links answer the table's call with it)."""
    hooks.irregular_ruled(ruling, user)
    return ruling
