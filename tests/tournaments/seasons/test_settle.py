"""A counted tournament's publications rank its championship once per settle window, in a worker.

At a 10,000-player event the tournament's ranking is published several times a second during play; each
publication queued a championship refresh (1.5 s to rank at 10,000 players), and the rankings' worker spent its
time on them: a deal's own ranking waited behind the championship (docs/performance.md). Now the first publication
of a window queues one refresh that starts after the window; the others queue nothing, and that refresh, reading the
tournaments' rankings when it runs, ranks them too. Without a broker (tasks in-process) it runs at once, every time.
"""

from __future__ import annotations

import pytest
from celery import current_app
from django.core.cache import cache

from tests.integration.builders import correct_deal
from tournaments.deals.models import Deal
from tournaments.seasons import championships
from tournaments.seasons import tasks as season_tasks
from tournaments.standings import tasks

from .builders import season_of_three

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return season_of_three()


@pytest.fixture
def queued(monkeypatch, settings):
    """A broker (tasks not eager), its queue recorded instead of sent: (championship id, force, countdown)."""
    settings.CHAMPIONSHIP_SETTLE_SECONDS = 2
    monkeypatch.setattr(current_app.conf, "task_always_eager", False)
    calls: list[tuple[int, bool, int | None]] = []

    def apply_async(args, countdown=None, **_):
        calls.append((*args, countdown))

    monkeypatch.setattr(season_tasks.championship_refresh, "apply_async", apply_async)
    cache.clear()
    return calls


def test_three_publications_in_a_window_queue_one_refresh_after_it(season, queued):
    champ = season["championship"].pk
    for _ in range(3):
        season_tasks.tournament_published(season["tournaments"][0].pk, 1)
    # one refresh, starting after the 2-second window and its 1-second margin
    assert queued == [(champ, False, 3)]


def test_the_window_over_a_publication_queues_again(season, queued):
    champ = season["championship"].pk
    season_tasks.tournament_published(season["tournaments"][0].pk, 1)
    cache.delete(f"levee:championship-settle:{champ}")  # the window's two seconds are over
    season_tasks.tournament_published(season["tournaments"][1].pk, 1)
    assert queued == [(champ, False, 3), (champ, False, 3)]


def test_the_cache_down_queues_every_time(season, queued, monkeypatch):
    def down(*_a, **_k):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "add", down)
    for _ in range(2):
        season_tasks.tournament_published(season["tournaments"][0].pk, 1)
    champ = season["championship"].pk
    assert queued == [(champ, False, 3), (champ, False, 3)]  # a refresh more, never one fewer


def test_settle_zero_queues_at_once_every_time(season, queued, settings):
    settings.CHAMPIONSHIP_SETTLE_SECONDS = 0
    for _ in range(2):
        season_tasks.tournament_published(season["tournaments"][0].pk, 1)
    champ = season["championship"].pk
    assert queued == [(champ, False, None), (champ, False, None)]


def test_without_a_broker_each_publication_ranks_the_championship_at_once(season, settings):
    settings.CHAMPIONSHIP_SETTLE_SECONDS = 2
    assert current_app.conf.task_always_eager  # the tests' default: no broker
    champ = season["championship"].pk
    before = championships.latest_snapshot(champ).version
    t3 = season["tournaments"][2]
    correct_deal(Deal.objects.get(table__round__tournament=t3), [60, -60, 20, -20])
    tasks.ranking_refresh(t3.pk)
    assert championships.latest_snapshot(champ).version == before + 1
    correct_deal(Deal.objects.get(table__round__tournament=t3), [-60, 60, 20, -20])  # back: a change again
    tasks.ranking_refresh(t3.pk)
    assert championships.latest_snapshot(champ).version == before + 2


def test_the_queued_refresh_ranks_the_publications_it_was_not_queued_for(season, queued):
    """T3 corrected and published twice in one window: one refresh queued, at the first; run when it is due, it
    ranks the second correction (Ana 1st in T3: 10 + 10 = 20 points, hand-counted in test_championships)."""
    champ = season["championship"].pk
    before = championships.latest_snapshot(champ)
    t3 = season["tournaments"][2]
    deal = Deal.objects.get(table__round__tournament=t3)
    correct_deal(deal, [20, -60, 60, -20])  # a first correction: Chloé 1st again, Ana 2nd
    tasks.ranking_refresh(t3.pk)
    correct_deal(deal, [60, -60, 20, -20])  # the second: Ana 1st, David 2nd, Émile 3rd, Chloé 4th
    tasks.ranking_refresh(t3.pk)
    assert queued == [(champ, False, 3)]
    assert championships.latest_snapshot(champ).version == before.version  # nothing ranked yet
    season_tasks.championship_refresh(champ, False)  # the queued refresh, when it is due
    after = championships.latest_snapshot(champ)
    assert after.version == before.version + 1
    lines = {season["players"][n].pk: n for n in season["players"]}
    ranked = [(line.rank, lines[line.player_id], championships.metric(line, "points"))
              for line in after.lines.order_by("position")]
    assert ranked[0] == (1, "Ana", 20)
