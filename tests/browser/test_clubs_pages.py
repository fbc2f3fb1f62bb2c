"""The pages of issue 23's second pass in Chromium at 390×844 and 1366×900, with a long name (« Marie-Bernadette
Delacroix-Montfort »): the seasons' list with a comité's option, a season's and a championship's deletion
confirmation, a comité's season, the staff page (the people tapped, a search over a long list, tables tapped) and
the club's staff page with the licences' sex. On every page: nothing wider than the screen, no text spilling out
of a button or a choice, no axe-core violation. Screenshots in /work/shots/clubs/ (or $LEVEE_SHOTS)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from tests.browser.test_tap_a11y import axe_violations
from tests.integration.builders import make_round
from tests.tournaments.seasons.builders import season_of_three
from tournaments.clubs.models import ClubRole, Grouping, Licence
from tournaments.event.models import Entry, Player, TournamentRole
from tournaments.seasons.models import Championship, Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
SIZES = {"phone": (390, 844), "desk": (1366, 900)}
SHOTS = Path(os.environ.get("LEVEE_SHOTS", "/work/shots/clubs"))
SPILLS = """() => [...document.querySelectorAll('button, .btn, .choice span, h1, h2, label, legend')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim().slice(0, 40))"""


def check(page, name: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(SPILLS) == [], f"{name}: text spills out at {size}"
    assert axe_violations(page) == [], f"{name} at {size}"


def login(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-123456")
    page.click("main button[type=submit]")
    page.wait_for_load_state()


@pytest.fixture
def world(django_user_model, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = season_of_three()
    club = s["club"]
    comite = Grouping.objects.create(name="Hauts-de-Seine")
    club.grouping = comite
    club.save()
    boss = django_user_model.objects.create_user("orga-long", password="pw-123456", first_name="Marie-Bernadette",
                                                 last_name="Delacroix-Montfort")
    ClubRole.objects.create(club=club, user=boss, role=ClubRole.Role.ORGANIZER)
    comite.managers.add(boss)  # she manages the comité's seasons too
    for i in range(10):  # a long list of the club's arbiters: a search
        arbiter = django_user_model.objects.create_user(f"arbitre-{i}", first_name=f"Arbitre n° {i}",
                                                        last_name="Delacroix-Montfort" if i == 3 else "Dupont")
        ClubRole.objects.create(club=club, user=arbiter, role=ClubRole.Role.ARBITER)
    long_champ = Championship.objects.create(season=s["season"], name=f"Trophée {LONG}", slug="trophee",
                                             table={"kind": "rank", "points": [10, 6, 4, 2]})
    Season.objects.create(name=f"Challenge du comité {LONG}", slug="challenge-comite", grouping=comite,
                          starts_on=date(2025, 9, 1), ends_on=date(2026, 6, 30))
    ana = s["players"]["Ana"]
    Player.objects.filter(pk=ana.pk).update(name=LONG)
    Licence.objects.filter(number="L-Ana").update(sex="F")
    t = s["tournaments"][2]
    extra = [Entry.objects.create(tournament=t, player=Player.objects.create(name=f"Joueur {k}")) for k in range(4)]
    make_round(t, 2, [list(t.entries.exclude(pk__in=[e.pk for e in extra])[:4]), extra])
    return {**s, "boss": boss, "long_champ": long_champ, "t": t}


def test_the_pages_fit_and_are_accessible(chromium, live_server, world):
    url = live_server.url
    season = world["season"]
    for size, (w, h) in SIZES.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        login(page, url, "orga-long")
        page.goto(f"{url}/gestion/saisons/")
        assert page.get_by_text("Comité Hauts-de-Seine").count() >= 1
        check(page, "seasons", size)
        page.goto(f"{url}/gestion/saisons/challenge-comite/")
        check(page, "season-comite", size)
        page.goto(f"{url}/gestion/saisons/{season.slug}/championnats/trophee/")
        page.get_by_role("link", name="Supprimer ce championnat…").click()
        page.wait_for_load_state()
        assert page.locator("h1").inner_text() == f"Supprimer le championnat « Trophée {LONG} » ?"
        check(page, "championship-delete", size)
        page.goto(f"{url}/gestion/saisons/{season.slug}/supprimer/")
        assert "Challenge du club" in page.locator(".confirm").inner_text()
        check(page, "season-delete", size)
        page.goto(f"{url}/t/{world['t'].slug}/staff/")
        check(page, "staff", size)
        page.fill("#people-search", "delacroix")
        visible = page.locator("#people-list label.choice:visible")
        assert visible.count() == 2  # Marie-Bernadette herself and Arbitre n° 3 Delacroix-Montfort
        check(page, "staff-search", size)
        page.locator("#people-list label.choice:visible", has_text="Arbitre n° 3").click()
        page.locator("form:has(#people-list) label.choice", has_text="table arbiter").or_(
            page.locator("form:has(#people-list) label.choice", has_text="arbitre de table")).first.click()
        page.locator("form:has(#people-list) label.choice", has_text="Table 2").first.click()
        page.locator("form:has(#people-list) button[type=submit]").click()
        page.wait_for_load_state()
        assert "Rôle donné à Arbitre n° 3 Delacroix-Montfort" in page.content()
        page.goto(f"{url}/clubs/{world['club'].slug}/")
        check(page, "club-staff-page", size)
        context.close()
    given = TournamentRole.objects.get(tournament=world["t"], user__username="arbitre-3")
    assert [(t.round.number, t.number) for t in given.tables.all()] == [(2, 2)]
    # the deletion, tapped: the championship goes, the season stays
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                   has_touch=True)
    page = context.new_page()
    login(page, url, "orga-long")
    page.goto(f"{url}/gestion/saisons/{season.slug}/championnats/trophee/supprimer/")
    page.get_by_role("button", name="Supprimer le championnat").click()
    page.wait_for_load_state()
    assert f"Championnat « Trophée {LONG} » supprimé" in page.content()
    check(page, "season-after-delete", "phone")
    context.close()
    assert not Championship.objects.filter(pk=world["long_champ"].pk).exists()
    assert Season.objects.filter(pk=season.pk).exists()
