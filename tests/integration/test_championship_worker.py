"""A real Celery worker on the real Redis ranks a championship after its settle window (tournaments/seasons/tasks.py):
every refresh of the championship is queued with a countdown (an ETA the worker holds, acknowledged late, a prefetch
of one); it runs, and ranks the tournament's latest publication.

CI runs it with LEVEE_REQUIRE_SERVICES=1 on PostgreSQL and Redis (a missing Redis fails it there)."""

from __future__ import annotations

import pytest

from tests.integration.builders import correct_deal
from tests.integration.test_real_worker import Worker, _database_url, broker, wait_until  # noqa: F401 - the fixture
from tests.tournaments.seasons.builders import season_of_three
from tests.tournaments.seasons.test_championships import ranked
from tournaments.deals.models import Deal
from tournaments.seasons import championships
from tournaments.standings import tasks

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_ranks_the_championship_after_its_window(broker, settings):  # noqa: F811 - the fixture
    queue, workers = broker
    settings.CHAMPIONSHIP_SETTLE_SECONDS = 1
    s = season_of_three()  # its publications, in this process, queue the championship's refreshes on the queue
    champ, players = s["championship"].pk, s["players"]
    worker = Worker(queue, _database_url(), env_extra={"CHAMPIONSHIP_SETTLE_SECONDS": "1"})
    workers.append(worker)
    worker.wait_ready()
    # the setup's three publications, ranked by the refresh they queued (hand-counted in test_championships)
    wait_until(lambda: (snap := championships.latest_snapshot(champ)) and len(ranked(snap, players)) == 5,
               30, "the season's first ranking", worker)
    before = championships.latest_snapshot(champ).version

    # T3 corrected twice and published by the worker each time: Chloé 1st, then Ana 1st
    t3 = s["tournaments"][2]
    deal = Deal.objects.get(table__round__tournament=t3)
    correct_deal(deal, [20, -60, 60, -20])
    tasks.ranking_refresh.delay(t3.pk)
    correct_deal(deal, [60, -60, 20, -20])
    tasks.ranking_refresh.delay(t3.pk)

    # Ana 10 + 10 = 20; Bruno 14; Chloé best of 4, 6, 2 = 10 and David best of 4, 4, 6 = 10, level on points and wins:
    # the 3rd rank shared; Émile 6 (hand-counted in test_championships)
    want = [(1, "Ana", 20), (2, "Bruno", 14), (3, "Chloé", 10), (3, "David", 10), (5, "Émile", 6)]
    wait_until(lambda: ranked(championships.latest_snapshot(champ), players) == want, 30,
               "the championship ranked after the second correction", worker)
    assert championships.latest_snapshot(champ).version > before
