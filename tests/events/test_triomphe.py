"""La Triomphe: by teams (12 players in four teams of three, tables of two, team-mates kept apart, the teams
ranked) and individual (9 players at tables of three; 5 players at tables of two, with a bye)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tournaments.event.models import Team

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
