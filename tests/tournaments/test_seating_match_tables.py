"""Match games played at more than two a table: the draw seats tables of the options' size.

Before ``scoring.seating.seat_match_round`` every match game was paired two by two: Écarté à quatre
and Impériale à trois then played (and recorded) à deux, since a table's record takes its player
count from the seats; Triomphe by teams could not record a deal (its ``teams`` did not share out two
seats); Le Vingt-quatre (4 or 5 a table) could not even be drawn (a table of 2 refused).
"""

from __future__ import annotations

import random

import pytest

from rules.imperiale import random_record
from tests.integration.builders import end_match, make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.common.errors import InvalidInput
from tournaments.deals.models import ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Tournament
from tournaments.management.commands.seed_demo import random_match_deal
from tournaments.standings import draw as seating_service
from tournaments.standings import rankings, tasks

pytestmark = pytest.mark.django_db


def tournament(names: str, game: str, options: dict, *, slug: str,
               teams: dict | None = None) -> tuple[Tournament, dict]:
    t, e = make_tournament(list(names), game=game, slug=slug, teams=teams)
    t.options = options
    t.save()
    return t, e


def seated(rnd: Round) -> list[list[str]]:
    return [[s.entry.player.name for s in t.seats.order_by("position").select_related("entry__player")]
            for t in rnd.tables.order_by("number")]


def draw(t: Tournament, number: int, method: str = "swiss", seed: int = 0) -> Round:
    rnd = Round.objects.create(tournament=t, number=number, status="running")
    seating_service.round_draw(round=rnd, method=method, seed=seed)
    return rnd


def test_ecarte_a_quatre_nine_entries_two_tables_of_four_and_a_bye_then_a_legal_deal():
    t, _ = tournament("ABCDEFGHI", "ecarte", {"players": 4}, slug="e4")
    assert seating_service.methods_for(t) == ("swiss", "random")
    r1 = draw(t, 1)
    # round 1: everyone level, standings in entry order; the bye to the last (I); each table of four
    # split 1st and 4th against 2nd and 3rd, partners opposite (seats 0, 2 against 1, 3: §3.7)
    assert seated(r1) == [["A", "B", "D", "C"], ["E", "F", "H", "G"], ["I"]]
    table = r1.tables.get(number=1)
    user = UserFactory(is_superuser=True)
    deal = deal_record(table=table, record=random_match_deal("ecarte", {}, 4, 0, random.Random(4)),
                                user=user)
    assert deal.record["options"]["players"] == 4
    assert deal.record["players"] == ["A", "B", "D", "C"]
    assert ScoreRow.objects.filter(deal=deal).count() == 4


def test_ecarte_a_quatre_second_round_new_bye_fewest_repeats_no_partner_twice():
    t, _ = tournament("ABCDEFGHI", "ecarte", {"players": 4}, slug="e4b")
    draw(t, 1)
    r2 = draw(t, 2)
    tables = seated(r2)
    # No match has ended, but I's bye is a win: standings I, A, B, …, H. The bye goes to H, the
    # lowest ranked of those without one. ABCD met at one table: two of them at each table of round
    # 2 (2 repeats), and F, G (after E joins I, A, C) are the third and least repeat: I A C E and
    # B D F G, placed in standings order at the first table costing least. Sides: the most balanced
    # rank sums with no partner twice — I, E against A, C; B, G against D, F (B, D v F, G would
    # partner F and G again).
    assert tables == [["I", "A", "E", "C"], ["B", "D", "G", "F"], ["H"]]
    partners_1 = {frozenset("AD"), frozenset("BC"), frozenset("EH"), frozenset("FG")}
    partners_2 = {frozenset((x[0], x[2])) for x in tables[:2]} | {frozenset((x[1], x[3])) for x in tables[:2]}
    assert not partners_1 & partners_2


def test_a_bye_at_a_table_of_four_ranks_as_a_win():
    t, _ = tournament("ABCDEFGHI", "ecarte", {"players": 4}, slug="e4c")
    r1 = draw(t, 1)
    for table in r1.tables.all():
        if table.seats.count() == 4:
            end_match(table, [7, 3, 7, 3], [0, 2])  # seats 0 and 2 win
    r1.released = True
    r1.save()
    tasks.ranking_refresh(t.pk)
    points = {ln.entry.player.name: rankings.metrics_dict(ln)["match_points"]
              for ln in rankings.latest_snapshot(t.pk).lines.select_related("entry__player")}
    # winners: A, D (table 1) and E, H (table 2); I had the bye, a win
    assert points == {"A": 2, "D": 2, "E": 2, "H": 2, "I": 2, "B": 0, "C": 0, "F": 0, "G": 0}


def test_imperiale_a_trois_seven_entries_and_a_legal_deal():
    t, _ = tournament("ABCDEFG", "imperiale", {"players": 3}, slug="i3")
    r1 = draw(t, 1)
    assert seated(r1) == [["A", "B", "C"], ["D", "E", "F"], ["G"]]
    record = random_record(random.Random(2), players=3, dealer=0)
    fields = {k: v for k, v in record.items() if k not in ("format", "game", "options", "players")}
    deal = deal_record(table=r1.tables.get(number=2), record=fields, user=UserFactory(is_superuser=True))
    assert deal.record["options"]["players"] == 3 and deal.record["players"] == ["D", "E", "F"]


def test_triomphe_by_teams_two_against_two_partners_from_the_options():
    teams = [[0, 1], [2, 3]]  # partners side by side, as the seed seats them
    t, _ = tournament("ABCDEFGH", "triomphe", {"players": 4, "teams": teams, "mode": "forcee"}, slug="t22")
    r1 = draw(t, 1)
    # 8 entries, no bye; 1st and 4th (seats 0, 1) against 2nd and 3rd (seats 2, 3)
    assert seated(r1) == [["A", "D", "B", "C"], ["E", "H", "F", "G"]]
    fields = random_match_deal("triomphe", {"teams": teams, "mode": "forcee"}, 4, 0, random.Random(7))
    deal = deal_record(table=r1.tables.get(number=1), record=fields, user=UserFactory(is_superuser=True))
    assert deal.record["options"]["teams"] == teams
    scores = [r.points for r in ScoreRow.objects.filter(deal=deal).order_by("entry__seats__position")]
    assert scores[0] == scores[1] and scores[2] == scores[3]  # each member carries the team's points


def test_vingt_quatre_tables_of_five_by_default():
    t, _ = tournament("ABCDEFGHIJK", "vingt-quatre", {}, slug="v24")
    r1 = draw(t, 1, method="random", seed=5)
    sizes = sorted(len(x) for x in seated(r1))
    assert sizes == [1, 5, 5]
    assert sorted(n for x in seated(r1) for n in x) == list("ABCDEFGHIJK")


def test_team_mates_apart_and_random_is_seeded():
    teams = {"X": "AB", "Y": "CD", "Z": "EF", "W": "GH"}
    t, _ = tournament("ABCDEFGH", "ecarte", {"players": 4}, slug="e4t", teams=teams)
    r1 = draw(t, 1)
    for table in seated(r1):
        assert len({next(k for k, v in teams.items() if n in v) for n in table}) == 4
    first = seated(draw(t, 2, method="random", seed=11))
    Round.objects.filter(tournament=t, number=2).delete()
    assert seated(draw(t, 2, method="random", seed=11)) == first


def test_too_few_entries_for_one_table_is_refused():
    t, _ = tournament("ABC", "ecarte", {"players": 4}, slug="e4s")
    with pytest.raises(InvalidInput):
        draw(t, 1)


def test_unreadable_options_are_refused():
    t, _ = tournament("ABCDEFGH", "triomphe", {"players": 2, "teams": [[0, 1], [2, 3]]}, slug="tbad")
    with pytest.raises(InvalidInput):
        draw(t, 1)
