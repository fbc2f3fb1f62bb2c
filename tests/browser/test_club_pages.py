"""A club's pages in Chromium at 390 px and 1366 px: the public page (names, tournaments running, upcoming and past) and
the staff page (members with licence, série, birth date and validity, an expired one flagged), with long French
names. On each: nothing wider than the screen, no text spilling out of a button, axe-core clean. Screenshots in
/tmp/clubs-*.png."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.test_table_link_cards import axe_clean
from tests.tournaments.factories import ClubFactory, ClubRoleFactory, EntryFactory, PlayerFactory, TournamentFactory
from tournaments.clubs.models import Licence
from tournaments.event.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": (390, 844), "desk": (1366, 900)}
SPILLS = """() => [...document.querySelectorAll('button, .btn, h1, h2, label, td, li a')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim().slice(0, 40))"""
LONG_CLUB = "Association Tarot Club des Pays de la Loire et de la Vendée Maritime"
MEMBERS = ["Marie-Bernadette Delacroix-Montfort", "Jean-Christophe Vandenberghe-Lefèvre", "Cœur BŒUF",
           "Anaïs Le Gall-Kerbrat"]


def check(page, name: str, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=f"/tmp/clubs-{name}-{size}.png", full_page=True)
    assert width <= WIDTHS[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(SPILLS) == [], f"{name}: text spills out at {size}"
    axe_clean(page)


def test_a_clubs_pages_fit_and_are_accessible(chromium, live_server, django_user_model):
    club = ClubFactory(name=LONG_CLUB, city="Les Sables-d'Olonne", federation_number="85001", slug="atc-loire")
    boss = django_user_model.objects.create_user("orga-club", password="pw-123456")
    ClubRoleFactory(club=club, user=boss)
    past = TournamentFactory(club=club, name="Grand Prix de Tarot de la Ville des Sables-d'Olonne 2026",
                             status=Tournament.Status.FINISHED, date=dt.date(2026, 10, 4), venue="Salle des fêtes")
    TournamentFactory(club=club, name="Challenge d'hiver — manche de décembre", status=Tournament.Status.OPEN,
                      date=dt.date(2026, 12, 13))
    TournamentFactory(club=club, name="Coupe Marie-Bernadette Delacroix-Montfort des Sables-d'Olonne",
                      status=Tournament.Status.RUNNING, date=dt.date(2026, 11, 22), venue="Salle des fêtes")
    for i, name in enumerate(MEMBERS):
        licence = f"850000{i}"
        player = PlayerFactory(name=name, licence=licence, home_club=club, club=LONG_CLUB,
                               birth_date=dt.date(1960 + i, 3, 12))
        Licence.objects.create(number=licence, last_name=name.split()[-1], first_name=name.split()[0],
                               category="S2", valid_until=dt.date(2026 if i == 0 else 2027, 8, 31))
        EntryFactory(tournament=past, player=player)

    for size, (w, h) in WIDTHS.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.goto(f"{live_server.url}/c/{club.slug}/")
        assert page.locator("h1").inner_text() == LONG_CLUB
        assert "8500000" not in page.content()  # no licence on the public page
        assert page.locator("h2").nth(0).inner_text() == "Tournois en cours"  # the one being played first
        check(page, "public", size)

        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "orga-club")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/clubs/{club.slug}/")
        assert "expirée le 31/08/2026" in page.content()
        assert "Tournois en cours" in page.locator("main").inner_text()
        check(page, "staff", size)
        context.close()
