"""The chief's penalty on an irregular deal (La Triomphe at two, forcée), from the rule texts.

Bruno deals, hearts trump (9H), Ana leads. Trick 1: Ana KS, Bruno KD while holding 7S and 8S (a renonce).
Trick 2: Ana 7C, Bruno 8C (wins); 3: Bruno JC, Ana QC (wins); 4: Ana QS, Bruno 7S; 5: Ana 7D, Bruno 8S. Ana wins 4
tricks, not the first three: the point, 1 (RULES.md §2.4 rule 12); Bruno 0.

ADP-TRI (RULES.md §2.6 rule 21): « qui joue avant son tour perd un jeu », failing to take or to trump loses one:
the fault is paid by the offender and the deal, played to its end, is scored as played (the text puts these
beside the engaged vole not made, which is the deal's own mark). A misdeal (rule 20) is dealt again: only the
penalty counts. Hand arithmetic: « Refus de couper » on Bruno → Ana 1 (her point) and Bruno −1 (0 − 1).
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.tournaments.desk.test_irregular_pages import FIELDS, entries, save, table, user  # noqa: F401
from tournaments.deals.models import Ruling

pytestmark = pytest.mark.django_db


def _irregular(client, table):  # noqa: F811
    from tournaments.deals.models import Deal

    client.force_login(user("arbitre"))
    assert save(client, table, {"fields": FIELDS, "irregular": True}).status_code == 201
    client.force_login(user("chef"))
    return Deal.objects.get()


def _error(client, table, deal):  # noqa: F811
    page = html.unescape(client.get(reverse("chief_page", args=[table.round.tournament.slug])).content.decode())
    article = page.split(f'id="irregular-{deal.pk}"', 1)[1].split("</article>", 1)[0]
    text = article.split(f'id="irregular-error-{deal.pk}">', 1)[1].split("</p>", 1)[0]
    return text.split("Décision non enregistrée :", 1)[1]


@pytest.mark.parametrize(("posted", "expected"), [
    ({}, "Choisissez la pénalité et le joueur fautif."),
    ({"penalty": "triomphe_failed_to_trump"}, "Choisissez le joueur fautif."),
    ({"offender": "BRUNO"}, "Choisissez la pénalité."),
])
def test_a_penalty_without_its_fields_names_them_as_the_form_does(client, table, posted, expected):  # noqa: F811
    """A walk: « la nature est l'une de renonce, misdeal, exposed_card, slow_play, other » for a form without
    any « nature »."""
    deal = _irregular(client, table)
    posted = {k: (str(entries(table)["Bruno"]) if v == "BRUNO" else v) for k, v in posted.items()}
    client.post(reverse("irregular_rule", args=[deal.pk]), {"decision": "penalty", "reason": "", **posted})
    error = _error(client, table, deal)
    assert error.strip() == expected
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(("posted", "expected"), [
    ({"decision": "let_stand"}, "Choisissez une des décisions proposées."),
    ({"decision": "penalty", "penalty": "nope", "offender": "BRUNO"}, "Choisissez la pénalité."),
    ({"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": "999999"},
     "Choisissez le joueur fautif."),
    ({"decision": "adjustment", "points_ANA": "1", "points_BRUNO": "-1"}, "Écrivez le motif de la décision."),
    ({"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": "BRUNO", "points_ANA": "1"},
     "Avec la pénalité fixée par les règles, laissez vides les marques fixées par l'arbitre."),
])
def test_no_refusal_of_the_form_shows_a_code_or_an_id(client, table, posted, expected):  # noqa: F811
    deal = _irregular(client, table)
    ids = entries(table)
    swap = {"ANA": str(ids["Ana"]), "BRUNO": str(ids["Bruno"])}
    data = {k.replace("ANA", swap["ANA"]).replace("BRUNO", swap["BRUNO"]): swap.get(v, v) for k, v in posted.items()}
    client.post(reverse("irregular_rule", args=[deal.pk]), data)
    error = _error(client, table, deal).strip()
    assert error == expected
    for word in ("let_stand", "triomphe_", "999999", "nature", "inscription", "prédéfinie"):
        assert word not in error


def test_a_fault_in_play_counts_the_deal_as_played_and_adds_the_penalty(client, table):  # noqa: F811
    deal = _irregular(client, table)
    page = html.unescape(client.get(reverse("chief_page", args=[table.round.tournament.slug])).content.decode())
    # the form says what a penalty does to the deal's own marks before the chief taps
    assert "Refus de couper : la donne compte telle que jouée et la pénalité s'y ajoute." in page
    assert "Maldonne : la donne ne compte pas (elle est redonnée) ; seule la pénalité est marquée." in page
    ana, bruno = entries(table)["Ana"], entries(table)["Bruno"]
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": bruno,
                          "reason": "la donne compte telle que jouée"})
    assert answer.status_code == 302
    ruling = Ruling.objects.get(deal=deal)
    assert ruling.adjustments == {str(ana): 1, str(bruno): -1} and ruling.is_penalty
    table.refresh_from_db()
    assert table.match_totals == [1, -1]


def test_a_misdeal_counts_only_the_penalty(client, table):  # noqa: F811
    """Rule 20: Bruno, the dealer, has no point: the opponent scores one; the deal itself does not count."""
    deal = _irregular(client, table)
    ana, bruno = entries(table)["Ana"], entries(table)["Bruno"]
    client.post(reverse("irregular_rule", args=[deal.pk]),
                {"decision": "penalty", "penalty": "triomphe_misdeal", "offender": bruno, "reason": ""})
    assert Ruling.objects.get(deal=deal).adjustments == {str(ana): 1}
    table.refresh_from_db()
    assert table.match_totals == [1, 0]


def test_the_automatic_call_names_the_irregularity(client, table):  # noqa: F811
    """A walk: the chief read « Manche 1 · Table 2 — autre · donne 1 » and the table « L'arbitre a répondu (autre,
    donne 1) » for a renonce. Bruno's KD on the led KS while holding 7S, 8S is a renonce."""
    from tournaments.links.models import ArbiterCall

    deal = _irregular(client, table)
    call = ArbiterCall.objects.get(deal=deal)
    assert call.reason == "renonce" and call.get_reason_display() == "renonce"


@pytest.mark.parametrize(("rule", "reason", "shown"), [
    ("not_in_hand", "irregular", "donne irrégulière"),
    ("revoke", "renonce", "renonce"),  # a renonce proved by a later card (no hands written)
    ("revoke_trump", "renonce", "renonce"),
])
def test_an_irregularity_is_called_by_its_name(client, table, rule, reason, shown):  # noqa: F811
    from tournaments.links import service as links
    from tournaments.links.models import ArbiterCall

    deal = _irregular(client, table)
    ArbiterCall.objects.all().delete()
    deal.verdict = {"violations": [{"rule": rule, "seat": 1}]}
    call = links.irregular_deal_call(deal, None)
    assert call.reason == reason and call.get_reason_display() == shown
    assert ArbiterCall.Reason.IRREGULAR not in [c[0] for c in links_call_choices()]


def links_call_choices():
    from tournaments.desk.table_links import CallForm

    return CallForm.base_fields["reason"].choices


def test_no_sum_of_the_marks_where_the_marks_are_not_zero_sum(client, table):  # noqa: F811
    """A walk: « Somme des marques 2 » on La Triomphe's and L'Écarté's deal pages, a check only Tarot's marks meet
    (RULES.md §1.12: the four scores sum to 0); a Triomphe deal scores the point for one side only."""
    from tournaments.links import service as links

    _irregular(client, table)
    client.logout()
    token = links.link_for_table(table=table).token
    page = html.unescape(client.get(reverse("link_deal", args=[token, 1])).content.decode())
    assert "Ana" in page and "sheet-sum" not in page and "Somme des marques" not in page
