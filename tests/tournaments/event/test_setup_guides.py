"""Setup that guides: the day of the tournament, the chosen game's conventions, statuses in order with a hint,
no round published while the tournament is a draft."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tournaments.common.errors import ServiceError
from tournaments.event import setup
from tournaments.event.models import Tournament
from tournaments.organizer.forms import TournamentForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = get_user_model().objects.create_superuser("orga", "o@example.org", "pw-123456")
    client.force_login(user)
    return user


def test_the_new_tournament_has_a_day_and_a_venue(client, organizer):
    response = client.post(reverse("tournament_create"), {
        "name": "Open de Rennes", "game": "tarot", "format": "individual", "rounds_planned": "3",
        "date": "2026-12-05", "start_time": "13:30", "venue": "Salle des fêtes, Rennes", "round_minutes": "75",
        "separate_clubs": "on"})
    assert response.status_code == 302
    t = Tournament.objects.get(name="Open de Rennes")
    assert (t.date, t.start_time, t.venue, t.round_minutes, t.separate_clubs) == (
        dt.date(2026, 12, 5), dt.time(13, 30), "Salle des fêtes, Rennes", 75, True)
    page = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    assert "5 décembre 2026" in page and "13h30" in page and "Salle des fêtes, Rennes" in page


def test_each_convention_is_tagged_with_the_games_it_applies_to(client, organizer):
    # from the rules' options: « five » is Tarot's, « honours » Vingt-quatre's, « mode » Triomphe's
    assert TournamentForm.games_of("tarot_five") == ["tarot"]
    assert TournamentForm.games_of("honours") == ["vingt-quatre"]
    assert TournamentForm.games_of("triomphe_mode") == ["triomphe"]
    assert TournamentForm.games_of("deals_per_round") == ["tarot"]
    assert "tarot" not in TournamentForm.games_of("target")
    page = client.get(reverse("tournament_create")).content.decode()
    tags = re.findall(r'<div class="conv" data-games="([^"]*)"', page)
    # one « Joueurs par table » per game (its own counts, issue 20) and the 8 other conventions (partners too), and
    # under the match's target one note per game that plays to a target (its unit and default: 4)
    assert len(tags) == 13 + 4 and "tarot" in tags and "vingt-quatre" in tags
    assert sorted(re.findall(r'<div class="conv" data-games="([^" ]*)"><p class="help', page)) == [
        "ecarte", "imperiale", "triomphe", "vingt-quatre"]


def test_a_status_skipped_is_refused_with_the_next_step():
    t, _ = make_tournament("ABCD", slug="steps")
    t.status = "draft"
    t.save()
    with pytest.raises(ServiceError) as exc:
        setup.tournament_set_status(tournament=t, status="running")
    assert exc.value.message == ("Un tournoi ne passe pas de « brouillon » à « en cours » directement : "
                                 "l'étape suivante est « inscriptions ouvertes ».")
    assert setup.status_path("draft", "finished") == ["draft", "open", "running", "finished"]
    setup.tournament_set_status(tournament=t, status="open")
    setup.tournament_set_status(tournament=t, status="running")
    assert t.status == "running"


def test_the_detail_page_offers_only_the_next_steps(client, organizer):
    t, _ = make_tournament("ABCD", slug="next")
    t.status = "draft"
    t.save()
    page = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    assert 'name="status" value="open"' in page and 'name="status" value="running"' not in page
    assert 'aria-current="step">brouillon' in page


def test_no_round_is_published_while_the_tournament_is_a_draft(client, organizer):
    t, e = make_tournament("ABCD", slug="draftpub")
    t.status = "draft"
    t.save()
    make_round(t, 1, [list(e.values())], released=False)
    response = client.post(reverse("round_release", args=[t.slug, 1]), follow=True)
    assert "Le tournoi est encore en brouillon" in response.content.decode()
    assert not t.rounds.get(number=1).released
    t.status = "running"
    t.save()
    client.post(reverse("round_release", args=[t.slug, 1]), {"confirm_unfinished": "1"})  # no deal yet: confirmed
    assert t.rounds.get(number=1).released


def test_the_day_through_the_api(api_client, organizer):
    api_client.force_authenticate(organizer)
    body = api_client.post("/api/tournaments/", {"name": "Open", "game": "tarot", "date": "2026-12-05",
                                                 "start_time": "13:30", "venue": "Rennes"}, format="json").json()
    assert (body["date"], body["start_time"], body["venue"], body["round_minutes"]) == (
        "2026-12-05", "13:30:00", "Rennes", 60)
    body = api_client.patch(f"/api/tournaments/{body['id']}/", {"venue": "Brest", "separate_clubs": True},
                            format="json").json()
    assert (body["venue"], body["separate_clubs"]) == ("Brest", True)
