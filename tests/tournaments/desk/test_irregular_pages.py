"""Irregular deals through the tap page, the chief's page and the API (La Triomphe at two, forcée).

Bruno deals, hearts trump (9H), Ana leads. Trick 1: Ana KS, Bruno KD while holding 7S and 8S (a renonce).
Trick 2: Ana 7C, Bruno 8C (wins); 3: Bruno JC, Ana QC (wins); 4: Ana QS, Bruno 7S; 5: Ana 7D, Bruno 8S. Ana wins 4
tricks, not the first three: the point, 1 (RULES.md §2.4); Bruno 0."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.links.models import ArbiterCall

pytestmark = pytest.mark.django_db

HANDS = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]
TRICKS = [["KS", "KD"], ["7C", "8C"], ["JC", "QC"], ["QS", "7S"], ["7D", "8S"]]
FIELDS = {"dealer": 1, "turn_up": "9H", "hands": HANDS, "tricks": TRICKS}


@pytest.fixture
def table():
    tournament = TournamentFactory(game="triomphe", options={"mode": "forcee", "target": 5})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    role(tournament, UserFactory(username="chef"), "chief_arbiter")
    return table


def user(name):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=name)


def save(client, table, body):
    return client.post(reverse("deal_play_save", args=[table.pk]), data=json.dumps(body),
                       content_type="application/json")


def entries(table):
    return {s.entry.player.name: s.entry_id for s in table.seats.select_related("entry__player")}


def test_tap_page_saves_an_irregular_deal_and_the_chief_rules_a_penalty(client, table):
    client.force_login(user("arbitre"))
    refused = save(client, table, {"fields": FIELDS})
    assert refused.status_code == 422 and Deal.objects.count() == 0
    saved = save(client, table, {"fields": FIELDS, "irregular": True})
    assert saved.status_code == 201, saved.json()
    assert "irrégulière" in saved.json()["message"] and "arbitre est appelé" in saved.json()["message"]
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.IRREGULAR
    assert dict(ScoreRow.objects.filter(deal=deal).values_list("entry__player__name", "points")) == {
        "Ana": 1, "Bruno": 0}
    assert not ScoreRow.objects.filter(counts=True).exists()
    assert ArbiterCall.objects.filter(deal=deal, state="open").exists()
    # the table's sheet says it waits for the arbiter
    sheet = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "donne irrégulière — décision de l&#x27;arbitre attendue" in sheet or \
        "donne irrégulière — décision de l'arbitre attendue" in sheet
    # the chief's queue, in French, with the penalties the texts fix and no law 43 (that is L'Écarté's)
    client.force_login(user("chef"))
    page = client.get(reverse("chief_page", args=[table.round.tournament.slug])).content.decode()
    assert f'id="irregular-{deal.pk}"' in page
    assert "La pénalité fixée par les règles" in page and "Compter la donne telle que jouée" in page
    assert "Refus de couper" in page and "loi 43" not in page and "must_follow" not in page
    bruno = entries(table)["Bruno"]
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": bruno,
                          "reason": "renonce au premier pli"})
    assert answer.status_code == 302
    ruling = Ruling.objects.get(deal=deal)
    # a fault in play: the deal counts as played (Ana's point) and Bruno pays the penalty (ADP-TRI, §2.6 rule 21)
    assert ruling.adjustments == {str(entries(table)["Ana"]): 1, str(bruno): -1} and ruling.created_by == user("chef")
    table.refresh_from_db()
    assert table.match_totals == [1, -1]
    page = client.get(reverse("chief_page", args=[table.round.tournament.slug])).content.decode()
    assert f'id="irregular-{deal.pk}"' not in page


def test_the_table_arbiter_cannot_rule(client, table):
    client.force_login(user("arbitre"))
    save(client, table, {"fields": FIELDS, "irregular": True})
    deal = Deal.objects.get()
    denied = client.post(reverse("irregular_rule", args=[deal.pk]), {"decision": "as_played"})
    assert denied.status_code == 403 and not Ruling.objects.exists()


def test_api_creates_an_irregular_deal_and_rules_on_it(api_client, table):
    api_client.force_authenticate(user("arbitre"))
    url = f"/api/tables/{table.pk}/deals/"
    assert api_client.post(url, FIELDS, format="json").status_code == 400
    created = api_client.post(url + "?irregular=true", FIELDS, format="json")
    assert created.status_code == 201, created.json()
    deal = Deal.objects.get()
    assert created.json()["status"] == "irregular"
    ruling_url = f"/api/deals/{deal.pk}/ruling/"
    assert api_client.post(ruling_url, {"decision": "as_played"}, format="json").status_code == 403
    api_client.force_authenticate(user("chef"))
    bad = api_client.post(ruling_url, {"decision": "let_stand"}, format="json")
    assert bad.status_code == 400 and bad.json()["field"] == "decision"
    ok = api_client.post(ruling_url, {"decision": "as_played", "reason": "vu"}, format="json")
    assert ok.status_code == 201, ok.json()
    assert ok.json()["adjustments"] == {str(entries(table)["Ana"]): 1}
    table.refresh_from_db()
    assert table.match_totals == [1, 0]
    again = api_client.post(ruling_url, {"decision": "annul"}, format="json")
    assert again.status_code == 409


def test_the_expert_form_saves_an_irregular_deal_too(client, table):
    """The desk's expert form (the deal as its record) refused a renonce and offered nothing more: an arbiter
    entering from a paper sheet could not save a deal played that way. It now offers « La saisir quand même », as
    the tap page does: the deal is saved irregular and the arbiter called."""
    client.force_login(user("arbitre"))
    url = reverse("deal_enter", args=[table.pk])
    posted = {"mode": "record", "record": json.dumps(FIELDS), "entry_key": "expert-1"}
    refused = client.post(url, posted)
    page = refused.content.decode()
    assert refused.status_code == 422 and Deal.objects.count() == 0
    assert 'name="irregular" value="1"' in page and "La saisir quand même" in page and "donne irrégulière" in page
    saved = client.post(url, {**posted, "irregular": "1"})
    assert saved.status_code == 302
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.IRREGULAR
    assert dict(ScoreRow.objects.filter(deal=deal).values_list("entry__player__name", "points")) == {
        "Ana": 1, "Bruno": 0}
    assert ArbiterCall.objects.filter(deal=deal).exists()
    assert client.post(url, {**posted, "irregular": "1"}).status_code == 302  # sent twice: the same deal
    assert Deal.objects.count() == 1


def test_the_expert_form_offers_nothing_for_a_record_that_cannot_be_read(client, table):
    client.force_login(user("arbitre"))
    url = reverse("deal_enter", args=[table.pk])
    refused = client.post(url, {"mode": "record", "record": json.dumps({**FIELDS, "dealer": 7}), "entry_key": "e-2"})
    assert refused.status_code == 422 and 'name="irregular"' not in refused.content.decode()


def test_the_public_results_show_an_irregular_deal_the_chief_counted_as_counted(client, table):
    """Ana 1, Bruno 0 as played (the module's head); the chief's « Refus de couper » on Bruno counts the deal as
    played and adds the penalty (ADP-TRI, §2.6 rule 21): the ruling's rows hold Ana 1, Bruno −1. Every page then
    reads the deal as counted (« irrégulière, comptée par l'arbitre », a walk read « non comptée »): its marks 1 and
    0 as points on its line, the rulings' row only the penalty (Bruno −1), each point once; the column adds up to
    the total (Ana 1, Bruno −1). The round's page, its PDF's page and the CSV say so."""
    from tournaments.event.models import Round

    client.force_login(user("arbitre"))
    assert save(client, table, {"fields": FIELDS, "irregular": True}).status_code == 201
    deal = Deal.objects.get()
    client.force_login(user("chef"))
    client.post(reverse("irregular_rule", args=[deal.pk]),
                {"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": entries(table)["Bruno"],
                 "reason": "renonce au premier pli"})
    sheet = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Partie : <strong>" in sheet or "Partie : en cours" in sheet  # French spacing before the colon
    # the staff's score sheet too: the deal's marks as points, the ruling's line only the penalty
    scores = sheet.split('id="scoresheet"', 1)[1]
    own = scores.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert '<td class="pos">1</td><td class="">0</td>' in own and "comptée par l" in own
    assert "(Bruno −1)" in scores and "Ana +1" not in scores
    client.logout()
    Round.objects.filter(pk=table.round_id).update(released=True)
    slug = table.round.tournament.slug
    page = client.get(reverse("public-round", args=[slug, 1])).content.decode()
    assert "non comptée" not in page
    row = html.unescape(page).split("(irrégulière, comptée par l'arbitre)", 1)[1].split("</tr>", 1)[0]
    assert "<td>1</td><td>0</td>" in row
    rulings = page.split('<span aria-hidden="true">⚖</span>', 1)[1].split("</tr>", 1)[0]
    assert "<td>0</td><td>-1</td>" in rulings
    # the rulings' row names their kind, on a phone's line of its own too (a walk read « ⚖ 1 0 — Décisions
    # d'arbitrage », no kind)
    assert "renonce — Décisions d'arbitrage</span>" in rulings
    assert "<tr class=\"status-row\"><td class=\"l\" colspan=\"3\">renonce — Décisions d'arbitrage</td></tr>" in page
    printed = client.get(reverse("public-results-print", args=[slug])).content.decode()
    assert "(irrégulière, comptée par l'arbitre)" in html.unescape(printed) and "non comptée" not in printed
    # the round's PDF is this template's HTML (tournaments/public/pdf.py)
    from django.template.loader import render_to_string

    from tournaments.public import queries

    rnd = Round.objects.get(pk=table.round_id)
    pdf_html = render_to_string("print/round_results.html", {
        "tournament": rnd.tournament, "round": rnd, "tables": queries.round_results(rnd), "messages": ()})
    assert "(irrégulière, comptée par l'arbitre)" in html.unescape(pdf_html) and ">1</td>" in pdf_html
    assert ">(1)</td>" not in pdf_html
    # the PDF's rulings row names their kind too (it read « Décisions d'arbitrage » alone)
    assert "renonce — Décisions d'arbitrage</td>" in html.unescape(pdf_html)
    from tournaments.public import published, views

    csv = views.results_csv_page(published.read(slug))[1]()  # the file the worker writes (the page answers 202)
    assert "irrégulière, comptée par l'arbitre" in csv and "non comptée" not in csv and "irregular" not in csv


def test_the_tables_link_shows_the_ruling_not_the_marks_as_played_to_confirm(client, table):
    """A walk: once the chief had ruled, the table's deal page still showed the marks as played as the score and
    asked each player « Je confirme », and the table's page kept the deal « À confirmer ». Now the deal's own marks
    are in brackets, the ruling's marks and reason beside them, and nothing to confirm (the arbiter may still be
    called)."""
    from tournaments.links import service as links
    from tournaments.links.models import TablePolicy

    TablePolicy.objects.create(tournament=table.round.tournament, tables_enter=True)
    client.force_login(user("arbitre"))
    assert save(client, table, {"fields": FIELDS, "irregular": True}).status_code == 201
    deal = Deal.objects.get()
    client.logout()
    token = links.link_for_table(table=table).token
    waiting = html.unescape(client.get(reverse("link_deal", args=[token, 1])).content.decode())
    assert 'id="irregular-ruling"' in waiting and "l'arbitre décide" in waiting and "confirmations" not in waiting
    assert "Je confirme" not in waiting and "(1)" in waiting and "(0)" in waiting
    client.force_login(user("chef"))
    client.post(reverse("irregular_rule", args=[deal.pk]),
                {"decision": "penalty", "penalty": "triomphe_failed_to_trump", "offender": entries(table)["Bruno"],
                 "reason": "renonce au premier pli"})
    client.logout()
    ruled = html.unescape(client.get(reverse("link_deal", args=[token, 1])).content.decode())
    # the penalty counts the deal as played (Ana 1, Bruno 0) and adds Bruno's −1: the deal reads counted, its
    # marks as points, the penalty beside Bruno's (a walk read « non comptée » on a deal the chief counted)
    assert "Donne irrégulière, comptée par l'arbitre : Refus de couper" in ruled and "renonce au premier pli" in ruled
    assert "irrégulière, comptée par l'arbitre" in ruled and "ne comptent pas" not in ruled
    bruno = ruled.split("Bruno", 1)[1].split("</li>", 1)[0]
    assert "(0)" not in bruno and '<strong class="neg">⚖\xa0-1</strong>' in bruno  # 0 as played, −1 the penalty
    assert "Je confirme" not in ruled and "pas encore répondu" not in ruled  # nothing for the players to answer
    said = ruled.split('id="irregular-ruling">', 1)[1].split("</p>", 1)[0]
    assert said.endswith("renonce au premier pli.") and ".." not in said
    assert reverse("link_call", args=[token]) in ruled
    home = client.get(reverse("link_home", args=[token])).content.decode()
    assert 'id="to-confirm"' not in home


def test_a_refused_ruling_keeps_what_the_chief_chose_and_typed_beside_the_deal(client, table):
    """A walk: each refusal (no reason; marks that do not add up to zero) came back at the top of a long page with
    the decision, the marks and the reason wiped, and named a « pénalité » box the form did not have."""
    client.force_login(user("arbitre"))
    assert save(client, table, {"fields": FIELDS, "irregular": True}).status_code == 201
    deal = Deal.objects.get()
    ana, bruno = entries(table)["Ana"], entries(table)["Bruno"]
    client.force_login(user("chef"))
    chief = reverse("chief_page", args=[table.round.tournament.slug])
    page = html.unescape(client.get(chief).content.decode())
    assert "Marques de la donne telle que jouée, pour repère : Ana 1 · Bruno 0" in page
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "adjustment", f"points_{ana}": "2", f"points_{bruno}": "-1", "reason": ""})
    assert answer.status_code == 302 and answer["Location"] == f"{chief}#irregular-{deal.pk}"
    page = html.unescape(client.get(chief).content.decode())
    article = page.split(f'id="irregular-{deal.pk}"', 1)[1].split("</article>", 1)[0]
    assert f'id="irregular-error-{deal.pk}"' in article and "Décision non enregistrée" in article
    assert 'value="adjustment" required checked' in article
    assert f'name="points_{ana}" step="1" value="2"' in article
    assert f'name="points_{bruno}" step="1" value="-1"' in article
    assert not Ruling.objects.exists()
    # shown once: a reload is the form again, clean
    assert "Décision non enregistrée" not in html.unescape(client.get(chief).content.decode())
    # marks that do not add up to zero are a penalty when he says so (the form now has the box)
    answer = client.post(reverse("irregular_rule", args=[deal.pk]),
                         {"decision": "adjustment", f"points_{ana}": "0", f"points_{bruno}": "-1",
                          "reason": "renonce", "is_penalty": "1"})
    assert answer["Location"] == chief and Ruling.objects.get(deal=deal).is_penalty
