"""0018_clubs: the existing tournaments are attached to one default club, their organizers made its organizers."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.clubs.models import Club, ClubRole
from tournaments.event.models import Tournament, TournamentRole

from ..factories import TournamentFactory, UserFactory

BEFORE = ("tournaments", "0017_ranking_lease")
AFTER = ("tournaments", "0018_clubs")


@pytest.mark.django_db(transaction=True)
def test_every_existing_tournament_is_attached_to_one_default_club():
    first, second = TournamentFactory(), TournamentFactory()
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    TournamentRole.objects.create(tournament=first, user=alice, role=TournamentRole.Role.ORGANIZER)
    TournamentRole.objects.create(tournament=second, user=bob, role=TournamentRole.Role.ARBITER)
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    try:
        executor = MigrationExecutor(connection)
        executor.migrate([AFTER])
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    club = Club.objects.get()
    assert set(Tournament.objects.values_list("club_id", flat=True)) == {club.pk}
    # alice organized a tournament: she organizes the club; bob was a table arbiter only
    assert list(ClubRole.objects.values_list("user__username", "role")) == [("alice", "organizer")]
