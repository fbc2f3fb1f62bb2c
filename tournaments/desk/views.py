"""The arbiters' desk: my tables, a table's deals and running totals, a deal and its versions.

Reads go through ``tournaments.deals.selectors``; every write goes through ``tournaments.services``
(see :mod:`tournaments.desk.entry`). Nothing here knows a rule of a game.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common import games
from tournaments.common.access import guarded, lang_of, require, require_visible
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Forfeit, Ruling, ScoreRow
from tournaments.deals.rulings import irregular_waiting
from tournaments.desk.record_words import record_words, value_words
from tournaments.duplicate.service import next_etui_dealer
from tournaments.event import permissions
from tournaments.event.models import Round, Table, Tournament, TournamentRole

Role = TournamentRole.Role


@guarded
def my_tables(request: HttpRequest) -> HttpResponse:
    """The tables this user enters deals for: those assigned to them, and every table of the tournaments they
    referee (rounds not finished first)."""
    require(request, request.user.is_authenticated)
    user = request.user
    if user.is_superuser:
        tables = Table.objects.all()
    else:
        tables = Table.objects.filter(
            Q(arbiter_roles__user=user, arbiter_roles__role=Role.ARBITER)
            | Q(round__tournament__roles__user=user,
                round__tournament__roles__role__in=[Role.ORGANIZER, Role.CHIEF_ARBITER])
        ).distinct()
    tables = (tables.exclude(round__status=Round.Status.FINISHED)
              .select_related("round__tournament").prefetch_related("seats__entry__player")
              .order_by("round__tournament__name", "round__tournament_id", "round__number", "number"))
    groups: list[dict[str, Any]] = []
    for table in tables:
        tournament = table.round.tournament
        if not groups or groups[-1]["tournament"].pk != tournament.pk:
            groups.append({"tournament": tournament, "tables": []})
        groups[-1]["tables"].append(table)
    return render(request, "tournaments/my_tables.html", {"groups": groups})


def table_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    """What the table page and the entry page show: seats, deals with their scores per seat, running totals."""
    tournament = table.round.tournament
    seats = selectors.table_seats(table)
    players = selectors.table_players(table)
    deals = selectors.table_deals(table)
    points: dict[tuple[int, int], int] = {}
    for deal_id, entry_id, value in ScoreRow.objects.filter(table=table, deal__isnull=False,
                                                            ruling__isnull=True).values_list(
            "deal_id", "entry_id", "points"):
        points[(deal_id, entry_id)] = value
    running = [0] * len(seats)
    carried: list[int] | None = None
    rows = []
    ids = [s.entry_id for s in seats]
    # an irregular deal the chief counted: its marks on its own line, as points (« comptée par l'arbitre »), and
    # its ruling's line without them (each point shown once)
    counted = selectors.counted_by_ruling(deals, tournament.game)
    shown_by_ruling: dict[int, dict[int, int]] = {}
    for deal in deals:
        cells = [points.get((deal.pk, s.entry_id)) for s in seats]
        ruling = counted.get(deal.pk)
        if ruling is not None:
            shown = selectors.counted_marks(ruling, {e: points.get((deal.pk, e)) for e in ids}, ids)
            shown_by_ruling[ruling.pk] = shown
            cells = [shown[e] for e in ids]
        if deal.counts or ruling is not None:
            running = [r + (c or 0) for r, c in zip(running, cells, strict=True)]
        # L'Impériale: each one's jetons carried after the deal, beside the fiches it gained (a walk saw « 0 / 0 »
        # while the jetons stood at 2 and 5)
        jetons = games.carried_after(tournament.game, deal.verdict) if deal.counts else None
        if jetons is not None:
            carried = jetons
        rows.append({"deal": deal, "cells": cells, "running": list(running), "summary": deal_summary(deal, players),
                     "counted": ruling is not None,
                     "pairs": list(zip(cells, [games.carried_words(tournament.game, j) for j in jetons]
                                       if jetons is not None and len(jetons) == len(cells) else [""] * len(cells),
                                       strict=True))})
    rulings = list(Ruling.objects.filter(table=table).select_related("withdrawn_by").order_by("created_at", "id"))
    decided = {r.deal_id for r in rulings if not r.is_withdrawn}
    for row in rows:  # an irregular deal no ruling has decided: « décision de l'arbitre attendue »
        row["awaiting"] = row["deal"].status == Deal.Status.IRREGULAR and row["deal"].pk not in decided
    for r in rulings:
        r.points_line = ruling_points(r, seats, players, shown_by_ruling.get(r.pk))  # type: ignore[attr-defined]
        r.counts_deal = r.pk in shown_by_ruling  # type: ignore[attr-defined]
    totals_by_entry = selectors.table_totals(table)
    totals = [totals_by_entry.get(s.entry_id, 0) for s in seats]
    return {
        "tournament": tournament,
        "round": table.round,
        "table": table,
        "seats": seats,
        "players": players,
        "rows": rows,
        "rulings": rulings,
        "totals": totals,
        # L'Impériale: the jetons carried now, under the impériales (fiches) won; the unit's words from the registry
        "carried": carried if carried is not None and len(carried) == len(seats) else None,
        "carried_label": games.carried_label(tournament.game),
        "score_unit": games.score_unit(tournament.game, lang_of(request)).capitalize()
        if games.carries_marks(tournament.game) else "",
        "winner_words": games.winner_words(table.match_winner, players) if table.match_ended else "",
        "lang": lang_of(request),
        "can_enter": permissions.can_enter_deal(request.user, table) and not table.match_ended,
        "why_not": unplayable(table),
        "bye": len(seats) == 1,  # alone at his « table »: exempt this round
        # a round drawn ahead (round 3 while round 2 is played): a deal entered there by mistake would fix its
        # seating (a walk saved one); said on the table's page and on the entry page, before any tap
        "round_planned": table.round.status == Round.Status.PLANNED and tournament.status == Tournament.Status.RUNNING,
        "round_closed": permissions.round_closed_to(request.user, table),
        "not_assigned": permissions.table_not_assigned_to(request.user, table),
        "can_referee": permissions.can_referee(request.user, tournament),
        "forfeit": Forfeit.objects.filter(table=table).prefetch_related("absent__player").first(),
        "deals_left": deals_left(table, deals),
        "last_number": last_deal_number(rows),
    }


def deals_left(table: Table, deals: list[Deal] | None = None) -> int | None:
    """The deals still to enter at ``table`` in a game of deals with a number per round (None otherwise); an
    annulled deal leaves its place, as the entry counts (``table_full``)."""
    tournament = table.round.tournament
    if not tournament.deals_per_round or tournament.is_match_game:
        return None
    every = selectors.table_deals(table) if deals is None else deals
    return max(tournament.deals_per_round - len([d for d in every if d.status != Deal.Status.ANNULLED]), 0)


def table_full_message(table: Table) -> str:
    """« Les 3 donnes de la manche sont saisies… »: why the entry is not offered at a full table."""
    n = table.round.tournament.deals_per_round or 0
    return ngettext("La donne de la manche est saisie : plus rien à saisir à cette table.",
                    "Les %(n)s donnes de la manche sont saisies : plus rien à saisir à cette table.", n) % {"n": n}


def ruling_points(ruling: Ruling, seats: list[Any], players: list[str],
                  shown: dict[int, int] | None = None) -> str:
    """A ruling's points per player in one line, in seat order ("Ana +10 · Bruno −10"); ``shown``: the marks its
    counted deal shows on its own line (``selectors.counted_marks``), left out here."""
    names = {s.entry_id: name for s, name in zip(seats, players, strict=True)}
    points = selectors.ruling_rest(ruling, shown)
    parts = []
    for seat in seats:
        value = int(points.get(str(seat.entry_id)) or 0)
        if value:
            parts.append(f"{names[seat.entry_id]} {'+' if value > 0 else '−'}{abs(value)}")
    return " · ".join(parts)


def deal_summary(deal: Deal, players: list[str]) -> str:
    """One line for people, as the game's scoring explains the deal's result (Tarot: the taker and the
    contract; nothing for the historical games)."""
    return games.explain(str((deal.record or {}).get("game", "")), deal.verdict, players).headline


@guarded
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    table = Table.objects.select_related("round__tournament").filter(pk=pk).first()
    require_visible(request, table is not None and permissions.can_view_table(request.user, table), login_first=True)
    return render(request, "tournaments/table_detail.html", table_context(request, table))


@guarded
def deal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A deal: its scores, state, the versions (who, when, why, both records), the referee's actions."""
    deal = Deal.objects.select_related("table__round__tournament").filter(pk=pk).first()
    require_visible(request, deal is not None and permissions.can_view_deal(request.user, deal), login_first=True)
    table = deal.table
    tournament = table.round.tournament
    seats = selectors.table_seats(table)
    players = selectors.table_players(table)
    scores = dict(ScoreRow.objects.filter(deal=deal, ruling__isnull=True).values_list("entry_id", "points"))
    versions = selectors.deal_versions(deal)
    for older, newer in zip(versions[1:], versions[:-1], strict=True):
        newer["diff"] = record_diff(older["record"], newer["record"])
    labels = dict(Deal.Status.choices)
    through = selectors.entered_through_links([deal.pk]).get(deal.pk)
    for v in versions:
        if v["user"] is None and v["change"] == "created" and through is not None:
            v["user"] = selectors.link_author(through)  # no account: the table's link it came through
        v["scores"] = verdict_scores(v.get("verdict"))
        # L'Impériale: the scores are the impériales gained; the jetons each one holds after the deal beside them
        # (a walk read « Marque : 0 / 0 » beside « les cartes … +1 jeton »)
        jetons = games.carried_after(tournament.game, v.get("verdict"))
        v["carried"] = " / ".join(games.carried_words(tournament.game, j) for j in jetons) if jetons else ""
        v["status_label"] = labels.get(v.get("status"), v.get("status"))
        v["when"] = datetime.fromisoformat(v["date"]) if v.get("date") else None
        v["words"] = record_words(v.get("record"), players)
        for d in v.get("diff") or []:
            key = re.sub(r"\[\d+\]$", "", d["path"]).rsplit(".", 1)[-1]
            d["old"], d["new"] = value_words(key, d["old"], players), value_words(key, d["new"], players)
    return render(request, "tournaments/deal_detail.html", {
        "tournament": tournament,
        "score_unit": games.score_unit(tournament.game, lang_of(request)).capitalize(),
        "carried_label": games.carried_label(tournament.game),
        "round": table.round,
        "table": table,
        "deal": deal,
        "players": players,
        "seat_scores": [(name, scores.get(s.entry_id)) for name, s in zip(players, seats, strict=True)],
        "versions": versions,
        "rulings": _rulings_with_points(deal, tournament.game, seats, players, scores),
        # an irregular deal: what was found (each violation of play in words), and whether it waits for a ruling
        "found": [v.get("message", "") for v in (deal.verdict or {}).get("violations", []) if isinstance(v, dict)],
        "awaiting": irregular_waiting(deal),
        # an irregular deal counts only when the chief counted it (« comptée par l'arbitre »): its marks then
        "counted": bool(selectors.counted_by_ruling([deal], tournament.game)),
        "summary": deal_summary(deal, players),
        "detail": games.explain(tournament.game, deal.verdict, players, lang_of(request)),
        # the deal that won the match says so (a walk saw it only later, on the table's page)
        "won_by": games.winner_words(games.match_won_here(tournament.game, deal.verdict), players)
        if deal.counts else "",
        # the match ended at a penalty for a fault in this deal, before its marks (docs/deal-record.md)
        "ended_at_fault": deal.status in Deal.IN_MATCH and bool(
            (((deal.verdict or {}).get("deals") or [{}])[0].get("result") or {}).get("ended_at_fault")),
        "can_referee": permissions.can_referee(request.user, tournament),
        "can_enter": permissions.can_enter_deal(request.user, table) and not table.match_ended,
        "table_full": deals_left(table) == 0,
        "can_restore": permissions.can_restore(request.user, tournament),
    })


def _rulings_with_points(deal: Deal, game: str, seats: list[Any], players: list[str],
                         scores: dict[int, int]) -> list[Ruling]:
    """The deal's rulings, each with the points its own line adds (:func:`ruling_points`: a penalty, an
    adjustment, what the deal it counts as played does not already show), as the table's score sheet says them."""
    counting = selectors.counted_by_ruling([deal], game).get(deal.pk)
    rulings = list(deal.rulings.select_related("created_by", "withdrawn_by"))
    for ruling in rulings:
        shown = (selectors.counted_marks(ruling, scores, [s.entry_id for s in seats])
                 if counting is not None and ruling.pk == counting.pk else None)
        ruling.points_line = ruling_points(ruling, seats, players, shown)  # type: ignore[attr-defined]
    return rulings


def verdict_scores(verdict: Any) -> list[int] | None:
    """The deal's marks per seat as the verdict JSON gives them (the last deal of a match verdict)."""
    if not isinstance(verdict, dict):
        return None
    deals = verdict.get("deals") or []
    if not deals or not isinstance(deals[-1], dict):
        return None
    return deals[-1].get("scores")


def record_diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The fields that differ between two records, as JSON paths with both values."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in list(old) + [k for k in new if k not in old]:
            out += record_diff(old.get(key), new.get(key), f"{path}.{key}" if path else str(key))
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and not all(
            isinstance(x, str) for x in old + new):
        out = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            out += record_diff(a, b, f"{path}[{i}]")
        return out
    if old == new:
        return []
    return [{"path": path or "$", "old": old, "new": new}]


def desk_service_worker(table: Table) -> dict[str, str]:
    """The desk's service worker of a table's entry pages (they reload without network): its script and scope,
    registered by each entry page (tap, summary, expert) — the expert page opened first did not register it."""
    return {"url": reverse("deal_sw", args=[table.pk]), "scope": reverse("deal_enter", args=[table.pk])}


def entry_after(value: object) -> int | None:
    """The number of the table's last deal that an entry page saw (posted as ``after``), or None when the page
    did not say (an older page, a tool): the deals service then does not check it."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and value.isdigit() and len(value) <= 6:
        return int(value)
    return None


def last_deal_number(rows: list[dict[str, Any]]) -> int:
    """The number of the table's last deal among ``rows`` (:func:`table_context`'s), 0 before the first."""
    return rows[-1]["deal"].number if rows else 0


def number_taken_answer(answer: dict[str, Any], table: Table, players: list[str], last_number: int) -> None:
    """What an entry page is told when another device saved a deal at its table meanwhile (``DealNumberTaken``):
    the table's last deal (``after``: its next sending is the next deal) and that deal's dealer, chosen for it and
    named (a walk saved it with the dealer of the deal it collided with)."""
    dealer = next_dealer(table, len(players))
    answer.update({"after": last_number, "dealer": dealer})
    if 0 <= dealer < len(players):
        answer.setdefault("problems", []).append({
            "message": _("Le donneur de la donne %(n)s est %(name)s : il est choisi ci-dessous, vérifiez-le.")
            % {"n": last_number + 1, "name": players[dealer]}, "where": ""})


def next_dealer(table: Table, players: int) -> int:
    """The dealer the entry proposes: by the game's rule after the table's deals (``selectors.table_next_dealer``:
    Triomphe by teams, each team through its dealer; Écarté partie liée, the loser of a manche first …); seat 0
    to start. At a duplicate table, the dealer of the next étui (``services.duplicate.next_etui_dealer``)."""
    etui_dealer = next_etui_dealer(table)
    if etui_dealer is not None:
        return etui_dealer
    return selectors.table_next_dealer(table) if players else 0


def unplayable(table: Table) -> str | None:
    """Why no deal can be entered at ``table``: its partie is over, its tournament not begun or finished, or its
    count of players is not one its game is played at (:func:`tournaments.deals.selectors.unplayable`: a bye, a
    table left short); None when one can."""
    if table.match_ended:
        return _("The partie at this table is over: no deal is entered after it. A deal already saved is corrected "
                 "from its own page.")
    if table.round.tournament.status == Tournament.Status.FINISHED:
        # said before the form (a walk filled a whole deal to read « les donnes se saisissent pendant le tournoi
        # (il est terminé) »); a correction still goes through (``deal_correct``: organizer, chief arbiter)
        return _("Le tournoi est terminé : plus aucune donne ne se saisit. Une donne à corriger : l'arbitre "
                 "principal la corrige depuis sa page (« Corriger ») ; une donne oubliée : l'organisateur repasse "
                 "d'abord le tournoi « en cours ».")
    if table.round.tournament.status in (Tournament.Status.DRAFT, Tournament.Status.OPEN):
        return _("Le tournoi n'a pas commencé : les donnes se saisissent une fois la manche commencée par "
                 "l'organisateur (« Commencer la manche »).")
    return selectors.unplayable(table)
