"""The draw of a round through the service: scoring.seating decides, round_seat writes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament, named_lines
from tournaments.common.errors import ServiceError
from tournaments.event.models import Round
from tournaments.standings import draw as seating_service
from tournaments.standings import rankings, tasks

pytestmark = pytest.mark.django_db


def seated(rnd: Round) -> list[list[str]]:
    return [[s.entry.player.name for s in t.seats.order_by("position").select_related("entry__player")]
            for t in rnd.tables.order_by("number")]


def test_rotation_seats_everyone_once_and_avoids_meetings():
    names = "ABCDEFGHIJKLMNOP"
    t, _ = make_tournament(names, slug="rot")
    for number in (1, 2):
        rnd = Round.objects.create(tournament=t, number=number)
        seating_service.round_draw(round=rnd, method="rotation")
        tables = seated(rnd)
        assert [len(x) for x in tables] == [4, 4, 4, 4]
        assert sorted(n for x in tables for n in x) == list(names)
    # 16 players, 4 tables: round 2 can take one player from each table of round 1, so nobody meets twice
    assert seating_service.round_repeats(round=rnd) == []


def test_tables_of_three_and_short_seats_spread():
    t, _ = make_tournament("ABCDEFGHIJ", slug="ten")
    short = []
    for number in (1, 2):
        rnd = Round.objects.create(tournament=t, number=number)
        seating_service.round_draw(round=rnd, method="rotation")
        tables = seated(rnd)
        assert sorted(len(x) for x in tables) == [3, 3, 4]  # 10 = 4 + 3 + 3 (RULES.md §1.12 rule 35)
        assert sorted(n for x in tables for n in x) == list("ABCDEFGHIJ")
        short.append({n for x in tables if len(x) == 3 for n in x})
    # 6 short seats a round and only 4 players without one after round 1: exactly 2 sit short twice
    assert len(short[0] & short[1]) == 2


def test_withdrawn_players_are_not_seated():
    t, e = make_tournament("ABCDEFGHI", slug="wd")
    e["I"].withdrawn = True
    e["I"].save()
    r1 = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=r1, method="random", seed=3)
    assert sorted(n for x in seated(r1) for n in x) == list("ABCDEFGH")


def test_best_against_best_uses_the_ranking_of_previous_rounds():
    t, e = make_tournament("ABCDEFGH", slug="best")
    t1, t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [75, -25, -25, -25], taker=0)    # A 75
    add_deal(t2, [-25, 150, -50, -75], taker=1)   # F 150 (any zero-sum marks will do)
    r2 = Round.objects.create(tournament=t, number=2)
    seating_service.round_draw(round=r2, method="ranking")
    # ranking: F 150, A 75, then B C D E -25, G -50, H -75: the top four of the ranking at table 1
    table1 = set(seated(r2)[0])
    assert {"F", "A"} <= table1 and "H" not in table1 and "G" not in table1


def test_swap_by_hand_and_the_repeats_checker():
    t, e = make_tournament("ABCDEFGH", slug="swap")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    r2 = Round.objects.create(tournament=t, number=2)
    seating_service.round_draw(round=r2, method="rotation")
    # put A and B together again by hand
    tables = seated(r2)
    ta = next(x for x in tables if "A" in x)
    if "B" not in ta:
        other = next(n for n in ta if n != "A")
        result = seating_service.round_swap(round=r2, a=e[other].pk, b=e["B"].pk)
        assert result.repeats, "the swap puts A and B together again: reported"
    repeats = seating_service.round_repeats(round=r2)
    assert any({m.a, m.b} == {"A", "B"} and m.rounds == (1, 2) for m in repeats)
    assert sorted(n for x in seated(r2) for n in x) == list("ABCDEFGH")


def test_the_draw_is_refused_once_deals_are_entered():
    t, e = make_tournament("ABCD", slug="late")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [75, -25, -25, -25], taker=0)
    with pytest.raises(ServiceError):
        seating_service.round_draw(round=t.rounds.get(number=1), method="random")


def test_swiss_pairing_with_a_bye_that_counts_as_a_win():
    t, _ = make_tournament("PQRST", game="ecarte", slug="swiss")
    r1 = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=r1, method="swiss")
    tables = seated(r1)
    assert sorted(len(x) for x in tables) == [1, 2, 2]
    assert sorted(n for x in tables for n in x) == list("PQRST")
    (bye,) = [x[0] for x in tables if len(x) == 1]
    for table in r1.tables.all():
        if table.seats.count() == 2:
            table.match_totals, table.match_winner, table.match_ended = [5, 2], 0, True
            table.save()
    r1.released = True
    r1.save()
    tasks.ranking_refresh(t.pk)
    points = {name: rankings.metrics_dict(ln)["match_points"]
              for name, ln in named_lines(rankings.latest_snapshot(t.pk))}
    assert points[bye] == 2 and sorted(points.values()) == [0, 0, 2, 2, 2]
    r2 = Round.objects.create(tournament=t, number=2)
    seating_service.round_draw(round=r2, method="swiss")
    (bye2,) = [x[0] for x in seated(r2) if len(x) == 1]
    assert bye2 != bye, "no second bye while someone has none"
    pairs1 = {frozenset(x) for x in tables if len(x) == 2}
    assert not pairs1 & {frozenset(x) for x in seated(r2) if len(x) == 2}, "no rematch while avoidable"


def test_organizer_draw_page(client, django_user_model):
    t, _ = make_tournament("ABCDEFGH", slug="page")
    Round.objects.create(tournament=t, number=1)
    url = reverse("public-round-draw", args=[t.slug, 1])
    assert client.get(url).status_code == 302  # login first
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.org", "pw-123456"))
    assert client.post(url, {"action": "draw", "method": "rotation", "seed": "1"}).status_code == 302
    html = client.get(url, follow=True).content.decode()  # the seats, changed by name on the organizer's page
    assert html.count('<section class="panel seat-table"><h2>Table') == 2
