"""L'Impériale's public round results show the jetons won, not only the impériales.

The walk: a player won 2 jetons (8 tricks, les cartes) and another 1, yet the public round page and its PDF read
« 0 0 »: a deal's scores are the impériales (fiches) it gained (RULES.md §4.2 rule 6: 6 jetons = 1 impériale), and
the jetons, carried to the next deals, were shown nowhere. The page now shows them as the table's sheet does:
under each deal's impériales, each one's jetons after the deal, and a « Jetons » line with those held now.

The deals are the golden record ``tests/golden/imperiale-protected-retourne-and-end.json`` (2 players, a game of
5 impériales), worked by hand in ``tests/scoring/test_imperiale_golden.py`` (RULES.md §4):

* Deal 1: Bruno's Point (1 jeton), honours 2 + 1 + 1 + 1 (his sixth jeton makes a fiche, nothing left over), then
  les cartes (1 jeton): Ana 0 fiche 0 jeton, Bruno 1 fiche 1 jeton.
* Deal 2: Bruno's retourne (2 jetons); Ana's quatrième majeure (1 fiche) erases his older jeton (the retourne's is
  protected, rule 14): 1; his Point: 2; Ana's capote (2 fiches) erases both: Ana 3 fiches 0, Bruno 1 fiche 0.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from tests.tournaments.deals.test_annul_middle_deal import golden_deals, own, table_for
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tournaments.deals.record import deal_record
from tournaments.public import queries
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db

ANA, BRUNO = "Ana", "Bruno"


def rows(page: str) -> list[list[str]]:
    body = page.split('class="grid marks"')[1].split("</table>")[0]
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", c))).strip() for c in cell.findall(r)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def text(page: str) -> str:
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_public_round_shows_the_jetons_beside_the_impériales(client, chief):
    table = table_for("imperiale", [ANA, BRUNO], {}, 5, "pubjetons")
    for f in golden_deals("imperiale-protected-retourne-and-end.json", 1):
        deal_record(table=table, record=own(f), user=chief)
    tournament = table.round.tournament
    tasks.ranking_refresh(tournament.pk)
    page = client.get(reverse("public-round", args=[tournament.slug, 1])).content.decode()
    shown = rows(page)
    assert shown[1] == ["1", "0 0 jeton", "1 1 jeton"]  # Bruno: a fiche and 1 jeton; Ana nothing
    assert ["Jetons", "0", "1"] in shown
    assert "Impériales gagnées à chaque donne ; en petit, les jetons de chacun après la donne." in text(page)


def test_after_an_erasure_the_jetons_are_those_left(client, chief):
    table = table_for("imperiale", [ANA, BRUNO], {}, 5, "pubjetons2")
    for f in golden_deals("imperiale-protected-retourne-and-end.json", 2):
        deal_record(table=table, record=own(f), user=chief)
    tournament = table.round.tournament
    tasks.ranking_refresh(tournament.pk)
    shown = rows(client.get(reverse("public-round", args=[tournament.slug, 1])).content.decode())
    assert shown[1] == ["1", "0 0 jeton", "1 1 jeton"]
    assert shown[2] == ["2", "3 0 jeton", "0 0 jeton"]  # Ana's capote erased Bruno's 2 jetons
    assert ["Jetons", "0", "0"] in shown
    # the results PDF is made from the same lines, with the same words
    result = queries.round_results(table.round)[0]
    assert result.deal_lines[0][2] == [("0", "", "0 jeton"), ("1", "", "1 jeton")]
    assert result.carried_now == [0, 0] and result.carried_label == "Jetons"
    # the PDF's page (print/round_results.html, what ``pdf._results`` hands to the PDF maker)
    printed = text(render_to_string("print/round_results.html", {
        "tournament": tournament, "round": table.round, "tables": [result], "part": 1, "parts": 1, "byes": []}))
    assert "1 0 (0 jeton) 1 (1 jeton)" in printed and "2 3 (0 jeton) 0 (0 jeton)" in printed
    assert "Total 3 1 Jetons 0 0" in printed
    assert "Impériales gagnées à chaque donne ; en petit, les jetons de chacun après la donne." in printed


def test_another_game_shows_no_jetons(client, chief):
    table = table_for("triomphe", [ANA, BRUNO], {"mode": "forcee", "target": 5}, 5, "pubtri")
    tasks.ranking_refresh(table.round.tournament.pk)
    result = queries.round_results(table.round)[0]
    assert result.carried_now is None and result.carried == {} and result.score_unit == ""
