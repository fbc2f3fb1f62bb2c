"""The chief's ruling form and the API's ruling route on the deal that ended an Impériale match (the phone walk:
« L'ajustement 1 vient après la fin de la partie : il ne compterait pas » on a renonce called on that deal; and a
penalty on a deal the ruling annuls worked out with the deal still counted). docs/deal-record.md, "A fault in the
deal that ended the match". Figures by hand from RULES.md §4 (deals of ``tests/scoring/test_imperiale.py``):

target 4 — D1 (dealer Marie-Bernadette): the Point to her, Œdipe's capote 2 erasing it: [0,2]; D1 mirrored: the
Point to Œdipe, her capote: [2,2]; D1 again: [2,4], Œdipe reaches 4 at the capote and wins.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tests.scoring import test_imperiale as imp
from tests.tournaments.factories import UserFactory
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.event.models import Table

pytestmark = pytest.mark.django_db

MB, OE = "Marie-Bernadette Delacroix-Montfort", "Œdipe Lefèvre-Cœurderoy"


@pytest.fixture
def chief():
    return UserFactory(is_superuser=True)


def ended_table(slug: str, chief, *, target: int = 4, fields: list | None = None,
                winner: int = 1) -> tuple[Table, list[Deal]]:
    t, e = make_tournament([MB, OE], game="imperiale", slug=slug)
    t.options, t.target = {"players": 2}, target
    t.save(update_fields=["options", "target"])
    (table,) = make_round(t, 1, [[e[MB], e[OE]]])
    fields = fields if fields is not None else [imp.d1(), imp.d1(dealer=1), imp.d1()]
    deals = [deal_record(table=table, record=f, user=chief) for f in fields]
    table.refresh_from_db()
    assert table.match_ended and table.match_winner == winner
    return table, deals


def seat_ids(table: Table) -> list[int]:
    return [s.entry_id for s in selectors.table_seats(table)]


def test_the_chief_rules_a_renonce_on_the_deal_that_ended_the_match(client, chief):
    table, deals = ended_table("imp-page-end", chief)
    mb, oe = seat_ids(table)
    client.force_login(chief)
    url = reverse("ruling_create", args=[table.pk]) + f"?deal={deals[2].pk}"
    answer = client.post(url, {"penalty": "imperiale_failed_to_take", "offender": str(oe), "reason": "",
                               "deal": str(deals[2].pk)}, follow=True)
    page = answer.content.decode()
    assert answer.redirect_chain, page[page.find("non enregistrée"):][:600]
    # Œdipe had 2 impériales before that deal: he loses one there (AUJ-IMP rule X), [2,1], then the deal: [2,3]
    assert f"Décision enregistrée : {OE} -1." in page
    table.refresh_from_db()
    assert table.match_totals == [2, 3] and not table.match_ended and table.match_winner is None
    assert selectors.table_totals(table) == {mb: 2, oe: 3}
    # the deal's own page says the penalty's points beside the ruling (it named the ruling alone)
    detail = client.get(reverse("deal_detail", args=[deals[2].pk])).content.decode()
    rulings = detail.split('id="deal-rulings"', 1)[1].split("</ul>", 1)[0]
    assert f'<strong class="ruling-points">({OE} −1)</strong>' in rulings


def test_annulled_with_the_ruling_the_deal_is_out_before_the_penalty(client, chief):
    # target 2, one deal, D1: the Point to Marie-Bernadette, Œdipe's capote 2: he reaches 2 and wins. The chief
    # annuls that deal with the penalty on Œdipe: without it he has no impériale to lose, so each opponent scores
    # one (A-I10): Marie-Bernadette [1,0] — not « Œdipe −1 » worked out from the annulled deal's 2.
    table, deals = ended_table("imp-page-annul", chief, target=2, fields=[imp.d1()])
    mb, oe = seat_ids(table)
    client.force_login(chief)
    url = reverse("ruling_create", args=[table.pk]) + f"?deal={deals[0].pk}"
    answer = client.post(url, {"penalty": "imperiale_failed_to_take", "offender": str(oe), "reason": "",
                               "annuls_deal": "on", "deal": str(deals[0].pk)}, follow=True)
    page = answer.content.decode()
    assert answer.redirect_chain, page[page.find("<main"):][:1500]
    assert f"Décision enregistrée : {MB} +1." in page
    assert table.rulings.get().adjustments == {str(mb): 1}
    assert Deal.objects.get(pk=deals[0].pk).status == Deal.Status.ANNULLED
    table.refresh_from_db()
    assert table.match_totals == [1, 0] and not table.match_ended
    assert selectors.table_totals(table) == {mb: 1, oe: 0}
    detail = client.get(reverse("deal_detail", args=[deals[0].pk])).content.decode()
    rulings = detail.split('id="deal-rulings"', 1)[1].split("</ul>", 1)[0]
    assert f'<strong class="ruling-points">({MB} +1)</strong>' in rulings and "donne annulée" in rulings


def test_a_refusal_after_the_end_is_in_the_table_s_words(client, chief):
    table, _deals = ended_table("imp-page-late", chief)
    mb, _oe = seat_ids(table)
    client.force_login(chief)
    # typed points with no deal named, after the deal that ended the match: they would not count
    answer = client.post(reverse("ruling_create", args=[table.pk]),
                         {"kind": "other", "reason": "retard", "is_penalty": "on", f"adj_{mb}": "1"})
    assert answer.status_code == 422
    page = answer.content.decode()
    assert "La partie était déjà finie" in page
    assert "rendez la décision sur cette donne" in page
    assert not re.search(r"[Aa]justement \d|adjustment", page)


def test_the_api_rules_on_the_deal_that_ended_the_match(api_client, chief):
    table, deals = ended_table("imp-api-end", chief)
    _mb, oe = seat_ids(table)
    api_client.force_authenticate(chief)
    url = f"/api/tournaments/{table.round.tournament_id}/rulings/"
    ok = api_client.post(url, {"table": table.pk, "deal": deals[2].pk, "penalty": "imperiale_failed_to_take",
                               "offender": oe}, format="json")
    assert ok.status_code == 201, ok.json()
    assert ok.json()["adjustments"] == {str(oe): -1}
    table.refresh_from_db()
    assert table.match_totals == [2, 3] and not table.match_ended


def test_the_deal_page_says_when_the_match_ended_at_the_fault(client, chief):
    # target 2: D2 gives Œdipe 1; D1 mirrored, Marie-Bernadette's capote (2): she wins. She failed to take in that
    # deal with no impériale before it: Œdipe scores one at the fault (A-I10), reaching 2 before the deal's marks
    table, deals = ended_table("imp-page-fault", chief, target=2, fields=[imp.d2(), imp.d1(dealer=1)], winner=0)
    mb, oe = seat_ids(table)
    client.force_login(chief)
    url = reverse("ruling_create", args=[table.pk]) + f"?deal={deals[1].pk}"
    answer = client.post(url, {"penalty": "imperiale_failed_to_take", "offender": str(mb), "reason": "",
                               "deal": str(deals[1].pk)})
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.match_totals == [0, 2] and table.match_winner == 1
    assert selectors.table_totals(table) == {mb: 0, oe: 2}
    page = client.get(reverse("deal_detail", args=[deals[1].pk])).content.decode()
    assert "La partie s'est terminée à la pénalité d'une faute commise dans cette donne" in page
