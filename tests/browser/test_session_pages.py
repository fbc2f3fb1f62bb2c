"""The pages the fourteenth session changed that no other browser test looks at, at 390×844 and 1366×900 in
Debian's Chromium with long names: a deal's page with its ruling's points, the seat changes, the staff page, the
public round page with a match in play (« Partie (en cours) ») and a player's page with no deal yet. Nothing spills
out of its box, no page is wider than the screen; a screenshot of each."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import french_page, size_name
from tests.browser.test_tap_entry import LONG, fits, login, table_for
from tests.integration.builders import add_deal
from tests.tournaments.factories import TournamentFactory, role, seated_table, tarot_summary
from tournaments.common import hooks
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Round, Table
from tournaments.standings import tasks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pages(transactional_db, settings):
    """A Tarot table of long names with a deal and a renonce ruled on it; an Écarté round with a match in play and
    a player alone (his page: no deal yet)."""
    from tests.tournaments.factories import UserFactory

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    arbiter = UserFactory(username="arbitre")
    table = table_for(arbiter, "tarot", {"players": 4}, LONG)
    tarot = table.round.tournament
    role(tarot, arbiter, "organizer")
    role(tarot, arbiter, "chief_arbiter")
    deal = deal_record(table=table, record=tarot_summary(taker=1), user=arbiter)
    seats = list(table.seats.order_by("position"))
    ruling_record(table=table, kind="renonce", reason="Renonce au pli 3", user=arbiter, deal=deal, is_penalty=True,
                  adjustments={str(seats[0].entry_id): -20, str(seats[1].entry_id): 20})
    ecarte = TournamentFactory(name="Coupe d'Écarté de la Saint-Martin", game="ecarte", options={"players": 2},
                               is_public=True, status="running")
    match = seated_table(ecarte, players=2, names=[LONG[0], LONG[1]])
    alone = seated_table(ecarte, players=1, number=2, names=[LONG[2]])
    add_deal(match, [2, 0])
    add_deal(match, [0, 1])
    Table.objects.filter(pk=match.pk).update(match_totals=[2, 1], match_ended=False)
    Round.objects.filter(pk=match.round_id).update(released=True)
    hooks.scores_changed(ecarte.pk)
    tasks.ranking_refresh(ecarte.pk)
    return tarot, table, deal, ecarte, alone


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_session_s_pages_fit_with_long_names(live_server, chromium, pages, screenshots, viewport):
    tarot, _table, deal, ecarte, alone = pages
    size = size_name(viewport)
    with french_page(chromium, viewport) as page:

        def look(url: str, name: str) -> str:
            page.goto(live_server.url + url)
            fits(page)
            page.screenshot(path=str(screenshots / f"session-{name}-{size}.png"), full_page=True)
            return page.locator("main").inner_text()

        assert "Partie (en cours)" in look(reverse("public-round", args=[ecarte.slug, 1]), "match-in-play")
        player = look(reverse("public-player", args=[ecarte.slug, alone.seats.get().entry_id]), "player-no-deal")
        assert "Aucune donne publiée pour l’instant." in player and "exempt" in player
        login(page, live_server)
        assert f"({LONG[0]} −20 · {LONG[1]} +20)" in look(reverse("deal_detail", args=[deal.pk]), "deal-ruling")
        assert "Absent ou parti : une table de 4 joue alors à 3" in look(
            reverse("round_changes", args=[tarot.slug, 1]), "changes")
        assert "Donner un rôle" in look(reverse("staff", args=[tarot.slug]), "staff")
