"""What the walk of issue 23 found as a new club would meet it, in Chromium at 390 px and 1366 px:

* the choices whose options are phrases or names (the season's club, the championship's points table, the record
  of a likely duplicate) were buttons 3.9 to 8 rem wide: « Par pourc|entag|e du cham|p », « Saint-|Étie|nne »
  cut in the middle of their words; the duplicate's label said « 1 tournois »;
* a club's public page did not lead to its seasons' rankings nor to its members' pages across events;
* a player's own link did not lead to his private part across events (``/j/<token>/parcours/``).

On each page: no word cut in the middle, nothing wider than the screen, axe-core clean. Screenshots in
/tmp/walk-*.png."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.test_table_link_cards import axe_clean
from tests.tournaments.seasons.builders import season_of_three
from tournaments.clubs.models import ClubRole
from tournaments.event.models import Entry, Player, Tournament
from tournaments.links import service as links

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desk": (1366, 900)}
LONG = "Marie-Bernadette Delacroix-Montfort"

#: the words (between spaces and hyphens) of a choice button drawn on two lines: a word cut in the middle
CUT_WORDS = """() => { const out = [];
  for (const span of document.querySelectorAll('.choice span')) {
    if (span.offsetParent === null) continue;
    const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\-]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out; }"""


def _context(chromium, size: str):
    w, h = WIDTHS[size]
    context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR", is_mobile=size == "phone",
                                   has_touch=size == "phone")
    context.set_default_timeout(30_000)
    return context


def _login(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-123456")
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def check(page, name: str, size: str) -> None:
    page.screenshot(path=f"/tmp/walk-{name}-{size}.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTHS[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(CUT_WORDS) == [], f"{name}: words cut in the middle at {size}"
    axe_clean(page)


@pytest.fixture
def walk(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = season_of_three()
    club = s["club"]
    club.name = "Tarot Club de Saint-Étienne"
    club.save(update_fields=["name"])
    boss = django_user_model.objects.create_user("orga-walk", password="pw-123456")
    ClubRole.objects.create(club=club, user=boss, role=ClubRole.Role.ORGANIZER)
    # one person twice: his record with a licence (one tournament played), and a new one without it
    born = dt.date(1958, 3, 14)
    first = Player.objects.create(name=LONG, club=club.name, licence="0420001", home_club=club, birth_date=born)
    Entry.objects.create(tournament=s["tournaments"][0], player=first)
    t4 = Tournament.objects.create(name="Challenge du jeudi", slug="t4", game="tarot", club=club, is_public=True)
    again = Entry.objects.create(tournament=t4, player=Player.objects.create(name=LONG, birth_date=born))
    return {**s, "first": first, "again": again}


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_the_organizers_choices_keep_their_words_whole(chromium, live_server, walk, size):
    context = _context(chromium, size)
    page = context.new_page()
    _login(page, live_server, "orga-walk")
    page.goto(f"{live_server.url}/gestion/saisons/")
    assert page.locator("label.choice", has_text="Tarot Club de Saint-Étienne").count() == 1
    check(page, "season-form", size)
    page.goto(f"{live_server.url}/gestion/saisons/saison-2025/championnats/nouveau/")
    assert page.locator("label.choice", has_text="Par pourcentage du champ").count() == 1
    check(page, "championship-form", size)
    page.goto(f"{live_server.url}/t/t4/players/{walk['again'].pk}/")
    record = page.locator("label.choice", has_text="licence 0420001")
    assert record.inner_text() == f"{LONG} (Tarot Club de Saint-Étienne, licence 0420001, 1 tournoi)"
    check(page, "records-merge", size)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_a_clubs_public_page_leads_to_its_seasons_and_its_members_pages(chromium, live_server, walk, size):
    context = _context(chromium, size)
    page = context.new_page()
    page.goto(f"{live_server.url}/c/vanves/")
    check(page, "club-public", size)
    page.get_by_role("link", name="Challenge du club").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/saisons/saison-2025/challenge/"
    page.goto(f"{live_server.url}/c/vanves/")
    page.locator("ul.club-members").get_by_role("link", name=LONG).click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/joueurs/{walk['first'].pk}/"
    assert page.locator("h1").inner_text() == LONG
    context.close()


@pytest.mark.parametrize("size", ["phone", "desk"])
def test_a_players_own_link_leads_to_his_record_across_events(chromium, live_server, walk, size):
    ana = walk["players"]["Ana"]
    link = links.link_for_entry(entry=Entry.objects.get(player=ana, tournament__slug="t3"))
    context = _context(chromium, size)
    page = context.new_page()
    page.goto(f"{live_server.url}/j/{link.token}/")
    check(page, "player-link", size)
    page.get_by_role("link", name="Mon parcours").click()
    page.wait_for_load_state()
    assert page.url == f"{live_server.url}/j/{link.token}/parcours/"
    assert "Licence : L-Ana" in page.content()
    context.close()
