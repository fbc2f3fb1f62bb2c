"""A ruling's points in the match race of a game played to a target (RULES.md §1.13 rule 40; Triomphe §2.4
rule 14 and §2.6 rules 20-21). Expected figures are worked by hand: each POINT_0 deal gives Ana (seat 0) the
point (3 tricks to 2), each VOLE_1 deal gives Bruno (seat 1) the vole (2)."""

from __future__ import annotations

import pytest

from tests.integration.builders import make_round, make_tournament, named_lines
from tests.scoring.test_triomphe_scoring import POINT_0, VOLE_1, in_turn
from tournaments.common.errors import DealRejected
from tournaments.deals import selectors
from tournaments.deals.record import deal_annul, deal_record
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Table
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db

POINT = {"dealer": 1, "turn_up": "9H", "tricks": POINT_0}
VOLE_BRUNO = {"dealer": 1, "turn_up": "9H", "tricks": VOLE_1}
POINTS = in_turn([POINT] * 8)
"""Ana's points dealt in turn (§2.2 rule 6): ``POINTS[k]`` is the k-th deal that counts, dealt by Bruno when k is
even, by Ana when odd (each seat playing the same cards: Ana wins the same tricks)."""
VOLE_BRUNO_BY_ANA = in_turn([VOLE_BRUNO] * 2)[1]


@pytest.fixture
def chief():
    from tests.tournaments.factories import UserFactory
    return UserFactory(is_superuser=True)


@pytest.fixture
def match_table():
    t, e = make_tournament(["Ana", "Bruno"], game="triomphe", slug="race")
    (table,) = make_round(t, 1, [[e["Ana"], e["Bruno"]]])
    return table


def ids(table: Table) -> list[int]:
    return [s.entry_id for s in selectors.table_seats(table)]


def match_points(table: Table) -> dict[str, int]:
    version = tasks.ranking_refresh(table.round.tournament_id)
    snap = RankingSnapshot.objects.get(tournament_id=table.round.tournament_id, input_version=version)
    return {name: rankings.metrics_dict(ln)["match_points"] for name, ln in named_lines(snap)}


def test_a_misdeal_point_ends_the_match_and_decides_the_ranking(match_table, chief):
    ana, bruno = ids(match_table)
    for k in range(4):
        deal_record(table=match_table, record=POINTS[k], user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [4, 0] and not match_table.match_ended
    assert match_points(match_table) == {"Ana": 0, "Bruno": 0}  # a match in play counts nothing
    # Bruno misdeals with no point: Ana scores one (§2.6 rule 20): 5 = the target
    ruling = ruling_record(table=match_table, kind=None, reason="", user=chief,
                                    penalty="triomphe_misdeal", offender=bruno)
    assert ruling.adjustments == {str(ana): 1}
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_winner == 0 and match_table.match_ended
    assert selectors.table_totals(match_table) == {ana: 5, bruno: 0}  # the score sheet agrees with the race
    assert match_points(match_table) == {"Ana": 2, "Bruno": 0}  # win 2, loss 0
    # Bruno's vole would have made it 5-2: the match is over, refused
    with pytest.raises(DealRejected) as exc:
        deal_record(table=match_table, record=VOLE_BRUNO, user=chief)
    assert [v.rule for v in exc.value.violations] == ["match_over"]
    assert exc.value.violations[0].message("fr", ["Ana", "Bruno"]) == (
        "La partie était déjà terminée : cette donne ne compte pas.")
    # the export carries the ruling as an adjustment event after the fourth deal
    record = selectors.table_match_record(match_table)
    assert record["adjustments"] == [{"after": 3, "points": [1, 0], "reason": ruling.reason,
                                      "rule": "ADP-TRI, RULES.md §2.6 rule 20", "ref": ruling.pk}]


def test_a_penalty_changes_the_winner_and_later_deals_are_judged_with_it(match_table, chief):
    ana, bruno = ids(match_table)
    for fields in (*POINTS[:4], VOLE_BRUNO):  # 4-0, then 4-2
        deal_record(table=match_table, record=fields, user=chief)
    # Ana plays out of turn: −1 (§2.6 rule 21): 3-2
    ruling_record(table=match_table, kind=None, reason="", user=chief, penalty="triomphe_out_of_turn",
                           offender=ana)
    match_table.refresh_from_db()
    assert match_table.match_totals == [3, 2] and not match_table.match_ended
    # the preview and the entry both judge the next deal after the ruling: Bruno's vole, 3-4; again, 3-6
    deal_record(table=match_table, record=VOLE_BRUNO_BY_ANA, user=chief)
    verdict = selectors.deal_check(table=match_table, fields=VOLE_BRUNO)
    assert verdict.legal and verdict.totals == [3, 6] and verdict.winner == 1
    deal_record(table=match_table, record=VOLE_BRUNO, user=chief)
    match_table.refresh_from_db()
    # without the ruling Ana's point would have won at 5-4 … here Bruno wins 6-3
    assert match_table.match_totals == [3, 6] and match_table.match_winner == 1 and match_table.match_ended
    assert selectors.table_totals(match_table) == {ana: 3, bruno: 6}
    assert match_points(match_table) == {"Ana": 0, "Bruno": 2}


def test_annulling_a_deal_keeps_the_ruling_in_place(match_table, chief):
    _ana, bruno = ids(match_table)
    deals = [deal_record(table=match_table, record=POINTS[k], user=chief) for k in range(4)]
    ruling_record(table=match_table, kind=None, reason="", user=chief, penalty="triomphe_misdeal",
                           offender=bruno)  # 5-0: over
    match_table.refresh_from_db()
    assert match_table.match_ended
    # a deal annulled (a ruling annulling it, or the service): 3 points + the misdeal point = 4-0, the match
    # reopens, the ruling now follows the third deal that counts. The deal after the annulled one follows its
    # dealer: it was dealt, and passed the deal on (§2.2 rule 6).
    deal_annul(deal=deals[1], reason="donne jouée avec un jeu faux", user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [4, 0] and not match_table.match_ended and match_table.match_winner is None
    assert selectors.table_match_record(match_table)["adjustments"][0]["after"] == 2
    deal_record(table=match_table, record=POINTS[0], user=chief)  # after Ana, Bruno deals
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_winner == 0


def test_a_ruling_after_the_end_of_an_ecarte_partie_is_refused(chief):
    from tests.scoring.test_ecarte_scoring import EXCH
    from tests.scoring.test_ecarte_scoring import POINT_0 as EC_POINT
    from tests.scoring.test_ecarte_scoring import in_turn as in_turn_ecarte
    t, e = make_tournament(["Ana", "Bruno"], game="ecarte", slug="ec-race")
    (table,) = make_round(t, 1, [[e["Ana"], e["Bruno"]]])
    ana, bruno = ids(table)
    dealt_in_turn = in_turn_ecarte([{"dealer": 1, "turn_up": "9H", "tricks": EC_POINT, "exchanges": EXCH}] * 5)
    for fields in dealt_in_turn:  # 5-0: the partie ended at the fifth point
        deal_record(table=table, record=fields, user=chief)
    with pytest.raises(DealRejected) as exc:
        ruling_record(table=table, kind="other", reason="transfert", user=chief,
                               adjustments={str(ana): -1, str(bruno): 1})
    assert [v.rule for v in exc.value.violations] == ["adjustment_after_end"]
    table.refresh_from_db()
    assert table.match_totals == [5, 0] and table.rulings.count() == 0
    assert selectors.table_totals(table) == {ana: 5, bruno: 0}


def test_a_misdeal_on_a_deal_it_annuls_reads_the_dealer_s_points_without_it(match_table, chief):
    # Ana's point (1-0), then Bruno's vole dealt by Ana (1-2), misdealt (§2.6 rule 20: the deal is lost, and the
    # dealer loses one of his points if he has any, otherwise the opponents score one): the ruling annuls it. Ana,
    # the dealer, has her point without it: she loses it, 0-0. Then Bruno's vole dealt by Bruno (0-2), misdealt and
    # annulled: without that deal Bruno has no point, so Ana scores one: 1-0 — never « Bruno −1 » read from the 2
    # of the deal annulled (0-(−1)).
    ana, bruno = ids(match_table)
    deal_record(table=match_table, record=POINTS[0], user=chief)  # dealt by Bruno: Ana's point, 1-0
    vole = deal_record(table=match_table, record=VOLE_BRUNO_BY_ANA, user=chief)  # dealt by Ana: 1-2
    match_table.refresh_from_db()
    assert match_table.match_totals == [1, 2]
    ruling = ruling_record(table=match_table, kind=None, reason="", user=chief, deal=vole, annuls_deal=True,
                           penalty="triomphe_misdeal", offender=ana)
    assert ruling.adjustments == {str(ana): -1}
    match_table.refresh_from_db()
    assert match_table.match_totals == [0, 0]
    again = deal_record(table=match_table, record=VOLE_BRUNO, user=chief)  # dealt by Bruno: 0-2
    ruling = ruling_record(table=match_table, kind=None, reason="", user=chief, deal=again, annuls_deal=True,
                           penalty="triomphe_misdeal", offender=bruno)
    assert ruling.adjustments == {str(ana): 1}
    match_table.refresh_from_db()
    assert match_table.match_totals == [1, 0]
    assert selectors.table_totals(match_table) == {ana: 1, bruno: 0}


def test_an_ecarte_ruling_after_the_end_is_refused_in_the_table_s_words(client, chief):
    # the walk's « L'ajustement 1 vient après la fin de la partie » at L'Écarté: 5-0 after the fifth point (§3.4),
    # typed points after it would not count; the texts give no amount for a fault (CAV law 43: the hand is
    # replayed or stands with a point less), so the form points to the deal itself
    from django.urls import reverse

    from tests.scoring.test_ecarte_scoring import EXCH
    from tests.scoring.test_ecarte_scoring import POINT_0 as EC_POINT
    from tests.scoring.test_ecarte_scoring import in_turn as in_turn_ecarte
    t, e = make_tournament(["Ana", "Bruno"], game="ecarte", slug="ec-words")
    (table,) = make_round(t, 1, [[e["Ana"], e["Bruno"]]])
    ana, bruno = ids(table)
    for fields in in_turn_ecarte([{"dealer": 1, "turn_up": "9H", "tricks": EC_POINT, "exchanges": EXCH}] * 5):
        deal_record(table=table, record=fields, user=chief)
    client.force_login(chief)
    answer = client.post(reverse("ruling_create", args=[table.pk]),
                         {"kind": "other", "reason": "renonce", f"adj_{ana}": "-1", f"adj_{bruno}": "1"})
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "La partie était déjà finie : ces points d&#x27;arbitrage viendraient après sa fin" in page
    assert "annulez cette donne (elle est rejouée)" in page
    assert "ajustement 1" not in page.lower() and "Adjustment" not in page
