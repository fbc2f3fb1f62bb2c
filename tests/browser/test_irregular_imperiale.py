"""An irregular deal of L'Impériale, from the table's tap page to the ranking, on a phone (390×844) in Debian's
Chromium: a renonce tapped (« La saisir quand même »), the deal saved as irregular and the arbiter called, the chief
rules the penalty of the texts on his page, and the marks and the ranking follow. axe-core finds no violation on any
page visited.

L'Impériale at two (RULES.md §4), a match of **one** impériale. Bruno deals, Ana is first hand; retourne 8♥ (hearts
trump, not an honour: no retourne jeton). Order of play R D V As 10 9 8 7; honours: trump As R D V 7.

    Ana   ♠ R D V 10 9   ♣ R D V   ♦ R D   ♥ 10 9
    Bruno ♠ As 8 7       ♣ As 10 9 ♦ As V 10 9   ♥ V 7

Trick 1: Ana leads ♠10; Bruno plays ♣9 while holding three spades, and the ♠As that beats the 10 — a renonce, and
a card he could take and did not (rule 18; AUJ-IMP rule X).
    1 ♠10/♣9 Ana   2 ♠R/♠7 Ana   3 ♠D/♠8 Ana   4 ♠V/♠As Ana   5 ♠9/♥7 Bruno trumps (honour ♥7: 1 jeton)
    6 ♦V/♦D Ana   7 ♦R/♦9 Ana   8 ♣R/♣10 Ana   9 ♣D/♣As Ana   10 ♣V/♥V Bruno trumps (honour ♥V: 1 jeton)
    11 ♦As/♥9 Ana trumps   12 ♥10/♦10 Ana
As played: the Point, Ana's five spades against Bruno's four diamonds, 1 jeton (rule 8); honours Bruno 2 jetons
(rule 9); les cartes Ana 10 − 6 = 4 jetons (rule 10). Ana 5 jetons, Bruno 2: no impériale, the marks 0 and 0.

The chief rules the penalty of AUJ-IMP rule X (RULES.md §4.5, A-I10, ``scoring/penalties.py``): Bruno « loses one
impériale »; he has none, so Ana scores one. The table's marks: Ana 1 impériale, Bruno 0 — the match of one
impériale is Ana's: 2 match points to her, 0 to Bruno (``scoring.ranking.MatchPoints``), Ana first.

Two defects this test found, fixed: the ⚠ of a forbidden « 10♦ » spilled out of its button at 390 px; with every
hand entered, saving asked first for the Point, which the hands give (the field's own help says so).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.test_tap_entry import fits, pick_cards, play, seat
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal, Ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-4.14.1.min.js").read_text(encoding="utf-8")
HANDS = [["KS", "QS", "JS", "10S", "9S", "KC", "QC", "JC", "KD", "QD", "10H", "9H"],
         ["AS", "8S", "7S", "AC", "10C", "9C", "AD", "JD", "10D", "9D", "JH", "7H"]]
TRICKS = [["10S", "9C"], ["KS", "7S"], ["QS", "8S"], ["JS", "AS"], ["9S", "7H"], ["JD", "QD"], ["KD", "9D"],
          ["KC", "10C"], ["QC", "AC"], ["JC", "JH"], ["AD", "9H"], ["10H", "10D"]]
AWAITED = "donne irrégulière — décision de l'arbitre attendue"


def axe_violations(page) -> list[str]:
    """What axe-core finds on the page (its experimental « label-content-name-mismatch » asked for by name)."""
    page.add_script_tag(content=AXE)
    return page.evaluate("async () => (await axe.run(document, {rules: {'label-content-name-mismatch': "
                         "{enabled: true}}})).violations.map("
                         "v => v.id + ' ' + v.nodes.length + ' ' + v.nodes[0].target.join(' '))")


def checked(page, what: str) -> None:
    """axe-core clean and nothing wider than the phone's screen."""
    assert axe_violations(page) == [], what
    fits(page)


def phone_as(chromium, live_server, username: str):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "secret-pass")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/desk/$|/$"))
    return context, page


def enter_hands(page, hands: list[list[str]]) -> None:
    page.locator("#hands summary").click()
    for position, hand in enumerate(hands):
        page.locator("#hands .seat-tabs button").nth(position).click()
        for code in hand:
            page.locator(f'#hands .pack button[data-code="{code}"]').click()


@pytest.fixture
def table(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Coupe de l'Impériale", slug="imperiale-irreguliere", game="imperiale",
                                   options={"players": 2}, target=1)
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    table.round.released = True  # the public ranking shows the round
    table.round.save(update_fields=["released"])
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    role(tournament, UserFactory(username="chef"), "chief_arbiter")
    return table


def test_impériale_renonce_saved_irregular_then_the_chief_rules_the_penalty(live_server, chromium, table,
                                                                               screenshots):
    tournament = table.round.tournament
    context, page = phone_as(chromium, live_server, "arbitre")
    try:
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["8H"])
        enter_hands(page, HANDS)
        page.locator("#net", has_text="Vérifié").wait_for()
        page.locator('#pack button[data-code="10S"]').click()
        page.locator("#to-play", has_text="Bruno").wait_for()
        page.locator("#net", has_text="Vérifié").wait_for()
        # Bruno must follow spades and beat the 10: his clubs are marked forbidden, with the reason
        assert "forbidden" in page.locator('#pack button[data-code="9C"]').get_attribute("class")
        page.locator('#pack button[data-code="9C"]').click()
        page.locator("#confirm").wait_for()
        assert "La saisir quand même" in page.locator("#confirm-yes").inner_text()
        page.screenshot(path=str(screenshots / "irregular_imperiale_confirm_phone.png"), full_page=False)
        checked(page, "the confirmation of a forbidden card")
        page.click("#confirm-yes")
        play(page, TRICKS[1:])
        problems = page.locator("#play-problems").inner_text()
        assert "Pli 1 : Bruno doit fournir à pique et forcer" in problems
        checked(page, "the tap page, every trick entered")
        page.screenshot(path=str(screenshots / "irregular_imperiale_tapped_phone.png"), full_page=True)
        page.click("#save")  # every hand entered: the Point is found from them, no reminder (a single tap)
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))

        # saved as irregular: the deal's page says the arbiter is called and what was found
        deal = Deal.objects.get(table=table)
        assert deal.status == Deal.Status.IRREGULAR
        assert "l'arbitre est appelé" in page.locator(".msg, [role=status]").first.inner_text()
        notice = page.locator("#irregular-notice").inner_text()
        assert AWAITED in notice and "Bruno doit fournir à pique et forcer" in notice
        assert page.locator("#scores tbody td").all_inner_texts() == ["(0)", "(0)"]  # as played, not counted
        marks = page.locator("#deal-marks").inner_text()
        assert "+4 jetons" in marks  # les cartes, 10 tricks − 6
        page.screenshot(path=str(screenshots / "irregular_imperiale_deal_phone.png"), full_page=True)
        checked(page, "the irregular deal's page")
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        assert AWAITED in page.locator("main").inner_text()
        checked(page, "the table's sheet")
    finally:
        context.close()

    context, page = phone_as(chromium, live_server, "chef")
    try:
        page.goto(live_server.url + reverse("chief_page", args=[tournament.slug]))
        card = page.locator(f"#irregular-{deal.pk}")
        assert "Bruno doit fournir à pique et forcer" in card.inner_text()
        checked(page, "the chief's page")
        card.get_by_label("La pénalité fixée par les règles").check()
        card.locator("select[name=penalty]").select_option("imperiale_failed_to_take")
        card.locator("select[name=offender]").select_option(label="Bruno")
        card.locator("textarea[name=reason]").fill("renonce au premier pli : l'as de pique prenait le 10")
        page.screenshot(path=str(screenshots / "irregular_imperiale_chief_phone.png"), full_page=True)
        card.get_by_role("button", name="Enregistrer la décision").click()
        page.locator(".msg", has_text="la décision est enregistrée").wait_for()
        assert page.locator(f"#irregular-{deal.pk}").count() == 0
        ruling = Ruling.objects.get(deal=deal)
        assert ruling.penalty == "imperiale_failed_to_take" and ruling.created_by.username == "chef"
        # the ruling answers the table's call: listed as answered, with the decision the table reads
        answered = page.locator("#answered").inner_text()
        assert "décision d'arbitrage — « Décision de l'arbitre : Carte non prise (pouvant la prendre)" in answered
        checked(page, "the chief's page after the ruling")

        # the marks: the ruling's impériale to Ana on the table's sheet, the match of one impériale hers
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        sheet = page.locator("main").inner_text()
        assert AWAITED not in sheet
        totals = page.locator("#scoresheet tfoot td, table.scores tfoot td").all_inner_texts()
        assert [t.strip() for t in totals][-2:] == ["1", "0"], totals
        checked(page, "the table's sheet after the ruling")
        page.goto(f"{live_server.url}/desk/deals/{deal.pk}/")
        rulings = page.locator("#deal-rulings").inner_text()
        assert "Carte non prise (pouvant la prendre) — renonce au premier pli" in rulings
        assert "enregistrée par chef" in rulings
        checked(page, "the deal's page after the ruling")

        # the ranking: Ana won the match (2 match points), Bruno lost it (0)
        page.goto(f"{live_server.url}/p/{tournament.slug}/ranking/")
        rows = page.locator("#ranking tbody tr")
        rows.first.wait_for()
        head = [h.strip() for h in page.locator("#ranking thead th").all_inner_texts()]
        lines = [dict(zip(head, [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()], strict=False))
                 for i in range(rows.count())]
        # by hand: Ana won (2 match points, 1 win), margin 1 − 0 impériale = 1, Buchholz her opponent's 0 match
        # points; Bruno lost (0, 1 defeat), margin −1, Buchholz Ana's 2
        got = [(ln["Rang"], ln["Joueur"], ln["Points de match"], ln["Victoires"], ln["Défaites"], ln["Buchholz"],
                ln["Écart"]) for ln in lines]
        assert got == [("1", "Ana", "2", "1", "0", "0", "1"), ("2", "Bruno", "0", "0", "1", "2", "-1")], lines
        page.screenshot(path=str(screenshots / "irregular_imperiale_ranking_phone.png"), full_page=True)
        checked(page, "the public ranking")
    finally:
        context.close()
