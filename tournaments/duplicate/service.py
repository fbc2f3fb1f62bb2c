"""Duplicate Tarot services: set up the movement and the étuis, check each deal against its étui.

* :func:`duplicate_create` — turn a Tarot tournament into a duplicate: the movement of
  ``scoring.movement`` for its entries becomes every round's tables and seats (position =
  orientation, 0 = North) with the étuis each table plays; the étuis are dealt from the seed, or
  left to import (:func:`etuis_import`) or to key in at the first table that plays them. Set up
  again once rounds are played (a withdrawal, a late arrival, a round added), it rebuilds only the
  rounds after the last one played and keeps every recorded deal, its tables, seats and étuis.
* :func:`etui_play_check` — called after a deal is saved or corrected at a duplicate table: ties
  the deal to its étui (the table's n-th deal is its n-th étui), takes the étui's cards from it
  when they were not known and the deal gives them, and otherwise checks the record against them
  (``scoring.etui.contradictions``). A contradiction makes the deal a **fouled étui**: its
  results are compared only with the same cards, and the arbiter is called (a call « étui faussé »
  on the chief's page; the artificial results given on the étui, or a correction that follows it, answer it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from rules.cards import CardCodeError, card_name, parse_card
from scoring import etui as pure_etui
from scoring.duplicate import DUPLICATE_TIE_BREAKS
from scoring.movement import SHORT_POLICIES, build_movement
from tournaments.common import games, hooks
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.models import Deal
from tournaments.duplicate.models import ArtificialResult, DuplicateSetup, DuplicateTable, Etui, EtuiPlay
from tournaments.event.models import Entry, Round, Seat, Table, Tournament
from tournaments.links.models import ArbiterCall
from tournaments.links.service import call_create, call_resolve

MAX_BOARDS_PER_ROUND = 36


def played_rounds(tournament: Tournament) -> tuple[int, int]:
    """The last round that may not be rebuilt (0 when none): the last with a deal or an artificial result, or
    finished; and how many deals those rounds hold."""
    last = max([0, *Round.objects.filter(tournament=tournament).filter(
        Q(tables__deals__isnull=False) | Q(status=Round.Status.FINISHED)).values_list("number", flat=True),
        *ArtificialResult.objects.filter(etui__tournament=tournament).values_list("etui__round_number", flat=True)])
    deals = Deal.objects.filter(table__round__tournament=tournament, table__round__number__lte=last).count()
    return last, deals


@transaction.atomic
def duplicate_create(*, tournament: Tournament, boards_per_round: int, seed: str = "", method: str = "matchpoints",
                     score: str = "mean", short: str = "auto", tie_breaks: Sequence[str] | None = None
                     ) -> DuplicateSetup:
    """Set a Tarot tournament up as a duplicate of ``tournament.rounds_planned`` rounds (``tie_breaks``, when
    given, replaces the tournament's declared tie-breaks: ``best_board``, ``tops``).

    Set up again after rounds were played, it keeps those rounds as they are (tables, seats, étuis, deals,
    artificial results) and rebuilds the rounds after them for the players entered now, keeping each player's
    orientation where the counts allow; refused when every round is played, or to change the étuis a round."""
    if not games.duplicate_deals(tournament.game):
        raise InvalidInput(_("only Tarot is played in duplicate"), field="game")
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # one set-up at a time
    rounds = max(1, tournament.rounds_planned)
    kept, kept_deals = played_rounds(tournament)
    if kept >= rounds:
        raise StateConflict(
            _("every round has been played (%(deals)s deals entered): the movement of a played round cannot "
              "change and every recorded deal is kept; add a round to the tournament to plan another")
            % {"deals": kept_deals}, field="rounds", code="round_started")
    old = DuplicateSetup.objects.filter(tournament=tournament).first()
    if kept and old is not None and old.boards_per_round != boards_per_round:
        raise InvalidInput(
            _("rounds 1 to %(round)s are played with %(boards)s étuis a round: the rounds still to play keep that "
              "number") % {"round": kept, "boards": old.boards_per_round}, field="boards_per_round")
    if not 1 <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise InvalidInput(_("from 1 to %(max)s étuis a round") % {"max": MAX_BOARDS_PER_ROUND},
                           field="boards_per_round")
    if method not in DuplicateSetup.Method.values:
        raise InvalidInput(_("unknown scoring method"), field="method")
    if score not in DuplicateSetup.Score.values:
        raise InvalidInput(_("unknown ranking score"), field="score")
    if short not in SHORT_POLICIES:
        raise InvalidInput(_("unknown policy for the extra players"), field="short")
    if tie_breaks is not None and (any(t not in DUPLICATE_TIE_BREAKS for t in tie_breaks)
                                   or len(set(tie_breaks)) != len(tie_breaks)):
        raise InvalidInput(_("unknown tie-break"), field="tie_breaks")
    entries = list(tournament.entries.filter(withdrawn=False).order_by("id").values_list("id", flat=True))
    if len(entries) < 8:
        raise InvalidInput(_("a duplicate needs at least 8 players"), field="entries")
    played, sat_out, orientation = _history(tournament, kept, entries)
    movement = build_movement(_by_orientation(entries, orientation), rounds=rounds, boards=boards_per_round,
                              short=short, first_round=kept + 1, played=played, sat_out=sat_out)
    setup, _created = DuplicateSetup.objects.update_or_create(
        tournament=tournament, defaults={"boards_per_round": boards_per_round, "method": method, "score": score,
                                         "short": short, "seed": seed})
    tournament.rounds.filter(number__gt=kept).delete()
    keep_cards = {e.number: e for e in Etui.objects.filter(tournament=tournament, round_number__gt=kept)
                  .exclude(source__in=[Etui.Source.GENERATED, Etui.Source.EMPTY])}  # imported or keyed: kept
    Etui.objects.filter(tournament=tournament, round_number__gt=kept).delete()
    tournament.deals_per_round = boards_per_round
    if tie_breaks is not None:
        tournament.tie_breaks = list(tie_breaks)
    tournament.save(update_fields=["deals_per_round", "tie_breaks", "updated_at"])
    sizes: dict[int, tuple[int, int]] = {}
    for r in range(kept + 1, rounds + 1):
        rnd = Round.objects.create(tournament=tournament, number=r)
        for t in movement.round_tables(r):
            table = Table.objects.create(round=rnd, number=t.table)
            Seat.objects.bulk_create([Seat(table=table, position=p, entry_id=e) for p, e in enumerate(t.seats)])
            DuplicateTable.objects.create(table=table, boards=list(t.boards), copy=t.copy, pass_to=t.pass_to)
            for b in t.boards:
                sizes[b] = (r, t.size)
    taken = set(Etui.objects.filter(tournament=tournament).values_list("number", flat=True))
    if taken & set(sizes):  # a round added after tables of 3 were played: their étuis' numbers come back
        raise StateConflict(_("the étuis of the rounds to rebuild would take the numbers of étuis already played "
                              "(%(numbers)s): keep the number of rounds, or the same players")
                            % {"numbers": ", ".join(map(str, sorted(taken & set(sizes))))}, field="rounds",
                            code="etui_played")
    hooks.scores_changed(tournament.pk)
    etuis = []
    for number, (r, players) in sorted(sizes.items()):
        etui = Etui(tournament=tournament, number=number, round_number=r, players=players)
        before = keep_cards.get(number)
        if before is not None and before.players == players:
            etui.hands, etui.dog, etui.dealer = before.hands, before.dog, before.dealer
            etui.fingerprint, etui.source = before.fingerprint, before.source
        elif seed:
            _set_cards(etui, pure_etui.deal_etui(seed, number, players), Etui.Source.GENERATED)
        etuis.append(etui)
    Etui.objects.bulk_create(etuis)
    return setup


def _history(tournament: Tournament, kept: int, entries: list[int]
             ) -> tuple[list[list[int]], list[int], dict[int, int]]:
    """What the rounds kept say: their tables (who met), who sat out of a table of 4 (a bye or a table of 3, once
    a round) and each player's last orientation."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for table_id, position, entry in (Seat.objects.filter(table__round__tournament=tournament,
                                                          table__round__number__lte=kept)
                                      .order_by("table__round__number", "table_id", "position")
                                      .values_list("table_id", "position", "entry_id")):
        tables.setdefault(table_id, []).append((position, entry))
    rounds_of = dict(Table.objects.filter(round__tournament=tournament, round__number__lte=kept)
                     .values_list("id", "round__number"))
    orientation: dict[int, int] = {}
    at_four: dict[int, set[int]] = {}
    for table_id, seats in tables.items():
        for position, entry in seats:
            orientation[entry] = position
        if len(seats) == 4:
            at_four.setdefault(rounds_of[table_id], set()).update(e for _, e in seats)
    sat_out = [e for r in range(1, kept + 1) for e in entries if e not in at_four.get(r, set())]
    return [[e for _, e in seats] for seats in tables.values()], sat_out, orientation


def _by_orientation(entries: list[int], orientation: dict[int, int]) -> list[int]:
    """The entries in the order ``build_movement`` reads orientations from (``players[o::4]`` sit at o): each
    player at the orientation he had, as far as the counts of each orientation allow (a newcomer, or a player of
    an orientation with one too many, takes a place left free)."""
    sizes = [len(entries[o::4]) for o in range(4)]
    groups: list[list[int]] = [[e for e in entries if orientation.get(e) == o] for o in range(4)]
    free = [e for e in entries if orientation.get(e) not in range(4)]
    for o in range(4):
        while len(groups[o]) > sizes[o]:
            free.append(groups[o].pop())
    for o in range(4):
        while len(groups[o]) < sizes[o]:
            groups[o].append(free.pop(0))
    return [groups[o][i] for i in range(max(sizes)) for o in range(4) if i < len(groups[o])]


def _set_cards(etui: Etui, cards: pure_etui.EtuiCards, source: str) -> None:
    etui.hands, etui.dog, etui.dealer = [list(h) for h in cards.hands], list(cards.dog), cards.dealer
    etui.fingerprint, etui.source = pure_etui.fingerprint(cards), source


@transaction.atomic
def etuis_import(*, tournament: Tournament, records: Sequence[Mapping[str, Any]], first: int = 1) -> list[Etui]:
    """Give étuis ``first``, ``first + 1`` … the cards of ``records`` (``levee.deal/1`` with hands and chien)."""
    if not isinstance(records, (list, tuple)) or not records:
        raise InvalidInput(_("a list of deal records with hands and chien"), field="records")
    etuis = {e.number: e for e in Etui.objects.select_for_update().filter(tournament=tournament)}
    changed = []
    for i, record in enumerate(records):
        path = f"records[{i}]"
        number = first + i
        if number not in etuis:
            raise InvalidInput(_("there is no étui %(number)s") % {"number": number}, field=path)
        if not isinstance(record, Mapping) or record.get("format") != "levee.deal/1":
            raise InvalidInput(_("a levee.deal/1 record is expected"), field=f"{path}.format")
        try:
            cards = pure_etui.from_record(record)
        except (ValueError, TypeError):
            raise InvalidInput(_("these cards are not one Tarot pack: check each hand's count, the chien, and that "
                                 "no card is missing or twice"), field=f"{path}.hands") from None
        if cards is None:
            raise InvalidInput(_("the record gives no hands and chien"), field=f"{path}.hands")
        if len(cards.hands) != etuis[number].players:
            raise InvalidInput(_("étui %(number)s is played by %(count)s players")
                               % {"number": number, "count": etuis[number].players}, field=f"{path}.hands")
        if etuis[number].plays.exists():
            raise StateConflict(_("étui %(number)s has already been played") % {"number": number}, field=path,
                                code="etui_played")
        _set_cards(etuis[number], cards, Etui.Source.IMPORTED)
        changed.append(etuis[number])
    Etui.objects.bulk_update(changed, ["hands", "dog", "dealer", "fingerprint", "source"])
    return changed


def duplicate_table(table: Table) -> DuplicateTable | None:
    return DuplicateTable.objects.filter(table_id=table.pk).first()


def _problem_json(found: Sequence[pure_etui.Contradiction]) -> list[dict[str, Any]]:
    return [{"what": c.what, "seat": c.seat, "cards": list(c.cards), "detail": c.detail, "missing": list(c.missing)}
            for c in found]


def _card_words(codes: Sequence[str]) -> str:
    """Cards by their names in the page's language (« roi de cœur, atout 21 »), never their codes."""
    lang = "en" if (translation.get_language() or "fr").startswith("en") else "fr"
    names = []
    for code in codes:
        try:
            names.append(card_name(parse_card(code), lang))
        except CardCodeError:
            names.append(str(code))
    return ", ".join(names)


def problem_text(problem: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[str]:
    """The contradictions in the words of the table, the cards by their names (for the desk and the call)."""
    names = (_("North"), _("East"), _("South"), _("West"))
    out = []
    for p in problem:
        seat = p.get("seat")
        who = f"{names[seat]} ({players[seat]})" if isinstance(seat, int) and 0 <= seat < len(players) else ""
        cards = [str(c) for c in p.get("cards") or []]
        missing = [str(c) for c in p.get("missing") or []]
        split = {"entered": _card_words([c for c in cards if c not in missing]), "missing": _card_words(missing)}
        if p["what"] == "dealer":
            out.append(_("the dealer is not the étui's"))
        elif p["what"] == "hand" and "missing" in p:
            out.append(_("%(who)s : la main diffère de l'étui (saisi : %(entered)s ; dans l'étui : %(missing)s)")
                       % {"who": who, **split})
        elif p["what"] == "hand":
            out.append(_("%(who)s: hand differs from the étui (%(cards)s)") % {"who": who, "cards": _card_words(cards)})
        elif p["what"] == "dog" and "missing" in p:
            out.append(_("le chien diffère de l'étui (saisi : %(entered)s ; dans l'étui : %(missing)s)") % split)
        elif p["what"] == "dog":
            out.append(_("the chien differs from the étui (%(cards)s)") % {"cards": _card_words(cards)})
        else:
            out.append(_("%(who)s played %(cards)s, not in the étui's hand") % {"who": who,
                                                                                 "cards": _card_words(cards)})
    return out


def fouled_calls(deal_ids: Sequence[int]) -> dict[int, ArbiterCall]:
    """The last call « étui faussé » of each of these deals (open, taken or answered), by deal."""
    calls = ArbiterCall.objects.filter(deal_id__in=list(deal_ids), reason=ArbiterCall.Reason.FOULED_ETUI)
    return {c.deal_id: c for c in calls.order_by("created_at", "id") if c.deal_id is not None}


def fouled_waiting(tournament: Tournament) -> list[ArbiterCall]:
    """The fouled étuis that wait for the chief arbiter: their calls not answered yet, oldest first."""
    return list(ArbiterCall.objects.filter(tournament=tournament, reason=ArbiterCall.Reason.FOULED_ETUI,
                                           state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN])
                .select_related("table__round", "deal").order_by("created_at", "id"))


def _waiting_call(deal: Deal) -> ArbiterCall | None:
    return ArbiterCall.objects.filter(deal=deal, reason=ArbiterCall.Reason.FOULED_ETUI,
                                      state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN]).first()


def _call_the_arbiter(*, deal: Deal, etui: Etui, play: EtuiPlay, before: tuple[Any, ...] | None, user: Any) -> None:
    """A deal found fouled calls the arbiter to its table (once for one problem); a deal corrected to follow its
    étui answers the call still waiting."""
    waiting = _waiting_call(deal)
    if play.fouled:
        if waiting is None and (before is None or not before[0] or before[2] != play.problem):
            players = [s.entry.player.name for s in deal.table.seats.select_related("entry__player")
                       .order_by("position")]
            text = " ; ".join(problem_text(play.problem, players))
            note = _("Étui %(etui)s (donne %(deal)s) : %(problem)s") % {"etui": etui.number, "deal": deal.number,
                                                                         "problem": text}
            call_create(table=deal.table, reason=ArbiterCall.Reason.FOULED_ETUI, deal=deal,
                        note=note if len(note) <= 300 else note[:299] + "…")
    elif waiting is not None:
        call_resolve(call=waiting, user=user, outcome=ArbiterCall.Outcome.CORRECTION,
                     answer=_("Donne corrigée : elle suit désormais l'étui %(etui)s.") % {"etui": etui.number})


@transaction.atomic
def deal_saved(deal: Deal, user: Any) -> None:
    """The deals' port (``tournaments.common.hooks.deal_saved``): a deal saved at a duplicate table is tied to
    its étui and checked against its cards; a deal of any other table is left alone."""
    etui_play_check(deal=deal, user=user)


def deal_check(table: Table, number: int, record: Mapping[str, Any]) -> list[Any]:
    """The deals' check before saving (``tournaments.common.hooks.deal_check``): the poignées of the table's
    ``number``-th deal — its étui — that the étui's hands cannot show (``scoring.etui.handful_violations``); the
    rest of the étui check (hands, chien, dealer, cards played) runs after the save (:func:`etui_play_check`)."""
    if not record.get("handfuls") or record.get("hands") or record.get("tricks"):
        return []  # (no query for a deal without a poignée, or with its cards: checked after the save)
    dup = DuplicateTable.objects.filter(table_id=table.pk).first()
    etui_number = dup.etui_number(number) if dup is not None else None
    if etui_number is None:
        return []
    etui = Etui.objects.filter(tournament_id=table.round.tournament_id, number=etui_number).first()
    if etui is None or not etui.known:
        return []
    cards = pure_etui.EtuiCards(tuple(tuple(h) for h in etui.hands), tuple(etui.dog), etui.dealer)
    return list(pure_etui.handful_violations(cards, record))


def etui_play_check(*, deal: Deal, user: Any = None) -> EtuiPlay | None:
    """Tie a saved deal to its étui and check its cards (None when the table is not a duplicate one)."""
    dup = DuplicateTable.objects.filter(table_id=deal.table_id).first()
    if dup is None:
        return None
    number = dup.etui_number(deal.number)
    if number is None:
        return None
    table = deal.table
    etui = Etui.objects.select_for_update().get(tournament_id=table.round.tournament_id, number=number)
    record = deal.record
    found: list[pure_etui.Contradiction] = []
    played_fp = ""
    try:
        played = pure_etui.from_record(record)
    except (ValueError, TypeError):
        played = None
    rekey = etui.source == Etui.Source.KEYED and etui.keyed_from_id == deal.pk  # its own deal, corrected
    if not etui.known or rekey:
        if played is not None:
            _set_cards(etui, played, Etui.Source.KEYED)
            etui.keyed_from = deal
            etui.save(update_fields=["hands", "dog", "dealer", "fingerprint", "source", "keyed_from"])
    else:
        cards = pure_etui.EtuiCards(tuple(tuple(h) for h in etui.hands), tuple(etui.dog), etui.dealer)
        found = pure_etui.contradictions(cards, record)
        if found:
            played_fp = pure_etui.fingerprint(played) if played is not None else f"deal-{deal.pk}"
    before = EtuiPlay.objects.filter(deal=deal).values_list("fouled", "fingerprint", "problem").first()
    play, _created = EtuiPlay.objects.update_or_create(
        deal=deal, defaults={"etui": etui, "table": table, "fouled": bool(found), "fingerprint": played_fp,
                             "problem": _problem_json(found)})
    if (before or (None, None))[:2] != (play.fouled, play.fingerprint) and (before is not None or play.fouled):
        hooks.scores_changed(table.round.tournament_id)  # the comparison groups changed: the ranking follows
    # the arbiter is called (a call on the chief's page, not a ruling: he decides, by artificial results or not)
    _call_the_arbiter(deal=deal, etui=etui, play=play, before=before, user=user)
    return play


@transaction.atomic
def artificial_result_set(*, table: Table, etui_number: int, entry_id: int, kind: str, reason: str,
                          user: Any) -> ArtificialResult | None:
    """The arbiter's artificial result for a player on an étui of his table: 60 / 50 / 40 % or not
    played (A-T13); ``kind`` empty removes it. It replaces the played result in the comparison."""
    dup = DuplicateTable.objects.filter(table=table).first()
    if dup is None or etui_number not in dup.boards:
        raise InvalidInput(_("this table does not play étui %(number)s") % {"number": etui_number}, field="etui")
    if not table.seats.filter(entry_id=entry_id).exists():
        raise InvalidInput(_("this player does not sit at this table"), field="entry")
    etui = Etui.objects.get(tournament_id=table.round.tournament_id, number=etui_number)
    existing = ArtificialResult.objects.filter(etui=etui, entry_id=entry_id)
    if not kind:
        existing.delete()
        hooks.scores_changed(table.round.tournament_id)
        return None
    if kind not in ArtificialResult.Kind.values:
        raise InvalidInput(_("unknown artificial result"), field="kind")
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(_("say why (the reason is kept with the result)"), field="reason")
    result, _created = ArtificialResult.objects.update_or_create(
        etui=etui, entry=Entry.objects.get(pk=entry_id),
        defaults={"table": table, "kind": kind, "reason": reason,
                  "created_by": user if getattr(user, "is_authenticated", False) else None})
    _fouled_answered(table=table, etui=etui, user=user)
    hooks.scores_changed(table.round.tournament_id)
    return result


def _fouled_answered(*, table: Table, etui: Etui, user: Any) -> None:
    """The artificial results given on a fouled étui answer the table's call: the table reads them."""
    deal_ids = list(EtuiPlay.objects.filter(table=table, etui=etui, fouled=True).values_list("deal_id", flat=True))
    if not deal_ids:
        return
    seats = {s.entry_id: (s.position, s.entry.player.name) for s in table.seats.select_related("entry__player")}
    given = sorted((seats[e], ArtificialResult.Kind(k).label) for e, k in ArtificialResult.objects.filter(
        etui=etui, entry_id__in=seats).values_list("entry_id", "kind"))
    answer = _("Résultats arbitrés sur l'étui %(etui)s : %(given)s.") % {
        "etui": etui.number, "given": ", ".join(f"{name} : {label}" for (_pos, name), label in given)}
    calls = ArbiterCall.objects.filter(deal_id__in=deal_ids, reason=ArbiterCall.Reason.FOULED_ETUI)
    for call in calls.filter(state__in=[ArbiterCall.State.OPEN, ArbiterCall.State.TAKEN]):
        call_resolve(call=call, user=user, outcome=ArbiterCall.Outcome.RULING, answer=answer)
    # the results given one by one: the answer the table reads lists them all
    calls.filter(state=ArbiterCall.State.RESOLVED, outcome=ArbiterCall.Outcome.RULING).update(answer=answer)


def next_etui_dealer(table: Table) -> int | None:
    """The dealer of the étui a duplicate table plays next (None: not a duplicate table, or the round is done)."""
    dup = DuplicateTable.objects.filter(table_id=table.pk).first()
    if dup is None:
        return None
    last = Deal.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first() or 0
    number = dup.etui_number(last + 1)
    if number is None:
        return None
    return Etui.objects.filter(tournament_id=table.round.tournament_id, number=number).values_list(
        "dealer", flat=True).first()
