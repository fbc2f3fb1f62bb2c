"""How a decided irregular deal and an annulled deal read on every page that shows a deal's marks (a walk of whole
events on a phone: a Tarot deal the chief counted « telle que jouée » still read « irrégulière, non comptée », its
marks in brackets and again as a « Décisions d'arbitrage » row; an annulled deal still showed its marks).

The deal is ``tests/golden/tarot-revoke.json`` (Chloé's garde, fallen by 20, renonces at tricks 3 and 5): S = −(25 +
20) × 2 = −90, each defender +90, the taker 3 × −90 = −270 (RULES.md §1.11 rule 31; the hand count is in
``tests/browser/test_irregular_tarot.py``). Counted as played by the chief, it counts once: Ana, Bruno, David 90,
Chloé −270 (RULES.md §1.13 rules 37–40). The second deal is a valid one with marks 60 / −20 / −20 / −20."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tests.tournaments.factories import UserFactory, role
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import irregular_rule, ruling_record
from tournaments.public import published, views

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
NAMES = ["Ana", "Bruno", "Chloé", "David"]


@pytest.fixture
def day():
    t, e = make_tournament(NAMES, slug="irr")
    (table,) = make_round(t, 1, [[e[n] for n in NAMES]])
    chief = UserFactory(username="chef")
    role(t, chief, "chief_arbiter")
    deal = deal_record(table=table, record=json.loads((GOLDEN / "tarot-revoke.json").read_text()), user=chief,
                       irregular=True)
    add_deal(table, [60, -20, -20, -20], taker=0)
    return t, table, deal, chief


def _section(page: str) -> str:
    return page.split('<section class="table-result">', 1)[1].split("</section>", 1)[0]


def test_a_deal_counted_as_played_reads_counted_once_on_the_public_round_page(client, day):
    t, _table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="renonces croisées", user=chief)
    page = _section(client.get(reverse("public-round", args=[t.slug, 1])).content.decode())
    assert "non comptée" not in page and "not-counted" not in page
    assert "comptée par l&#x27;arbitre" in page or "comptée par l'arbitre" in page
    rows = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    assert "<td>90</td>" in rows[0] and '<td class="neg">-270</td>' in rows[0]
    assert "⚖" not in page  # its marks are the deal's line: no rulings' row repeating them
    foot = page.split("<tfoot>", 1)[1].split("</tfoot>", 1)[0]
    # 90 + 60 = 150; 90 − 20 = 70; −270 − 20 = −290 (each point once)
    assert [c.split("</th>")[0] for c in foot.split("<th>")[1:5]] == ["150", "70", "-290", "70"]


def test_the_ranking_counts_the_deal_once(day):
    from tournaments.standings.rankings import tarot_totals

    t, table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    names = {s.entry_id: s.entry.player.name for s in table.seats.select_related("entry__player")}
    assert {names[x.entry]: x.marks for x in tarot_totals(t, [table.round_id])} == {
        "Ana": 150, "Bruno": 70, "Chloé": -290, "David": 70}


def test_the_csv_and_the_printed_results_say_counted(client, day):
    t, _table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    client.get(reverse("public-round", args=[t.slug, 1]))
    state = published.read(t.slug)
    csv = views.results_csv_page(state)[1]()
    assert "non comptée" not in csv and "décision d'arbitrage" not in csv
    assert "1;1;1;irrégulière, comptée par l'arbitre;1;Ana;90" in csv
    assert "1;1;1;irrégulière, comptée par l'arbitre;3;Chloé;-270" in csv
    printed = views.results_print_page(state, "fr")[1]()
    assert "non comptée" not in printed and "(90)" not in printed and "comptée par l" in printed


def test_the_desk_sheet_shows_the_counted_deal_as_points_and_the_ruling_without_them(client, day):
    _t, table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    client.force_login(chief)
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    sheet = page.split('id="scoresheet"', 1)[1].split("</table>", 1)[0]
    assert "(90)" not in sheet and "(-270)" not in sheet and "not-counted" not in sheet
    assert "comptée par l" in sheet
    assert "Ana +90" not in sheet  # the ruling's line does not repeat the deal's marks


def test_an_annulled_deal_shows_no_marks(client, day):
    t, table, deal, chief = day
    valid = Deal.objects.get(table=table, number=2)
    ana = table.seats.get(position=0).entry_id
    ruling_record(table=table, kind="renonce", reason="renonce au pli 7", user=chief, deal=valid,
                  annuls_deal=True, adjustments={str(ana): -1}, is_penalty=True)
    client.force_login(chief)
    desk = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    row = desk.split('id="scoresheet"', 1)[1].split("</table>", 1)[0].split("<tr")[3]
    assert "annulée" in row and "60" not in row and "-20" not in row
    detail = client.get(reverse("deal_detail", args=[valid.pk])).content.decode()
    marks = detail.split('id="scores"', 1)[1].split("</section>", 1)[0]
    assert "60" not in marks and "-20" not in marks and "annulée" in marks
    # the irregular deal annulled by the chief: its page shows no marks, its history what was entered, not counting
    irregular_rule(deal=deal, decision="annul", reason="", user=chief)
    detail = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    marks = detail.split('id="scores"', 1)[1].split("</section>", 1)[0]
    assert "90" not in marks and "-270" not in marks
    versions = detail.split("Versions", 1)[1]
    assert "90 / 90 / -270 / 90 — elles ne comptent pas" in versions
    public = _section(client.get(reverse("public-round", args=[t.slug, 1])).content.decode())
    rows = public.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr>")[1:]
    assert "(60)" not in rows[1] and "60" not in rows[1] and "—" in rows[1]
    client.get(reverse("public-round", args=[t.slug, 1]))
    csv = views.results_csv_page(published.read(t.slug))[1]()
    assert "1;1;2;annulée;1;Ana;;\r" in csv or "1;1;2;annulée;1;Ana;;\n" in csv


def test_the_player_page_reads_a_penalty_on_an_annulled_deal_as_a_ruling(client, day):
    t, table, _deal, chief = day
    valid = Deal.objects.get(table=table, number=2)
    ana = table.seats.get(position=0).entry
    ruling_record(table=table, kind="renonce", reason="renonce au pli 7", user=chief, deal=valid,
                  annuls_deal=True, adjustments={str(ana.pk): -1}, is_penalty=True)
    page = client.get(reverse("public-player", args=[t.slug, ana.pk])).content.decode()
    assert "renonce" in page
    history = page.split("Donne après donne", 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    line = next(chunk for chunk in history.split("<tr")[1:] if "-1" in chunk or "−1" in chunk)
    assert "renonce" in line and "donne 2" in line


def test_the_table_link_reads_the_counted_deal_as_counted(client, day):
    from tournaments.links.service import link_for_table

    _t, table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="renonces croisées", user=chief)
    token = link_for_table(table=table, user=chief).token
    home = client.get(reverse("link_home", args=[token])).content.decode()
    sheet = home.split('id="scoresheet"', 1)[1].split("</table>", 1)[0]
    assert "(90)" not in sheet and "comptée par l" in sheet and "Ana +90" not in sheet
    page = client.get(reverse("link_deal", args=[token, 1])).content.decode()
    lines = page.split(f'id="sheet-{deal.pk}"', 1)[1].split("</ul>", 1)[0]
    assert "(90)" not in lines and "(-270)" not in lines and "not-counted" not in lines
    assert "ne comptent pas" not in page and "comptée par l" in page


def test_the_deal_page_says_whether_the_chief_counted_the_irregular_deal(client, day):
    _t, _table, deal, chief = day
    client.force_login(chief)
    url = reverse("deal_detail", args=[deal.pk])
    waiting = client.get(url).content.decode().split('id="scores"', 1)[1].split("</section>", 1)[0]
    assert "(90)" in waiting and "(-270)" in waiting  # not counted while the chief has not ruled
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    page = client.get(url).content.decode()
    notice = page.split('id="irregular-notice"', 1)[1].split("</div>", 1)[0]
    assert "comptée par l" in notice
    marks = page.split('id="scores"', 1)[1].split("</section>", 1)[0]
    assert "(90)" not in marks and ">90<" in marks and ">-270<" in marks


def test_the_player_page_reads_the_counted_deal_as_the_deal(client, day):
    t, table, deal, chief = day
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    ana = table.seats.get(position=0).entry
    page = client.get(reverse("public-player", args=[t.slug, ana.pk])).content.decode()
    history = page.split("Donne après donne", 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    first = history.split("<tr")[1]
    assert "⚖" not in first and "comptée par l" in first and ">90<" in first


def test_the_csv_keeps_the_marks_that_do_not_count_out_of_its_points_column(client, day):
    """The irregular deal not ruled on yet, a third deal awaiting the visa: their marks as played under « Points non
    comptés », « Points » empty, so that the column sums to each player's total (a walk summed the marks twice).
    Then the chief counts the irregular deal as played: its marks move to « Points », the column still sums."""
    import csv as csvlib
    import io

    t, table, deal, chief = day
    add_deal(table, [-104, -104, 312, -104], taker=2, status="pending")

    def rows() -> list[list[str]]:
        client.get(reverse("public-round", args=[t.slug, 1]))
        text = views.results_csv_page(published.read(t.slug))[1]()
        return list(csvlib.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))

    def summed(table_rows: list[list[str]]) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in table_rows[1:]:
            out[row[5]] = out.get(row[5], 0) + (int(row[6]) if row[6] else 0)
        return out

    before = rows()
    assert before[0] == ["Manche", "Table", "Donne", "État", "Place", "Joueur", "Points", "Points non comptés"]
    assert ["1", "1", "1", "irrégulière, non comptée", "3", "Chloé", "", "-270"] in before
    assert ["1", "1", "3", "en attente du visa", "3", "Chloé", "", "312"] in before
    assert ["1", "1", "2", "valide", "1", "Ana", "60", ""] in before
    assert summed(before) == {"Ana": 60, "Bruno": -20, "Chloé": -20, "David": -20}
    irregular_rule(deal=deal, decision="as_played", reason="vu", user=chief)
    after = rows()
    assert ["1", "1", "1", "irrégulière, comptée par l'arbitre", "3", "Chloé", "-270", ""] in after
    assert summed(after) == {"Ana": 150, "Bruno": 70, "Chloé": -290, "David": 70}
