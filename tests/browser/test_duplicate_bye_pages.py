"""A duplicate player over a multiple of four (« exempt » at round 1 of 13 players) at 390×844 and 1366×900 in
Debian's Chromium, with a long name: the staff's round page, the duplicate table cards, his own link, his public page
and the ranking say « exempt » or « — » and fit the screen; a screenshot of each (the hall's too)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import fits, login
from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, role
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Player, Round, Seat
from tournaments.links import service as links
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALONE = "Marie-Bernadette Delacroix-Montfort"


@pytest.fixture
def dup_bye(transactional_db, settings):
    """13 players, 2 rounds of 2 étuis, « exempts »: the one at no table in round 1 renamed Marie-Bernadette."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    arbiter = UserFactory(username="arbitre")
    tournament = TournamentFactory(name="Duplicate de la Saint-Martin", game="tarot", options={"players": 4},
                                   rounds_planned=2, status="running", is_public=True)
    for i in range(13):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="exempt", short="bye")
    seated = set(Seat.objects.filter(table__round__tournament=tournament, table__round__number=1)
                 .values_list("entry_id", flat=True))
    (entry,) = [e for e in tournament.entries.all() if e.pk not in seated]
    Player.objects.filter(pk=entry.player_id).update(name=ALONE)
    role(tournament, arbiter, "organizer")
    Round.objects.filter(tournament=tournament, number=1).update(status="running", released=True)
    tasks.ranking_refresh(tournament.pk)
    return tournament, entry


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_duplicate_bye_reads_exempt_and_fits(live_server, chromium, dup_bye, screenshots, viewport):
    tournament, entry = dup_bye
    size = size_name(viewport)
    link = links.link_for_entry(entry=entry)
    with french_page(chromium, viewport) as page:
        page.goto(live_server.url + reverse("player_home", args=[link.token]))
        main = page.locator("main").inner_text()
        # exempt, and never ranked for it (no rank before anything is played, « — » after)
        assert "Manche 1 · exempt" in main and "1er sur" not in main and "0 %" not in main
        fits(page)
        page.screenshot(path=str(screenshots / f"dup-bye-player-link-{size}.png"), full_page=True)
        # the hall screen (round 1 released: its ranking, where nobody has played an étui yet: « — » each)
        page.goto(live_server.url + reverse("public-screen-seating", args=[tournament.slug]))
        assert ALONE in page.locator("body").inner_text()
        page.screenshot(path=str(screenshots / f"dup-bye-hall-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("public-player", args=[tournament.slug, entry.pk]))
        assert "exempt" in page.locator("main").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"dup-bye-player-page-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("public-ranking", args=[tournament.slug]))
        fits(page)
        page.screenshot(path=str(screenshots / f"dup-bye-ranking-{size}.png"), full_page=True)
        login(page, live_server)
        page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
        assert ALONE in page.locator("main").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"dup-bye-round-{size}.png"), full_page=True)
        page.goto(live_server.url + reverse("duplicate_cards", args=[tournament.slug, 1]))
        assert f"(pas de carte de table) : {ALONE}." in page.locator("main").inner_text()
        fits(page)
        page.screenshot(path=str(screenshots / f"dup-bye-cards-{size}.png"), full_page=True)
