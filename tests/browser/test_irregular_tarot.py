"""French Tarot: a renonce tapped card by card, saved as an irregular deal, and the chief's ruling on his page
(issue 19 item 1): counted as played in one test, marks set by the arbiter with a reason in the other (RULES.md
§1.13 rules 37–40, A-T10: no fixed sanction is invented). On a phone (390×844) in Debian's Chromium; axe-core
clean on every page visited.

The deal is ``tests/golden/tarot-revoke.json``, tapped without the hands: David (seat 3) deals, Chloé (seat 2)
takes a garde, écart C♣ 7♥ 5♠ D♥ 3♣ 10♣. At trick 3 (David leads 2♣) Ana plays the 8♦: she shows she has no club;
at trick 4 she plays the 21 and at trick 5 leads the 8♣: each card proves the renonce of trick 3 (she could follow,
or trump), the page marks it forbidden, it is tapped anyway (« La saisir quand même »). The deal holds more: at
trick 5 nobody follows the 8♣, as their later clubs and trumps show.

The marks by hand (RULES.md §1.1, §1.9–1.11), the tricks won by the leader's play (trump beats the suit led):
Chloé wins trick 11 (V♠ As♠ 13 3♠: 1.5 + 0.5 + 0.5 + 0.5 = 3) and trick 14 (7 8 6♣ and the Petit: 0.5 × 3 + 4.5
= 6); her écart 2.5 + 0.5 + 0.5 + 3.5 + 0.5 + 0.5 = 8; her Excuse (trick 3) stays hers, 4.5, for a half-point card
given in exchange: 9 + 8 + 4.5 − 0.5 = 21 points with 2 bouts (the Petit, the Excuse): 41 needed (§1.10 rule 29),
fallen by 20. No poignée, no petit au bout (the Petit went at trick 14). S = −(25 + 20) × 2 = −90 (garde ×2);
each defender −S = +90, the taker 3 × −90 = −270 (§1.11 rule 31).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.irregular_steps import axe_clean, chief_rules, ranking_rows, save_irregular, sheet_lines, tap_all
from tests.browser.test_tap_entry import choose, fits, login, pick_cards, seat, table_for
from tests.tournaments.factories import UserFactory, role
from tournaments.deals.models import Deal, Ruling
from tournaments.event.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "golden" / "tarot-revoke.json").read_text())
NAMES = GOLDEN["players"]  # Ana, Bruno, Chloé, David


@pytest.fixture
def chief(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def tap_the_renonce_and_save(page, live_server, table) -> Deal:
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    page.locator("#net").wait_for()
    axe_clean(page)
    seat(page, "dealer", 3)
    seat(page, "bid.taker", 2)
    choose(page, "bid.contract", "Garde")
    page.locator('[data-field="discard"]').wait_for()
    pick_cards(page, "discard", GOLDEN["discard"])
    page.locator("#net", has_text="Vérifié").wait_for()
    confirmed = tap_all(page, [code for trick in GOLDEN["tricks"] for code in trick])
    # each card that proves a renonce is marked forbidden and confirmed, once for each play it proves wrong, and a
    # card of the suit led once more where a trump proved it first (it names the fault better): Ana's 21 at trick
    # 4 (a trump she held when she neither followed the clubs nor trumped at trick 3), then her 8♣ at trick 5
    # (she could follow: « sans fournir à trèfle »); her 15 later proves nothing more (a walk saw one renonce
    # asked five times). From trick 7 the cards that prove the renonces of trick 5 (Bruno, Chloé and David did not
    # follow the 8♣ either), each named by its proof (docs/deal-record.md)
    ana = "Pli 3 : Renonce : Ana a joué le 8 de carreau sans "
    expected = [
        ("T21", ana + "couper alors que sa main contenait l'atout 21"),
        ("8C", ana + "fournir à trèfle alors que sa main contenait le 8 de trèfle"),
        ("T19", "Pli 5 : Renonce : Bruno a joué le 7 de carreau sans couper alors que sa main contenait l'atout 19"),
        ("T3", "Pli 5 : Renonce : Chloé a joué le 9 de carreau sans couper alors que sa main contenait l'atout 3"),
        ("9C", "Pli 5 : Renonce : Bruno a joué le 7 de carreau sans fournir à trèfle alors que sa main contenait le "
               "9 de trèfle"),
        ("5C", "Pli 5 : Renonce : Chloé a joué le 9 de carreau sans fournir à trèfle alors que sa main contenait le "
               "5 de trèfle"),
        ("KC", "Pli 5 : Renonce : David a joué l'atout 9 sans fournir à trèfle alors que sa main contenait le roi "
               "de trèfle"),
    ]
    assert [code for code, _ in confirmed] == [code for code, _ in expected], confirmed
    for (code, text), (_, words) in zip(confirmed, expected, strict=True):
        assert words in text, (code, text)
    assert "sans fournir à trèfle alors que sa main contenait l'atout" not in " ".join(t for _, t in confirmed)
    page.locator("#play-title", has_text="Tous les plis").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    fits(page)
    axe_clean(page)
    body = save_irregular(page)
    assert "irrégulière" in body and "arbitre" in body, body
    axe_clean(page)
    return Deal.objects.get(table=table)


def start(chief, page, live_server):
    table = table_for(chief, "tarot", {"players": 4}, NAMES)
    tournament = table.round.tournament
    role(tournament, chief, "chief_arbiter")
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    login(page, live_server)
    return table, tournament


def totals(rows: list[dict[str, str]]) -> dict[str, str]:
    return {r["Joueur"]: r["Total"] for r in rows}


def test_tarot_renonce_counted_as_played(live_server, phone, chief, screenshots):
    page = phone
    table, tournament = start(chief, page, live_server)
    deal = tap_the_renonce_and_save(page, live_server, table)
    assert deal.status == Deal.Status.IRREGULAR
    # saved as played (90, 90, −270, 90, shown apart), counted nowhere: the totals stay 0
    lines = sheet_lines(page, live_server, table.pk)
    assert "donne irrégulière — décision de l'arbitre attendue" in lines[0][0]
    assert lines[0][1:] == ["(90)", "(90)", "(-270)", "(90)"] and lines[-1] == ["Total", "0", "0", "0", "0"]
    assert set(totals(ranking_rows(page, live_server, tournament.slug)).values()) == {"0"}

    said = chief_rules(page, live_server, tournament.slug, deal.pk, "as_played", reason="renonce vue trop tard")
    assert "Table 1, donne 1 : la décision est enregistrée." in said
    page.screenshot(path=str(screenshots / "irregular_tarot_chief_phone.png"), full_page=True)
    fits(page)
    lines = sheet_lines(page, live_server, table.pk)
    assert "Donne comptée telle que jouée — renonce vue trop tard" in lines[1][0]
    # the deal counted by the chief reads counted, its marks as points once (not in brackets, not again on the
    # ruling's line)
    assert "irrégulière, comptée par l'arbitre" in lines[0][0] and lines[0][1:] == ["90", "90", "-270", "90"]
    assert "Ana +90" not in lines[1][0]
    assert lines[-1] == ["Total", "90", "90", "-270", "90"]
    # the ranking sums the marks (RULES.md §1.12 rule 33), by decreasing total: Ana, Bruno, David 90 (1=),
    # Chloé −270 (4); each played one deal (the deal decided was played, never « pas encore joué »)
    rows = ranking_rows(page, live_server, tournament.slug)
    assert [(r["Rang"], r["Joueur"], r["Total"], r["Donnes"]) for r in rows] == [
        ("1=", "Ana", "90", "1"), ("1=", "Bruno", "90", "1"), ("1=", "David", "90", "1"), ("4", "Chloé", "-270", "1")]
    page.screenshot(path=str(screenshots / "irregular_tarot_ranking_phone.png"), full_page=True)
    ruling = Ruling.objects.get()
    assert (ruling.deal_id, ruling.created_by, ruling.kind) == (deal.pk, chief, Ruling.Kind.RENONCE)


def test_tarot_renonce_marks_set_by_the_arbiter_with_a_reason(live_server, phone, chief):
    page = phone
    table, tournament = start(chief, page, live_server)
    deal = tap_the_renonce_and_save(page, live_server, table)
    entry = {s.entry.player.name: s.entry_id for s in table.seats.select_related("entry__player")}
    # without a reason the ruling is refused, nothing recorded
    said = chief_rules(page, live_server, tournament.slug, deal.pk, "adjustment",
                       marks={entry["Ana"]: -60, entry["Chloé"]: 60})
    assert "motif" in said, said
    assert Ruling.objects.count() == 0
    # the arbiter's marks (A-T10, no fixed sanction invented): 60 from Ana, the offender, to Chloé, the taker;
    # a transfer: −60 + 60 = 0, the table stays zero-sum (§1.13 rule 40)
    said = chief_rules(page, live_server, tournament.slug, deal.pk, "adjustment", reason="Renonce d'Ana au pli 3",
                       marks={entry["Ana"]: -60, entry["Chloé"]: 60})
    assert "Table 1, donne 1 : la décision est enregistrée." in said
    lines = sheet_lines(page, live_server, table.pk)
    assert "Renonce d'Ana au pli 3" in lines[1][0]
    assert lines[-1] == ["Total", "-60", "0", "60", "0"]
    # ranked by decreasing total: Chloé 60 (1), Bruno and David 0 (2=), Ana −60 (4), all four with one deal played
    rows = ranking_rows(page, live_server, tournament.slug)
    assert [(r["Rang"], r["Joueur"], r["Total"], r["Donnes"]) for r in rows] == [
        ("1", "Chloé", "60", "1"), ("2=", "Bruno", "0", "1"), ("2=", "David", "0", "1"), ("4", "Ana", "-60", "1")]
    ruling = Ruling.objects.get()
    assert ruling.adjustments == {str(entry["Ana"]): -60, str(entry["Chloé"]): 60}
