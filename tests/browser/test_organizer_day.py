"""The organizer's day in Chromium at 390 px and 1366 px: the new-tournament form (only the chosen game's
conventions), the status steps, the check-in list (one tap, no reload), seat changes by name, the round
page with its clock, the hall screen (seating and clock) and the public ranking. On every page: nothing
wider than the screen, no text spilling out of a button. Screenshots in bench/out/."""

from __future__ import annotations

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common import hooks
from tournaments.event.models import Entry, Player, TournamentRole
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
WIDTHS = {"phone": (390, 844), "desk": (1366, 900)}

# every button, link-button and choice whose text is wider than its box (text spilling out)
SPILLS = """() => [...document.querySelectorAll('button, .btn, .choice span, .arrival-tap')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim().slice(0, 40))"""


def check(page, name: str, screenshots, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(screenshots / f"organizer_day_{name}_{size}.png"), full_page=True)
    assert width <= WIDTHS[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(SPILLS) == [], f"{name}: text spills out of a button at {size}"


def test_the_organizers_day_at_phone_and_desk_width(chromium, live_server, screenshots, django_user_model):
    from django.contrib.auth.models import Permission

    boss = django_user_model.objects.create_user("orga", password="pw-123456")
    boss.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    names = ["Élodie Martin", "Karim Benali", LONG, "Bruno Roux", "Anne Petit", "Odile Blanc", "Paul Noir",
             "Zoé Vert"]
    t, e = make_tournament(names, slug="odr")  # licences are slug-name, at most 40 characters
    t.name, t.rounds_planned = "Open de Rennes — Tarot des Rois", 3
    t.save()
    TournamentRole.objects.create(tournament=t, user=boss, role="organizer")
    t1, t2 = make_round(t, 1, [[e[n] for n in names[:4]], [e[n] for n in names[4:]]])
    add_deal(t1, [150, -50, -50, -50], taker=0)
    add_deal(t2, [-40, 120, -40, -40], taker=1)
    tasks.ranking_refresh(t.pk)
    make_round(t, 2, [[e[n] for n in (names[0], names[4], names[1], names[5])],
                      [e[n] for n in (names[2], names[6], names[3], names[7])]], released=False)
    Entry.objects.create(tournament=t, player=Player.objects.create(name="Lucie Tardieu"), from_round=3)
    hooks.scores_changed(t.pk)  # written here as the registration service would, which tells the standings

    for size, (w, h) in WIDTHS.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "orga")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_load_state()

        # the new-tournament form: the chosen game's conventions only
        page.goto(f"{live_server.url}/new/")
        assert not page.locator("input[name=honours]").first.is_visible()
        page.click("label:has(input[name=game][value=tarot])")
        assert page.locator("input[name=tarot_five]").first.is_visible()
        assert not page.locator("input[name=triomphe_mode]").first.is_visible()
        page.click("label:has(input[name=game][value=triomphe])")
        assert page.locator("input[name=triomphe_mode]").first.is_visible()
        assert not page.locator("input[name=deals_per_round]").is_visible()
        check(page, "new_tournament", screenshots, size)

        page.goto(f"{live_server.url}/t/{t.slug}/")
        assert page.locator(".status-steps [aria-current=step]").inner_text() == "en cours"
        check(page, "tournament", screenshots, size)

        # check-in: one tap marks the player arrived, without reloading the page
        page.goto(f"{live_server.url}/t/{t.slug}/arrivals/")
        names_shown = page.locator(".arrival-name").all_inner_texts()
        assert names_shown.index("Anne Petit") < names_shown.index("Élodie Martin") < names_shown.index("Karim Benali")
        # (those who played round 1 are there already: ✓, nothing to tap; Lucie Tardieu plays from round 3)
        assert "a joué à la manche 1" in page.locator("li.arrival", has_text=LONG).inner_text()
        late = Entry.objects.get(player__name="Lucie Tardieu")
        row = page.locator("li.arrival", has_text="Lucie Tardieu")
        row.locator("button.arrival-tap").click()
        page.wait_for_function(f"document.querySelector('#e{late.pk}').classList.contains('is-in')")
        assert row.locator("button.arrival-tap").get_attribute("aria-pressed") == "true"
        check(page, "arrivals", screenshots, size)
        row.locator("button.arrival-tap").click()  # undone for the next width
        page.wait_for_function(f"!document.querySelector('#e{late.pk}').classList.contains('is-in')")

        page.goto(f"{live_server.url}/t/{t.slug}/rounds/2/changes/")
        check(page, "seat_changes", screenshots, size)
        page.goto(f"{live_server.url}/t/{t.slug}/rounds/2/")
        check(page, "round", screenshots, size)

        page.goto(f"{live_server.url}/p/{t.slug}/screen/seating/")
        assert page.locator(".places li").count() == 8
        check(page, "hall_seating", screenshots, size)
        page.goto(f"{live_server.url}/p/{t.slug}/screen/clock/")
        check(page, "hall_clock", screenshots, size)
        page.goto(f"{live_server.url}/p/{t.slug}/ranking/")
        # Lucie Tardieu has not played: listed last, without a rank
        assert page.locator("#ranking tbody tr").last.locator("td").first.inner_text() == "—"
        check(page, "public_ranking", screenshots, size)
        context.close()


def test_every_page_of_the_demo_fits_at_phone_and_desk_width(chromium, live_server, screenshots):
    """The overflow check of the entry flow, on every staff and public page of the demo (seed_demo)."""
    from django.core.management import call_command

    from tournaments.deals.models import Deal
    from tournaments.event.models import Table, Tournament

    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    tarot = Tournament.objects.get(slug="demo-tarot")
    table = Table.objects.filter(round__tournament=tarot).order_by("round__number", "number").first()
    deal = Deal.objects.filter(table=table).order_by("number").first()
    entry = tarot.entries.order_by("id").first()
    s = tarot.slug
    pages = [f"/t/{s}/", f"/t/{s}/players/", f"/t/{s}/teams/", f"/t/{s}/staff/", f"/t/{s}/arrivals/",
             f"/t/{s}/rounds/1/", f"/t/{s}/rounds/2/", f"/t/{s}/rounds/2/changes/", "/desk/",
             f"/desk/tables/{table.pk}/", f"/desk/deals/{deal.pk}/", "/new/",
             f"/p/{s}/", f"/p/{s}/ranking/", f"/p/{s}/rounds/1/", f"/p/{s}/players/{entry.pk}/", f"/p/{s}/screen/",
             f"/p/{s}/screen/seating/", f"/p/{s}/screen/clock/", f"/p/{s}/ranking/print/", f"/p/{s}/results/print/"]
    for other in Tournament.objects.exclude(pk=tarot.pk):
        pages += [f"/t/{other.slug}/", f"/t/{other.slug}/rounds/1/", f"/p/{other.slug}/ranking/"]
    for size, (w, h) in WIDTHS.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "organisateur")
        page.fill("input[name=password]", "levee-demo")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        too_wide, spilling = [], []
        for path in pages:
            response = page.goto(live_server.url + path)
            assert response.status == 200, path
            if page.evaluate("document.documentElement.scrollWidth") > w + 2:
                too_wide.append(path)
                page.screenshot(path=str(screenshots / f"too_wide_{size}_{path.strip('/').replace('/', '_')}.png"),
                                full_page=True)
            if page.evaluate(SPILLS):
                spilling.append((path, page.evaluate(SPILLS)))
        context.close()
        assert too_wide == [], f"wider than the screen at {size}: {too_wide}"
        assert spilling == [], f"text spilling out of a button at {size}: {spilling}"
