"""Duplicate Tarot: 16 players (4 tables of 4) and 20 players (5 tables), the movement and the étuis made by the
organizer's setup page, each étui played card by card with its own cards; a fouled étui (two cards changed hands),
an artificial result; the travellers public once the round is released."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tournaments.duplicate.models import ArtificialResult, DuplicateTable, Etui, EtuiPlay

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def setup_duplicate(ev, boards: int) -> None:
    response = ev.post("organizer", reverse("duplicate_setup", args=[ev.slug]),
                       {"boards_per_round": str(boards), "seed": f"repetition-{ev.seed}", "method": "matchpoints",
                        "score": "mean", "short": "auto", "tie_breaks": ""})
    assert response.status_code == 302, ev.problems(response)
    ev.touched_tables.update(DuplicateTable.objects.filter(table__round__tournament=ev.tournament)
                             .values_list("table_id", flat=True))
    ev.check("the movement and the étuis made")


def play_etuis(ev, rnd, *, foul_at=None, renonce_at=None) -> list:
    """Each table plays its étuis in order, with their cards; ``foul_at``: (table number, nth étui) fouled;
    ``renonce_at``: (table number, nth étui) played with a renonce, entered irregular by the API; those deals."""
    vias = ("desk", "link", "api")
    irregular = []
    for i, dup in enumerate(DuplicateTable.objects.filter(table__round=rnd).select_related("table")
                            .order_by("table__number")):
        table = dup.table
        for k, number in enumerate(dup.boards):
            etui = Etui.objects.get(tournament=ev.tournament, number=number)

            def dealt(etui=etui, table=table, k=k):
                return gen.tarot_from_etui(ev.rng, ev.head(table), etui.hands, etui.dog, etui.dealer,
                                           foul=foul_at == (table.number, k))

            if renonce_at == (table.number, k):
                irregular.append(ev.enter_irregular(table, "api", gen.renonce_fields(ev.rng, ev.head(table),
                                                                                     etui.dealer, dealt=dealt)))
                continue
            ev.enter(table, vias[(i + k) % 3], fields=dealt())
        ev.check(f"round {rnd.number} table {table.number}: its étuis played")
    return irregular


@pytest.mark.parametrize(("players", "boards"), [(16, 3), (20, 2)])
def test_duplicate(event, players, boards):
    ev = event(label=f"dup{players}", game="tarot", seed=1600 + players, rounds=2, players_per_table=4)
    ev.register(players)
    ev.start()
    setup_duplicate(ev, boards)
    r1, r2 = ev.tournament.rounds.order_by("number")
    ev.round_status(r1, "running")
    play_etuis(ev, r1, foul_at=(2, 0))
    fouled = EtuiPlay.objects.filter(table__round=r1, fouled=True)
    assert fouled.count() == 1, "the fouled étui is not seen"
    # an artificial result: 60 % to a player of table 1 on its first étui
    table = r1.tables.get(number=1)
    number = DuplicateTable.objects.get(table=table).boards[0]
    entry = table.seats.first().entry_id
    response = ev.post("chief", reverse("table_artificial", args=[table.pk, number]),
                       {"entry": str(entry), "kind": "plus", "reason": "Étui mal reconstitué par l'arbitre"})
    assert response.status_code == 302, ev.problems(response)
    assert ArtificialResult.objects.filter(entry_id=entry, etui__number=number).exists()
    ev.touched_tables.add(table.pk)
    ev.check("round 1: an artificial result")
    # the fouled étui waits for the chief: the round is not finished without a confirmation; his artificial
    # results (50 % each: the étui was mixed up at the table) answer the call
    (play,) = fouled
    refused = ev.post("organizer", reverse("round_status", args=[ev.slug, r1.number]), {"status": "finished"})
    r1.refresh_from_db()
    assert r1.status == "running" and "étui faussé" in html.unescape(refused.content.decode())
    for seat in play.table.seats.all():
        response = ev.post("chief", reverse("table_artificial", args=[play.table_id, play.etui.number]),
                           {"entry": str(seat.entry_id), "kind": "even", "reason": "Étui mélangé à la table"})
        assert response.status_code == 302, ev.problems(response)
    ev.touched_tables.add(play.table_id)
    ev.check("round 1: the fouled étui decided")
    ev.round_status(r1, "finished")
    ev.release(r1)
    traveller = ev.get("anonymous", reverse("public-etui", args=[ev.slug, number]))
    assert traveller.status_code == 200
    ev.round_status(r2, "running")
    irregular = play_etuis(ev, r2, renonce_at=(3, 1) if players == 16 else None)
    if irregular:
        # a renonce on an étui: the chief annuls the deal (RULES.md §1.13 rule 38: no FFT table of sanctions; the
        # étui then has no result at that table): its marks count nowhere, the others' results stand
        (deal,) = irregular
        ev.rule_irregular(deal, "annul", via="api", reason="Renonce : l'étui ne compte pas à cette table")
        deal.refresh_from_db()
        assert deal.status == "annulled" and not deal.score_rows.filter(counts=True).exists()
    ev.round_status(r2, "finished")
    ev.release(r2)
    ev.public_in_french(rounds=(1, 2))
    ev.finish()
