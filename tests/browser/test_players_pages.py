"""The players' pages in Chromium at 390 px and 1366 px, with « Marie-Bernadette Delacroix-Montfort » registered
twice: the list after a French club's file is imported (the columns ignored said), a player's page (edit, merge,
remove, history), a refused merge and a refused licence that keep what was typed. On every page: nothing wider
than the screen, no text spilling out of a button. Screenshots in bench/out/players_*.png."""

from __future__ import annotations

import pytest

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.event.models import Entry, Player, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Marie-Bernadette Delacroix-Montfort"
WIDTHS = {"phone": (390, 844), "desk": (1366, 900)}
SPILLS = """() => [...document.querySelectorAll('button, .btn, .choice span, h1, label, td a')]
  .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim().slice(0, 40))"""
CLUB_FILE = ("Nom;Prénom;Club;N° licence;Sexe;Date\r\nBŒUF;Marie;Cœur de Lyon;0412345;F;12/03/2024\r\n"
             "DELACROIX-MONTFORT;Marie-Bernadette;Association Tarot Club des Pays de la Loire;0423456;F;12/03/2024\r\n")


def check(page, name: str, screenshots, size: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(screenshots / f"players_{name}_{size}.png"), full_page=True)
    assert width <= WIDTHS[size][0] + 2, f"{name} is {width}px wide at {size}"
    assert page.evaluate(SPILLS) == [], f"{name}: text spills out at {size}"


def test_the_players_pages_fit_at_phone_and_desk_width(chromium, live_server, screenshots, django_user_model,
                                                       tmp_path):
    boss = django_user_model.objects.create_user("orga-j", password="pw-123456")
    t, e = make_tournament(["Élodie Martin", "Karim Benali", LONG, "Bruno Roux"], slug="pj")
    TournamentRole.objects.create(tournament=t, user=boss, role="organizer")
    table, = make_round(t, 1, [[e[n] for n in ("Élodie Martin", "Karim Benali", LONG, "Bruno Roux")]])
    add_deal(table, [150, -50, -50, -50], taker=0)
    twice = Entry.objects.create(tournament=t, player=Player.objects.create(name=LONG + " (2)"))
    csv_file = tmp_path / "joueurs.csv"
    csv_file.write_bytes(CLUB_FILE.encode("cp1252"))

    for size, (w, h) in WIDTHS.items():
        context = chromium.new_context(viewport={"width": w, "height": h}, locale="fr-FR",
                                       is_mobile=size == "phone", has_touch=size == "phone")
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", "orga-j")
        page.fill("input[name=password]", "pw-123456")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        base = f"{live_server.url}/t/{t.slug}/players/"
        page.goto(base)
        if size == "phone":
            page.set_input_files("input[type=file]", str(csv_file))
            page.click("form:has(input[type=file]) button[type=submit]")
            page.wait_for_load_state()
            assert "Colonnes ignorées : Sexe, Date." in page.content()
            assert page.locator("td a", has_text="Marie BŒUF").count() == 1
        check(page, "list", screenshots, size)

        page.goto(f"{base}{e[LONG].pk}/")
        check(page, "player", screenshots, size)
        # a licence already taken: refused, naming its holder, what was typed kept
        page.fill("#edit input[name=licence]", "pj-Bruno Roux")
        page.fill("#edit input[name=reason]", "licence relevée sur la carte")
        page.click("#edit button[type=submit]")
        assert "est déjà celle de Bruno Roux" in page.content()
        assert page.input_value("#edit input[name=reason]") == "licence relevée sur la carte"
        check(page, "player_refused", screenshots, size)
        # the same person twice: the other one never played, so the merge goes through
        if size == "phone":
            page.select_option("#merge select[name=other]", str(twice.pk))
            page.fill("#merge input[name=reason]", "inscrite deux fois")
            page.click("#merge button[type=submit]")
            page.wait_for_load_state()
            assert "ne font plus qu'un" in page.content()
            assert not Entry.objects.filter(pk=twice.pk).exists()
            check(page, "merged", screenshots, size)
        # a player who played cannot be removed: the page says « abandon » instead of a button
        assert page.locator("#remove button").count() == 0 and "abandon" in page.locator("#remove").inner_text()
        context.close()
