"""The round's draw button, the meetings report, and the links to the public pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tests.tournaments.factories import UserFactory, role
from tournaments.event.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    t, e = make_tournament("ABCDEFGH", slug="draw")
    users = {name: UserFactory(username=f"dr-{name}") for name in ("organizer", "chief", "arbiter", "outsider")}
    role(t, users["organizer"], "organizer")
    role(t, users["chief"], "chief_arbiter")
    role(t, users["arbiter"], "arbiter")
    return t, e, users


def seated(rnd):
    return [sorted(t.seats.values_list("entry__player__name", flat=True)) for t in rnd.tables.order_by("number")]


def test_the_draw_button_seats_the_round(client, people):
    t, _e, users = people
    rnd = Round.objects.create(tournament=t, number=1)
    client.force_login(users["organizer"])
    html = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    assert f'action="{reverse("round_draw", args=[t.slug, 1])}"' in html and "disabled" not in html.split(
        'id="draw"')[1].split("</form>")[0]
    for method in ("rotation", "random", "ranking", "swiss"):
        assert f'value="{method}"' in html or method == "swiss"  # Swiss is for the 2-sided games
    response = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "random", "seed": "7"}, follow=True)
    tables = seated(rnd)
    assert [len(x) for x in tables] == [4, 4] and sorted(n for x in tables for n in x) == list("ABCDEFGH")
    page = response.content.decode()
    assert 'id="meetings"' in page


def test_the_meetings_report_names_repeated_pairs(client, people):
    t, e, users = people
    A, B, C, D, E, F, G, H = (e[x] for x in "ABCDEFGH")
    make_round(t, 1, [[A, B, C, D], [E, F, G, H]])
    make_round(t, 2, [[A, B, E, F], [C, D, G, H]])  # A–B, E–F, C–D, G–H meet again
    client.force_login(users["chief"])
    html = client.get(reverse("round_detail", args=[t.slug, 2])).content.decode()
    report = html.split('id="meetings"')[1].split("</section>")[0]
    assert "A — B" in report and "G — H" in report and report.count("<li>") == 4
    assert 'id="draw"' not in html  # the chief arbiter sees the report, not the organizer's buttons


@pytest.mark.parametrize("who, code", [("organizer", 302), ("chief", 403), ("arbiter", 403), ("outsider", 403)])
def test_only_the_organizer_draws(client, people, who, code):
    t, _e, users = people
    rnd = Round.objects.create(tournament=t, number=1)
    client.force_login(users[who])
    assert client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "rotation"}).status_code == code
    assert rnd.tables.exists() == (code == 302)


def test_a_wrong_method_is_said_not_drawn(client, people):
    t, _e, users = people
    rnd = Round.objects.create(tournament=t, number=1)
    client.force_login(users["organizer"])
    response = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "swiss"}, follow=True)
    assert not rnd.tables.exists() and "msg-error" in response.content.decode()


def test_public_links_from_the_tournament_page_and_home(client, people):
    t, e, users = people
    make_round(t, 1, [[e[x] for x in "ABCD"]])
    html = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    for name in ("public-ranking", "public-home", "public-screen", "public-ranking-csv", "public-ranking-print",
                 "public-results-csv", "public-results-print"):
        assert reverse(name, args=[t.slug]) in html, name
    assert reverse("public-round", args=[t.slug, 1]) in html
    home = client.get(reverse("home")).content.decode()
    assert reverse("public-ranking", args=[t.slug]) in home and reverse("public-screen", args=[t.slug]) in home
    client.force_login(users["organizer"])
    html = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    assert reverse("teams", args=[t.slug]) in html


def test_public_pages_link_back_and_to_players(client, people):
    from tournaments.standings import tasks

    t, e, _users = people
    make_round(t, 1, [[e[x] for x in "ABCD"]])
    tasks.ranking_refresh(t.pk)
    html = client.get(reverse("public-home", args=[t.slug])).content.decode()
    assert reverse("public-round", args=[t.slug, 1]) in html
    assert reverse("public-player", args=[t.slug, e["A"].pk]) in html
    assert reverse("tournament_detail", args=[t.slug]) in html
    ranking = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    assert reverse("public-results-csv", args=[t.slug]) in ranking
    assert reverse("public-player", args=[t.slug, e["H"].pk]) in ranking  # registered, 0 marks, listed


def test_a_refused_status_change_is_said_in_french_without_the_field_code(client, tarot_table, staff):
    from tournaments.event.models import Tournament

    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(status=Tournament.Status.DRAFT)
    tournament = Tournament.objects.get(pk=tarot_table.round.tournament_id)
    client.force_login(staff["organizer"])
    page = client.post(reverse("tournament_status", args=[tournament.slug]), {"status": "finished"}, follow=True)
    text = page.content.decode()
    assert ("Un tournoi ne passe pas de « brouillon » à « terminé » directement : l'étape suivante est "
            "« inscriptions ouvertes ».") in text.replace("&#x27;", "'")
    assert "status: un tournoi" not in text.lower()


@pytest.mark.parametrize("players, by_hand", [(48, True), (49, False)])
def test_a_big_rounds_page_has_no_list_of_every_player_in_each_seat(client, players, by_hand):
    """48 players: 12 tables entered by hand, each seat a list of the 48 (and « — »). 49: the draw and the changes
    of places instead — a list of every player in each seat was over a million choices at 1,000 players."""
    names = [f"Joueur {i:03d}" for i in range(players)]
    t, _e = make_tournament(names, slug=f"big-{players}")
    organizer = UserFactory(username=f"big-org-{players}")
    role(t, organizer, "organizer")
    Round.objects.create(tournament=t, number=1)
    client.force_login(organizer)
    html = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    seats_listed = html.count('name="t0_s0"')
    assert seats_listed == (1 if by_hand else 0)
    assert (html.count("<option") >= 12 * 4 * (players + 1)) is by_hand
    assert ("Au-delà de 48 joueurs" in html) is not by_hand
    assert "Changements de places" in html


def test_a_refused_redraw_says_why_as_a_sentence(client, people):
    """A phone walk: « des donnes ont été saisies… » started in lower case in the page's message."""
    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record

    t, e, users = people
    tables = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    deal_record(table=tables[0], record=tarot_summary(), user=users["organizer"])
    client.force_login(users["organizer"])
    response = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "random", "seed": "7"}, follow=True)
    text = response.content.decode()
    assert "Des donnes ont été saisies dans cette manche" in text and "des donnes ont été saisies" not in text


def test_once_deals_are_entered_the_page_offers_no_draw_nor_seating(client, people):
    """A phone walk: a running round with deals still showed « Tirage des tables » and the seating form, both
    refused by the services; the page now says the seating is fixed and where a player is moved."""
    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record

    t, e, users = people
    tables = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    client.force_login(users["organizer"])
    before = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    assert 'id="draw"' in before and reverse("round_seat", args=[t.slug, 1]) in before
    deal_record(table=tables[0], record=tarot_summary(), user=users["organizer"])
    after = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    assert 'id="draw"' not in after and reverse("round_seat", args=[t.slug, 1]) not in after
    assert 'id="seating-fixed"' in after and reverse("round_changes", args=[t.slug, 1]) in after
