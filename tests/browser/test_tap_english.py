"""The tap page in English on the English page (issue 19 item 5): after the site's language switch (« EN »), no
French word of the table is left in the text a person sees or hears (visible text, aria-labels, titles), on each
game's tap page card by card and in summary, with a card played (the play's own texts) and a forbidden card's
confirmation (the reason comes from the game's rules). The table's own French terms that the English page keeps
(the contracts, « Petit au bout », the games' names) are left aside, as tests/rules/test_entry_english.py does."""

from __future__ import annotations

import re

import pytest

from tests.browser.irregular_steps import enter_hands, tap
from tests.browser.test_tap_entry import login, pick_cards, seat, table_for
from tests.tournaments.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: the table's words in French (issue 19: « preneur, garde, donne, carte, pli, atout, cœur, pique, trèfle, carreau,
#: roi, dame, valet, Saisir, Valider, Annuler »), and the page's usual French words
FRENCH = re.compile(
    r"\b(preneur|donneur|donnes?|cartes?|plis?|atouts?|cœur|pique|trèfle|carreau|roi|dame|valet|cavalier|saisir|"
    r"saisie|valider|annuler|enregistrer|vérifié|vérifier|joueurs?|écart|reprise|retourne|jouer|joué|"
    r"interdite?|renonce|fournir|couper|pas|aucune?|chaque|avec|sans|pour|une?|les?|la|des|du|et|ou|à)\b", re.I)
#: the French terms the English page keeps on purpose (the contracts and the marks' names, the games' names)
KEPT = re.compile(r"Garde contre le chien|Garde sans le chien|Garde|Prise|Petit au bout|« aux figures »|"
                  r"« au point »|cartes blanches|\(chien\)|\(virade\)|the Petit|L'Écarté|L'Impériale|Le Vingt-quatre|"
                  r"La Triomphe|Écarté|Impériale|Vingt-quatre|Triomphe|Coupe de \S+|Club de Tarot|Levée", re.I)

TEXTS_JS = """() => {
  const out = [document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.join('\\n');
}"""

NAMES = ["Ana", "Bruno", "Chloé", "David"]
GAMES = [("tarot", {"players": 4}, 4), ("triomphe", {}, 2), ("ecarte", {}, 2), ("imperiale", {"players": 2}, 2),
         ("vingt-quatre", {"honours": "figures", "target": 24}, 4)]


def french_words(page) -> list[str]:
    text = KEPT.sub("", page.evaluate(TEXTS_JS))
    for name in NAMES:
        text = text.replace(name, "")
    found = []
    for line in text.splitlines():
        if FRENCH.search(line):
            found.append(line.strip()[:90])
    return sorted(set(found))


@pytest.fixture
def arbiter(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


@pytest.mark.parametrize("game,options,players", GAMES)
def test_the_english_tap_page_has_no_french_word(live_server, phone, arbiter, game, options, players):
    page = phone
    table = table_for(arbiter, game, options, NAMES[:players])
    login(page, live_server)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    page.locator("button.lang[value=en]").click()  # the site's language switch
    page.wait_for_load_state()
    page.locator("#net").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"
    found = french_words(page)
    # a card played, then (Triomphe, with the hands) a forbidden card's confirmation
    page.locator("#hands summary").click()
    found += french_words(page)
    if game == "triomphe":
        seat(page, "dealer", 1)
        pick_cards(page, "turn_up", ["9H"])
        page.locator("#hands summary").click()  # folded again: « the hands » opens it
        enter_hands(page, [["KS", "7D", "QC", "QS", "7C"], ["7S", "KD", "8C", "8S", "JC"]])
        page.locator("#net.net").wait_for()
        tap(page, "KS")
        page.wait_for_timeout(500)
        tap(page, "KD")
        page.locator("#confirm").wait_for()
        found += french_words(page)
    else:
        page.locator("#pack button").first.click()
        page.wait_for_timeout(500)
        found += french_words(page)
    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/?mode=summary")
    page.locator("#deal-entry fieldset").first.wait_for()
    found += french_words(page)
    assert not found, sorted(set(found))
