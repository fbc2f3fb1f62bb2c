"""The deal page explains the score: the Tarot terms as a small table, the historical games' marks in order.

The Tarot figures are the FFT worked example (RULES.md §1.11): garde, 2 bouts, 49 points → 41 needed, made
by 8; petit au bout to the attack; a simple poignée (20). Marks of the other games come from verdicts
written by hand below.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tests.tournaments.factories import tap_save, tarot_summary
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db


def cells(html: str, table_id: str) -> list[list[str]]:
    """The text of every row of the table with this id (tags stripped)."""
    body = html.split(f'id="{table_id}"')[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[htmllib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cell.findall(r)] for r in rows]


def page(client, deal, lang="fr"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(reverse("deal_detail", args=[deal.pk])).content.decode()


def test_tarot_deal_detail_in_french_and_english(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    fields = tarot_summary(petit_au_bout="attack", handfuls=[{"seat": 1, "size": "simple"}])
    assert tap_save(client, tarot_table, fields).status_code == 201
    deal = Deal.objects.get(table=tarot_table)
    # S = (25 + 8) × 2 + 10 × 2 (petit au bout) + 20 (poignée) = 106: each defender marks −106
    fr = dict(cells(page(client, deal), "deal-detail"))
    assert fr["Contrat"] == "Garde (×2)" and fr["Preneur"] == "Bruno" and fr["Bouts"] == "2"
    assert fr["Points"] == "49" and fr["Points nécessaires"] == "41" and fr["Résultat"] == "passé de 8"
    assert fr["Petit au bout"] == "gagné par le camp du preneur" and fr["Poignées"] == "Bruno : simple (20)"
    assert fr["Chelem"] == "non" and fr["Marque de chaque défenseur"] == "-106"
    en = dict(cells(page(client, deal, "en"), "deal-detail"))
    assert en["Contract"] == "Garde (×2)" and en["Points needed"] == "41" and en["Result"] == "made by 8"
    assert en["Petit au bout"] == "won by the taker's side" and en["Poignées"] == "Bruno: simple (20)"
    assert "<code>" not in page(client, deal)  # no raw dict any more


def test_fallen_contract(client, tarot_table, staff):
    # petite, 0 bouts → 56 needed; 41 points: fallen by 15
    client.force_login(staff["chief"])
    fields = tarot_summary(taker=2, contract="petite", oudlers=0, points=41)
    assert tap_save(client, tarot_table, fields).status_code == 201
    deal = Deal.objects.get(table=tarot_table)
    en = dict(cells(page(client, deal, "en"), "deal-detail"))
    assert en["Result"] == "fallen by 15" and en["Points"] == "41" and en["Poignées"] == "none"
    assert en["Contract"] == "Petite (×1)" and en["Taker"] == "Chloé"


def test_half_points_at_three_players():
    from scoring.tarot import explain

    # 3 players, petite, 0 bouts, 41.5 points (83 half-points) → 56 needed, fallen by 14.5, counted 15 (A-T7):
    # S = -(25 + 15) = -40: each defender marks +40
    result = {"contract": "petite", "coefficient": 1, "taker": 0, "partner": None, "called": None, "mort": None,
              "bouts": 0, "points": "41.5", "needed": 56, "made": False, "margin_half": -29,
              "petit_au_bout": None, "handfuls": [], "chelem": None, "chelem_announced": False, "chelem_term": 0,
              "S": -40, "source": "tricks"}
    lines = dict(explain(result, ["Ana", "Bruno", "Chloé"], "fr").lines)
    assert lines["Résultat"] == "chuté de 15 (14,5 arrondi au point)"
    assert lines["Points"] == "41,5" and lines["Saisie"] == "pli par pli"
    assert lines["Poignées"] == "aucune" and lines["Marque de chaque défenseur"] == "+40"


def test_triomphe_marks_in_order(client, django_user_model):
    t, e = make_tournament("AB", game="triomphe", slug="trimarks")
    (table,) = make_round(t, 1, [[e["A"], e["B"]]])
    verdict = {"deals": [{"scores": [0, 2], "result": {"tricks": [0, 5], "sides": [[0], [1]],
                                                       "marks": [{"kind": "vole", "seats": [1], "points": 2}]}}]}
    deal = Deal.objects.create(table=table, number=1, record={"game": "triomphe"}, verdict=verdict)
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.org", "pw-123456"))
    assert cells(page(client, deal, "en"), "deal-marks") == [["#", "Mark", "Who", "Points"],
                                                             ["1", "vole (every trick)", "B", "+2"]]
    assert cells(page(client, deal), "deal-marks")[1] == ["1", "vole (toutes les levées)", "B", "+2"]


def test_imperiale_marks_with_wipes_and_running_score(client, django_user_model):
    t, e = make_tournament("AB", game="imperiale", slug="impmarks")
    (table,) = make_round(t, 1, [[e["A"], e["B"]]])
    marks = [
        {"step": "retourne", "seat": 1, "jetons": 1, "fiches": 0, "card": "7C",
         "after": {"fiches": [0, 1], "jetons": [0, 2]}},
        {"step": "imperiale_quatrieme_majeure", "seat": 0, "jetons": 0, "fiches": 1, "wiped": {"1": 1},
         "after": {"fiches": [1, 1], "jetons": [0, 1]}},
    ]
    verdict = {"deals": [{"scores": [6, 1], "result": {"marks": marks}}]}
    deal = Deal.objects.create(table=table, number=1, record={"game": "imperiale"}, verdict=verdict)
    client.force_login(django_user_model.objects.create_superuser("boss2", "c@example.org", "pw-123456"))
    rows = cells(page(client, deal, "en"), "deal-marks")
    assert rows[0] == ["#", "Mark", "Who", "Gain", "A", "B"]
    assert rows[1] == ["1", "turn-up", "B", "+1 jeton", "0/0", "1/2"]
    assert rows[2] == ["2", "impériale: quatrième majeure — wipes B (1)", "A", "+1 fiche", "1/0", "1/1"]
    assert cells(page(client, deal), "deal-marks")[1] == ["1", "retourne", "B", "+1 jeton", "0/0", "1/2"]


def test_imperiale_marks_name_each_player_once(client, django_user_model):
    """The walk: « après : Œdipe Lefèvre-Cœurderoy 0/1 · Marie-Bernadette Delacroix-Montfort 0/0 (fiches/jetons) »
    under every mark, in a narrow column: the deal page ran to 2,500 px on a phone. Each one's fiches/jetons after
    the mark in his column, his name once in the head (short, whole in its title)."""
    long_a, long_b = "Œdipe Lefèvre-Cœurderoy", "Marie-Bernadette Delacroix-Montfort"
    t, e = make_tournament([long_a, long_b], game="imperiale", slug="impnames")
    (table,) = make_round(t, 1, [[e[long_a], e[long_b]]])
    marks = [{"step": "retourne", "seat": 0, "jetons": 1, "fiches": 0, "after": {"fiches": [0, 0], "jetons": [1, 0]}},
             {"step": "point", "seat": 1, "jetons": 1, "fiches": 0, "after": {"fiches": [0, 0], "jetons": [1, 1]}}]
    verdict = {"deals": [{"scores": [0, 0], "result": {"marks": marks}}]}
    deal = Deal.objects.create(table=table, number=1, record={"game": "imperiale"}, verdict=verdict)
    client.force_login(django_user_model.objects.create_superuser("boss3", "d@example.org", "pw-123456"))
    text = page(client, deal)
    marks_table = text.split('id="deal-marks"')[1].split("</table>")[0]
    assert marks_table.count(long_a) == marks_table.count(long_b) == 2  # his column's title, his mark's
    assert "après :" not in marks_table
    assert cells(text, "deal-marks")[2] == ["2", "le point", "Marie-B.", "+1 jeton", "0/1", "0/1"]
    assert "Après chaque marque : fiches/jetons de chacun." in text


def test_whole_detail_of_the_deal_in_words_never_codes(client, tarot_table, staff):
    """« Tout le détail de la donne » and « What changed »: names and words, no dict, no card code."""
    from tournaments.desk.record_words import record_words, value_words

    client.force_login(staff["arbiter"])
    fields = tarot_summary(handfuls=[{"seat": 1, "size": "simple"}])
    assert tap_save(client, tarot_table, fields).status_code == 201
    deal = Deal.objects.get(table=tarot_table)
    text = page(client, deal)
    detail = text.split("Tout le détail de la donne")[1].split("</details>")[0]
    assert "{" not in detail and "'" not in htmllib.unescape(detail).replace("l'", "")
    assert "<dt>Donneur</dt>" in detail and "<dt>Enchère, preneur</dt><dd>Bruno</dd>" in detail
    assert "Format" not in detail
    # the values people read: a called king by its name, a seat by the player's name, a trick by its cards
    players = ["Ana", "Bruno", "Chloé", "David", "Élise"]
    assert value_words("called", "KH", players) == "roi de cœur"
    assert value_words("partner", 4, players) == "Élise"
    assert record_words({"players": players, "tricks": [["AS", "7S"]], "dealer": 0}, players) == [
        ("pli 1", "as de pique, 7 de pique"), ("donneur", "Ana")]
    # a walk read « garde_sans » and the cavaliers as « ND NC NH NS » on the arbiter's detail
    words = dict(record_words({"game": "tarot", "bid": {"taker": 1, "contract": "garde_sans"},
                               "dog": ["ND", "NC", "NH", "NS", "KS", "T21"], "discard": ["2S"]}, players))
    assert words["écart"] == "2 de pique"
    assert words["enchère, contrat"] == "Garde sans le chien"
    assert words["chien"] == ("cavalier de carreau, cavalier de trèfle, cavalier de cœur, cavalier de pique, "
                              "roi de pique, atout 21")


def test_a_finished_partie_offers_no_new_deal(client, tarot_table, staff):
    """Once the table's partie is over, « Saisir une donne » is gone and the tap page says why (not at save)."""
    client.force_login(staff["arbiter"])
    enter = reverse("deal_enter", args=[tarot_table.pk])
    assert enter in client.get(reverse("table_detail", args=[tarot_table.pk])).content.decode()
    tarot_table.match_ended = True
    tarot_table.save(update_fields=["match_ended"])
    assert enter not in client.get(reverse("table_detail", args=[tarot_table.pk])).content.decode()
    answer = client.get(reverse("deal_play", args=[tarot_table.pk]), follow=True)
    assert "La partie de cette table est terminée" in answer.content.decode()
