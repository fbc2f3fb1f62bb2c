"""Irregular deals of L'Impériale and Le Vingt-quatre on the pages: the tap page's save, the table's sheet, the deal's
page, the chief's queue with the decisions the texts give for each game and in each game's own words, the ruling
posted from there. The deals and their marks by hand: ``tests/tournaments/deals/test_irregular_imperiale.py`` and
``test_irregular_vingt_quatre.py`` (their docstrings)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tests.tournaments.deals import test_irregular_imperiale as imp
from tests.tournaments.deals import test_irregular_vingt_quatre as v24
from tournaments.deals.models import Deal, Ruling

pytestmark = pytest.mark.django_db

imp_table = imp.table
v24_table = v24.table
AWAITED = "donne irrégulière — décision de l'arbitre attendue"


def save(client, table, fields, irregular=True):
    body = {"fields": fields, **({"irregular": True} if irregular else {})}
    return client.post(reverse("deal_play_save", args=[table.pk]), data=json.dumps(body),
                       content_type="application/json")


def text(response) -> str:
    """The page's visible words (tags, scripts and styles dropped, entities read, spaces folded)."""
    assert response.status_code == 200, response.status_code
    body = response.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def chief_text(client, table) -> str:
    client.force_login(imp.user("chef"))
    return text(client.get(reverse("chief_page", args=[table.round.tournament.slug])))


def saved_irregular(client, table, fields) -> Deal:
    client.force_login(imp.user("arbitre"))
    assert save(client, table, fields, irregular=False).status_code == 422
    answer = save(client, table, fields)
    assert answer.status_code == 201, answer.json()
    assert "irrégulière" in answer.json()["message"] and "arbitre est appelé" in answer.json()["message"]
    return Deal.objects.get(table=table)


def test_impériale_on_the_sheet_the_deal_page_and_the_chief_queue(client, imp_table):
    deal = saved_irregular(client, imp_table, imp.RENONCE)
    sheet = text(client.get(reverse("table_detail", args=[imp_table.pk])))
    assert AWAITED in sheet
    page = text(client.get(reverse("deal_detail", args=[deal.pk])))
    # the deal's page says it waits for the arbiter and what was found, in the table's words
    assert AWAITED in page and "Pli 1 : Bruno doit fournir à pique : sa main contient l'as de pique." in page
    assert "Turn up" not in page and "Retourne 8 de cœur" in page
    assert "Main de Bruno as de pique" in page and "joueur 1" not in page
    chief = chief_text(client, imp_table)
    assert "Pli 1 : Bruno doit fournir à pique" in chief
    for words in ("La pénalité fixée par les règles", "Compter la donne telle que jouée", "Annuler la donne",
                  "Marques fixées par l'arbitre (avec un motif)", "Marques fixées par l'arbitre, en impériales"):
        assert words in chief, words
    # each preset with who pays what (AUJ-IMP rules IV and X, A-I10), no rule code, no law 43 (L'Écarté's)
    assert ("Carte non prise (pouvant la prendre) — le joueur fautif perd 1 impériale s'il en a, sinon chaque "
            "adversaire en marque autant") in chief
    assert "Maldonne : le donneur perd la donne et une impériale — le donneur perd 1 impériale" in chief
    assert "loi 43" not in chief and "must_follow" not in chief and "imperiale_" not in chief
    # the deal's jetons would carry and could end the match before the penalty: the penalty stands alone, said so
    assert "Carte non prise (pouvant la prendre) : la donne ne compte pas ; seule la pénalité est marquée." in chief
    assert "Maldonne : la donne ne compte pas (elle est redonnée) ; seule la pénalité est marquée." in chief
    # the chief rules the penalty from his page: Bruno has no impériale, Ana scores one and wins the match of one
    bruno = imp.entries(imp_table)["Bruno"]
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "penalty", "penalty": "imperiale_failed_to_take", "offender": bruno,
                          "reason": "renonce au premier pli"})
    assert answer.status_code == 302
    ruling = Ruling.objects.get(deal=deal)
    assert ruling.adjustments == {str(imp.entries(imp_table)["Ana"]): 1} and ruling.decision == "penalty"
    assert imp.match(imp_table) == ([1, 0], True, 0)
    assert f'id="irregular-{deal.pk}"' not in client.get(
        reverse("chief_page", args=[imp_table.round.tournament.slug])).content.decode()
    page = text(client.get(reverse("deal_detail", args=[deal.pk])))
    notice = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    notice = notice[notice.index('id="irregular-notice"'):]
    assert "donne irrégulière" in notice[:200] and "attendue" not in notice[:notice.index("</div>")]
    assert "Carte non prise (pouvant la prendre) — renonce au premier pli" in page and "enregistrée par chef" in page


def test_vingt_quatre_in_its_own_words_and_no_penalty(client, v24_table):
    deal = saved_irregular(client, v24_table, v24.RENONCE)
    sheet = text(client.get(reverse("table_detail", args=[v24_table.pk])))
    assert AWAITED in sheet
    page = text(client.get(reverse("deal_detail", args=[deal.pk])))
    assert AWAITED in page and "Pli 1 : David doit fournir à pique : sa main contient le 7 de pique." in page
    assert "Retourne 2 de trèfle" in page and "Main d'Ana 3 de pique" in page
    chief = chief_text(client, v24_table)
    assert "Pli 1 : David doit fournir à pique" in chief
    assert "Compter la donne telle que jouée" in chief and "Marques fixées par l'arbitre, en jetons" in chief
    # the text gives no penalty: none offered, and the page says why
    assert "La pénalité fixée par les règles" not in chief and 'name="penalty"' not in chief
    # after « pour ce jeu : », in lower case (French after a colon)
    assert "pour ce jeu : le texte du Vingt-quatre ne donne aucune règle d'irrégularité." in chief
    for page_words in (sheet, page, chief):  # Le Vingt-quatre has jetons and parties, no fiche nor impériale
        assert not re.search(r"fiche|impériale", page_words, re.I), re.findall(r".{30}(?:fiche|impériale).{30}",
                                                                             page_words, re.I)
    # the chief types the marks with a reason: Bruno 6 jetons, the partie (the Point of David taken away)
    ids = v24.entries(v24_table)
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "adjustment", f"points_{ids['Bruno']}": "6",
                          "reason": "renonce de David : son Point ne compte pas"})
    assert answer.status_code == 302
    assert Ruling.objects.get(deal=deal).adjustments == {str(ids["Bruno"]): 6}
    assert v24.match(v24_table) == ([0, 6, 0, 0], True, 1)


def test_a_table_arbiter_cannot_rule(client, v24_table):
    deal = saved_irregular(client, v24_table, v24.RENONCE)
    denied = client.post(reverse("irregular_rule", args=[deal.pk]), {"decision": "as_played"})
    assert denied.status_code == 403 and not Ruling.objects.exists()


def test_the_chief_page_refuses_an_adjustment_without_reason_in_words(client, v24_table):
    deal = saved_irregular(client, v24_table, v24.RENONCE)
    client.force_login(imp.user("chef"))
    ids = v24.entries(v24_table)
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "adjustment", f"points_{ids['Bruno']}": "6", "reason": ""}, follow=True)
    assert "Décision non enregistrée : Écrivez le motif de la décision." in text(answer)
    assert not Ruling.objects.exists()
