"""Private table and player links: what each may do, the co-signed sheet, the calls to the arbiter.

Marks expected by hand (FFT): Bruno takes a garde with 2 bouts and 49 points (41 needed): (25 + 8) × 2 = 66
per defender, the taker + 3 × 66 = +198 at four.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import UserFactory, role, seated_table, tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_correct, deal_record
from tournaments.event.models import Round, Seat
from tournaments.links import service as sheet
from tournaments.links.models import ArbiterCall, DealAnswer, DealSheet, PrivateLink, TablePolicy
from tournaments.standings.rankings import ranking_compute

pytestmark = pytest.mark.django_db


def summary_post(**over):
    """Bruno's garde, 2 bouts, 49 points, as the tap page sends it through a link (the record, form-encoded)."""
    return {"mode": "record", "record": json.dumps(tarot_summary(**over))}


@pytest.fixture
def tables_enter(tarot_table):
    return TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)


@pytest.fixture
def neighbour(tarot_table):
    """Table 2 of the same round, and table 1 of round 2 (other players)."""
    tournament = tarot_table.round.tournament
    return (seated_table(tournament, number=2, names=["Émile", "Fanny", "Gaston", "Hélène"]),
            seated_table(tournament, round_number=2, number=1, names=["Ida", "Jules", "Karim", "Léa"]))


def entries(table):
    return [s.entry for s in Seat.objects.filter(table=table).select_related("entry__player").order_by("position")]


def test_a_table_link_enters_its_own_table_without_an_account(client, tarot_table, tables_enter):
    link = sheet.link_for_table(table=tarot_table)
    assert len(link.token) >= 24
    # the table's tap page (Tarot's summary, card by card), asking and saving through the link's own URLs
    page = client.get(reverse("link_enter", args=[link.token]) + "?mode=summary").content.decode()
    config = json.loads(re.search(r'id="deal-entry-config" type="application/json">(.*?)</script>', page).group(1))
    assert config["mode"] == "summary" and config["form"]["game"] == "tarot"
    assert config["saveUrl"] == config["offlineUrl"] == reverse("link_deal_offline", args=[link.token])
    assert config["stateUrl"] == reverse("link_deal_state", args=[link.token]) and config["saveAsForm"] is True
    assert "/desk/" not in page.split('id="deal-entry-config"')[0]  # tabs and crumbs stay on the link's pages
    assert 'id="offline-entry"' in page
    declared = {"dealer": 0, "bid": {"taker": 1, "contract": "garde"}, "cards": []}
    state = client.post(config["stateUrl"], json.dumps({"fields": declared}), content_type="application/json")
    assert state.status_code == 200 and state.json()["ready"] is True and state.json()["seat"] == 1
    response = client.post(reverse("link_enter", args=[link.token]), summary_post())
    deal = Deal.objects.get(table=tarot_table)
    assert response.status_code == 302
    assert response["Location"] == reverse("link_deal", args=[link.token, deal.number])
    assert deal.created_by is None
    page = client.get(response["Location"]).content.decode()
    assert "198" in page and "-66" in page
    assert "Ana" in page and "David" in page


def test_a_table_link_enters_only_its_table_and_round(client, tarot_table, tables_enter, neighbour):
    other_table, next_round = neighbour
    link = sheet.link_for_table(table=tarot_table)
    # the staff pages of another table stay closed to the link's holder (no account: the login page)
    client.get(reverse("link_home", args=[link.token]))
    for table in (other_table, next_round):
        response = client.post(reverse("deal_enter", args=[table.pk]), summary_post())
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    # and the link's own URLs open its table only: a deal of another table is not found through it
    deal = deal_record(table=other_table, record=tarot_summary(), user=None)
    assert client.get(reverse("link_deal", args=[link.token, deal.number])).status_code == 404
    assert not Deal.objects.filter(table__in=[next_round]).exists()
    assert Deal.objects.filter(table=other_table).count() == 1


def test_a_table_link_enters_nothing_when_only_arbiters_enter_or_once_the_round_is_over(client, tarot_table):
    link = sheet.link_for_table(table=tarot_table)
    response = client.post(reverse("link_enter", args=[link.token]), summary_post())
    assert response.status_code == 403
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, tables_enter=True)
    Round.objects.filter(pk=tarot_table.round_id).update(status=Round.Status.FINISHED)
    assert client.post(reverse("link_enter", args=[link.token]), summary_post()).status_code == 403
    assert not Deal.objects.exists()


def test_a_revoked_link_is_refused_and_its_successor_works(client, tarot_table, tables_enter, staff):
    link = sheet.link_for_table(table=tarot_table)
    new = sheet.link_revoke(link=link, user=staff["organizer"])
    assert new is not None and new.token != link.token
    assert client.get(reverse("link_home", args=[link.token])).status_code == 410
    assert client.post(reverse("link_enter", args=[link.token]), summary_post()).status_code == 410
    assert client.get(reverse("link_home", args=["not-a-token"])).status_code == 404
    assert client.post(reverse("link_enter", args=[new.token]), summary_post()).status_code == 302


def test_only_the_organizer_prints_cards_and_revokes(client, tarot_table, staff):
    rnd = tarot_table.round
    url = reverse("table_cards", args=[rnd.tournament.slug, rnd.number])
    client.force_login(staff["chief"])
    assert client.get(url).status_code == 403
    client.force_login(staff["organizer"])
    page = client.get(url).content.decode()
    link = PrivateLink.objects.get(table=tarot_table, revoked_at__isnull=True)
    assert "<svg" in page and f"/k/{link.token}/" in page
    client.force_login(staff["chief"])
    assert client.post(reverse("link_revoke", args=[rnd.tournament.slug, link.pk])).status_code == 403
    client.force_login(staff["organizer"])
    client.post(reverse("link_revoke", args=[rnd.tournament.slug, link.pk]))
    link.refresh_from_db()
    assert link.revoked_at is not None and link.revoked_by == staff["organizer"]


def test_four_confirmations_make_the_deal_confirmed_and_it_then_counts(client, tarot_table):
    tournament = tarot_table.round.tournament
    TablePolicy.objects.create(tournament=tournament, unconfirmed_count=False)
    Round.objects.filter(pk=tarot_table.round_id).update(released=True)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    players = entries(tarot_table)
    marks = {line.entry: line.metric("marks") for line in ranking_compute(tournament=tournament).individual.lines}
    assert set(marks.values()) == {0}  # entered, not confirmed: nothing counts yet
    url = reverse("link_deal", args=[link.token, deal.number])
    for i, _entry in enumerate(players):
        client.post(url, {"seat": i, "answer": "confirmed"})
        state = DealSheet.objects.get(deal=deal).state
        assert state == ("confirmed" if i == 3 else "entered")
    marks = {line.entry: line.metric("marks") for line in ranking_compute(tournament=tournament).individual.lines}
    assert [marks[e.pk] for e in players] == [-66, 198, -66, -66]
    answers = DealAnswer.objects.filter(deal=deal)
    assert answers.count() == 4 and all(a.link == link and a.created_at for a in answers)


def test_a_correction_asks_the_players_again(tarot_table, staff):
    TablePolicy.objects.create(tournament=tarot_table.round.tournament, confirmations_needed=2)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    a, b = entries(tarot_table)[:2]
    sheet.deal_answer(deal=deal, entry=a, answer="confirmed")
    sheet.deal_answer(deal=deal, entry=b, answer="confirmed")
    assert DealSheet.objects.get(deal=deal).state == "confirmed"
    deal = deal_correct(deal=deal, record=tarot_summary(points=50), expected_version=1, reason="relu",
                                 user=staff["chief"])
    assert not DealSheet.objects.filter(deal=deal, version=deal.version, state="confirmed").exists()


def test_a_player_link_confirms_only_his_own_deals(client, tarot_table, neighbour):
    other_table, _ = neighbour
    ana = entries(tarot_table)[0]
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    elsewhere = deal_record(table=other_table, record=tarot_summary(), user=None)
    link = sheet.link_for_entry(entry=ana)
    url = reverse("player_answer", args=[link.token, 1, deal.number])
    assert client.post(url, {"seat": 1, "answer": "confirmed"}).status_code == 403  # Bruno's seat
    # round 1, deal 1 of a table where Ana does not sit is not hers: not found through her link
    assert elsewhere.number == deal.number and elsewhere.table.round.number == 1
    Deal.objects.filter(pk=deal.pk).update(number=7)
    assert client.post(url, {"seat": 0, "answer": "confirmed"}).status_code == 404
    Deal.objects.filter(pk=deal.pk).update(number=1)
    assert not DealAnswer.objects.exists()
    assert client.post(url, {"seat": 0, "answer": "confirmed"}).status_code == 302
    assert list(DealAnswer.objects.values_list("entry_id", "answer")) == [(ana.pk, "confirmed")]
    page = client.get(reverse("player_home", args=[link.token])).content.decode()
    assert "-66" in page and "Bruno" in page


def test_a_dispute_calls_the_arbiter_who_answers_the_table(client, tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    link = sheet.link_for_table(table=tarot_table)
    chloe = entries(tarot_table)[2]
    client.post(reverse("link_deal", args=[link.token, deal.number]), {"seat": 2, "answer": "disputed",
                                                                            "note": "Le petit au bout est à nous"})
    assert DealSheet.objects.get(deal=deal).state == "disputed"
    call = ArbiterCall.objects.get()
    assert (call.reason, call.deal, call.entry, call.state) == ("dispute", deal, chloe, "open")
    chief = UserFactory(username="chef")
    role(tarot_table.round.tournament, chief, "chief_arbiter")
    client.force_login(chief)
    slug = tarot_table.round.tournament.slug
    page = client.get(reverse("chief_page", args=[slug])).content.decode()
    assert f'id="call-{call.pk}"' in page and "Chloé" in page and "Le petit au bout est à nous" in page
    assert "à l'instant" in html.unescape(page) and "0 min" not in page  # a call just made: no « il y a 0 min »
    client.post(reverse("call_take", args=[slug, call.pk]))
    client.post(reverse("call_resolve", args=[slug, call.pk]), {"outcome": "nothing", "answer": "Feuille exacte."})
    call.refresh_from_db()
    assert (call.state, call.resolved_by, call.outcome) == ("resolved", chief, "nothing")
    assert DealSheet.objects.get(deal=deal).state == "entered"
    client.logout()
    page = client.get(reverse("link_home", args=[link.token])).content.decode()
    assert "Feuille exacte." in page
    # the sheet through the link: its deal opens through the link, and no template text leaks onto the page
    assert reverse("link_deal", args=[link.token, deal.number]) in page
    assert "{#" not in page and "{%" not in page


def test_a_table_calls_the_arbiter_with_a_reason(client, tarot_table):
    link = sheet.link_for_table(table=tarot_table)
    response = client.post(reverse("link_call", args=[link.token]), {"reason": "renonce", "note": "pli 5"})
    assert response.status_code == 302
    call = ArbiterCall.objects.get()
    assert (call.table, call.reason, call.note, call.link) == (tarot_table, "renonce", "pli 5", link)
    client.post(reverse("link_call", args=[link.token]), {"reason": "renonce"})  # a second tap: the same call
    assert ArbiterCall.objects.count() == 1


def test_the_check_without_saving_works_through_the_link(client, tarot_table, tables_enter):
    link = sheet.link_for_table(table=tarot_table)
    page = client.post(reverse("link_deal_check", args=[link.token]), summary_post()).content.decode()
    assert "198" in page and not Deal.objects.exists()


def test_the_organizer_sets_the_policy_and_prints_the_player_cards(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    client.force_login(staff["organizer"])
    response = client.post(reverse("table_links", args=[tournament.slug]),
                           {"tables_enter": "on", "confirmations_needed": "3", "appeal_minutes": "30"})
    assert response.status_code == 302
    policy = TablePolicy.objects.get(tournament=tournament)
    assert (policy.tables_enter, policy.confirmations_needed, policy.unconfirmed_count, policy.appeal_minutes) == (
        True, 3, False, 30)
    page = client.get(reverse("player_cards", args=[tournament.slug])).content.decode()
    assert page.count("<svg") == 4 and "/j/" in page
    client.force_login(staff["chief"])
    assert client.get(reverse("player_cards", args=[tournament.slug])).status_code == 403
    assert client.get(reverse("table_links", args=[tournament.slug])).status_code == 403


def test_a_players_link_at_the_tables_address_opens_his_page(client, tarot_table):
    """A player's link typed or scanned at /k/ (the table's address) went to « Lien inconnu » (the rehearsal's
    screenshots): it opens the player's page, and a table's link at /j/ the table's page."""
    player = sheet.link_for_entry(entry=entries(tarot_table)[0])
    table = sheet.link_for_table(table=tarot_table)
    response = client.get(reverse("link_home", args=[player.token]))
    assert response.status_code == 302 and response["Location"] == reverse("player_home", args=[player.token])
    response = client.get(reverse("player_home", args=[table.token]))
    assert response.status_code == 302 and response["Location"] == reverse("link_home", args=[table.token])
    assert client.get(reverse("link_home", args=["n" * 24])).status_code in (403, 404)


def _statements_of_a_second_visit(client, url: str) -> tuple[str, int]:
    """The page of ``url`` asked twice (what the first visit makes, the links, is read on the second) and the
    statements of the second."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    return page, len(queries)


def test_the_table_cards_read_the_seats_in_one_statement_whatever_the_tables(client):
    """bench/staff_pages.py found 17 statements at 40 players and 257 at 1,000: one per table for its players.
    The same statements for 2 tables as for 5."""
    from tests.integration.builders import make_round, make_tournament
    from tournaments.event.models import TournamentRole

    user = UserFactory(username="cards-orga")
    client.force_login(user)
    counts = []
    for n, slug in ((2, "cards-two"), (5, "cards-five")):
        t, e = make_tournament([f"P{i:02d}" for i in range(4 * n)], slug=slug)
        entries = list(e.values())
        make_round(t, 1, [entries[4 * k:4 * k + 4] for k in range(n)])
        TournamentRole.objects.create(tournament=t, user=user, role="organizer")
        page, statements = _statements_of_a_second_visit(client, reverse("table_cards", args=[slug, 1]))
        assert page.count("<svg") >= n and "P00" in page and f"P{4 * n - 1:02d}" in page
        counts.append(statements)
    assert counts[0] == counts[1], counts


def test_the_player_cards_read_the_links_in_one_statement_whatever_the_players(client):
    """bench/staff_pages.py found 45 statements at 40 players and 1,005 at 1,000: one per player for his link.
    The same statements for 4 players as for 12, and no link made again."""
    from tests.integration.builders import make_tournament
    from tournaments.event.models import TournamentRole
    from tournaments.links.models import PrivateLink

    user = UserFactory(username="player-cards-orga")
    client.force_login(user)
    counts = []
    for n, slug in ((4, "pcards-four"), (12, "pcards-twelve")):
        t, _ = make_tournament([f"J{i:02d}" for i in range(n)], slug=slug)
        TournamentRole.objects.create(tournament=t, user=user, role="organizer")
        page, statements = _statements_of_a_second_visit(client, reverse("player_cards", args=[slug]))
        assert page.count("<svg") >= n and "J00" in page and f"J{n - 1:02d}" in page
        assert PrivateLink.objects.filter(tournament=t, entry__isnull=False).count() == n
        counts.append(statements)
    assert counts[0] == counts[1], counts


def test_a_links_qr_code_is_made_once_whatever_the_prints(client, monkeypatch):
    """bench/staff_pages.py: the cards of 1,000 players took 4.4 s, most of it their QR codes made again at each
    print. A link's address never changes: its QR code is made once and kept; printed again, none is made."""
    from tests.integration.builders import make_tournament
    from tournaments.event.models import TournamentRole
    from tournaments.organizer import table_cards

    made: list[str] = []
    real = table_cards.qr_svg
    monkeypatch.setattr(table_cards, "qr_svg", lambda url: made.append(url) or real(url))
    user = UserFactory(username="qr-orga")
    client.force_login(user)
    t, _ = make_tournament([f"Q{i:02d}" for i in range(6)], slug="qr-once")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    first = client.get(reverse("player_cards", args=[t.slug])).content.decode()
    assert first.count("<svg") == 6 and len(made) == 6 and len(set(made)) == 6
    again = client.get(reverse("player_cards", args=[t.slug])).content.decode()
    codes = [page[page.index("<svg"):] for page in (first, again)]  # the cards (the CSRF token above changes)
    assert codes[0] == codes[1] and len(made) == 6  # the same codes, none made again


def test_a_players_page_and_his_sheets_read_the_same_statements_whatever_the_rounds(client):
    """bench/staff_pages.py: a player's page took 335 statements in a ten-round event (each deal's marks, answers,
    sheet and closing read one by one, each table's seats and policy). The same statements for 1 round as for 3
    (2 deals each), on his page and in the API's sheets."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.integration.builders import add_deal, make_round, make_tournament

    counts = []
    for rounds, slug in ((1, "sheets-one"), (3, "sheets-three")):
        t, e = make_tournament(["Ana", "Bruno", "Chloé", "David"], slug=slug)
        for number in range(1, rounds + 1):
            (table,) = make_round(t, number, [list(e.values())])
            add_deal(table, [90, -30, -30, -30], taker=0)
            add_deal(table, [-60, 20, 20, 20], taker=0)
        token = sheet.link_for_entry(entry=e["Ana"]).token
        measured = []
        for url in (reverse("player_home", args=[token]), f"/api/j/{token}/deals/"):
            assert client.get(url).status_code == 200
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200
            measured.append(len(queries))
        sheets = client.get(f"/api/j/{token}/deals/").json()
        assert [(s["round"], s["number"], s["lines"][0]["points"]) for s in sheets] == [
            (r, n, points) for r in range(1, rounds + 1) for n, points in ((1, 90), (2, -60))]
        counts.append(measured)
    assert counts[0] == counts[1], counts


def test_a_links_first_letters_are_marked_as_no_words_to_translate(client, tarot_table, staff):
    """The organizer's list shows each link's first letters: random, they read like a rule code (« ss_yqp… ») to
    the screenshot walk's check of codes and English one run in a few; marked ``translate="no"``, it leaves them."""
    link = sheet.link_for_table(table=tarot_table)
    type(link).objects.filter(pk=link.pk).update(token="ss_yqpXXXXXXXXXXXXXXXXXX")
    client.force_login(staff["organizer"])
    page = client.get(reverse("table_links", args=[tarot_table.round.tournament.slug])).content.decode()
    assert '<span class="small muted" translate="no">ss_yqp…</span>' in page


def test_the_table_card_says_what_its_link_does_under_the_tournaments_policy(client, tarot_table, staff):
    """The walk: every card said « Scannez pour saisir, confirmer vos donnes et appeler l'arbitre » though by
    default a table's link enters nothing (only the arbiters enter). The card says what the link does now, and the
    organizer's page says where to let the tables enter."""
    rnd = tarot_table.round
    url = reverse("table_cards", args=[rnd.tournament.slug, rnd.number])
    links_url = reverse("table_links", args=[rnd.tournament.slug])
    client.force_login(staff["organizer"])
    card = client.get(url).content.decode()
    assert "Scannez pour confirmer vos donnes et appeler l’arbitre." in card and "pour saisir" not in card
    assert (f"Pour que les tables saisissent leurs donnes avec ce lien, cochez « Les tables saisissent leurs donnes "
            f"avec leur lien » sur la <a href=\"{links_url}\">page des liens</a>.") in card
    TablePolicy.objects.create(tournament=rnd.tournament, tables_enter=True)
    card = client.get(url).content.decode()
    assert "Scannez pour saisir, confirmer vos donnes et appeler l’arbitre." in card
    assert "cochez" not in card


def test_the_player_cards_are_in_the_register_s_order(client, tarot_table, staff):
    """« Éléonore » among the E, « Œdipe » among the O: the database's byte order put accented names after « Zoé »."""
    from tournaments.event.models import Player

    tournament = tarot_table.round.tournament
    names = ["Zoé Adam", "Éléonore Lœvenbruck", "Œdipe Roy", "Émile Zola"]
    for seat, name in zip(Seat.objects.filter(table=tarot_table).order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.entry.player_id).update(name=name)
    client.force_login(staff["organizer"])
    page = html.unescape(client.get(reverse("player_cards", args=[tournament.slug])).content.decode())
    found = sorted(names, key=page.index)
    assert found == ["Éléonore Lœvenbruck", "Émile Zola", "Œdipe Roy", "Zoé Adam"], found


def test_the_links_page_points_to_the_round_being_played(client, tarot_table, staff):
    """Round 2 drawn ahead while round 1 starts: « Ouvrez les cartes de table de la manche 1 » (it said 2)."""
    tournament = tarot_table.round.tournament
    seated_table(tournament, players=4, round_number=2)
    client.force_login(staff["organizer"])
    page = html.unescape(client.get(reverse("table_links", args=[tournament.slug])).content.decode())
    note = page.split('id="no-links"', 1)[1].split("</p>", 1)[0]
    assert "cartes de table de la manche 1</a>" in note and reverse("table_cards", args=[tournament.slug, 1]) in note
