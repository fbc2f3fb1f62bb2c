"""A published ranking brought up to date after an upgrade (``tournaments.standings.republish``).

Marks by hand (FFT, four players, RULES.md §1): a garde made with 2 bouts and 49 points (41 needed) is
(25 + 8) × 2 = 66 a defender, +198 the taker. Two such deals at one table, Bruno taking both: Bruno +396, Ana,
Chloé and David −132 each; Bruno 1st, the three others 2nd ex aequo.

« An older version ranked differently » is played by changing the stored score rows without telling the ranking
clock (as a new version's rules would count the same rows differently): moving the second deal's rows to round 2
changes the rounds each played (1 → 2), not a rank; giving Ana the taker's marks changes the ranks.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.integration.builders import make_round, make_tournament, named_lines
from tests.tournaments.factories import tarot_summary
from tournaments.deals.models import ScoreRow
from tournaments.deals.record import deal_record
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot
from tournaments.standings.republish import ranking_republish

pytestmark = pytest.mark.django_db


@pytest.fixture
def published():
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug="republie")
    (table,) = make_round(t, 1, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")]])
    make_round(t, 2, [[e[n] for n in ("Ana", "Bruno", "Chloé", "David")]])
    first = deal_record(table=table, record=tarot_summary(taker=1), user=None)
    second = deal_record(table=table, record=tarot_summary(taker=1, dealer=1), user=None)
    tasks.ranking_refresh(t.pk)
    return t, e, first, second


def ranks(t) -> dict[str, tuple[int, int, int]]:
    """name → (rank, marks, rounds) of the latest published ranking, as its lines were stored."""
    snapshot = rankings.latest_snapshot(t.pk)
    out = {}
    for name, line in named_lines(snapshot):
        metrics = rankings.metrics_dict(line)
        out[name] = (line.rank, metrics["marks"], metrics["rounds"])
    return out


def test_nothing_differs_nothing_is_published(published):
    t, *_ = published
    before = RankingSnapshot.objects.filter(tournament=t).count()
    assert ranking_republish(tournament_id=t.pk).outcome == "current"
    assert RankingSnapshot.objects.filter(tournament=t).count() == before


def test_only_figures_differ_the_ranking_is_published_again(published):
    t, _e, _first, second = published
    assert ranks(t)["Bruno"] == (1, 396, 1) and ranks(t)["Ana"] == (2, -132, 1)
    round2 = t.rounds.get(number=2)
    ScoreRow.objects.filter(deal=second).update(round=round2)  # the same marks, now over two rounds
    found = ranking_republish(tournament_id=t.pk)
    assert (found.outcome, found.moved, found.changed) == ("figures", (), 4)  # each player's « rounds » 1 → 2
    assert ranks(t) == {"Bruno": (1, 396, 2), "Ana": (2, -132, 2), "Chloé": (2, -132, 2), "David": (2, -132, 2)}
    assert ranking_republish(tournament_id=t.pk).outcome == "current"


def test_a_rank_that_would_move_is_left_as_published_unless_forced(published):
    t, e, first, second = published
    for deal in (first, second):  # Ana, not Bruno, made the two gardes
        ScoreRow.objects.filter(deal=deal, entry=e["Ana"]).update(points=198)
        ScoreRow.objects.filter(deal=deal, entry=e["Bruno"]).update(points=-66)
    found = ranking_republish(tournament_id=t.pk)
    assert found.outcome == "order" and not found.published
    assert sorted((m.entry, m.old_rank, m.new_rank) for m in found.moved) == sorted(
        [(e["Ana"].pk, 2, 1), (e["Bruno"].pk, 1, 2)])
    assert ranks(t)["Bruno"] == (1, 396, 1)  # the official ranking did not change by itself
    out = io.StringIO()
    call_command("republish", stdout=out)
    assert "les rangs changeraient (Ana 2 → 1, Bruno 1 → 2" in out.getvalue() or \
        "les rangs changeraient (Bruno 1 → 2, Ana 2 → 1" in out.getvalue()
    assert ranks(t)["Bruno"] == (1, 396, 1)
    call_command("republish", "republie", "--force", stdout=out)
    assert ranks(t) == {"Ana": (1, 396, 1), "Bruno": (2, -132, 1), "Chloé": (2, -132, 1), "David": (2, -132, 1)}


def test_a_ranking_behind_its_changes_or_never_published_is_left_to_the_refresh(published):
    t, _e, _first, _second = published
    rankings.ranking_inputs_changed(tournament_id=t.pk)
    assert ranking_republish(tournament_id=t.pk).outcome == "behind"
    other, _ = make_tournament(["Eve", "Fanny", "Gaston", "Hugo"], slug="jamais")
    assert ranking_republish(tournament_id=other.pk).outcome == "unpublished"
