"""The pages a finished round changes, at 390×844 and 1366×900 in Debian's Chromium, with long names: the table
arbiter's table page (« Cette manche est finie », no way to enter a deal), his deal's page (who corrects it), the
round's public results with an irregular deal's marks not counted, and the ledger with a deal added once the results
were official. Nothing spills out of its box, no page is wider than the screen; a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import LONG, fits, login, table_for
from tests.tournaments.factories import UserFactory, role, seated_table, tarot_summary
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event.models import Round
from tournaments.links.models import RoundClosing
from tournaments.standings import tasks
from tournaments.standings.appeal import round_set_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def arbiter(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


@pytest.fixture
def finished(arbiter):
    """Round 1 of « Marie-Bernadette Delacroix-Montfort »'s table: a deal, an irregular one, then finished and
    official; then the chief's forgotten deal."""
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    tournament = table.round.tournament
    chief = UserFactory(username="chef")
    role(tournament, chief, "chief_arbiter")
    deal = deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    irregular = deal_record(table=table, record=tarot_summary(taker=0), user=arbiter)
    Deal.objects.filter(pk=irregular.pk).update(status=Deal.Status.IRREGULAR)  # its marks count no more
    ScoreRow.objects.filter(deal=irregular).update(counts=False)
    tasks.ranking_refresh(tournament.pk)  # published during play
    round_set_status(round=table.round, status="finished")
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now())
    Round.objects.filter(pk=table.round_id).update(released=True)
    deal_record(table=table, record=tarot_summary(taker=2), user=chief)
    tasks.ranking_refresh(tournament.pk)
    return table, deal


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_finished_rounds_pages_fit_with_long_names(live_server, chromium, finished, screenshots, viewport):
    table, deal = finished
    slug = table.round.tournament.slug
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(live_server.url + reverse("table_detail", args=[table.pk]))
        assert "Cette manche est finie" in page.locator("#round-closed").inner_text()
        assert page.locator(f'a[href="{reverse("deal_enter", args=[table.pk])}"]').count() == 0
        fits(page)
        page.screenshot(path=str(screenshots / f"finished-round-table-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("deal_detail", args=[deal.pk]))
        assert "l’arbitre principal la corrige" in page.locator("#who-corrects").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"finished-round-deal-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("public-round", args=[slug, 1]))
        assert "irrégulière, non comptée" in page.locator("main").inner_text()
        fits(page)
        # every player's column in sight, no sideways scroll hiding the last ones (a phone walk)
        hidden = page.evaluate("""[...document.querySelectorAll('.table-result .scroll')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => [e.scrollWidth, e.clientWidth])""")
        assert not hidden, hidden
        page.screenshot(path=str(screenshots / f"finished-round-results-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("public-ledger", args=[slug]))
        assert "Donne ajoutée" in page.locator("#ledger").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"finished-round-ledger-{size}.png"), full_page=True)


def test_the_appeal_countdown_ends_on_official_results(live_server, phone, arbiter):
    """A kept page says the hour the results become official (not a number of seconds frozen in it); the browser
    counts down, then the box says the results are official (it said « officiels dans officiels »)."""
    from datetime import timedelta

    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    round_set_status(round=table.round, status="finished")
    deadline = timezone.now() + timedelta(seconds=4)
    RoundClosing.objects.filter(round=table.round).update(official_at=deadline)
    Round.objects.filter(pk=table.round_id).update(released=True)
    tasks.ranking_refresh(table.round.tournament_id)
    phone.goto(live_server.url + reverse("public-round", args=[table.round.tournament.slug, 1]))
    box = phone.locator("#appeal-1")
    assert "officiels dans 0:0" in box.inner_text()
    phone.wait_for_function("() => document.querySelector('#appeal-1').textContent.includes('résultats officiels')",
                            timeout=15_000)
    said = box.inner_text()
    assert said.strip() == "✓ Manche 1 : résultats officiels" and "dans" not in said
    fits(phone)


def test_the_kept_page_says_the_hour_without_a_script(client, arbiter):
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    round_set_status(round=table.round, status="finished")
    closing = RoundClosing.objects.get(round=table.round)
    Round.objects.filter(pk=table.round_id).update(released=True)
    tasks.ranking_refresh(table.round.tournament_id)
    page = client.get(reverse("public-round", args=[table.round.tournament.slug, 1])).content.decode()
    hour = timezone.localtime(closing.official_at).strftime("%H:%M")
    assert f"officiels à {hour}" in page and " s</strong>" not in page


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_organizers_next_steps_fit(live_server, chromium, arbiter, screenshots, viewport):
    """The finished round's « Nouvelle manche » and the players page's way on to the round, with long names."""
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    tournament = table.round.tournament
    tournament.rounds_planned = 3
    tournament.save(update_fields=["rounds_planned"])
    role(tournament, arbiter, "organizer")  # the same account organizes: login() signs « arbitre » in
    deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    round_set_status(round=table.round, status="finished")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
        page.locator("#next-round button").scroll_into_view_if_needed()
        assert page.locator("#next-round button").inner_text() == "Nouvelle manche"
        fits(page)
        page.screenshot(path=str(screenshots / f"finished-round-next-{size}.png"))
        page.goto(live_server.url + reverse("players", args=[tournament.slug]))
        page.locator("#next-step a").scroll_into_view_if_needed()
        assert page.locator("#next-step a").inner_text() == "Manche 1 : tables et tirage"
        fits(page)
        page.screenshot(path=str(screenshots / f"players-next-step-{size}.png"))


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_ending_a_round_with_a_short_table_asks_first(live_server, chromium, arbiter, screenshots, viewport):
    """« Terminer la manche » with table 2 two deals behind: the page names it (« Table 2 : 1 donne sur 3 ») and
    asks; « Non » goes back with the round still in play, « Oui » ends it."""
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    tournament = table.round.tournament
    tournament.deals_per_round = 3
    tournament.save(update_fields=["deals_per_round"])
    role(tournament, arbiter, "organizer")
    second = seated_table(tournament, players=4, number=2)
    for i in range(3):
        deal_record(table=table, record=tarot_summary(dealer=i), user=arbiter)
    deal_record(table=second, record=tarot_summary(), user=arbiter)
    round_set_status(round=table.round, status="running")
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:
        login(page, live_server)
        page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
        page.click("button[name=status][value=finished]")
        assert "Table 2 : 1 donne sur 3" in page.locator("#short-tables").inner_text()
        assert "terminer la manche quand même ?" in page.locator("#unfinished h2").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"round-short-tables-{size}.png"), full_page=True)
        page.click("text=Non, revenir à la manche")
        table.round.refresh_from_db()
        assert table.round.status == "running"
        page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
        page.click("button[name=status][value=finished]")
        page.click("text=Oui, terminer la manche")
        page.wait_for_url(f"**{reverse('round_detail', args=[tournament.slug, 1])}")
        table.round.refresh_from_db()
        assert table.round.status == "finished"


def test_a_full_table_says_so_on_a_phone(live_server, phone, arbiter, screenshots):
    """The round's deals all entered: the table page says so instead of « Saisir une donne », with long names."""
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    tournament = table.round.tournament
    tournament.deals_per_round = 2
    tournament.save(update_fields=["deals_per_round"])
    for dealer in (0, 1):
        deal_record(table=table, record=tarot_summary(dealer=dealer), user=arbiter)
    login(phone, live_server)
    phone.goto(live_server.url + reverse("table_detail", args=[table.pk]))
    assert "Les 2 donnes de la manche sont saisies" in phone.locator("#table-full").inner_text()
    assert phone.locator(f'a[href="{reverse("deal_enter", args=[table.pk])}"]').count() == 0
    fits(phone)
    phone.screenshot(path=str(screenshots / "table-full-phone.png"), full_page=True)
