"""An irregular deal of Le Vingt-quatre, from the table's tap page to the ranking, on a phone (390×844) in Debian's
Chromium: a renonce tapped (« La saisir quand même »), the deal saved as irregular and the arbiter called, the chief
sets the marks with a reason on his page (the text of the Vingt-quatre gives no penalty: none is offered), and the
marks and the ranking follow. Every page in the game's own words (jetons, parties: no fiche, no impériale); axe-core
finds no violation on any page visited.

Four players, a partie of 24 points (6 jetons), honours « aux figures » (trump 9 10 V D R). Ana deals, Bruno is first
hand; virade 2♣ (clubs trump, not an honour).

    Ana   ♠ 3 2 As  ♥ 3 2 As  ♦ 3 2 As  ♣ 7 6 5
    Bruno ♠ R D V   ♥ R D V   ♦ R D V   ♣ R D V
    Chloé ♠ 10 9 8  ♥ 10 9 8  ♦ 10 9 8  ♣ 10 9 8
    David ♠ 7 6 5 4 ♥ 7 6 5 4 ♦ 7 6 5 4

Trick 1: Bruno leads ♠R, Chloé ♠10, **David ♥7 while holding four spades** (a renonce, RULES.md §5 rule 6), Ana ♠3.
Bruno leads R, D, V of each suit and wins every trick. As played (§5 rules 4–5): no sequence; the Point, David's four
cards, 1 jeton; honours ♣R ♣10, ♣D ♣9, ♣V: Bruno 5 jetons; la carte, 1 jeton: his sixth — 24 points, the partie.
The deal's marks as played: 0, 6, 0, 1 jetons.

The chief keeps Bruno's six jetons and takes away David's Point (the offender's hand): marks set by the arbiter, Bruno
6 jetons, with the reason. Bruno reaches 24 points: the match is his. The ranking by hand: Bruno 2 match points (a win),
the three others 0 (a defeat each), tied at rank 2; Buchholz: Bruno 0 + 0 + 0 = 0, each of the others 2 (Bruno's);
margin (points for − the opponents' mean): Bruno 6 − 0 = 6, each of the others 0 − (6 + 0 + 0) / 3 = −2.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.browser.test_irregular_imperiale import AWAITED, checked, enter_hands, phone_as
from tests.browser.test_tap_entry import pick_cards, play, seat
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal, Ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Bruno", "Chloé", "David"]
HANDS = [["3S", "2S", "AS", "3H", "2H", "AH", "3D", "2D", "AD", "7C", "6C", "5C"],
         ["KS", "QS", "JS", "KH", "QH", "JH", "KD", "QD", "JD", "KC", "QC", "JC"],
         ["10S", "9S", "8S", "10H", "9H", "8H", "10D", "9D", "8D", "10C", "9C", "8C"],
         ["7S", "6S", "5S", "4S", "7H", "6H", "5H", "4H", "7D", "6D", "5D", "4D"]]
TRICKS = [["KS", "10S", "7H", "3S"], ["QS", "9S", "7S", "2S"], ["JS", "8S", "6S", "AS"],
          ["KH", "10H", "6H", "3H"], ["QH", "9H", "5H", "2H"], ["JH", "8H", "4H", "AH"],
          ["KD", "10D", "7D", "3D"], ["QD", "9D", "6D", "2D"], ["JD", "8D", "5D", "AD"],
          ["KC", "10C", "5S", "7C"], ["QC", "9C", "4S", "6C"], ["JC", "8C", "4D", "5C"]]
NOT_ITS_WORDS = re.compile(r"fiche|impériale", re.I)


def own_words(page, what: str) -> None:
    """Le Vingt-quatre counts jetons and parties: L'Impériale's fiches and impériales are not its words."""
    found = NOT_ITS_WORDS.findall(page.locator("main").inner_text())
    assert not found, f"{what}: {found}"


@pytest.fixture
def table(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    tournament = TournamentFactory(name="Coupe du Vingt-quatre", slug="vingt-quatre-irregulier", game="vingt-quatre",
                                   options={"players": 4, "honours": "figures", "target": 24})
    table = seated_table(tournament, players=4, names=NAMES)
    table.round.released = True  # the public ranking shows the round
    table.round.save(update_fields=["released"])
    role(tournament, UserFactory(username="arbitre"), "arbiter", [table])
    role(tournament, UserFactory(username="chef"), "chief_arbiter")
    return table


def test_vingt_quatre_renonce_saved_irregular_then_the_chief_sets_the_marks(live_server, chromium, table,
                                                                              screenshots):
    tournament = table.round.tournament
    context, page = phone_as(chromium, live_server, "arbitre")
    try:
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
        seat(page, "dealer", 0)
        pick_cards(page, "turn_up", ["2C"])
        enter_hands(page, HANDS)
        page.locator("#net", has_text="Vérifié").wait_for()
        for code in TRICKS[0][:2]:
            page.locator(f'#pack button[data-code="{code}"]').click()
        page.locator("#to-play", has_text="David").wait_for()
        page.locator("#net", has_text="Vérifié").wait_for()
        assert "forbidden" in page.locator('#pack button[data-code="7H"]').get_attribute("class")
        page.locator('#pack button[data-code="7H"]').click()
        page.locator("#confirm").wait_for()
        assert "La saisir quand même" in page.locator("#confirm-yes").inner_text()
        checked(page, "the confirmation of a forbidden card")
        own_words(page, "the tap page")
        page.click("#confirm-yes")
        page.locator('#pack button[data-code="3S"]').click()
        play(page, TRICKS[1:])
        assert "Pli 1 : David doit fournir à pique" in page.locator("#play-problems").inner_text()
        checked(page, "the tap page, every trick entered")
        own_words(page, "the tap page, every trick entered")
        page.screenshot(path=str(screenshots / "irregular_vingt_quatre_tapped_phone.png"), full_page=True)
        page.click("#save")
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))

        deal = Deal.objects.get(table=table)
        assert deal.status == Deal.Status.IRREGULAR
        notice = page.locator("#irregular-notice").inner_text()
        assert AWAITED in notice and "David doit fournir à pique : sa main contient le 7 de pique." in notice
        assert page.locator("#scores tbody td").all_inner_texts() == ["(0)", "(6)", "(0)", "(1)"]  # not counted
        marks = page.locator("#deal-marks").inner_text()
        assert "+1 partie gagnée" in marks and "(jetons)" in marks
        page.screenshot(path=str(screenshots / "irregular_vingt_quatre_deal_phone.png"), full_page=True)
        checked(page, "the irregular deal's page")
        own_words(page, "the irregular deal's page")
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        assert AWAITED in page.locator("main").inner_text()
        checked(page, "the table's sheet")
        own_words(page, "the table's sheet")
    finally:
        context.close()

    context, page = phone_as(chromium, live_server, "chef")
    try:
        page.goto(live_server.url + reverse("chief_page", args=[tournament.slug]))
        card = page.locator(f"#irregular-{deal.pk}")
        assert "David doit fournir à pique" in card.inner_text()
        # no penalty at Le Vingt-quatre, and the page says why
        assert card.locator("select[name=penalty]").count() == 0
        assert "pour ce jeu : le texte du Vingt-quatre ne donne aucune règle d'irrégularité." in card.inner_text()
        checked(page, "the chief's page")
        own_words(page, "the chief's page")
        card.get_by_label("Marques fixées par l'arbitre (avec un motif)").check()
        card.get_by_label("Bruno").fill("6")
        card.locator("textarea[name=reason]").fill("renonce de David : son Point ne compte pas")
        page.screenshot(path=str(screenshots / "irregular_vingt_quatre_chief_phone.png"), full_page=True)
        card.get_by_role("button", name="Enregistrer la décision").click()
        page.locator(".msg", has_text="la décision est enregistrée").wait_for()
        assert page.locator(f"#irregular-{deal.pk}").count() == 0
        ruling = Ruling.objects.get(deal=deal)
        assert ruling.decision == "adjustment" and ruling.created_by.username == "chef"
        answered = page.locator("#answered").inner_text()
        assert "« Décision de l'arbitre : Marques fixées par l'arbitre — renonce de David" in answered
        checked(page, "the chief's page after the ruling")

        page.goto(f"{live_server.url}/desk/tables/{table.pk}/")
        totals = page.locator("table.scores tfoot td").all_inner_texts()
        assert [t.strip() for t in totals][-4:] == ["0", "6", "0", "0"], totals
        checked(page, "the table's sheet after the ruling")
        own_words(page, "the table's sheet after the ruling")
        page.goto(f"{live_server.url}/desk/deals/{deal.pk}/")
        rulings = page.locator("#deal-rulings").inner_text()
        assert "Marques fixées par l'arbitre — renonce de David : son Point ne compte pas" in rulings
        assert "enregistrée par chef" in rulings
        checked(page, "the deal's page after the ruling")

        page.goto(f"{live_server.url}/p/{tournament.slug}/ranking/")
        rows = page.locator("#ranking tbody tr")
        rows.first.wait_for()
        head = [h.strip() for h in page.locator("#ranking thead th").all_inner_texts()]
        lines = [dict(zip(head, [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()], strict=False))
                 for i in range(rows.count())]
        got = [(ln["Rang"], ln["Joueur"], ln["Points de match"], ln["Victoires"], ln["Défaites"], ln["Buchholz"],
                ln["Écart"]) for ln in lines]
        assert got == [("1", "Bruno", "2", "1", "0", "0", "6"), ("2=", "Ana", "0", "0", "1", "2", "-2"),
                       ("2=", "Chloé", "0", "0", "1", "2", "-2"), ("2=", "David", "0", "0", "1", "2", "-2")], lines
        page.screenshot(path=str(screenshots / "irregular_vingt_quatre_ranking_phone.png"), full_page=True)
        checked(page, "the public ranking")
        own_words(page, "the public ranking")
    finally:
        context.close()
