"""seed_demo builds a tournament of each game with legal deals, prints the logins, and can run twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from scoring.verdict import judge
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.event.models import Table, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_twice():
    out = StringIO()
    call_command("seed_demo", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert "organisateur / levee-demo" in text and "arbitre / levee-demo" in text
    assert authenticate(username="arbitre", password="levee-demo") is not None
    games = set(Tournament.objects.filter(slug__startswith="demo-").values_list("game", flat=True))
    assert games == {"tarot", "triomphe", "ecarte", "imperiale", "vingt-quatre"}
    tarot = Tournament.objects.get(slug="demo-tarot")
    assert tarot.entries.count() == 8 and tarot.rounds.count() == 2
    assert Table.objects.filter(round__tournament=tarot).count() == 4
    assert Deal.objects.filter(table__round__tournament=tarot, record__summary__isnull=False).exists()
    assert Deal.objects.filter(table__round__tournament=tarot, status="pending").count() == 1
    assert Deal.objects.filter(table__round__tournament=tarot, version=2).count() == 1
    for table in Table.objects.filter(deals__isnull=False).distinct():
        assert judge(selectors.table_match_record(table)).legal
    count = Deal.objects.count()
    call_command("seed_demo", stdout=StringIO(), stderr=StringIO())
    assert Deal.objects.count() == count
    call_command("seed_demo", "--reset", stdout=StringIO(), stderr=StringIO())
    assert Deal.objects.count() == count


def test_the_demo_is_a_clubs_with_its_season(django_capture_on_commit_callbacks):
    """The demo tournaments belong to the demo's club (they belonged to none: the walk), whose staff the staff page
    offers; the club's season counts the Tarot tournament in its challenge, ranked once the demo is built."""
    from tournaments.clubs.models import Club, ClubRole
    from tournaments.seasons.models import Championship, ChampionshipSnapshot

    with django_capture_on_commit_callbacks(execute=True):
        call_command("seed_demo", stdout=StringIO(), stderr=StringIO())
    club = Club.objects.get(slug="club-demo")
    assert not Tournament.objects.filter(slug__startswith="demo-", club__isnull=True).exists()
    assert set(ClubRole.objects.filter(club=club).values_list("user__username", "role")) == {
        ("organisateur", "organizer"), ("arbitre-principal", "arbiter"), ("arbitre", "arbiter")}
    challenge = Championship.objects.get(season__club=club)
    assert list(challenge.tournaments.values_list("slug", flat=True)) == ["demo-tarot"]
    assert ChampionshipSnapshot.objects.filter(championship=challenge).exists()
    call_command("seed_demo", stdout=StringIO(), stderr=StringIO())  # again: nothing doubled
    assert Club.objects.filter(slug="club-demo").count() == 1 and Championship.objects.count() == 1
