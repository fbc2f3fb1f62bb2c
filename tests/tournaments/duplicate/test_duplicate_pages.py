"""The pages of a duplicate tournament say étuis and percentages where the table and the public look: a table's
private link (the étui to play next, the étui of each deal, the percentage after a deal), the seating with each
seat's orientation, the round page without a manual seating, the versions entered through a link, a player's
public page and the round results (a QA walk of a fresh clone)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tests.tournaments.factories import EntryFactory, TournamentFactory, tarot_summary
from tournaments.deals import selectors
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Table
from tournaments.links import service as sheet
from tournaments.links.models import TablePolicy

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """16 players, 4 tables of 4, 2 étuis a round: table 2 of round 1 plays étui 2, then étui 1 (relay)."""
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=2, status="running",
                                   is_public=True)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="test")
    return tournament


def _table(tournament, round_no, number):
    return Table.objects.get(round__tournament=tournament, round__number=round_no, number=number)


def _text(html: str) -> str:
    """The page's words, tags dropped and spaces folded (a no-break space is a space)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html).replace("\xa0", " ").replace("&nbsp;", " "))


def _h1(html: str) -> str:
    return _text(html.split("<h1", 1)[1].split(">", 1)[1].split("</h1>", 1)[0]).strip()


def test_a_table_link_names_the_etui_to_play_and_the_etui_of_each_deal(event, client):
    # the walk: the link's page said nothing of étuis; after saving, « Donne 1 » only, no percentage
    table = _table(event, 1, 2)
    TablePolicy.objects.create(tournament=event, tables_enter=True)
    link = sheet.link_for_table(table=table)
    home = client.get(reverse("link_home", args=[link.token])).content.decode()
    names = selectors.table_players(table)  # Nord, Est, Sud, Ouest: the seats in order
    # the dealer by his orientation and his name (a walk: « donné par Nord » told the table nobody)
    assert f"À suivre : étui 2, donné par Est ({names[1]})." in _text(home)
    assert "/desk/" not in home.split('id="dup-next"', 1)[1].split("</section>", 1)[0]  # no staff page offered
    expert = client.get(reverse("link_enter", args=[link.token]) + "?mode=record").content.decode()
    assert _h1(expert) == "Étui 2 · Donne 1"
    saved = client.post(reverse("link_enter", args=[link.token]),
                        {"mode": "record", "record": json.dumps(tarot_summary(dealer=1)), "after": "0"})
    assert saved.status_code == 302
    page = client.get(saved["Location"]).content.decode()
    assert _h1(page).startswith("Étui 2 · Donne 1")
    words = _text(page)
    assert "Étui 2 — 1 table pour l’instant" in words  # the first table on étui 2: alone, 50 % each
    assert words.count("50 %") == 4
    home = _text(client.get(reverse("link_home", args=[link.token])).content.decode())
    assert f"À suivre : étui 1, donné par Nord ({names[0]})." in home
    assert "Étui 2 · Donne 1" in home  # the deal to confirm names its étui
    # the round over: nothing « à suivre » beside « Cette manche est finie »
    type(table.round).objects.filter(pk=table.round_id).update(status="finished")
    assert 'id="dup-next"' not in client.get(reverse("link_home", args=[link.token])).content.decode()


def _seat(table, position):
    from tournaments.event.models import Seat

    return Seat.objects.select_related("entry__player").get(table=table, position=position).entry.player.name


def test_the_hall_screen_gives_each_seat_its_orientation_once_the_round_has_started(event, client):
    # the walk: round 2 « prévue » already on the hall screen, and the table without the orientation
    from tournaments.event.models import Round

    url = reverse("public-screen-seating", args=[event.slug])
    assert client.get(url).status_code == 302  # round 1 planned: its seating is not the public's yet
    Round.objects.filter(tournament=event, number=1).update(status=Round.Status.RUNNING)
    page = _text(client.get(url).content.decode())
    east, north = _seat(_table(event, 1, 2), 1), _seat(_table(event, 1, 3), 0)
    assert f"{east} table 2 · Est" in page and f"{north} table 3 · Nord" in page
    assert "Manche 1 : où suis-je assis ?" in page


def test_the_seating_pdf_gives_the_orientation_and_waits_for_the_round_to_start(event, client):
    from django.contrib.auth import get_user_model

    from tests.tournaments.public.test_pdf import pages, sq
    from tournaments.event.models import Round, TournamentRole
    from tournaments.public import tasks

    url = reverse("print-seating", args=[event.slug, 1])
    assert client.get(url).status_code == 404  # planned: not the public's
    organizer = get_user_model().objects.create_user("orga-seating", password="x")
    TournamentRole.objects.create(tournament=event, user=organizer, role="organizer")
    client.force_login(organizer)
    tasks.forget()
    by_name, by_table = pages(client, url)  # the organizer prints it before the round starts
    east = _seat(_table(event, 1, 2), 1)
    assert sq(f"{east} 2 Est") in by_name
    assert sq(f"Table 2 Nord {_seat(_table(event, 1, 2), 0)}") in by_table
    assert sq(f"Est {east}") in by_table
    client.logout()
    Round.objects.filter(tournament=event, number=1).update(status=Round.Status.RUNNING)
    assert client.get(url).status_code in (200, 202)


def _organizer(tournament, username="orga-dup"):
    from tests.tournaments.factories import UserFactory, role

    user = UserFactory(username=username)
    role(tournament, user, "organizer")
    return user


def test_the_duplicate_round_page_offers_no_manual_seating_and_the_service_refuses_it(event, client):
    # the walk: « Tables saisies à la main » and « Enregistrer le placement » under « placées par le mouvement »
    from rest_framework.test import APIClient

    from tournaments.duplicate.models import DuplicateTable

    client.force_login(_organizer(event))
    page = client.get(reverse("round_detail", args=[event.slug, 1])).content.decode()
    assert "placées par le mouvement" in page
    assert "Tables saisies à la main" not in page and "Enregistrer le placement" not in page
    assert reverse("round_seat", args=[event.slug, 1]) not in page
    before = list(DuplicateTable.objects.filter(table__round__tournament=event, table__round__number=1)
                  .values_list("table_id", "boards"))
    entries = list(event.entries.order_by("pk").values_list("pk", flat=True))
    posted = client.post(reverse("round_seat", args=[event.slug, 1]),
                         {f"t0_s{p}": entries[p] for p in range(4)}, follow=True)
    words = _text(posted.content.decode())
    assert "Tournoi en donnes dupliquées : le mouvement place les tables de chaque manche" in words
    api = APIClient()
    api.force_authenticate(_organizer(event, "orga-api"))
    rnd = event.rounds.get(number=1)
    refused = api.post(f"/api/rounds/{rnd.pk}/seating/", {"tables": [entries[:4], entries[4:8]]}, format="json")
    assert refused.status_code == 409 and refused.json()["error"] == "seated_by_movement"
    assert "le mouvement place les tables" in refused.json()["message"]
    after = list(DuplicateTable.objects.filter(table__round__tournament=event, table__round__number=1)
                 .values_list("table_id", "boards"))
    assert after == before  # the movement's tables and étuis untouched


def test_the_round_page_lists_names_in_french_order(client):
    # the walk: « Élisabeth-Charlotte … » after « Zoé Ä » (the database's order, accents last)
    from tests.integration.builders import make_tournament

    names = ["Zoé Ä", "Élisabeth-Charlotte de La Tour-Maubourg", "Bruno Roux", "Anne Petit"]
    tournament, _entries = make_tournament(names, slug="ordre")
    tournament.rounds.create(number=1)
    client.force_login(_organizer(tournament, "orga-ordre"))
    page = client.get(reverse("round_detail", args=[tournament.slug, 1])).content.decode()
    form = page.split('id="by-hand"', 1)[1]
    first_select = form.split("</select>", 1)[0]
    shown = [n for n in re.findall(r"<option[^>]*>([^<(]+)", first_select) if n.strip() not in ("—", "")]
    assert [n.strip() for n in shown] == ["Anne Petit", "Bruno Roux", "Élisabeth-Charlotte de La Tour-Maubourg",
                                          "Zoé Ä"]


def test_the_meetings_report_lists_names_in_french_order(client):
    # 12 players at 3 tables: meetings repeat from round 2; each pair and the pairs in French order
    names = ["Zoé Ä", "Élisabeth-Charlotte de La Tour-Maubourg", "Bruno Roux", "Anne Petit", "Yves Blanc",
             "Édouard Noir", "Céline Vert", "Damien Gris", "Odile Rose", "Paul Brun", "Xavier Roy", "Hélène Ott"]
    by_hand = ["Anne Petit", "Bruno Roux", "Céline Vert", "Damien Gris", "Édouard Noir",
               "Élisabeth-Charlotte de La Tour-Maubourg", "Hélène Ott", "Odile Rose", "Paul Brun", "Xavier Roy",
               "Yves Blanc", "Zoé Ä"]
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=3)
    for name in names:
        EntryFactory(tournament=tournament, player__name=name)
    duplicate_create(tournament=tournament, boards_per_round=2, seed="ordre")
    client.force_login(_organizer(tournament, "orga-meetings"))
    page = client.get(reverse("round_detail", args=[tournament.slug, 2])).content.decode()
    report = page.split('id="meetings"', 1)[1].split("</section>", 1)[0]
    pairs = re.findall(r"<li>(.+?) — (.+?) :", report)
    assert pairs
    rank = {name: i for i, name in enumerate(by_hand)}
    assert all(rank[a] < rank[b] for a, b in pairs)
    assert pairs == sorted(pairs, key=lambda p: (rank[p[0]], rank[p[1]]))


def test_a_version_entered_through_a_table_link_names_the_link(event, client):
    # the walk: the deal's history read « 27/11/2026 10:14 · — · « saisie » »
    table = _table(event, 1, 2)
    TablePolicy.objects.create(tournament=event, tables_enter=True)
    link = sheet.link_for_table(table=table)
    client.get(reverse("link_home", args=[link.token]))
    client.post(reverse("link_enter", args=[link.token]),
                {"mode": "record", "record": json.dumps(tarot_summary(dealer=1)), "after": "0"})
    from tournaments.deals.models import Deal

    deal = Deal.objects.get(table=table)
    client.logout()
    client.force_login(_organizer(event, "orga-versions"))
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    versions = _text(page.split("<h2>Versions</h2>", 1)[1])
    assert "· lien de la table 2 · « saisie »" in versions and "· — ·" not in versions
    api = client.get(f"/api/deals/{deal.pk}/versions/")
    assert api.status_code == 200 and api.json()[0]["user"] is None  # the API keeps its own fields


def test_the_ledger_names_the_table_link_of_a_deal_added_through_it(event):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.deals.record import deal_record
    from tournaments.links.models import RoundClosing
    from tournaments.standings import appeal

    table = _table(event, 1, 3)
    link = sheet.link_for_table(table=table)
    past = timezone.now() - timedelta(hours=1)
    RoundClosing.objects.create(round=table.round, finished_at=past, official_at=past)
    deal_record(table=table, record=tarot_summary(dealer=2), user=None, link=link, idempotency_key="k-ledger")
    (added,) = [e for e in appeal.ledger(event) if e.kind == "added"]
    assert added.who == "lien de la table 3"


def _play_round_one(event):
    """Round 1 played at its 4 tables. Étui 1 (North deals): East takes a garde with 2 bouts and 49, 45, 36, 56
    points at tables 1 to 4: East 198, 174, -180, 240 (each defender -66, -58, 60, -80). Étui 2 (East deals): East's
    garde, 2 bouts, 49 points everywhere: +198, each defender -66 (everyone 50 %)."""
    from tournaments.deals.record import deal_record

    points = {1: 49, 2: 45, 3: 36, 4: 56}
    for number in range(1, 5):
        table = _table(event, 1, number)
        for board in table.duplicate.boards:
            summary = tarot_summary(taker=1, points=points[number], dealer=0) if board == 1 else tarot_summary(
                taker=1, points=49, dealer=1)
            deal_record(table=table, record=summary, user=None)


def _release(event, number=1):
    from tournaments.event.setup import round_release
    from tournaments.public import tasks
    from tournaments.standings import tasks as standings_tasks

    round_release(round=event.rounds.get(number=number), confirm_unfinished=True)
    standings_tasks.ranking_refresh(event.pk)
    tasks.forget()


def test_a_duplicate_players_page_says_percentages_and_names_the_etuis(event, client):
    # the walk: « Total : -34 · rang 6 (ex aequo) » beside « Rang 6 sur 12 : 50 points (donnes dupliquées) »
    _play_round_one(event)
    _release(event)
    table = _table(event, 1, 1)
    east = table.seats.get(position=1).entry
    page = client.get(reverse("public-player", args=[event.slug, east.pk])).content.decode()
    words = _text(page)
    # étui 1: 198 against 240, 174, -180 → 4 of 6, 66,67 %; étui 2: all level, 50 % → mean 58,33 %, level with
    # the three defenders of table 2 (-58 on étui 1: 66,67 %; 50 %) → rank 5 shared; raw marks 198 + 198 = 396
    assert "58,33 % · rang 5 (ex aequo) · marques brutes : 396" in words
    assert "Rang 5 sur 16 : 58,33 % de moyenne (donnes dupliquées)." in words
    assert "points (donnes dupliquées)" not in words and "Total :" not in words
    per_round = _text(page.split('id="per-round"', 1)[1].split("</table>", 1)[0])
    assert "1 2 58,33 % 396" in per_round  # round, étuis played, mean percentage, raw marks
    per_deal = _text(page.split('id="per-deal"', 1)[1].split("</table>", 1)[0])
    assert "1 1 1 1 66,67 % 198 198" in per_deal  # round, table, étui, deal, %, marks, running marks
    assert "1 1 2 2 50 % 198 396" in per_deal


def test_the_duplicate_ranking_csv_says_percent(event, client):
    _play_round_one(event)
    _release(event)
    from tournaments.public import tasks

    url = reverse("public-ranking-csv", args=[event.slug])
    first = client.get(url)
    if first.status_code == 202:
        tasks.run_pending()
    text = b"".join(client.get(url).streaming_content).decode("utf-8-sig")
    header = text.splitlines()[0].split(";")
    assert header[4] == "Résultat (%)" and header[6] == "Meilleur étui (%)"
    assert "points (donnes dupliquées)" not in text and "75 % de moyenne (donnes dupliquées)" in text


def test_duplicate_round_results_name_the_etui_and_say_an_artificial_result(event, client):
    # the walk: raw marks with no étui number, and a deal replaced by 40 % / 60 % still showing its raw 192
    from tournaments.duplicate.service import artificial_result_set

    _play_round_one(event)
    table = _table(event, 1, 1)
    seats = list(table.seats.order_by("position"))
    for seat in seats:
        artificial_result_set(table=table, etui_number=1, entry_id=seat.entry_id,
                              kind="minus" if seat.position == 1 else "plus", reason="carte exposée", user=None)
    _release(event)
    page = client.get(reverse("public-round", args=[event.slug, 1])).content.decode()
    first = page.split("<section", 2)[1]
    words = _text(first)
    assert "Étui 1 · donne 1" in words and "Étui 2 · donne 2" in words
    assert "Donne 1 (étui 1) : résultat arbitral 60 % / 40 % / 60 % / 60 %, la donne jouée ne compte pas" in words
    assert "198" not in words.split("Étui 2")[0]  # its raw marks are not shown as if they counted
    # the total counts étui 2 only: East 198, the others -66
    assert "Total -66 198 -66 -66" in words
    # and East's own page: 40 % on étui 1 (its 198 in brackets, out of the raw marks), 50 % on étui 2 → 45 %
    east = seats[1].entry
    words = _text(client.get(reverse("public-player", args=[event.slug, east.pk])).content.decode())
    assert "45 % · rang" in words and "marques brutes : 198" in words
    assert "1 1 1 1 40 % (résultat arbitral) (198) 0" in words and "1 1 2 2 50 % 198 198" in words


def test_the_results_pdf_rows_are_etuis(event):
    """The round's results PDF heads each row with its étui, as the web page does (it said « Donne 1 » where the
    table had played étui 2: the printout could not be compared étui by étui)."""
    from django.template.loader import render_to_string

    from tournaments.deals.record import deal_record
    from tournaments.public import queries

    table = _table(event, 1, 2)  # its first deal is étui 2, dealt by Est
    deal_record(table=table, record=tarot_summary(dealer=1), user=None)
    rnd = table.round
    page = render_to_string("print/round_results.html", {
        "tournament": event, "round": rnd, "tables": queries.round_results(rnd), "byes": ["Anaïs Bœuf"]})
    row = page.split("Table 2", 1)[1].split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert "Étui 2" in row and ">1<" not in row.split("</td>", 1)[0]
    assert "Exempt : Anaïs Bœuf" in page
