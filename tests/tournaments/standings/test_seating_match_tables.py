"""Match games played at more than two a table: the draw seats tables of the options' size.

Before ``scoring.seating.seat_match_round`` every match game was paired two by two: Écarté à quatre
and Impériale à trois then played (and recorded) à deux, since a table's record takes its player
count from the seats; Triomphe by teams could not record a deal (its ``teams`` did not share out two
seats); Le Vingt-quatre (4 or 5 a table) could not even be drawn (a table of 2 refused).
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules.imperiale import random_record
from tests.integration.builders import make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.common.errors import InvalidInput
from tournaments.deals.models import ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Tournament
from tournaments.management.commands.seed_demo import random_match_deal
from tournaments.standings import draw as seating_service

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


def test_ecarte_a_quatre_nine_entries_a_table_of_four_completed_without_a_bye():
    """Issue 20: a match game at more than two gives nobody a table of his own (a bye is for a game of
    two only). Écarté à quatre, 9 entries: 4 + 3 + 2 (Écarté à trois and à deux complete it:
    ``games.TABLE_SIZES``, as many tables of 4 as possible, then the fewest tables)."""
    t, _ = tournament("ABCDEFGHI", "ecarte", {"players": 4}, slug="e4")
    assert seating_service.methods_for(t) == ("swiss", "random")
    r1 = draw(t, 1)
    # round 1: everyone level, standings in entry order, the main table first: the table of four split
    # 1st and 4th against 2nd and 3rd, partners opposite (seats 0, 2 against 1, 3: §3.7)
    assert seated(r1) == [["A", "B", "D", "C"], ["E", "F"], ["G", "H", "I"]]
    table = r1.tables.get(number=1)
    user = UserFactory(is_superuser=True)
    deal = deal_record(table=table, record=random_match_deal("ecarte", {}, 4, 0, random.Random(4)),
                                user=user)
    assert deal.record["options"]["players"] == 4
    assert deal.record["players"] == ["A", "B", "D", "C"]
    assert ScoreRow.objects.filter(deal=deal).count() == 4
    pair = deal_record(table=r1.tables.get(number=2), record=random_match_deal("ecarte", {}, 2, 0, random.Random(5)),
                       user=user)
    assert pair.record["options"]["players"] == 2 and pair.record["players"] == ["E", "F"]


def test_ecarte_a_quatre_second_round_no_partner_twice_nobody_alone():
    t, _ = tournament("ABCDEFGHIJKLMNOP", "ecarte", {"players": 4}, slug="e4b")
    r1 = seated(draw(t, 1))
    r2 = seated(draw(t, 2))
    assert [len(x) for x in r1] == [len(x) for x in r2] == [4, 4, 4, 4]
    partners = [{frozenset((x[0], x[2])) for x in r} | {frozenset((x[1], x[3])) for x in r} for r in (r1, r2)]
    assert not partners[0] & partners[1]
    met = {frozenset(p) for x in r1 for p in combinations(x, 2)}
    # 16 = 4 × 4: one from each table of round 1, nobody meets twice
    assert not any(frozenset(p) in met for x in r2 for p in combinations(x, 2))


def test_imperiale_a_trois_seven_entries_a_table_of_three_and_two_of_two():
    """Issue 20: 7 entries at L'Impériale à trois were 3 + 3 and a bye; now 3 + 2 + 2 (the game's two
    forms, §4.1 rule 1), each table with a legal deal."""
    t, _ = tournament("ABCDEFG", "imperiale", {"players": 3}, slug="i3")
    r1 = draw(t, 1)
    assert seated(r1) == [["A", "B", "C"], ["D", "E"], ["F", "G"]]
    user = UserFactory(is_superuser=True)
    for number, players in ((1, 3), (2, 2)):
        record = random_record(random.Random(2), players=players, dealer=0)
        fields = {k: v for k, v in record.items() if k not in ("format", "game", "options", "players")}
        deal = deal_record(table=r1.tables.get(number=number), record=fields, user=user)
        assert deal.record["options"]["players"] == players


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


@pytest.mark.parametrize(("names", "sizes"), [
    ("ABCDEFGH", [4, 4]),  # issue 20: was a table of 5 and three players alone
    ("ABCDEFGHI", [5, 4]),
    ("ABCDEFGHIJ", [5, 5]),
    ("ABCDEFGHIJKLM", [5, 4, 4]),
])
def test_vingt_quatre_tables_of_five_and_four_nobody_alone(names, sizes):
    t, _ = tournament(names, "vingt-quatre", {}, slug="v24")
    for number in (1, 2):
        r = draw(t, number, method="swiss" if number == 1 else "random", seed=5)
        assert [len(x) for x in seated(r)] == sizes
        assert sorted(n for x in seated(r) for n in x) == list(names)


def test_vingt_quatre_below_four_players_is_refused():
    t, _ = tournament("ABC", "vingt-quatre", {}, slug="v24x")
    with pytest.raises(InvalidInput) as caught:
        draw(t, 1)
    assert caught.value.message.startswith("impossible de placer 3 joueurs à des tables de 4 ou 5 joueurs. ")
    assert not Round.objects.get(tournament=t, number=1).tables.exists()


@pytest.mark.parametrize(("names", "sizes"), [("ABCDEFG", [5, 1, 1]), ("ABCDEFGHIJK", [5, 5, 1])])
def test_vingt_quatre_a_count_tables_of_four_and_five_cannot_seat_gets_exempts(names, sizes):
    """Refused before (the event stopped there): 7 = 5 + 2 exempts, 11 = 5 + 5 + 1 (RULES.md §5 rule 1: 4 or 5)."""
    t, _ = tournament(names, "vingt-quatre", {}, slug="v24x")
    assert [len(x) for x in seated(draw(t, 1))] == sizes


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
    t, _ = tournament("A", "ecarte", {"players": 4}, slug="e4s")
    with pytest.raises(InvalidInput):
        draw(t, 1)


def test_unreadable_options_are_refused():
    t, _ = tournament("ABCDEFGH", "triomphe", {"players": 2, "teams": [[0, 1], [2, 3]]}, slug="tbad")
    with pytest.raises(InvalidInput):
        draw(t, 1)
