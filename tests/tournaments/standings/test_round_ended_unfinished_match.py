"""A match left unfinished when its round is ended is over: worth nothing, and said so.

The walk (L'Impériale): round 1 ended with two games unfinished (« Oui, terminer la manche », whose warning says
« leurs joueurs ne marqueront rien pour cette manche »), then published: the ranking showed their players « — »,
the CSV « Partie en cours : classé après ceux qui ont un résultat. », the round page « Partie (en cours) ». RULES.md
does not say what such a match is worth; the decision (docs/ranking.md, « Une partie non terminée »): over, worth
nothing to anyone — what the warning promised — and its players ranked with their other results.

By hand (``scoring/ranking.py``: a match won 2 match points, lost 0; tie-breaks Buchholz, Sonneborn-Berger,
margin, wins): table 1 Ana beat Bruno (the match ended); table 2 Clara v Denis left unfinished after one deal.
Ana 2 match points, rank 1. Bruno 0, Buchholz 2 (he met Ana): rank 2. Clara and Denis 0, no opponent counted
(an unfinished match has none), every tie-break 0: rank 3, shared. Before the round is ended the same match is
in play: Clara and Denis « — », « Partie en cours ». The three match games alike.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.integration.builders import downloaded, make_round, make_tournament
from tests.scoring.test_ecarte_scoring import EXCH
from tests.scoring.test_ecarte_scoring import POINT_0 as EC_POINT
from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own
from tests.tournaments.deals.test_rulings_match_race import POINTS
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.deals.record import deal_record
from tournaments.event.models import Round, Table
from tournaments.event.setup import round_release
from tournaments.public import queries
from tournaments.standings import tasks
from tournaments.standings.appeal import round_set_status

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bruno", "Clara", "Denis"]
#: one deal of each game, as the golden records and scoring tests give it (its marks do not matter here)
FIRST_DEAL = {
    "triomphe": ({}, None, POINTS[0]),
    "ecarte": ({}, None, {"dealer": 1, "turn_up": "9H", "tricks": EC_POINT, "exchanges": EXCH}),
    "imperiale": ({}, 5, golden_deals("imperiale-protected-retourne-and-end.json", 1)[0]),
}
NOT_FINISHED = "Partie non terminée à la table 2 (manche 1) : rien de marqué pour cette manche."
IN_PLAY = "Partie en cours : classé après ceux qui ont un résultat."


def shown(tournament) -> dict[str, tuple[object, str]]:
    return {row.name: (row.rank, row.explain) for row in queries.ranking(tournament, "fr").rows}


@pytest.mark.parametrize("game", sorted(FIRST_DEAL))
def test_a_match_left_unfinished_when_the_round_ends_is_worth_nothing_and_ranked(client, chief, game):
    options, target, deal = FIRST_DEAL[game]
    t, e = make_tournament(NAMES, game=game, slug=f"left-{game}")
    t.options, t.target = options, target
    t.save(update_fields=["options", "target"])
    one, two = make_round(t, 1, [[e["Ana"], e["Bruno"]], [e["Clara"], e["Denis"]]])
    Table.objects.filter(pk=one.pk).update(match_ended=True, match_winner=0, match_totals=[5, 3])
    deal_record(table=two, record=own(deal), user=chief)
    rnd = Round.objects.get(tournament=t, number=1)
    round_release(round=rnd, confirm_unfinished=True)
    tasks.ranking_refresh(t.pk)
    # the round running, the match is in play: no result yet
    assert shown(t)["Clara"] == ("—", IN_PLAY)
    # « Oui, terminer la manche »: over, nothing scored, ranked
    round_set_status(round=rnd, status="finished", confirm_unfinished=True)
    tasks.ranking_refresh(t.pk)
    ranks = shown(t)
    assert {name: rank for name, (rank, _words) in ranks.items()} == {"Ana": 1, "Bruno": 2, "Clara": 3, "Denis": 3}
    assert ranks["Clara"][1].startswith("Rang 3 sur 4 : 0 point de match.")
    assert ranks["Clara"][1].endswith(NOT_FINISHED) and ranks["Denis"][1].endswith(NOT_FINISHED)
    assert "non terminée" not in ranks["Bruno"][1] and IN_PLAY not in ranks["Bruno"][1]
    # the CSV says the same
    body = downloaded(client.get, reverse("public-ranking-csv", args=[t.slug])).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body), delimiter=";" if body.split("\n")[0].count(";") else ","))
    clara = next(r for r in rows if "Clara" in r)
    assert clara[0] == "3" and any(cell.endswith(NOT_FINISHED) for cell in clara)
    assert not any(IN_PLAY in cell for r in rows for cell in r)
    # the round page: « Partie (non terminée) », no longer « en cours »
    page = client.get(reverse("public-round", args=[t.slug, 1])).content.decode()
    assert "(non terminée)" in page and "(en cours)" not in page
