"""A match table's sheet as the players read it: L'Impériale's jetons carried from deal to deal beside the fiches,
and the deal that wins the match saying so, on its page and on the table's link.

The deals are the golden record ``tests/golden/imperiale-protected-retourne-and-end.json`` (2 players, a game of
5 impériales), worked by hand in ``tests/scoring/test_imperiale_golden.py`` (RULES.md §4):

* Deal 1: Bruno's Point (1 jeton), honours 2 + 1 + 1 + 1 (his sixth jeton makes a fiche, nothing left over), then
  les cartes (1 jeton): Ana 0 fiche 0 jeton, Bruno 1 fiche 1 jeton.
* Deal 2: Bruno's retourne (2 jetons); Ana's quatrième majeure (1 fiche) erases his older jeton (the retourne's is
  protected, rule 14): 1; his Point: 2; Ana's capote (2 fiches) erases both: Ana 3 fiches 0, Bruno 1 fiche 0.
* Deal 3: Ana's retourne (1 jeton), Bruno's cartes blanches (2 fiches: 3), Ana's two carrés (4, 5): Ana reaches
  5 impériales at the last mark, the partie is hers.

La Triomphe (target 5, RULES.md §2.4): each deal of ``POINTS`` is Ana's point; the fifth wins her the partie 5-0.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own, table_for
from tests.tournaments.deals.test_rulings_match_race import POINTS
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.links import service as sheet

pytestmark = pytest.mark.django_db

ANA, BRUNO = "Œdipe Lefèvre-Cœurderoy", "Marie-Bernadette Delacroix-Montfort"


def text(page: str) -> str:
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", page)))


def sheet_rows(page: str) -> list[list[str]]:
    body = page.split('id="scoresheet"')[1].split("</table>")[0]
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", c))).strip() for c in cell.findall(r)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def imperiale_table(chief, deals: int):
    table = table_for("imperiale", [ANA, BRUNO], {}, 5, f"impsheet{deals}")
    saved = [deal_record(table=table, record=own(f), user=chief) for f in golden_deals(
        "imperiale-protected-retourne-and-end.json", deals)]
    table.refresh_from_db()
    return table, saved


def test_the_impériale_sheet_shows_the_jetons_carried_beside_the_fiches(client, chief):
    """The walk: the table's sheet read « 0 / 0 » while the jetons stood at 2 and 5."""
    table, _ = imperiale_table(chief, 2)
    link = sheet.link_for_table(table=table)
    page = client.get(reverse("link_home", args=[link.token])).content.decode()
    rows = sheet_rows(page)
    assert rows[1] == ["1", "0 0 jeton", "1 1 jeton"]
    assert rows[2] == ["2", "3 0 jeton", "0 0 jeton"]
    assert rows[-2] == ["Impériales", "3", "1"] and rows[-1] == ["Jetons", "0", "0"]
    assert "Impériales gagnées à chaque donne ; en petit, les jetons de chacun après la donne." in text(page)
    client.force_login(chief)
    desk = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert sheet_rows(desk)[1] == ["1", "0 0 jeton", "1 1 jeton"]


def test_after_the_first_deal_the_jetons_now_are_his(client, chief):
    table, _ = imperiale_table(chief, 1)
    page = client.get(reverse("link_home", args=[sheet.link_for_table(table=table).token])).content.decode()
    assert sheet_rows(page)[-1] == ["Jetons", "0", "1"]


def test_the_deal_that_wins_the_impériale_says_so(client, chief):
    table, saved = imperiale_table(chief, 3)
    assert table.match_ended and table.match_winner == 0
    won = f"Partie gagnée par {ANA}"
    client.force_login(chief)
    last = client.get(reverse("deal_detail", args=[saved[2].pk])).content.decode()
    assert won in text(last)
    assert won not in text(client.get(reverse("deal_detail", args=[saved[1].pk])).content.decode())
    client.logout()
    token = sheet.link_for_table(table=table).token
    assert won in text(client.get(reverse("link_home", args=[token])).content.decode())
    assert won in text(client.get(reverse("link_deal", args=[token, 3])).content.decode())
    assert won not in text(client.get(reverse("link_deal", args=[token, 2])).content.decode())


def test_the_fifth_point_of_la_triomphe_wins_the_partie(client, chief):
    table = table_for("triomphe", [ANA, BRUNO], {}, None, "trisheetwon")
    for record in POINTS[:5]:
        deal_record(table=table, record=record, user=chief)
    table.refresh_from_db()
    assert table.match_totals == [5, 0] and table.match_ended
    fifth = Deal.objects.get(table=table, number=5)
    client.force_login(chief)
    assert f"Partie gagnée par {ANA}" in text(client.get(reverse("deal_detail", args=[fifth.pk])).content.decode())
    fourth = Deal.objects.get(table=table, number=4)
    assert "Partie gagnée" not in text(client.get(reverse("deal_detail", args=[fourth.pk])).content.decode())


def test_the_impériale_deal_page_says_the_jetons_beside_the_impériales(client, chief):
    """The walk: the deal page read « Marque : 0 / 0 » beside « les cartes … +1 jeton ». Deal 1 of the golden
    record: Ana 0 impériale 0 jeton, Bruno 1 impériale (his sixth jeton) and 1 jeton left (les cartes)."""
    _table, saved = imperiale_table(chief, 1)
    client.force_login(chief)
    page = text(client.get(reverse("deal_detail", args=[saved[0].pk])).content.decode())
    assert "Impériales gagnées : 0 / 1 ; jetons de chacun après la donne : 0 jeton / 1 jeton." in page
    assert "Marque : 0 / 1" not in page
