"""Tarot, individual: 14 players over three rounds with the day's changes; 13 and 17 players (tables of 3, 4, 5)."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tests.events.harness import visible_text
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def sizes(rnd) -> list[int]:
    return sorted((t.seats.count() for t in rnd.tables.all()), reverse=True)


def seats_of(table) -> list[int]:
    """The table's entries, seat by seat."""
    return list(table.seats.order_by("position").values_list("entry_id", flat=True))


def test_tarot_14_players_three_rounds_with_the_days_changes(event):
    ev = event(label="tarot14", game="tarot", seed=14, rounds=3, players_per_table=4, deals_per_round=2)
    ev.register(14)
    ev.start()

    # round 1: the rotation draw; a garde sans at the table arbiter's table waits for the chief's visa
    r1 = ev.round_create()
    ev.draw(r1, "rotation")
    assert sum(sizes(r1)) == 14 and set(sizes(r1)) <= {3, 4, 5}
    ev.round_status(r1, "running")
    mine = r1.tables.get(number=1)
    ev.enter(mine, "desk", contract="garde_sans")
    assert Deal.objects.get(table=mine).status == Deal.Status.PENDING
    ev.check("round 1: a garde sans waits for the visa")
    assert ev.approve_pending() == 1
    ev.check("round 1: the chief's visa")
    ev.play_table(mine, count=1, vias=("summary",))
    # an irregular deal at a table of four (the golden renonce, from the desk's tap page) and at a table of three
    # (a renonce dealt by the generator, from the table's own link)
    four = next(t for t in ev.playing_tables(r1)[1:] if t.seats.count() == 4)
    three = next(t for t in ev.playing_tables(r1) if t.seats.count() == 3)
    for i, table in enumerate(ev.playing_tables(r1)[1:]):
        if table in (four, three):
            ev.play_table(table, count=1, vias=("api",))
            continue
        ev.play_table(table, count=2, vias=(("link", "api", "summary")[i % 3],))
        ev.check(f"round 1 table {table.number} played")
    # tests/golden/tarot-revoke.json, every seat moved on one place: the dealer at seat 0, the taker (Chloé's seat 2
    # there) at seat 3. A garde, 2 bouts, 21 card points: needed 41 (RULES.md §1.10 rule 29), fallen by 20:
    # S = −(25 + 20) × 2 = −90 (§1.11); at four the taker −3 × 90 = −270, each defender +90 (§1.11 rule 31).
    revoke = ev.enter_irregular(four, "desk", gen.rotated(gen.golden("tarot-revoke"), 1, 4))
    seat = {s.position: s.entry_id for s in four.seats.all()}
    as_played = {seat[0]: 90, seat[1]: 90, seat[2]: 90, seat[3]: -270}
    renonce = ev.enter_irregular(three, "link", gen.renonce_fields(ev.rng, ev.head(three), ev.next_dealer(three)))
    ev.round_status(r1, "finished")
    ev.release(r1)
    before = ev.published("marks"), ev.published("deals")
    assert before[0] and all(before[1][e] == 1 for e in [*as_played, *seats_of(three)]), "irregular deals counted"

    # the chief rules from his page: counted as played; the published ranking moves by the hand arithmetic only
    ruling = ev.rule_irregular(revoke, "as_played", reason="Renonce vue après la donne")
    marks, deals = ev.published("marks"), ev.published("deals")
    assert {e: marks[e] - before[0][e] for e in marks if marks[e] != before[0][e]} == as_played
    assert {e for e in deals if deals[e] != before[1][e]} == set(as_played)  # the four played one deal more
    assert all(deals[e] == 2 for e in as_played)
    # the table of three: the arbiter's marks, by the API (a transfer of 40 from the offender to the next seat,
    # RULES.md §1.13 rule 40: no fixed sanction, zero-sum)
    trio = seats_of(three)
    offender = trio[renonce.verdict["violations"][0]["seat"]]
    victim = trio[(renonce.verdict["violations"][0]["seat"] + 1) % 3]
    middle = ev.published("marks")
    ev.rule_irregular(renonce, "adjustment", via="api", reason="Renonce : 40 points à la victime",
                      adjustments={offender: -40, victim: 40})
    after = ev.published("marks")
    assert {e: after[e] - middle[e] for e in after if after[e] != middle[e]} == {offender: -40, victim: 40}
    assert all(ev.published("deals")[e] == 2 for e in trio)  # the arbiter's marks: the deal was played
    ledger = visible_text(ev.get("anonymous", reverse("public-ledger", args=[ev.slug])).content.decode())
    assert "Donne comptée telle que jouée" in ledger and "Marques fixées par l'arbitre" in ledger, ledger[:2000]
    ev.public_in_french(rounds=(1,))

    # corrected while ruled: refused (it would count twice); the ruling withdrawn, the marks go back; corrected,
    # the deal counts once, as corrected
    legal = gen.deal_fields(ev.rng, ev.head(four), revoke.record["dealer"])
    ev.correct_refused(revoke, legal, said="retirez d'abord sa décision")
    ev.withdraw_ruling(ruling)
    back = ev.published("marks")
    assert {e: back[e] - after[e] for e in back if back[e] != after[e]} == {e: -p for e, p in as_played.items()}
    corrected = ev.correct(revoke, fields=legal, reason="Donne recomptée sans la renonce")
    assert corrected.status == Deal.Status.VALID
    own = dict(corrected.score_rows.filter(ruling__isnull=True).values_list("entry_id", "points"))
    final = ev.published("marks")
    assert {e: final[e] - back[e] for e in as_played} == own and sum(own.values()) == 0
    versions = ev.request("anonymous", "get", reverse("api:deal-versions", args=[revoke.pk]),
                          HTTP_AUTHORIZATION=f"Token {ev.api_token('chief')}").content.decode()
    assert "donne irrégulière" in versions and "Donne recomptée sans la renonce" in versions

    # round 2: a late arrival drawn from round 2, a one-round substitute, a swap, a penalty
    late = ev.late_arrival("Lucie Tardive", 2)
    r2 = ev.round_create()
    ev.draw(r2, "rotation")
    assert sum(sizes(r2)) == 15 and r2.tables.filter(seats__entry=late).exists()
    seat = r2.tables.get(number=2).seats.order_by("position").first()
    ev.changes(r2, {"action": "replace", "seat": seat.pk, "name": "Rémi Remplaçant", "club": "", "scope": "round"},
               "round 2: a substitute for one round")
    a = r2.tables.get(number=1).seats.order_by("position").last().entry_id
    b = r2.tables.get(number=3).seats.order_by("position").last().entry_id
    ev.changes(r2, {"action": "swap", "a": a, "b": b}, "round 2: two players swap tables")
    assert r2.tables.get(number=1).seats.filter(entry_id=b).exists()
    ev.round_status(r2, "running")
    ev.play_round(r2, vias=("desk", "link", "api", "summary"))
    penalised = r2.tables.get(number=1)
    offender = penalised.seats.first().entry_id
    ev.ruling(penalised, {offender: -20}, penalty=True)
    ev.check("round 2: a penalty")
    ev.round_status(r2, "finished")
    ev.release(r2)

    # round 3: a player withdraws; the draw seats the 14 left
    gone = r1.tables.get(number=1).seats.order_by("position").first().entry
    ev.leaves(gone)
    r3 = ev.round_create()
    ev.draw(r3, "rotation")
    assert sum(sizes(r3)) == 14 and not r3.tables.filter(seats__entry=gone).exists()
    ev.round_status(r3, "running")
    # ended before any deal: the organizer is asked first, and nothing changes until he confirms
    asked = ev.post("organizer", reverse("round_status", args=[ev.slug, r3.number]), {"status": "finished"})
    assert asked.status_code == 409 and "Aucune donne n'est saisie" in html.unescape(asked.content.decode())
    r3.refresh_from_db()
    assert r3.status == "running"
    ev.play_round(r3, vias=("api", "desk", "link"))
    # every table has its 2 deals: no more entry is offered, and the round ends without a question
    full = ev.playing_tables(r3)[0]
    page = ev.get("chief", reverse("table_detail", args=[full.pk]))
    assert 'id="table-full"' in page.content.decode()
    assert ev.get("chief", reverse("deal_enter", args=[full.pk])).status_code == 302
    ev.check("round 3: ended only when every table has played")
    ev.round_status(r3, "finished")
    ev.release(r3)

    # the round over, its table arbiter enters no more deals there, by the desk or by his phone's outbox (as the
    # table's own link): told why, the deal kept on his device, nothing saved
    mine = r3.tables.get(number=1)
    count = Deal.objects.filter(table=mine).count()
    assert ev.get("arbiter", reverse("deal_enter", args=[mine.pk])).status_code == 403
    late = ev.post("arbiter", reverse("deal_offline", args=[mine.pk]),
                   {"mode": "record", "record": json.dumps(gen.deal_fields(
                       ev.rng, ev.head(mine), ev.next_dealer(mine), **ev.playing_seats(mine)))},
                   HTTP_IDEMPOTENCY_KEY="rehearsal-late-deal")
    assert late.status_code == 409 and "Cette manche est finie" in late.json()["message"], late.content[:300]
    sheet = visible_text(ev.get("arbiter", reverse("table_detail", args=[mine.pk])).content.decode())
    assert "Cette manche est finie" in sheet and "arbitre principal" in sheet
    assert Deal.objects.filter(table=mine).count() == count
    ev.check("round 3 over: its table arbiter's late deal refused with the reason")

    # a correction after the results became official: the ledger says it
    first = Deal.objects.filter(table__round=r1).order_by("pk").first()
    ev.correct(first, reason="Points mal comptés, vu au pointage")
    ev.check("a round-1 deal corrected after the results became official")
    ledger = ev.get("anonymous", reverse("public-ledger", args=[ev.slug]))
    assert ledger.status_code == 200 and "Points mal comptés" in ledger.content.decode()
    ev.finish()


@pytest.mark.parametrize("players", [13, 17])
def test_tarot_awkward_counts(event, players):
    """13 players (4-3-3-3 or 5-4-4) and 17 (5-4-4-4 or 4-4-3-3-3): the draw's sizes, two rounds by ranking."""
    ev = event(label=f"tarot{players}", game="tarot", seed=players, rounds=2, players_per_table=4, deals_per_round=1)
    ev.register(players)
    ev.start()
    done = ev.run_rounds(2, method="ranking", vias=("summary", "link", "api", "desk"))
    for rnd in done:
        assert sum(sizes(rnd)) == players and set(sizes(rnd)) <= {3, 4, 5}, sizes(rnd)
    ev.finish()


def test_tarot_five_with_the_mort(event):
    """Tarot at 5 with the mort: 10 players, two tables of five seated by hand (the draw makes tables of 4 and 3:
    ``test_known_defects``); the dealer sits each deal out and scores 0."""
    ev = event(label="tarot-mort", game="tarot", seed=55, rounds=2, players_per_table=5, tarot_five="mort",
               deals_per_round=5)
    entries = [e.pk for e in ev.register(10)]
    ev.start()
    for number in (1, 2):
        rnd = ev.round_create()
        ev.rng.shuffle(entries)
        ev.seat_by_hand(rnd, [entries[:5], entries[5:]])
        assert sizes(rnd) == [5, 5]
        ev.round_status(rnd, "running")
        if number == 1:
            annulled, ruled = _irregular_at_five(ev, rnd)
        else:
            ev.play_round(rnd, vias=("summary", "desk"))
        ev.round_status(rnd, "finished")
        ev.release(rnd)
        if number == 1:
            # the other table's renonce, after the release: the chief types a transfer of 50 from the offender to
            # the next player (RULES.md §1.13 rule 40, zero-sum); the mort is left out. The published ranking moves
            # by those 50 and nothing else; the four who played it played one deal more (its marks set by the arbiter).
            before, played = ev.published("marks"), ev.published("deals")
            seats = seats_of(ruled.table)
            at = ruled.verdict["violations"][0]["seat"]
            after = (at + 1) % 5 if (at + 1) % 5 != ruled.record["dealer"] else (at + 2) % 5
            transfer = {seats[at]: -50, seats[after]: 50}
            ev.rule_irregular(ruled, "adjustment", reason="Renonce : 50 points au joueur suivant",
                              adjustments=transfer)
            marks = ev.published("marks")
            assert {e: marks[e] - before[e] for e in marks if marks[e] != before[e]} == transfer
            playing = [e for k, e in enumerate(seats) if k != ruled.record["dealer"]]  # the dealer is the mort
            assert {e: ev.published("deals")[e] - played[e] for e in playing} == dict.fromkeys(playing, 1)
            # the annulled deal freed its place: the table played five deals besides it (deals_per_round = 5)
            assert annulled.table.deals.exclude(status=Deal.Status.ANNULLED).count() == 5
            ev.public_in_french(rounds=(1,))
    for deal in Deal.objects.filter(table__round__tournament=ev.tournament):
        dealer = deal.record["dealer"]
        mort = deal.table.seats.get(position=dealer).entry_id
        assert deal.score_rows.get(entry_id=mort, ruling__isnull=True).points == 0, "the mort scores"
    ev.finish()


def test_tarot_by_teams(event):
    """Tarot by teams: 16 players in four teams of four, team-mates apart, the teams ranked by their members."""
    ev = event(label="tarot-teams", game="tarot", seed=44, rounds=2, players_per_table=4, fmt="teams",
               deals_per_round=2)
    entries = ev.register(16)
    url = reverse("teams", args=[ev.slug])
    for k, name in enumerate(("Les Bouts", "Le Chien", "Les Poignées", "Le Petit au bout")):
        members = [str(e.pk) for e in entries[4 * k:4 * k + 4]]
        response = ev.post("organizer", url, {"action": "create", "name": name, "members": members})
        assert response.status_code == 302, ev.problems(response)
    ev.check("four teams of four")
    ev.start()
    for rnd in ev.run_rounds(2, method="rotation", vias=("desk", "summary", "link", "api")):
        for table in rnd.tables.all():
            teams = [s.entry.team_id for s in table.seats.select_related("entry")]
            assert len(set(teams)) == len(teams), f"team-mates meet at {table}"
    ev.finish()


def _irregular_at_five(ev, rnd):
    """Round 1 at five with the mort: a renonce at each table (table 1 through the API, annulled by the chief: the
    table plays a fifth deal in its place; table 2 through the desk's offline outbox, left waiting for the ruling
    after the release); the other deals legal."""
    one, two = ev.playing_tables(rnd)
    ev.play_table(one, count=2, vias=("desk",))
    annulled = ev.enter_irregular(one, "api", gen.renonce_fields(ev.rng, ev.head(one), ev.next_dealer(one)))
    ev.rule_irregular(annulled, "annul", via="api")
    annulled.refresh_from_db()
    assert annulled.status == Deal.Status.ANNULLED and not annulled.score_rows.filter(counts=True).exists()
    ev.play_table(one, count=3, vias=("link",))
    ev.play_table(two, count=4, vias=("api",))
    ruled = ev.enter_irregular(two, "outbox", gen.renonce_fields(ev.rng, ev.head(two), ev.next_dealer(two)))
    return annulled, ruled
