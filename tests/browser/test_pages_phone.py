"""The organizer's, the desk's and the public pages at phone width in Debian's Chromium (Playwright), with
screenshots in bench/out/: navigation from the tournament page to the public pages, the draw button and the
meetings report, teams and withdrawals, a forfeit, the readable deal detail, the public pages in both
languages. Nothing here fits wider than the phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.verdict import judge
from tests.integration.builders import end_match, make_round, make_tournament
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.event.models import Round
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def summary(taker: int, contract: str = "petite", points: int = 41, oudlers: int = 2, **extra) -> dict:
    return {"dealer": (taker - 1) % 4, "bid": {"taker": taker, "contract": contract, "called": None},
            "partner": None, "chelem_announced": False, "handfuls": extra.get("handfuls", []),
            "summary": {"oudlers": oudlers, "points": points, "petit_au_bout": extra.get("petit_au_bout"),
                        "chelem": None}}


def fits(page) -> None:
    """No horizontal scroll at phone width."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, f"{page.url} is {width}px wide"


def login(page, live_server, user: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", "pw-123456")
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_pages_at_phone_width(phone, live_server, screenshots, django_user_model):
    page = phone
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw-123456")
    t, e = make_tournament("ABCDEFGH", slug="open-de-lyon", teams={"Les Rois": "AE", "Excuse": "BF",
                                                                   "Petit": "CG", "Bouts": "DH"})
    t.name = "Open de Lyon"
    t.save()
    (t1, t2) = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    deal_record(table=t1, record=summary(1, "garde", 49, petit_au_bout="attack",
                                                  handfuls=[{"seat": 1, "size": "simple"}]), user=boss)
    deal_record(table=t1, record=summary(0), user=boss)
    deal_record(table=t2, record=summary(2, "garde", 35), user=boss)
    tasks.ranking_refresh(t.pk)
    Round.objects.create(tournament=t, number=2)

    # the organizer: home, the tournament page and its links to the public pages
    login(page, live_server, "boss")
    page.goto(f"{live_server.url}/")
    page.screenshot(path=str(screenshots / "nav_home_phone.png"), full_page=True)
    fits(page)
    page.goto(f"{live_server.url}/t/{t.slug}/")
    page.screenshot(path=str(screenshots / "nav_tournament_phone.png"), full_page=True)
    fits(page)
    page.click("#public-pages a:has-text('Classement')")
    page.wait_for_selector("#ranking")
    assert page.locator("#ranking tr[data-entry]").count() == 8 and page.locator("#ranking tr[data-team]").count() == 4
    page.screenshot(path=str(screenshots / "public_ranking_phone.png"), full_page=True)
    fits(page)
    page.locator("#ranking details summary").first.click()
    assert "Rang 1 sur 8" in page.locator("#ranking details").first.inner_text()
    page.screenshot(path=str(screenshots / "public_ranking_why_phone.png"), full_page=True)

    # the draw of round 2 and the meetings report
    page.goto(f"{live_server.url}/t/{t.slug}/rounds/2/")
    page.check("#draw input[value=rotation]")
    page.click("#draw button[type=submit]")
    page.wait_for_selector("#meetings")
    assert page.locator(".msg-success").count() == 1
    assert Round.objects.get(tournament=t, number=2).tables.count() == 2
    page.screenshot(path=str(screenshots / "round_draw_phone.png"), full_page=True)
    page.locator("#draw").screenshot(path=str(screenshots / "round_draw_form_phone.png"))
    assert "Brassage" in page.locator("#draw").inner_text()
    fits(page)

    # teams and withdrawals
    page.goto(f"{live_server.url}/t/{t.slug}/teams/")
    page.screenshot(path=str(screenshots / "teams_phone.png"), full_page=True)
    fits(page)

    # the deal detail, Tarot
    deal = Deal.objects.filter(table=t1).order_by("number").first()
    page.goto(f"{live_server.url}/desk/deals/{deal.pk}/")
    assert "passé de 8" in page.locator("#deal-detail").inner_text()
    page.screenshot(path=str(screenshots / "deal_detail_tarot_phone.png"), full_page=True)
    fits(page)

    # an Impériale deal's marks, and an Écarté forfeit
    imp, ie = make_tournament(["Ana", "Bruno"], game="imperiale", slug="imperiale")
    (it,) = make_round(imp, 1, [[ie["Ana"], ie["Bruno"]]])
    record = json.loads((GOLDEN / "imperiale-protected-retourne-and-end.json").read_text())
    verdict = judge(record).to_json("fr")
    imp_deal = Deal.objects.create(table=it, number=1, record=record, verdict={**verdict,
                                                                                "deals": verdict["deals"][1:2]})
    page.goto(f"{live_server.url}/desk/deals/{imp_deal.pk}/")
    assert page.locator("#deal-marks tbody tr").count() >= 3
    page.screenshot(path=str(screenshots / "deal_detail_imperiale_phone.png"), full_page=True)
    fits(page)

    ec, ee = make_tournament(["Paul", "Quentin", "Rémi", "Simon"], game="ecarte", slug="ecarte")
    a, b = make_round(ec, 1, [[ee["Paul"], ee["Quentin"]], [ee["Rémi"], ee["Simon"]]])
    end_match(b, [5, 2], 0)
    page.goto(f"{live_server.url}/desk/tables/{a.pk}/forfeit/")
    page.check("input[name=kind][value=forfeit]")
    page.check(f"input[name=absent][value='{ee['Quentin'].pk}']")
    page.fill("textarea[name=reason]", "Parti avant la partie")
    page.screenshot(path=str(screenshots / "forfeit_form_phone.png"), full_page=True)
    fits(page)
    page.click("main form.stack button[type=submit]")
    page.wait_for_selector("#forfeit")
    page.screenshot(path=str(screenshots / "forfeit_table_phone.png"), full_page=True)
    tasks.ranking_refresh(ec.pk)
    page.goto(f"{live_server.url}/p/{ec.slug}/rounds/1/")
    assert "Quentin" in page.locator(".forfeit").inner_text()
    page.screenshot(path=str(screenshots / "public_round_forfeit_phone.png"), full_page=True)
    fits(page)

    # the public pages, anonymous, then in English
    page.context.clear_cookies()
    for name, path in (("public_home", f"/p/{t.slug}/"), ("public_player", f"/p/{t.slug}/players/{e['B'].pk}/"),
                       ("public_round", f"/p/{t.slug}/rounds/1/"), ("public_screen", f"/p/{t.slug}/screen/")):
        page.goto(live_server.url + path)
        page.screenshot(path=str(screenshots / f"{name}_phone.png"), full_page=True)
        fits(page)
    page.goto(f"{live_server.url}/p/{t.slug}/ranking/")
    page.click("header.pub button[value=en]")
    page.wait_for_selector("#ranking")
    assert page.locator("#ranking thead th").first.inner_text().strip() == "Rank"
    page.screenshot(path=str(screenshots / "public_ranking_en_phone.png"), full_page=True)
    fits(page)
