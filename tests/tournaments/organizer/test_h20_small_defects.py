"""Issue 20's smaller seams on the organizer's pages: the chief's tournament page links to his own page, the
last planned round no longer offers « Nouvelle manche », « Abandonne » asks for a confirmation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, role
from tournaments.event.models import Round

pytestmark = pytest.mark.django_db


def test_the_chief_finds_his_page_from_the_tournament(client):
    t = TournamentFactory(rounds_planned=2)
    chief = UserFactory(username="chef")
    role(t, chief, "chief_arbiter")
    client.force_login(chief)
    page = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    assert f'href="/t/{t.slug}/arbiter/"' in page and "Ma page d'arbitre en chef" in page
    arbiter = UserFactory(username="arb")
    role(t, arbiter, "arbiter")
    client.force_login(arbiter)
    page = client.get(reverse("tournament_detail", args=[t.slug])).content.decode()
    assert f'href="/t/{t.slug}/arbiter/"' not in page


def test_no_new_round_past_the_rounds_planned(client):
    t = TournamentFactory(rounds_planned=2)
    organizer = UserFactory(username="orga")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    url = reverse("tournament_detail", args=[t.slug])
    Round.objects.create(tournament=t, number=1)
    assert "Nouvelle manche" in client.get(url).content.decode()
    Round.objects.create(tournament=t, number=2)
    page = client.get(url).content.decode()
    assert "Nouvelle manche" not in page and "Les 2 manches prévues sont toutes créées." in page


def test_abandonne_asks_for_a_confirmation(client):
    t = TournamentFactory()
    EntryFactory(tournament=t, player__name="Odile")
    organizer = UserFactory(username="orga")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    page = client.get(reverse("arrivals", args=[t.slug])).content.decode()
    assert 'value="leave"' in page
    # asked by static/js/page-actions.js (an inline onclick is refused by the CSP in production)
    assert "data-ask=\"Odile abandonne le tournoi" in page and "js/page-actions" in page


def test_a_withdrawn_player_is_abandon_on_the_web_as_in_the_pdf(client):
    from tests.integration.builders import add_deal, make_round, make_tournament
    from tournaments.standings import tasks

    t, e = make_tournament("ABCD", slug="abandon")
    (table,) = make_round(t, 1, [list(e.values())])
    add_deal(table, [75, -25, -25, -25], taker=0)
    e["D"].withdrawn = True
    e["D"].save(update_fields=["withdrawn"])
    tasks.ranking_refresh(t.pk)
    ranking = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    assert "(abandon)" in ranking and "forfait" not in ranking
    player = client.get(reverse("public-player", args=[t.slug, e["D"].pk])).content.decode()
    assert "abandon" in player and "forfait" not in player


def test_the_staff_page_names_only_the_tables_drawn(client):
    from tests.integration.builders import make_round, make_tournament

    t, e = make_tournament("ABCDEFGH", slug="staff-tables")
    organizer = UserFactory(username="orga")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    before = client.get(reverse("staff", args=[t.slug])).content.decode()
    assert 'name="tables"' not in before and "Aucune table n&#x27;est encore tirée" in before
    one, two = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    after = client.get(reverse("staff", args=[t.slug])).content.decode()
    # the tables drawn, to tap: round 1's tables 1 and 2 (and no round 2)
    assert after.count('type="checkbox" name="tables"') == 2 * 2  # the role form and the account form
    assert f'value="{one.pk}"' in after and f'value="{two.pk}"' in after
    assert "Manche 1, table 2" in after and "Manche 2" not in after


def test_the_arrivals_counter_follows_each_tap(client):
    t = TournamentFactory()
    odile = EntryFactory(tournament=t, player__name="Odile")
    EntryFactory(tournament=t, player__name="Paul")
    organizer = UserFactory(username="orga")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    url = reverse("arrivals", args=[t.slug])
    assert "0 joueur arrivé sur 2" in client.get(url).content.decode()  # French: 0 in the singular
    tap = client.post(url, {"entry": odile.pk, "action": "in"}, HTTP_HX_REQUEST="true").content.decode()
    assert f'id="e{odile.pk}"' in tap  # the row
    assert 'id="count" hx-swap-oob="true"' in tap and "1 joueur arrivé sur 2" in tap  # and the counter
    tap = client.post(url, {"entry": odile.pk, "action": "out"}, HTTP_HX_REQUEST="true").content.decode()
    assert "0 joueur arrivé sur 2" in tap


def test_the_visa_queue_shows_the_contract(client, tarot_table, staff):
    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record

    deal = deal_record(table=tarot_table, user=staff["arbiter"],
                       record=tarot_summary(taker=1, contract="garde_sans", points=49))
    assert deal.status == "pending"  # a garde sans waits for the chief's visa
    client.force_login(staff["chief"])
    page = client.get(f"/t/{tarot_table.round.tournament.slug}/arbiter/").content.decode()
    visa = page.split('id="visa"')[1].split("</section>")[0]
    assert '<strong class="visa-contract">Garde sans le chien</strong>' in visa


def test_the_visa_queue_says_a_chelem_was_announced(client, tarot_table, staff):
    """RULES.md §1.3 rule 14: an announced chelem waits for the visa; the queue says why (a garde alone does not)."""
    from tests.tournaments.factories import tarot_summary
    from tournaments.deals.record import deal_record

    record = tarot_summary(taker=1, contract="garde", points=49)
    record["chelem_announced"] = True
    deal = deal_record(table=tarot_table, user=staff["arbiter"], record=record)
    assert deal.status == "pending"
    client.force_login(staff["chief"])
    page = client.get(f"/t/{tarot_table.round.tournament.slug}/arbiter/").content.decode()
    visa = page.split('id="visa"')[1].split("</section>")[0]
    assert '<strong class="visa-contract">Garde · chelem annoncé</strong>' in visa
