"""Reads: records built from a table's seats, checks without saving, deals as JSON, totals, history.

The record of a deal is always built here from the table (``format``, ``game``, ``options``,
``players`` in seat order) plus the fields the arbiter enters (``dealer``, ``bid``, ``hands``,
``tricks``, ``summary`` …): nobody types the players' names, and a posted record cannot claim
other players or other conventions than the table's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Sum
from django.utils.translation import gettext as _

from rules.errors import MalformedRecord
from rules.normalise import normalise_deal
from rules.record import DEAL_FORMAT, MATCH_FORMAT
from scoring.rotation import next_dealer
from scoring.verdict import Verdict, judge
from tournaments.common import games, sql
from tournaments.deals.models import Deal, IdempotencyKey, Ruling, ScoreRow
from tournaments.event.models import Entry, Player, Round, Seat, Table, Tournament

#: the record fields a table fixes; everything else is the deal's own
FIXED_FIELDS = ("format", "game", "options", "players")


# -- records ---------------------------------------------------------------------------------------

def table_seats(table: Table) -> list[Seat]:
    """The table's seats in the order of play (cached on the table object)."""
    cached = table.__dict__.get("_levee_seats")
    if cached is None:
        cached = list(Seat.objects.filter(table=table).select_related("entry__player").order_by("position"))
        table.__dict__["_levee_seats"] = cached
    return cached


def with_seats(tables: list[Table]) -> list[Table]:
    """``tables`` with their seats read in one statement: each one's :func:`table_seats` then reads nothing (a
    round's pages that show every table's players: one statement, not one per table)."""
    by_table: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    for seat in (Seat.objects.filter(table__in=tables).select_related("entry__player")
                 .order_by("table_id", "position")):
        by_table[seat.table_id].append(seat)
    for table in tables:
        table.__dict__["_levee_seats"] = by_table[table.pk]
    return tables


#: what :func:`match_adjustments` reads of a ruling
_RULING_FIELDS = ("pk", "adjustments", "reason", "penalty_rule", "created_at", "deal__number")


def with_deals(tournament: Tournament, tables: list[Table]) -> list[Table]:
    """``tables`` (of ``tournament``) with their seats, their deals and their rulings not withdrawn read in three
    statements for all: their records (:func:`table_match_record`) then read nothing (a tournament's export: one
    statement per table and deal before, 10,000 at 1,000 players)."""
    with_seats(tables)
    deals: dict[int, list[Deal]] = {table.pk: [] for table in tables}
    rulings: dict[int, list[tuple[Any, ...]]] = {table.pk: [] for table in tables}
    for deal in Deal.objects.filter(table__in=tables).order_by("table_id", "number"):
        deals[deal.table_id].append(deal)
    if tournament.is_match_game:
        for table_id, *row in (Ruling.objects.filter(table__in=tables, withdrawn_at__isnull=True)
                               .order_by("table_id", "created_at", "id").values_list("table_id", *_RULING_FIELDS)):
            rulings[table_id].append(tuple(row))
    for table in tables:
        table.round.tournament = tournament
        table.__dict__["_levee_deals"] = deals[table.pk]
        table.__dict__["_levee_rulings"] = rulings[table.pk]
    return tables


_ENTRY_MODELS = (Table, Round, Tournament, Seat, Entry, Player)
_ENTRY_SKIP = ((), (), (), (), ("created_at",), ("created_at",))  # never used when entering a deal: deferred


@cache
def _entry_query(vendor: str) -> tuple[str, tuple[int, ...]]:
    """The SQL of :func:`table_for_entry`, and where each model's columns start in its rows."""
    columns = ", ".join(sql.select_list(m, a, skip) for m, a, skip in zip(_ENTRY_MODELS, "trusep", _ENTRY_SKIP,
                                                                          strict=True))
    query = (f"SELECT {columns} FROM {sql.table(Table)} t "
             f"JOIN {sql.table(Round)} r ON r.id = t.{sql.column(Table, 'round')} "
             f"JOIN {sql.table(Tournament)} u ON u.id = r.{sql.column(Round, 'tournament')} "
             f"LEFT JOIN {sql.table(Seat)} s ON s.{sql.column(Seat, 'table')} = t.id "
             f"LEFT JOIN {sql.table(Entry)} e ON e.id = s.{sql.column(Seat, 'entry')} "
             f"LEFT JOIN {sql.table(Player)} p ON p.id = e.{sql.column(Entry, 'player')} "
             f"WHERE t.id = %s ORDER BY s.{sql.column(Seat, 'position')}")
    starts = [0]
    for m, skip in zip(_ENTRY_MODELS, _ENTRY_SKIP, strict=True):
        starts.append(starts[-1] + sql.width(m, skip))
    return query, tuple(starts)


def table_for_entry(pk: int) -> Table | None:
    """A table with its round, tournament and seats (entries, players) in one query, for entering a deal.

    Written in plain SQL (:mod:`tournaments.common.sql`): this read runs on every deal entered. None when
    there is no such table; an unseated table comes with its seats cached empty.
    """
    query, starts = _entry_query(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(query, [pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    table = sql.load(Table, rows[0], starts[0])
    table.round = sql.load(Round, rows[0], starts[1])
    table.round.tournament = sql.load(Tournament, rows[0], starts[2])
    seats = []
    for row in rows:
        seat = sql.load(Seat, row, starts[3])
        if seat is None:
            continue
        seat.table = table
        seat.entry = sql.load(Entry, row, starts[4], _ENTRY_SKIP[4])
        seat.entry.player = sql.load(Player, row, starts[5], _ENTRY_SKIP[5])
        seats.append(seat)
    table.__dict__["_levee_seats"] = seats
    return table


def table_players(table: Table) -> list[str]:
    """The players' names in the order of play; two players of the same name are told apart by club or number;
    a one-round substitute (``Seat.substitute``) as « Nom (remplace X) »."""
    seats = table_seats(table)
    names = [s.entry.player.name.strip() for s in seats]
    for i, seat in enumerate(seats):
        if names.count(names[i]) > 1:
            club = seat.entry.player.club.strip()
            names[i] = f"{names[i]} ({club or '#' + str(seat.entry_id)})"
    for i, seat in enumerate(seats):  # still equal (same club): the entry number decides
        if names.count(names[i]) > 1:
            names[i] = f"{names[i]} #{seat.entry_id}"
    for i, seat in enumerate(seats):  # a one-round substitute sits there: his name, and whom he replaces
        if seat.substitute.strip():
            names[i] = _("%(sub)s (remplace %(name)s)") % {"sub": seat.substitute.strip(), "name": names[i]}
    return names


def record_head(table: Table, *, fmt: str = DEAL_FORMAT) -> dict[str, Any]:
    """The fields of a record that the table fixes."""
    tournament = table.round.tournament
    players = table_players(table)
    return {
        "format": fmt,
        "game": tournament.game,
        "options": {**tournament.record_options(), "players": len(players)},
        "players": players,
    }


def deal_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """A deal record's own fields (without those the table fixes)."""
    return {k: v for k, v in record.items() if k not in FIXED_FIELDS}


def check_fixed_fields(head: Mapping[str, Any], fields: Any, *, base: str = "") -> dict[str, Any]:
    """The deal's own fields, normalised as they are judged and stored (:func:`rules.normalise.normalise_deal`:
    the format's fields only, numbers as numbers); a fixed field given with another value than the table's is
    malformed."""
    if not isinstance(fields, Mapping):
        raise MalformedRecord(base or "$", "a deal is a JSON object", fr="une donne est un objet JSON")
    if "deals" in fields:
        raise MalformedRecord(f"{base}.deals" if base else "deals", "post one deal at a time (a match is imported)",
                              fr="une donne à la fois (une partie entière s'importe)")
    for key in FIXED_FIELDS:
        if key not in fields or fields[key] is None:
            continue
        value = fields[key]
        expected = head[key]
        if key == "format":
            ok = value in (DEAL_FORMAT, MATCH_FORMAT)
        elif key == "options":
            ok = isinstance(value, Mapping) and {"players": expected["players"], **value} == expected
        else:
            ok = value == expected
        if not ok:
            path = f"{base}.{key}" if base else key
            raise MalformedRecord(path, f"fixed by the table: {expected!r}", fr=f"fixé par la table : {expected!r}")
    return normalise_deal(head["game"], deal_fields(fields))


def build_deal_record(*, table: Table, fields: Any) -> dict[str, Any]:
    """The full ``levee.deal/1`` record of a deal entered at a table."""
    head = record_head(table)
    return {**head, **check_fixed_fields(head, fields)}


def table_deals(table: Table, *, include_annulled: bool = True) -> list[Deal]:
    """The table's deals in order (read once for many tables by :func:`with_deals`: then nothing is read)."""
    cached = table.__dict__.get("_levee_deals")
    if cached is not None:
        return list(cached) if include_annulled else [d for d in cached if d.status != Deal.Status.ANNULLED]
    qs = Deal.objects.filter(table=table).order_by("number")
    if not include_annulled:
        qs = qs.exclude(status=Deal.Status.ANNULLED)
    return list(qs)


ANNULLED_DEALERS = "annulled_dealers"
"""A match deal's field naming the dealers of the annulled deals before it (docs/deal-record.md): derived from
the table's deals each time a match is judged, never stored in a deal's record."""


def match_deals(deals: Sequence[Deal], counted: Sequence[Deal], *,
                fields: Sequence[Mapping[str, Any]] | None = None,
                new: Sequence[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """The deals of a match record: ``fields`` (default: each ``counted`` deal's record), then ``new`` ones
    entered after them. ``deals`` are all the table's deals; those not in ``counted`` are annulled (or being
    annulled). Each deal of the record carries ``annulled_dealers``: the dealers of the annulled deals numbered
    between the counted deal before it and itself (a new deal: after the last counted one), since an annulled deal
    may have been dealt and passed the deal on (``scoring.rotation``); none, no field."""
    records = [d.record for d in counted] if fields is None else list(fields)
    kept = {d.pk for d in counted}
    bounds = [d.number for d in counted]
    annulled = sorted((d.number, d.record.get("dealer")) for d in deals
                      if d.pk not in kept and isinstance((d.record or {}).get("dealer"), int))
    out = []
    for i, record in enumerate([*records, *new]):
        own = {k: v for k, v in deal_fields(record).items() if k != ANNULLED_DEALERS}
        low = bounds[i - 1] if 0 < i <= len(bounds) else None
        high = bounds[i] if i < len(bounds) else None
        between = [] if i > len(bounds) else [dealer for number, dealer in annulled
                                              if (low is None or number > low) and (high is None or number < high)]
        if between:
            own[ANNULLED_DEALERS] = between
        out.append(own)
    return out


def match_record(table: Table, deals: Iterable[Mapping[str, Any]],
                 adjustments: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """A ``levee.match/1`` record of the table with the given deals' own fields, in order, and the rulings'
    adjustment events (:func:`match_adjustments`) when there are any."""
    record = {**record_head(table, fmt=MATCH_FORMAT), "deals": [deal_fields(d) for d in deals]}
    if adjustments:
        record["adjustments"] = list(adjustments)
    return record


def match_adjustments(table: Table, numbers: Sequence[int | None] | None, count: int) -> list[dict[str, Any]]:
    """The table's rulings with points as adjustment events of its match record (docs/deal-record.md,
    "Adjustments"), in the order they were recorded.

    A ruling takes its place in the match **when it was recorded**: after every deal of the table entered
    before it (``Deal.created_at`` ≤ ``Ruling.created_at``; a deal annulled since is skipped, the ruling then
    follows the last deal before it that still counts), before every deal entered after it. The deal a ruling
    names is what it is about, not where it stands (docs/ranking.md, "Rulings in the match race") — except that
    a ruling naming the very deal it follows is marked ``in_deal``: where that deal ended the match, the ruling's
    points count before the deal's marks (docs/deal-record.md, "A fault in the deal that ended the match"). A
    withdrawn ruling is left out.

    ``numbers``: the ``Deal.number`` of each deal of the record being judged, ``None`` for a deal not saved yet
    (entered after every ruling); ``None`` for all: the table's deals as saved (not annulled), then ``count`` −
    their number new ones. Points are per seat, in the game's score-row unit.
    """
    rulings = table.__dict__.get("_levee_rulings")
    if rulings is None:
        rulings = list(Ruling.objects.filter(table=table, withdrawn_at__isnull=True)  # a withdrawn one counts nowhere
                       .order_by("created_at", "id").values_list(*_RULING_FIELDS))
    rulings = [r for r in rulings if r[1]]
    if not rulings:
        return []
    read = table.__dict__.get("_levee_deals")
    stamps = ([(d.number, d.created_at, d.status) for d in read] if read is not None else
              list(Deal.objects.filter(table=table).values_list("number", "created_at", "status")))
    if numbers is None:
        saved = sorted(n for n, _, status in stamps if status in Deal.IN_MATCH)
        numbers = [*saved[:count], *[None] * max(0, count - len(saved))]
    seats = table_seats(table)
    out = []
    for pk, points, reason, rule, created, ruled in rulings:
        anchor = max((n for n, at, _ in stamps if at <= created), default=0)
        after = sum(1 for n in numbers if n is not None and n <= anchor) - 1
        event = {"after": after, "points": [int(points.get(str(s.entry_id), 0)) for s in seats],
                 "reason": reason, "rule": rule, "ref": pk}
        if ruled is not None and after >= 0 and numbers[after] == ruled:
            # it rules on a fault in the deal it follows (docs/deal-record.md, "A fault in the deal that ended the
            # match")
            event["in_deal"] = True
        out.append(event)
    return out


def table_match_record(table: Table, *, include_annulled: bool = False) -> dict[str, Any]:
    """The table's deals as a ``levee.match/1`` record (the export of a table), with the rulings' adjustments
    (only for the deals that count: an annulled deal is not in the race)."""
    every = table_deals(table)
    deals = every if include_annulled else [d for d in every if d.in_match]
    if include_annulled or not table.round.tournament.is_match_game:
        return match_record(table, [d.record for d in deals])
    adjustments = match_adjustments(table, [d.number for d in deals], len(deals))
    return match_record(table, match_deals(every, deals), adjustments)


def table_next_dealer(table: Table) -> int:
    """The seat that deals the table's next deal by its game's rule (``scoring.rotation.next_dealer``): in a match,
    after the deals that count and the rulings among them (Écarté: a manche closed by a ruling is dealt first by
    its loser); at Tarot, after the last deal. An annulled deal is not followed (its follower is accepted too:
    ``scoring.rotation``). Seat 0 before the first deal: the draw decides, the arbiter changes it."""
    every = table_deals(table)
    deals = [d for d in every if d.status != Deal.Status.ANNULLED]
    if not deals:
        return 0
    last = deals[-1].record.get("dealer") if isinstance(deals[-1].record, Mapping) else None
    if table.round.tournament.is_match_game:
        record = match_record(table, match_deals(every, deals),
                              match_adjustments(table, [d.number for d in deals], len(deals)))
    else:
        record = match_record(table, [deals[-1].record])  # Tarot deals stand alone: the last one is enough
    try:
        return next_dealer(record)
    except MalformedRecord:  # a deal saved before a rule changed: the general rotation (A-X1)
        players = len(record["players"])
        return (last + 1) % players if isinstance(last, int) and players else 0


def deal_check(*, table: Table, fields: Any) -> Verdict:
    """Check a deal at a table without saving it (the entry desk's preview).

    For a match game the deal is checked after the table's deals so far and the rulings recorded among them.
    Raises MalformedRecord.
    """
    tournament = table.round.tournament
    if not tournament.is_match_game:
        return judge(build_deal_record(table=table, fields=fields))
    head = record_head(table)
    own = check_fixed_fields(head, fields)
    every = table_deals(table)
    deals = [d for d in every if d.status != Deal.Status.ANNULLED]
    adjustments = match_adjustments(table, [d.number for d in deals] + [None], len(deals) + 1)
    return judge(match_record(table, match_deals(every, deals, new=[own]), adjustments))


# -- deals as JSON ---------------------------------------------------------------------------------

def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def deal_to_json(deal: Deal, *, seats: list[Seat] | None = None) -> dict[str, Any]:
    """A deal as the API shows it (also the stored first response of an idempotent submission)."""
    seats = seats if seats is not None else table_seats(deal.table)
    scores = _deal_scores(deal)
    return {
        "id": deal.pk,
        "table": deal.table_id,
        "number": deal.number,
        "status": deal.status,
        "version": deal.version,
        "counts": deal.counts,
        "record": deal.record,
        "verdict": deal.verdict,
        "scores": [{"position": s.position, "entry": s.entry_id, "points": scores.get(s.entry_id)} for s in seats],
        "created_by": deal.created_by_id,
        "updated_by": deal.updated_by_id,
        "approved_by": deal.approved_by_id,
        "created_at": _iso(deal.created_at),
        "updated_at": _iso(deal.updated_at),
    }


def json_body(data: Any) -> str:
    """JSON text as the API's renderer writes it (compact, UTF-8 characters as they are)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


_JSON_TEXTS = "_levee_json_texts"
_RECORD_SLOT = '"record":null,"verdict":null'


def keep_json_texts(deal: Deal, record: str, verdict: str) -> None:
    """Remember the JSON text (:func:`json_body`'s) of a deal's record and verdict, as just written to the
    database, so that :func:`deal_body` does not serialise them again."""
    deal.__dict__[_JSON_TEXTS] = (record, verdict)


def deal_body(deal: Deal, *, seats: list[Seat] | None = None) -> str:
    """:func:`deal_to_json` as JSON text, the same as ``json_body(deal_to_json(deal))``.

    The record and verdict (nine tenths of the text) are taken from :func:`keep_json_texts` when the
    deal was just written: the rest is serialised with them as nulls, and their texts put in place.
    """
    data = deal_to_json(deal, seats=seats)
    texts = deal.__dict__.get(_JSON_TEXTS)
    if texts is None:
        return json_body(data)
    data["record"] = data["verdict"] = None
    head, found, tail = json_body(data).partition(_RECORD_SLOT)
    if not found:  # deal_to_json no longer puts the verdict right after the record
        return json_body(deal_to_json(deal, seats=seats))
    return f'{head}"record":{texts[0]},"verdict":{texts[1]}{tail}'


def _deal_scores(deal: Deal) -> dict[int, int]:
    cached = deal.__dict__.get("_levee_scores")
    if cached is not None:
        return cached
    return dict(ScoreRow.objects.filter(deal=deal, ruling__isnull=True).values_list("entry_id", "points"))


def deal_versions(deal: Deal) -> list[dict[str, Any]]:
    """Every version of a deal, newest first: who, when, why, and the record and verdict then."""
    out = []
    for h in deal.history.all().select_related("history_user").order_by("-history_date", "-history_id"):
        out.append({
            "version": h.version,
            "status": h.status,
            "change": {"+": "created", "~": "changed", "-": "deleted"}[h.history_type],
            "reason": h.history_change_reason,
            "user": h.history_user.get_username() if h.history_user else None,
            "date": _iso(h.history_date),
            "record": h.record,
            "verdict": h.verdict,
        })
    return out


def entered_through_links(deal_ids: Iterable[int]) -> dict[int, int]:
    """The deals entered through a table's private link, deal id → the number of that link's table. Such an entry
    has no account (its first version no user) and always an entry key kept per link, which says which."""
    return dict(IdempotencyKey.objects.filter(deal_id__in=list(deal_ids), link__isnull=False)
                .values_list("deal_id", "link__table__number"))


def link_author(table_number: int) -> str:
    """Who made a version entered through a table's link, in words: « lien de la table 2 » (not « — »)."""
    return _("lien de la table %(n)s") % {"n": table_number}


# -- totals ----------------------------------------------------------------------------------------

def table_totals(table: Table) -> dict[int, int]:
    """Each seated entry's total at the table (counted deals and rulings), entry id → points."""
    totals = {s.entry_id: 0 for s in table_seats(table)}
    rows = (ScoreRow.objects.filter(table=table, counts=True).values("entry_id").annotate(total=Sum("points")))
    for row in rows:
        totals[row["entry_id"]] = row["total"]
    return totals


def tournament_totals(tournament: Tournament, *, up_to_round: int | None = None) -> dict[int, int]:
    """Each entry's total over the tournament (SQL SUM … GROUP BY entry), entry id → points."""
    qs = ScoreRow.objects.filter(tournament=tournament, counts=True)
    if up_to_round is not None:
        qs = qs.filter(round__number__lte=up_to_round)
    totals = {e: 0 for e in tournament.entries.values_list("id", flat=True)}
    for row in qs.values("entry_id").annotate(total=Sum("points")):
        totals[row["entry_id"]] = row["total"]
    return totals


def tournament_export(tournament: Tournament, *, rounds: Iterable[int] | None = None) -> dict[str, Any]:
    """A tournament's deals: one ``levee.match/1`` record per table, with where it was played."""
    tables = (Table.objects.filter(round__tournament=tournament).select_related("round").order_by("round__number",
                                                                                                   "number"))
    if rounds is not None:
        tables = tables.filter(round__number__in=list(rounds))
    read = with_deals(tournament, list(tables))
    return {
        "tournament": {"id": tournament.pk, "name": tournament.name, "slug": tournament.slug,
                       "game": tournament.game, "options": tournament.record_options()},
        "tables": [{"round": t.round.number, "table": t.number, "record": table_match_record(t)}
                   for t in read if t.__dict__["_levee_deals"]],
    }


def unplayable(table: Table) -> str | None:
    """Why no deal can be entered at ``table``: its count of players is not one its game is played at (a
    player left alone at a Tarot table, or a bye of a game played in matches); None when one can."""
    name = table.round.tournament.game
    n = len(table_seats(table))  # cached on the table: the deal service reads the same seats
    if n in games.player_counts(name):
        return None
    if n == 1 and games.plays_matches(name):  # the odd one out of a draw of match tables (Swiss, Vingt-quatre): a bye
        return _("Exempt : pas de donne à cette table, le joueur seul est exempt pour cette manche.")
    counts = [str(c) for c in games.player_counts(name)]
    return _("Cette table compte %(n)s joueur(s) et %(game)s se joue à %(counts)s : aucune donne ne s'y saisit. "
             "Refaites le placement de la manche.") % {
        "n": n, "game": games.label(name),
        "counts": f"{', '.join(counts[:-1])} ou {counts[-1]}" if len(counts) > 1 else counts[0]}


def match_so_far(table: Table) -> dict[str, Any] | None:
    """What a new deal at ``table`` is judged after, for a game played in matches (None for another game): the
    table's deals that count (``deals``: their own fields, in order), what the new deal carries from the deals
    annulled since (``new``) and the rulings' ``adjustments`` — the match record the save judges, less the new deal
    (:func:`scoring.tap.play_state`, the tap page's score)."""
    if not table.round.tournament.is_match_game:
        return None
    every = table_deals(table)
    previous = [d for d in every if d.in_match]
    deals = match_deals(every, previous, new=[{}])
    return {"deals": deals[:-1], "new": deals[-1], "adjustments": match_adjustments(table, None, len(deals))}


# -- irregular deals the chief counted ---------------------------------------------------------------

#: what a page calls an irregular deal the chief counted (a status of the display only: the deal stays
#: ``irregular`` and its own score rows never count; its ruling's rows do)
COUNTED = "counted"


def counts_the_deal(ruling: Ruling, game: str) -> bool:
    """Whether ``ruling`` (in force, on an irregular deal) counts the deal: « comptée telle que jouée », « laissée
    telle que jouée » (L'Écarté, law 43), or a fault in play's penalty added to the deal as played
    (``games.penalty_counts_deal``). Its score rows then hold the deal's marks."""
    if ruling.is_withdrawn or ruling.annuls_deal:
        return False
    if ruling.decision in ("as_played", "let_stand"):
        return True
    if ruling.decision == "penalty" and ruling.penalty:
        from scoring.penalties import preset

        chosen = preset(ruling.penalty)
        return chosen is not None and games.penalty_counts_deal(game, chosen)
    return False


def counted_by_ruling(deals: Iterable[Deal], game: str) -> dict[int, Ruling]:
    """The irregular deals among ``deals`` a ruling in force counted (:func:`counts_the_deal`): deal id → ruling
    (one statement; none when no deal is irregular)."""
    irregular = [d.pk for d in deals if d.status == Deal.Status.IRREGULAR]
    if not irregular:
        return {}
    found = Ruling.objects.filter(deal_id__in=irregular, withdrawn_at__isnull=True, annuls_deal=False)
    return {r.deal_id: r for r in found.order_by("created_at", "id")
            if r.deal_id is not None and counts_the_deal(r, game)}


def counted_marks(ruling: Ruling, own: Mapping[int, int | None], entry_ids: Sequence[int]) -> dict[int, int]:
    """The marks a counted irregular deal shows on its own line, by entry id: the ruling's points (the deal as
    played, or as let stand), or — a penalty added to the deal as played — the deal's own marks, the penalty left
    on the ruling's line (:func:`ruling_rest`). Each point shows once: on the deal's line or on the ruling's."""
    if ruling.decision == "penalty":
        return {e: int(own.get(e) or 0) for e in entry_ids}
    points = ruling.adjustments or {}
    return {e: int(points.get(str(e)) or 0) for e in entry_ids}


def ruling_rest(ruling: Ruling, shown: Mapping[int, int] | None) -> dict[str, int]:
    """A ruling's points less those its counted deal shows on its own line (``shown``; None: the ruling counts no
    deal): what its own line still says, non-zero only, keyed like ``Ruling.adjustments``."""
    points = {int(k): int(v) for k, v in (ruling.adjustments or {}).items()}
    out = {}
    for entry in sorted(set(points) | set(shown or {})):
        rest = points.get(entry, 0) - int((shown or {}).get(entry, 0))
        if rest:
            out[str(entry)] = rest
    return out
