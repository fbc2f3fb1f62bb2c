"""Every game at the table, by taps alone, on a phone (390×844) in Debian's Chromium.

One flow per concern, each covering a whole path through the pages:

* each of the five games: the declarations tapped from the game module's description, every card tapped,
  saved, and the deal's score read on its page — expected values computed by hand from the rule texts below;
* a reconstituted deal at La Triomphe: cards the seat does not hold are hidden, the forbidden ones marked with
  the reason; a renonce confirmed, kept through a reload and a lost connection, undone and tapped again, then
  reported in French at its trick, seat and card when saving;
* no text spills out of its box and no page is wider than the screen, at 390 px and 1366 px, with long names.
"""

from __future__ import annotations

import re

import pytest

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.deals.models import Deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre",
        "Géraldine Chevalier", "Dominique Roux"]

#: text that spills out of its box, and a page wider than the viewport (elements that scroll on purpose skipped)
OVERFLOW_JS = """() => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) bad.push(`page ${doc.scrollWidth}px wide for ${doc.clientWidth}px`);
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (['none', 'inline', 'contents'].includes(cs.display) || cs.visibility === 'hidden') continue;
    if (el.closest('.scroll, pre, textarea, script, .skip, [hidden]') || el.getClientRects().length === 0) continue;
    if (['auto', 'scroll', 'hidden', 'clip'].includes(cs.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      const text = (el.innerText || '').slice(0, 40);
      bad.push(`${el.tagName.toLowerCase()}.${el.className} «${text}» ${el.scrollWidth}>${el.clientWidth}`);
    }
  }
  return bad;
}"""


def fits(page) -> None:
    """Nothing spills out of its box, nothing is wider than the screen."""
    bad = page.evaluate(OVERFLOW_JS)
    assert not bad, f"{page.url}: {bad[:5]}"


@pytest.fixture
def arbiter(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def table_for(arbiter, game: str, options: dict, names: list[str]):
    tournament = TournamentFactory(name=f"Coupe de {game}", game=game, options=options)
    table = seated_table(tournament, players=len(names), names=names)
    role(tournament, arbiter, "arbiter", [table])
    return table


def login(page, live_server) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "arbitre")
    page.fill("input[name=password]", "secret-pass")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/desk/$|/$"))


def seat(page, field: str, position: int, within: str = "") -> None:
    """Tap a seat (or a choice) of a declaration by its position."""
    page.locator(f'{within} [data-field="{field}"] > .choices > .choice').nth(position).click()


def choose(page, field: str, label: str) -> None:
    page.locator(f'[data-field="{field}"] .choice', has_text=label).first.click()


def pick_cards(page, field: str, codes: list[str], within: str = "") -> None:
    """Tap cards into a declaration's card picker (opening it first when it is folded)."""
    box = page.locator(f'{within} [data-field="{field}"]').first
    folded = box.locator("details")
    if folded.count() and not folded.first.get_attribute("open") is not None:
        folded.first.locator("summary").click()
    for code in codes:
        box.locator(f'button[data-code="{code}"]').click()


def play(page, tricks: list[list[str]]) -> None:
    for trick in tricks:
        for code in trick:
            page.locator(f'#pack button[data-code="{code}"]').click()
    page.locator("#play-title", has_text="Tous les plis").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()


def save_and_read_scores(page) -> list[str]:
    page.click("#save")
    page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
    return page.locator("#scores tbody td").all_inner_texts()


# -- the five games, by taps alone -------------------------------------------------------------------------

# La Triomphe (RULES.md §2.1, §2.4), forcée, order R D V As 10 9 8 7, hearts trump (retourne 9♥). Bruno deals,
# Ana (first hand) leads. Trick 1 R♠/7♠ Ana; 2 7♦/R♦ Bruno; 3 8♣/D♣ Ana; 4 D♠/8♠ Ana; 5 7♣/V♣ Bruno.
# Ana 3 tricks of 5: the point, 1; no vole. Scores 1, 0.
TRIOMPHE_TRICKS = [["KS", "7S"], ["7D", "KD"], ["8C", "QC"], ["QS", "8S"], ["7C", "JC"]]

# L'Impériale at two (RULES.md §4): Bruno deals, retourne 8♥ (no honour: no retourne jeton). Ana shows the
# quatrième majeure in spades (As R D V ♠, plain suit): 1 impériale (rule 11). The Point is declared not counted.
# Play order R D V As 10 9 8 7: Ana wins tricks 1-8 (spades then clubs, each led from the top), Bruno wins
# 9 (R♦ on 7♦), 10 (D♦ over 8♦), 11 (R♥ trump over 7♥: two honours, R and 7 of trump, 2 jetons, rule 9) and 12.
# Les cartes: Ana 8 tricks, 2 more than 6: 2 jetons (rule 10). No sixth jeton: fiches gained 1 and 0.
IMPERIALE_TRICKS = [["KS", "7S"], ["QS", "8S"], ["JS", "9S"], ["AS", "10S"], ["KC", "7C"], ["QC", "8C"],
                    ["JC", "9C"], ["AC", "10C"], ["7D", "KD"], ["QD", "8D"], ["KH", "7H"], ["JD", "9D"]]

# Le Vingt-quatre at four (RULES.md §5), honours « aux figures » (trump 9 10 V D R), virade 2♣ (clubs trump,
# not an honour). Ana deals, Bruno leads every trick from the top of a suit and wins all twelve. No sequence
# is shown and the Point is declared not counted. Honours won: trick 10 R♣ 10♣ 9♣ (3), trick 11 D♣ (1),
# trick 12 V♣ (1): 5 jetons; la carte (most tricks) 1 jeton: 6 jetons = 24 points, the partie won at once.
# Scores in jetons: 0, 6, 0, 0.
V24_TRICKS = [["KS", "10S", "9S", "8S"], ["QS", "7S", "6S", "5S"], ["JS", "4S", "3S", "2S"],
              ["KH", "10H", "9H", "8H"], ["QH", "7H", "6H", "5H"], ["JH", "4H", "3H", "2H"],
              ["KD", "10D", "9D", "8D"], ["QD", "7D", "6D", "5D"], ["JD", "4D", "3D", "2D"],
              ["KC", "10C", "9C", "8C"], ["QC", "7C", "6C", "5C"], ["JC", "4C", "3C", "AC"]]


def test_each_game_entered_by_taps_and_saved_with_its_score(live_server, chromium, arbiter, screenshots):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        triomphe = table_for(arbiter, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
        ecarte = table_for(arbiter, "ecarte", {"target": 5}, LONG[:2])
        imperiale = table_for(arbiter, "imperiale", {"target": 5}, LONG[:2])
        v24 = table_for(arbiter, "vingt-quatre", {"honours": "figures", "target": 24}, LONG)
        tarot = table_for(arbiter, "tarot", {"players": 4}, LONG)
        login(page, live_server)

        # La Triomphe: the table's « Saisir une donne » leads to the taps
        page.goto(f"{live_server.url}/desk/tables/{triomphe.pk}/deal/")
        page.wait_for_url(re.compile(r"/deal/play/$"))
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.screenshot(path=str(screenshots / "tap_triomphe_phone.png"), full_page=True)
        fits(page)
        play(page, TRIOMPHE_TRICKS)
        assert "remporté par " + LONG[1] in page.locator("#trick-winner").inner_text()
        fits(page)
        assert save_and_read_scores(page) == ["1", "0"]

        # L'Écarté (RULES.md §3.3-3.4): the same deal, Ana plays d'autorité (no exchange); 3 tricks: the point, 1
        page.goto(f"{live_server.url}/desk/tables/{ecarte.pk}/deal/play/")
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.get_by_role("button", name=re.compile("Ajouter")).first.click()
        seat(page, "seat", 0)
        choose(page, "action", "Je joue")
        page.screenshot(path=str(screenshots / "tap_ecarte_phone.png"), full_page=True)
        fits(page)
        play(page, TRIOMPHE_TRICKS)
        assert save_and_read_scores(page) == ["1", "0"]

        # L'Impériale
        page.goto(f"{live_server.url}/desk/tables/{imperiale.pk}/deal/play/")
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["8H"])
        page.get_by_role("button", name=re.compile("Impériales en main")).click()
        seat(page, "seat", 0)
        pick_cards(page, "cards", ["AS", "KS", "QS", "JS"], within='[data-field="announcements.imperiales"]')
        page.locator('[data-field="announcements.point"] label.check').click()
        page.screenshot(path=str(screenshots / "tap_imperiale_phone.png"), full_page=True)
        fits(page)
        play(page, IMPERIALE_TRICKS)
        assert save_and_read_scores(page) == ["1", "0"]
        marks = page.locator("#deal-marks").inner_text()
        assert "Impériale" in marks or "impériale" in marks

        # Le Vingt-quatre
        page.goto(f"{live_server.url}/desk/tables/{v24.pk}/deal/play/")
        seat(page, "dealer", 0)
        pick_cards(page, "turn_up", ["2C"])
        page.locator('[data-field="announcements.point"] label.check').click()
        play(page, V24_TRICKS)
        page.screenshot(path=str(screenshots / "tap_vingt_quatre_phone.png"), full_page=True)
        fits(page)
        assert save_and_read_scores(page) == ["0", "6", "0", "0"]

        # Tarot at four, a garde (tests/golden/tarot-garde-4p.json, the deal of the rules' own golden test): David
        # deals and takes; écart N♠ 5♥ As♦ 3♣ 3♠ 10♣. The taker's side: 2 bouts, 43 points, 41 needed (RULES.md
        # §1.10): won by 2; each defender pays (25 + 2) × 2 = 54, the taker receives 3 × 54 = 162 (§1.11).
        import json
        from pathlib import Path

        golden = json.loads((Path(__file__).resolve().parents[1] / "golden" / "tarot-garde-4p.json").read_text())
        page.goto(f"{live_server.url}/desk/tables/{tarot.pk}/deal/play/")
        seat(page, "dealer", 3)
        seat(page, "bid.taker", 3)
        choose(page, "bid.contract", "Garde")
        page.locator('[data-field="discard"]').wait_for()
        pick_cards(page, "discard", golden["discard"])
        page.screenshot(path=str(screenshots / "tap_tarot_phone.png"), full_page=True)
        fits(page)
        play(page, golden["tricks"])
        page.screenshot(path=str(screenshots / "tap_tarot_done_phone.png"), full_page=True)
        assert save_and_read_scores(page) == ["-54", "-54", "-54", "162"]
        assert Deal.objects.count() == 5
    finally:
        context.close()


# -- a renonce at La Triomphe, with the hands ---------------------------------------------------------------

def test_reconstituted_deal_marks_forbidden_cards_and_a_confirmed_renonce_is_reported(live_server, phone, arbiter,
                                                                                       screenshots):
    page = phone
    table = table_for(arbiter, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["9H"])
    page.locator("#hands summary").click()
    hands = [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]]
    for position, hand in enumerate(hands):
        page.locator("#hands .seat-tabs button").nth(position).click()
        for code in hand:
            page.locator(f'#hands .pack button[data-code="{code}"]').click()
    # Ana to play: only her five cards are offered
    page.locator("#to-play", has_text=LONG[0]).wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    assert sorted(page.locator("#pack button").evaluate_all("bs => bs.map(b => b.dataset.code)")) == sorted(hands[0])
    page.locator('#pack button[data-code="KS"]').click()
    # Bruno must follow spades (RULES.md §2.3): his diamonds and clubs are marked, with the reason
    page.locator("#to-play", has_text=LONG[1]).wait_for()
    page.locator("#forbid-note").wait_for()
    assert "pique" in page.locator("#forbid-note").inner_text()
    assert page.locator('#pack button[data-code="KD"]').get_attribute("class").count("forbidden") == 1
    assert page.locator('#pack button[data-code="KD"]').get_attribute("aria-label") == "R♦ · roi de carreau"
    page.screenshot(path=str(screenshots / "tap_forbidden_phone.png"), full_page=True)
    fits(page)
    # the renonce: tapped, confirmed
    page.locator('#pack button[data-code="KD"]').click()
    page.locator("#confirm").wait_for()
    page.screenshot(path=str(screenshots / "tap_confirm_phone.png"), full_page=False)
    fits(page)
    page.click("#confirm-yes")
    page.locator("#play-problems").wait_for()
    # the connection drops: Ana can still tap, the page says the check will come back
    page.context.set_offline(True)
    page.locator('#pack button[data-code="7D"]').click()
    page.locator("#net.offline").wait_for()
    fits(page)
    page.context.set_offline(False)
    page.locator("#net", has_text="Vérifié").wait_for(timeout=12_000)
    # undo the last card, then a reload keeps the deal in progress (two cards, the hands)
    page.click("#undo")
    page.reload()
    page.locator("#net", has_text="Vérifié").wait_for()
    assert page.locator("#past li").count() == 1
    assert page.locator("#play-problems").count() == 1
    page.click("#save")
    problems = page.locator("#problems")
    problems.wait_for()
    text = problems.inner_text()
    assert "Pli 1" in text and LONG[1] in text and "roi de carreau" in text, text
    assert Deal.objects.count() == 0
    page.screenshot(path=str(screenshots / "tap_renonce_reported_phone.png"), full_page=False)
    fits(page)


# -- without the hands: the note under the pack is true of every marked card ------------------------------------

def test_note_under_the_pack_names_the_earlier_play_not_one_marked_card(live_server, phone, arbiter, screenshots):
    """A walk: at Tarot the note under the pack said « … contenait l'atout 21 (carte jouée au pli 2) » while the
    card tapped was the 7 de pique — the note was the reason of the last marked card, whichever it was.

    La Triomphe forcée (RULES.md §2.3), hearts trump (retourne 9♥), no hands entered. Trick 1: Ana leads R♠,
    Bruno plays the 8♣: he neither followed spades nor trumped, so any spade and any heart from him later
    proves a renonce at trick 1. Trick 2: Ana leads D♠; Bruno's spades and hearts are marked. The note below
    stands for them all: the earlier play, no marked card named; the card tapped has its own reason."""
    page = phone
    table = table_for(arbiter, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["9H"])
    page.locator("#to-play", has_text=LONG[0]).wait_for()
    for code in ["KS", "8C", "QS"]:
        page.locator("#net", has_text="Vérifié").wait_for()
        page.locator(f'#pack button[data-code="{code}"]').click()
    page.locator("#to-play", has_text=LONG[1]).wait_for()
    page.locator("#forbid-note").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    bruno = LONG[1]
    assert page.locator("#forbid-note").inner_text() == (
        f"Cartes marquées ⚠ interdites. Pli 1 : {bruno} a joué le 8 de trèfle sans fournir à pique : une carte "
        f"marquée, jouée maintenant, prouverait une renonce. Pli 1 : {bruno} a joué le 8 de trèfle sans couper : "
        f"une carte marquée, jouée maintenant, prouverait une renonce.")
    marked = page.locator("#pack button.forbidden").evaluate_all("bs => bs.map(b => b.dataset.code)")
    assert "7S" in marked and "7H" in marked and "7D" not in marked
    page.locator('#pack button[data-code="7S"]').click()
    page.locator("#confirm").wait_for()
    assert page.locator("#confirm span").first.inner_text() == (
        f"Pli 1 : Renonce : {bruno} a joué le 8 de trèfle sans fournir à pique alors que sa main contenait le 7 "
        f"de pique (carte jouée au pli 2).")
    page.screenshot(path=str(screenshots / "tap_note_without_hands_phone.png"), full_page=True)
    fits(page)


# -- nothing spills, at both sizes ------------------------------------------------------------------------

@pytest.mark.parametrize("width", [390, 1366])
def test_entry_pages_fit_any_name_at_phone_and_desktop_width(live_server, chromium, arbiter, screenshots, width):
    context = chromium.new_context(viewport={"width": width, "height": 844 if width < 500 else 900}, locale="fr-FR")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        tarot = table_for(arbiter, "tarot", {"players": 4}, LONG)
        v24 = table_for(arbiter, "vingt-quatre", {"honours": "figures", "target": 24}, LONG)
        login(page, live_server)
        size = "phone" if width < 500 else "desktop"

        def look(name: str) -> None:
            page.screenshot(path=str(screenshots / f"fit_{name}_{size}.png"), full_page=True)
            fits(page)

        page.goto(f"{live_server.url}/desk/tables/{tarot.pk}/")
        look("table")
        # the Tarot summary on the tap page: seat buttons with long names, a refused deal
        page.goto(f"{live_server.url}/desk/tables/{tarot.pk}/deal/?mode=summary")
        page.locator('[data-field="summary.oudlers"]').wait_for()
        look("tarot_summary")
        seat(page, "bid.taker", 1)
        seat(page, "dealer", 0)
        choose(page, "bid.contract", "Garde")
        choose(page, "summary.oudlers", "2")
        page.get_by_label("Points du camp du preneur").fill("95")
        page.get_by_role("button", name="Vérifier et enregistrer").click()
        page.locator("#problems").wait_for()
        assert "91" in page.locator("#problems").inner_text()
        look("tarot_summary_refused")
        page.get_by_role("link", name="Expert").click()
        page.locator("textarea").first.wait_for()
        look("tarot_expert")
        # card by card, Tarot and Vingt-quatre (four long names), with a card played and the hands open
        for table, name in ((tarot, "tarot"), (v24, "vingt_quatre")):
            page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=play")  # (the summary is remembered)
            page.locator("#net").wait_for()
            look(f"{name}_play")
            page.locator("#hands summary").click()
            page.locator("#pack button").first.click()
            page.locator("#net", has_text="Vérifié").wait_for()
            look(f"{name}_play_hands")
        # the quick summary of a historical game, four long names
        page.goto(f"{live_server.url}/desk/tables/{v24.pk}/deal/play/?mode=summary")
        page.locator('[data-field="summary.tricks"]').wait_for()
        look("vingt_quatre_summary")
        # the saved deal: the summary kept on the device, corrected to 49 points
        page.goto(f"{live_server.url}/desk/tables/{tarot.pk}/deal/?mode=summary")
        points = page.get_by_label("Points du camp du preneur")
        assert points.input_value() == "95"
        points.fill("49")
        page.get_by_role("button", name="Vérifier et enregistrer").click()
        page.wait_for_url(re.compile(r"/desk/deals/\d+/$"))
        # garde (×2), 2 bouts: 41 needed, 49 made, won by 8: each defender −(25 + 8) × 2 = −66 (RULES.md §1.11)
        assert page.locator("#scores tbody td").all_inner_texts() == ["-66", "198", "-66", "-66"]
        look("deal_detail")
    finally:
        context.close()


# -- the quick summary of each historical game ---------------------------------------------------------

def tricks_won(page, counts: list[int]) -> None:
    """Tap each seat's tricks (the last seat is filled in as the rest)."""
    rows = page.locator('[data-field="summary.tricks"] .count-row')
    for position, n in enumerate(counts[:-1]):
        rows.nth(position).locator(".choice", has_text=re.compile(rf"^{n}$")).click()
    assert rows.nth(len(counts) - 1).locator("input:checked").get_attribute("value") == str(counts[-1])


def test_each_game_summary_saved_with_its_score(live_server, phone, arbiter, screenshots):
    page = phone
    triomphe = table_for(arbiter, "triomphe", {"mode": "forcee", "target": 5}, LONG[:2])
    ecarte = table_for(arbiter, "ecarte", {"target": 5}, LONG[:2])
    imperiale = table_for(arbiter, "imperiale", {"target": 5}, LONG[:2])
    v24 = table_for(arbiter, "vingt-quatre", {"honours": "figures", "target": 24}, LONG)
    login(page, live_server)

    def open_summary(table) -> None:
        page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/")
        page.get_by_role("link", name="Résumé").click()
        page.locator('[data-field="summary.tricks"]').wait_for()

    # La Triomphe: Ana 3 tricks, Bruno 2: the point, 1 (RULES.md §2.4)
    open_summary(triomphe)
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["9H"])
    tricks_won(page, [3, 2])
    page.screenshot(path=str(screenshots / "summary_triomphe_phone.png"), full_page=True)
    fits(page)
    assert save_and_read_scores(page) == ["1", "0"]

    # L'Écarté: Ana plays d'autorité and takes all five tricks: the point 1 and the vole 1 more (§3.4): 2. The
    # summary asks no retourne and no steps of the exchange: only who declined it (Ana, the first hand)
    open_summary(ecarte)
    body = page.locator("main").inner_text()
    assert "Retourne" not in body and "Je joue" not in body and "Talon" not in body
    seat(page, "dealer", 1)
    seat(page, "summary.declined_by", 0)
    tricks_won(page, [5, 0])
    page.screenshot(path=str(screenshots / "summary_ecarte_phone.png"), full_page=True)
    fits(page)
    assert save_and_read_scores(page) == ["2", "0"]
    # the next deal: Ana deals, turns the king (1, §3.1 rule 4) and refuses Bruno's first proposal; Bruno wins 3
    # tricks: the point 1 and the point de refus 1 (§3.4 rule 13b). The deal's marks: Ana 1, Bruno 2
    open_summary(ecarte)
    seat(page, "dealer", 0)
    page.locator('[data-field="summary.turned_king"] label.check').click()
    seat(page, "summary.declined_by", 0)
    tricks_won(page, [2, 3])
    fits(page)
    assert save_and_read_scores(page) == ["1", "2"]

    # L'Impériale: Ana shows the quatrième majeure in spades (1 impériale, §4.2 rule 11), the Point not counted;
    # Bruno takes the R and 7 of trump (hearts) in one trick: 2 jetons; Ana 8 tricks: 2 jetons of cartes.
    # Nobody reaches a sixth jeton: fiches gained 1 and 0.
    open_summary(imperiale)
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["8H"])
    page.get_by_role("button", name=re.compile("Impériales en main")).click()
    seat(page, "seat", 0, within='[data-field="announcements.imperiales"]')
    pick_cards(page, "cards", ["AS", "KS", "QS", "JS"], within='[data-field="announcements.imperiales"]')
    page.locator('[data-field="announcements.point"] label.check').click()
    tricks_won(page, [8, 4])
    page.get_by_role("button", name=re.compile("Honneurs levés")).click()
    seat(page, "seat", 1, within='[data-field="summary.honours"]')
    pick_cards(page, "cards", ["KH", "7H"], within='[data-field="summary.honours"]')
    page.screenshot(path=str(screenshots / "summary_imperiale_phone.png"), full_page=True)
    fits(page)
    assert save_and_read_scores(page) == ["1", "0"]

    # Le Vingt-quatre: Bruno takes the twelve tricks and the five honours « aux figures » of clubs (R D V 10 9):
    # 5 jetons, la carte 1: 6 jetons = 24 points (§5 rule 4). Scores in jetons 0, 6, 0, 0.
    open_summary(v24)
    seat(page, "dealer", 0)
    pick_cards(page, "turn_up", ["2C"])
    page.locator('[data-field="announcements.point"] label.check').click()
    tricks_won(page, [0, 12, 0, 0])
    page.get_by_role("button", name=re.compile("Honneurs levés")).click()
    seat(page, "seat", 1, within='[data-field="summary.honours"]')
    pick_cards(page, "cards", ["KC", "QC", "JC", "10C", "9C"], within='[data-field="summary.honours"]')
    page.screenshot(path=str(screenshots / "summary_vingt_quatre_phone.png"), full_page=True)
    fits(page)
    assert save_and_read_scores(page) == ["0", "6", "0", "0"]
