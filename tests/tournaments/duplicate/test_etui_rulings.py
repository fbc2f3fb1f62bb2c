"""A ruling on a duplicate deal (docs/duplicate.md, « Scoring »): a ruling's point adjustments stay out of the
étui's comparison — the deal's own marks are its result — while the ruling that decides an irregular deal gives
the deal its marks. Every page of the étui still opens, and the ranking refreshes (a walk: a 500 « two results
for entry 47 on étui 1 » on the deal, étuis and traveller pages, the ranking stuck « pas à jour »)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.duplicate.events import sixteen, table_of
from tests.tournaments.factories import UserFactory, role, tarot_summary
from tournaments.deals.models import Ruling
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.duplicate.models import Etui
from tournaments.duplicate.results import board_results, traveller
from tournaments.standings import rankings, tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return sixteen(rounds_planned=2, is_public=True)


_table = table_of


def _seats(table):
    return [s.entry_id for s in table.seats.order_by("position")]


def _play_etui_one(event):
    """Tables 1 and 3 play étui 1 (dealt by North): East takes a garde, 2 bouts, 49 then 45 points."""
    user = UserFactory(username="arbitre")
    first = deal_record(table=_table(event, 1, 1), user=user, record=tarot_summary(taker=1, points=49, dealer=0))
    deal_record(table=_table(event, 1, 3), user=user, record=tarot_summary(taker=1, points=45, dealer=0))
    return first


def test_a_rulings_points_stay_out_of_the_etuis_comparison(event):
    deal = _play_etui_one(event)
    table = deal.table
    north, east, south, west = _seats(table)
    ruling_record(table=table, kind="renonce", deal=deal, reason="Renonce de l'Est au pli 5", user=None,
                  adjustments={str(north): 20, str(east): -60, str(south): 20, str(west): 20})
    mine = {r.entry: r.mark for r in board_results(event) if r.table == 1 and r.board == 1}
    # the deal's own marks, as played: garde (×2), 49 points with 2 bouts (41 needed): (25 + 8) × 2 = 66 a
    # defender, 3 × 66 = 198 for the taker; the ruling's +20 / −60 are not a second result of each seat
    assert mine == {north: -66, east: 198, south: -66, west: -66}
    # East of table 1 (198) beats East of table 3 (45 points: (25 + 4) × 2 × 3 = 174): 2 and 0 matchpoints of 2
    # results where the movement expects 4 tables: Neuberg (2 + 1)·4/2 − 1 = 5 and (0 + 1)·4/2 − 1 = 1 of 6
    trav = traveller(event, Etui.objects.get(tournament=event, number=1))
    east_percent = {line.table: line.percentages[1] for line in trav.lines}
    assert east_percent == {1: Fraction(500, 6), 3: Fraction(100, 6)}


def test_the_ruling_that_decides_an_irregular_deal_gives_its_marks(event):
    """An irregular deal's own marks never count: the chief's marks are its result on the étui."""
    from tournaments.deals.rulings import irregular_rule

    deal = _play_etui_one(event)
    deal.status = "irregular"  # as if saved « La saisir quand même »: its own rows count nowhere
    deal.save(update_fields=["status"])
    deal.score_rows.update(counts=False)
    north, east, south, west = _seats(deal.table)
    irregular_rule(deal=deal, decision="adjustment", reason="Renonce : marques de l'arbitre", user=None,
                   adjustments={str(north): 30, str(east): -90, str(south): 30, str(west): 30}, is_penalty=False)
    mine = {r.entry: r.mark for r in board_results(event) if r.table == 1 and r.board == 1}
    assert mine == {north: 30, east: -90, south: 30, west: 30}


def test_after_a_ruling_every_page_of_the_etui_opens_and_the_ranking_refreshes(event, client):
    deal = _play_etui_one(event)
    table = deal.table
    north, east, south, west = _seats(table)
    chief = UserFactory(username="arbitre-principal")
    role(event, chief, "chief_arbiter")
    client.force_login(chief)
    response = client.post(f"/desk/tables/{table.pk}/ruling/?deal={deal.pk}", {
        "deal": str(deal.pk), "kind": "renonce", "reason": "Renonce de l'Est au pli 5",
        f"adj_{north}": "20", f"adj_{east}": "-60", f"adj_{south}": "20", f"adj_{west}": "20"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Ruling.objects.filter(deal=deal, kind="renonce").exists()
    other = _table(event, 1, 3).deals.get()
    event.rounds.filter(number=1).update(released=True)
    event.released_round = 1
    event.save(update_fields=["released_round"])
    for url in (f"/desk/deals/{deal.pk}/", f"/desk/deals/{other.pk}/", f"/desk/tables/{table.pk}/etuis/",
                f"/p/{event.slug}/etuis/1/"):
        page = client.get(url)
        assert page.status_code == 200, url
    assert tasks.ranking_refresh(event.pk) is not None  # the refresh runs to a published ranking
    ranked = rankings.ranking_compute(tournament=event).individual
    east_line = next(line for line in ranked.lines if line.entry == east)
    # East of table 1 played étui 1 only: 5 of 6 (Neuberg, above); the ruling's −60 does not change a percentage
    assert east_line.metric("score") == Fraction(500, 6)
    # his page: the étui's line with its percentage, the ruling's line with its −60 and no percentage (a walk read
    # « ⚖ renonce 0 % -30 », the ruling listed like an étui)
    page = client.get(f"/p/{event.slug}/players/{east}/").content.decode()
    rows = page.split('id="per-deal"', 1)[1].split("</table>", 1)[0].split("<tr>")
    ruling_row = next(r for r in rows if "⚖" in r)
    assert "%" not in ruling_row and "-60" in ruling_row, ruling_row
    assert any("83,33\xa0%" in r or "83,33 %" in r for r in rows if "⚖" not in r and "<td" in r), rows


def test_the_ruling_page_of_a_duplicate_says_where_its_points_go(event, client):
    deal = _play_etui_one(event)
    chief = UserFactory(username="arbitre-principal")
    role(event, chief, "chief_arbiter")
    client.force_login(chief)
    page = client.get(f"/desk/tables/{deal.table_id}/ruling/?deal={deal.pk}").content.decode()
    assert "hors de la comparaison" in page and f"/desk/tables/{deal.table_id}/etuis/" in page


def test_a_withdrawn_ruling_leaves_the_results_as_they_were(event):
    deal = _play_etui_one(event)
    north, east, south, west = _seats(deal.table)
    ruling = ruling_record(table=deal.table, kind="renonce", deal=deal, reason="Renonce", user=None,
                           adjustments={str(north): 20, str(east): -60, str(south): 20, str(west): 20})
    ruling_withdraw(ruling=ruling, reason="Erreur de table", user=None)
    mine = {r.entry: r.mark for r in board_results(event) if r.table == 1 and r.board == 1}
    assert mine == {north: -66, east: 198, south: -66, west: -66}
