"""La Triomphe: by teams (12 players in four teams of three, tables of two, team-mates kept apart, the teams
ranked), by sides (8 players in four teams of two, partners together two against two, RULES.md §2.2 rule 3) and
individual (9 players at tables of three; 5 players at tables of two, with a bye)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tournaments.deals.models import Deal
from tournaments.event.models import Entry, Team

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def test_triomphe_by_teams(event):
    ev = event(label="triomphe-teams", game="triomphe", seed=4100, rounds=2, players_per_table=2, fmt="teams",
               target=3)
    entries = ev.register(12)
    url = reverse("teams", args=[ev.slug])
    for k, name in enumerate(("Les Atouts", "La Retourne", "Le Talon", "Les Forçats")):
        members = [str(e.pk) for e in entries[3 * k:3 * k + 3]]
        response = ev.post("organizer", url, {"action": "create", "name": name, "members": members})
        assert response.status_code == 302, ev.problems(response)
    assert Team.objects.filter(tournament=ev.tournament).count() == 4
    ev.check("four teams of three")
    ev.start()
    for rnd in ev.run_rounds(2, method="swiss"):
        for table in rnd.tables.all():
            teams = [s.entry.team_id for s in table.seats.select_related("entry")]
            assert len(set(teams)) == len(teams), f"team-mates meet at {table}"
    ev.finish()


def test_triomphe_two_against_two(event):
    """The team game: each team is one side of a table of four, its partners side by side (seats 0-1 against 2-3
    in the order of play), the deals scored by side and the team ranking counting each side's match once."""
    ev = event(label="triomphe-sides", game="triomphe", seed=4300, rounds=2, players_per_table=4, fmt="teams",
               target=3, extra={"partners": "on"})
    assert ev.tournament.options["teams"] == [[0, 1], [2, 3]] and ev.tournament.options["players"] == 4
    entries = ev.register(8)
    url = reverse("teams", args=[ev.slug])
    names = ("Les Atouts", "La Retourne", "Le Talon", "Les Forçats")
    for k, name in enumerate(names):
        members = [str(e.pk) for e in entries[2 * k:2 * k + 2]]
        response = ev.post("organizer", url, {"action": "create", "name": name, "members": members})
        assert response.status_code == 302, ev.problems(response)
    team_of = dict(Entry.objects.filter(tournament=ev.tournament).values_list("id", "team_id"))
    ev.check("four teams of two")
    ev.start()
    met: set[frozenset[int]] = set()
    match_points: dict[int, int] = dict.fromkeys(team_of.values(), 0)
    for rnd in ev.run_rounds(2, method="swiss"):
        tables = list(rnd.tables.order_by("number"))
        assert len(tables) == 2, f"round {rnd.number}: {len(tables)} tables for four teams of two"
        for table in tables:
            seated = [team_of[s.entry_id] for s in table.seats.order_by("position")]
            # partners together, side by side in the order of play, facing the other team
            assert seated[0] == seated[1] != seated[2] == seated[3], f"round {rnd.number} {table}: {seated}"
            pair = frozenset((seated[0], seated[2]))
            assert pair not in met, f"round {rnd.number}: two teams meet again at {table}"
            met.add(pair)
            for deal in Deal.objects.filter(table=table).exclude(status=Deal.Status.ANNULLED):
                scores = deal.verdict["deals"][-1]["scores"]
                assert scores[0] == scores[1] and scores[2] == scores[3], f"{deal}: partners scored apart {scores}"
            table.refresh_from_db()
            assert sorted(table.match_winner) in ([0, 1], [2, 3]), f"{table}: the winner is not a side"
            # by hand: the winning side's team 2 match points, the other 0 (MatchPoints: win 2, loss 0)
            match_points[seated[table.match_winner[0]]] += 2
    ev.finish()
    from tournaments.standings.rankings import Unit, latest_snapshot, metrics_dict, snapshot_lines

    snapshot = latest_snapshot(ev.tournament.pk)
    teams_line = {line.team_id: metrics_dict(line) for line in snapshot_lines(snapshot, Unit.TEAM)}
    assert {team: m["match_points"] for team, m in teams_line.items()} == match_points
    assert sum(match_points.values()) == 2 * 2 * 2  # two rounds, two tables, one win each
    players_line = ev.published("match_points")
    for entry_id, team_id in team_of.items():  # each partner carries his side's points: the team counts them once
        assert players_line[entry_id] == match_points[team_id]


@pytest.mark.parametrize(("size", "players"), [(3, 9), (2, 5)])
def test_triomphe_individual(event, size, players):
    ev = event(label=f"triomphe{size}-{players}", game="triomphe", seed=4200 + players, rounds=2,
               players_per_table=size, target=3)
    ev.register(players)
    ev.start()
    if size == 2:  # an irregular deal in round 1, inside its running event
        first = ev.open_round("swiss")
        table = ev.playing_tables(first)[0]
        # a renonce dealt by the generator: the offender failed to take (« lever ») a card when able, or to trump;
        # the chief picks the rule text's penalty: the offender loses 1 point (RULES.md §2.6 rule 21, A-R9) on top
        # of the deal, which counts as played (a fault in play: docs/deal-record.md, « A penalty on an irregular
        # deal »): each seat moves by its marks as played (the deal's verdict), the offender 1 less
        ev.irregular_in_match(table, "link", gen.renonce_fields(ev.rng, ev.head(table), ev.next_dealer(table)),
                              "penalty", _played_and_penalty, penalty=_preset(), corrected=True)
        ev.close_round(first)
        ev.public_in_french(rounds=(1,))
        ev.run_rounds(1, method="swiss")
    else:
        ev.run_rounds(2, method="swiss")
    ev.finish()


def _played_and_penalty(deal, _before) -> dict[int, int]:
    offender = deal.verdict["violations"][0]["seat"]
    played = deal.verdict["deals"][0]["scores"]
    return {seat: marks - (1 if seat == offender else 0) for seat, marks in enumerate(played)}


def _preset() -> str:
    """Failing to take a card when able (« lever »): the penalty of the text for a renonce of following."""
    return "triomphe_failed_to_take"
