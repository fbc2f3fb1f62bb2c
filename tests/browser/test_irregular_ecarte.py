"""L'Écarté: a renonce tapped card by card, saved as an irregular deal, and law 43 decided by the chief on his page
(issue 19 item 1), on a phone (390×844) in Debian's Chromium; axe-core clean on every page visited.

The deal (RULES.md §3): Ana deals (seat 0), the retourne 7♥: hearts are trump, no king turned; nobody holds the R♥.
Bruno (premier en main) plays d'autorité (« Je joue »): no exchange (§3.2 rule 6).
Hands: Ana A♣ D♥ V♥ 10♠ 9♠; Bruno 8♣ 7♦ 9♥ 8♥ 10♣.
Trick 1: Bruno 8♣, Ana 9♠ — a renonce: she holds the A♣, of the suit led and above the 8♣, so she must play it
(§3.3 rule 10, CAV law 43). Bruno wins the trick (8♣, no trump in it).
Trick 2: Bruno 10♣, Ana A♣ (order R D V As 10: the As beats the 10): Ana. Trick 3: Ana D♥, Bruno 8♥ (he must follow
hearts and cannot beat the D♥): Ana. Trick 4: Ana V♥, Bruno 9♥: Ana. Trick 5: Ana 10♠, Bruno 7♦ (no spade, no trump
left): Ana.
As played: Ana 4 tricks, the point: 1 (§3.4 rule 12), and since Bruno played d'autorité the dealer who wins scores
the point de refus, 1 more (rule 13 (a)): 2; Bruno 0.
Law 43 (§3.5 rule 20), the adversary lets the deal stand: « if he wins the point after the adversary played without
proposing … he marks only 1 »: Ana 1, Bruno 0. The match to 5 (rule 15): 1 – 0, unfinished.
Law 43, the adversary has it replayed: the deal annulled, nobody marks: 0 – 0.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.irregular_steps import (
    axe_clean,
    chief_rules,
    enter_hands,
    ranking_rows,
    save_irregular,
    sheet_lines,
    tap,
    tap_renonce,
)
from tests.browser.test_tap_entry import choose, fits, login, pick_cards, seat, table_for
from tests.tournaments.factories import UserFactory, role
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.record import deal_record
from tournaments.event.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Bruno"]
HANDS = [["AC", "QH", "JH", "10S", "9S"], ["8C", "7D", "9H", "8H", "10C"]]
AFTER = [["10C", "AC"], ["QH", "8H"], ["JH", "9H"], ["10S", "7D"]]


@pytest.fixture
def chief(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def released(table) -> None:
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)


def two_voles_for_ana(table, user) -> None:
    """Two deals before the irregular one, entered at the desk as quick summaries: Ana 4, Bruno 0.

    Deal 1: Ana deals, Bruno plays d'autorité, Ana takes the five tricks: the vole, 2 (the point de refus is not
    added to it, §3.4 rule 14). Deal 2: Bruno deals, Ana plays d'autorité and takes the five tricks: 2. Ana 4 – 0."""
    deal_record(table=table, user=user, record={"dealer": 0, "turn_up": "9H", "exchanges": [
        {"seat": 1, "action": "play"}], "summary": {"tricks": [5, 0]}})
    deal_record(table=table, user=user, record={"dealer": 1, "turn_up": "9H", "exchanges": [
        {"seat": 0, "action": "play"}], "summary": {"tricks": [5, 0]}})


def tap_the_renonce_and_save(page, live_server, table) -> Deal:
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    page.locator("#net").wait_for()
    axe_clean(page)
    seat(page, "dealer", 0)
    pick_cards(page, "turn_up", ["7H"])
    page.get_by_role("button", name=re.compile("Ajouter")).first.click()
    seat(page, "seat", 1)
    choose(page, "action", "Je joue")
    enter_hands(page, HANDS)
    page.locator("#net", has_text="Vérifié").wait_for()
    tap(page, "8C")
    page.locator("#net", has_text="Vérifié").wait_for()
    said = tap_renonce(page, "9S")
    assert "as de trèfle" in said or "A♣" in said, said
    axe_clean(page)
    for trick in AFTER:
        for code in trick:
            tap(page, code)
    page.locator("#play-title", has_text="Tous les plis").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    fits(page)
    axe_clean(page)
    body = save_irregular(page)
    assert "irrégulière" in body and "arbitre" in body, body
    axe_clean(page)
    deal = Deal.objects.get(table=table, status=Deal.Status.IRREGULAR)
    assert deal.status == Deal.Status.IRREGULAR
    return deal


def test_ecarte_renonce_let_stand_by_law_43(live_server, phone, chief, screenshots):
    page = phone
    table = table_for(chief, "ecarte", {"target": 5}, NAMES)
    tournament = table.round.tournament
    role(tournament, chief, "chief_arbiter")
    released(table)
    two_voles_for_ana(table, chief)
    login(page, live_server)
    deal = tap_the_renonce_and_save(page, live_server, table)
    # saved as played (Ana 2, Bruno 0, shown apart), counted nowhere: the total stays 4 – 0, no match over
    assert sheet_lines(page, live_server, table.pk) == [
        ["1", "2", "0"], ["2", "2", "0"], ["3 donne irrégulière — décision de l'arbitre attendue", "(2)", "(0)"],
        ["Total", "4", "0"]]
    assert [(r["Joueur"], r["Points de match"]) for r in ranking_rows(page, live_server, tournament.slug)] == [
        ("Ana", "0"), ("Bruno", "0")]

    said = chief_rules(page, live_server, tournament.slug, deal.pk, "let_stand", reason="Bruno laisse la donne")
    assert "Table 1, donne 3 : la décision est enregistrée." in said
    assert "Aucune donne irrégulière n'attend de décision." in said
    page.screenshot(path=str(screenshots / "irregular_ecarte_chief_phone.png"), full_page=True)
    fits(page)
    # law 43: Ana marks 1 for the deal let stand: 4 + 1 = 5, the match (to 5) is hers, 5 – 0
    lines = sheet_lines(page, live_server, table.pk)
    # the deal let stand reads counted, with the marks the ruling gives it (Ana 1, Bruno 0) as points; the ruling's
    # line says why, without repeating them (a walk read « non comptée » on a deal the chief counted)
    assert lines[2] == ["3 irrégulière, comptée par l'arbitre", "1", "0"]
    assert "Bruno laisse la donne" in lines[3][0] and "Ana +1" not in lines[3][0]
    assert lines[-1] == ["Total", "5", "0"]
    # the ranking: Ana won her match, 2 match points (win 2, loss 0), 1 win; her écart 5 − 0 = 5; Bruno's
    # Buchholz is his opponent's match points, 2
    rows = ranking_rows(page, live_server, tournament.slug)
    assert [(r["Rang"], r["Joueur"], r["Points de match"], r["Victoires"], r["Défaites"], r["Buchholz"], r["Écart"])
            for r in rows] == [("1", "Ana", "2", "1", "0", "0", "5"), ("2", "Bruno", "0", "0", "1", "2", "-5")]
    page.screenshot(path=str(screenshots / "irregular_ecarte_ranking_phone.png"), full_page=True)
    ruling = Ruling.objects.get()
    assert ruling.deal_id == deal.pk and ruling.created_by == chief and "loi 43" in ruling.reason


def test_ecarte_renonce_replayed_by_law_43(live_server, phone, chief):
    page = phone
    table = table_for(chief, "ecarte", {"target": 5}, NAMES)
    tournament = table.round.tournament
    role(tournament, chief, "chief_arbiter")
    released(table)
    two_voles_for_ana(table, chief)
    login(page, live_server)
    deal = tap_the_renonce_and_save(page, live_server, table)
    said = chief_rules(page, live_server, tournament.slug, deal.pk, "replay")
    assert "Table 1, donne 3 : la décision est enregistrée." in said
    # the deal annulled, to be played again: nobody marks for it; 4 – 0, the match goes on
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED
    lines = sheet_lines(page, live_server, table.pk)
    assert lines[-1] == ["Total", "4", "0"]
    assert any("rejouer" in line[0] for line in lines), lines
    # no match over: nobody ranked yet
    assert [(r["Joueur"], r["Points de match"], r["Victoires"]) for r in
            ranking_rows(page, live_server, tournament.slug)] == [("Ana", "0", "0"), ("Bruno", "0", "0")]
    # the next deal can be entered: the table's « Saisir une donne » is still there
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
    assert page.get_by_role("link", name="Saisir une donne").count() == 1
