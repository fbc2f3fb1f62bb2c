"""A player on a bye (« exempt ») at 390×844 and 1366×900 in Debian's Chromium, with a long name: the public round
page, his own link, the desk's tables and the table cards say « exempt » and fit the screen; a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import fits, login
from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table
from tournaments.event.models import Round
from tournaments.links import service as links
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALONE = "Marie-Bernadette Delacroix-Montfort"


@pytest.fixture
def bye(transactional_db, settings):
    """An Écarté round: Jean-Christophe against Géraldine at table 1, Marie-Bernadette alone at « table » 2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    arbiter = UserFactory(username="arbitre")
    tournament = TournamentFactory(name="Coupe d'Écarté de la Saint-Martin", game="ecarte", options={})
    match = seated_table(tournament, players=2, names=["Jean-Christophe Vandenberghe-Lefèvre",
                                                        "Géraldine Chevalier"])
    alone = seated_table(tournament, players=1, number=2, names=[ALONE])
    role(tournament, arbiter, "organizer")
    role(tournament, arbiter, "arbiter", [match, alone])
    Round.objects.filter(pk=match.round_id).update(released=True)
    tasks.ranking_refresh(tournament.pk)
    return tournament, alone


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_bye_reads_exempt_and_fits(live_server, chromium, bye, screenshots, viewport):
    tournament, alone = bye
    size = size_name(viewport)
    link = links.link_for_entry(entry=alone.seats.get().entry)
    with french_page(chromium, viewport) as page:

        def look(url: str, name: str) -> str:
            """The page at ``url``: it fits the screen, its screenshot is taken; its main text."""
            page.goto(live_server.url + url)
            fits(page)
            page.screenshot(path=str(screenshots / f"bye-{name}-{size}.png"), full_page=True)
            return page.locator("main").inner_text()

        assert f"Exempt : {ALONE}" in look(reverse("public-round", args=[tournament.slug, 1]), "round")
        assert "Manche 1 · exempt" in look(reverse("player_home", args=[link.token]), "player-link")
        login(page, live_server)
        assert f"{ALONE} : pas de partie à cette manche" in look(reverse("my_tables"), "desk")
        assert "Exempt : pas de donne" in look(reverse("table_detail", args=[alone.pk]), "table")
        # the blank score sheets: the match only, in the game's own columns
        sheets = look(reverse("public-score-sheets", args=[tournament.slug, 1]), "sheets")
        assert "Donneur" in sheets and ALONE not in sheets
        assert f"(pas de carte de table) : {ALONE}." in look(reverse("table_cards", args=[tournament.slug, 1]), "cards")
