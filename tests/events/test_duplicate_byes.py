"""Duplicate Tarot with players over a multiple of four (found by a phone walk on « Donnes dupliquées »): a player
who sits out a round (« Joueurs en surnombre » = « exempts ») reads « exempt » for that round on every page that
seats the players, and a player with no étui played is never ranked « 11= … 0 % » among those who really scored
0 %: his line says « — » and comes after those who played (as the match games do for an entry that has not played),
on the ranking page, its CSV and the hall screen, his own link and his page."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.events.harness import visible_text
from tests.events.test_duplicate import play_etuis
from tests.tournaments.public.test_pdf import pages as pdf_pages
from tournaments.duplicate.models import DuplicateTable
from tournaments.event.models import Entry, Seat
from tournaments.links import service as links
from tournaments.public import tasks

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def _words(ev, who, url):
    response = ev.get(who, url, follow=True)
    assert response.status_code == 200, url
    return " ".join(visible_text(response.content.decode()).split())


def _setup(ev, short: str, boards: int = 2) -> None:
    response = ev.post("organizer", reverse("duplicate_setup", args=[ev.slug]),
                       {"boards_per_round": str(boards), "seed": f"exempt-{ev.seed}", "method": "matchpoints",
                        "score": "mean", "short": short, "tie_breaks": ""})
    assert response.status_code == 302, ev.problems(response)
    ev.touched_tables.update(DuplicateTable.objects.filter(table__round__tournament=ev.tournament)
                             .values_list("table_id", flat=True))
    ev.check("the movement and the étuis made")


def _sat_out(ev, number: int) -> list[Entry]:
    seated = set(Seat.objects.filter(table__round__tournament=ev.tournament, table__round__number=number)
                 .values_list("entry_id", flat=True))
    return [e for e in ev.tournament.entries.select_related("player").order_by("pk") if e.pk not in seated]


def _ranking_lines(ev) -> list[str]:
    """The public ranking's lines as read: « rank name … » in the order shown."""
    page = ev.get("anonymous", reverse("public-ranking", args=[ev.slug])).content.decode()
    body = page.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [" ".join(visible_text(row.split(">", 1)[1]).split()) for row in body.split("<tr")[1:]]


def _csv(ev) -> list[list[str]]:
    url = reverse("public-ranking-csv", args=[ev.slug])
    ev.get("anonymous", url)  # this state's render queued (an older state's file, or « en préparation », meanwhile)
    tasks.run_pending()
    response = ev.get("anonymous", url)
    assert response.status_code == 200
    text = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(text.decode("utf-8-sig")), delimiter=";"))


def _not_ranked_last(ev, idle: list[str]) -> None:
    """``idle`` (names) are the ranking's last lines, each « — » with no percentage; nobody else is."""
    lines = _ranking_lines(ev)
    field = ev.tournament.entries.count()
    assert len(lines) == field
    last = lines[field - len(idle):]
    for name in idle:
        (line,) = [ln for ln in last if name in ln]
        assert line.startswith(f"— {name}") and "0 %" not in line and "Aucun étui joué" in line, line
    for line in lines[:field - len(idle)]:
        assert not line.startswith("—"), line
    rows = _csv(ev)
    header = rows[0]
    body = [row for row in rows[1:] if len(row) == len(header)]
    assert header[:5] == ["Rang", "Ex aequo", "Joueur", "Club", "Résultat (%)"], header
    assert len(body) == field
    # the last lines: « — », no result (never « 0 »), as many as have played nothing; nobody else is « — »
    assert sorted(row[2] for row in body[field - len(idle):]) == sorted(idle), body
    for row in body[field - len(idle):]:
        assert row[0] == "—" and row[1] == "non" and row[4] == "—" and row[5] == "0", row
    for row in body[:field - len(idle)]:
        assert row[0] != "—" and row[4] != "—" and row[5] != "0", row
    screen = _words(ev, "anonymous", reverse("public-screen", args=[ev.slug]))
    for name in idle:
        assert f"— {name}" in screen and f"= {name}" not in screen, screen


def test_thirteen_players_one_exempt_each_round(event):
    ev = event(label="dupbye13", game="tarot", seed=1313, rounds=2, players_per_table=4)
    ev.register(13)
    ev.start()
    _setup(ev, "bye")
    r1, _r2 = ev.tournament.rounds.order_by("number")
    (bye,) = _sat_out(ev, 1)
    name = bye.player.name
    # the staff's pages of the round: she is named, « exempt », with no card
    staff = _words(ev, "organizer", reverse("round_detail", args=[ev.slug, 1]))
    assert f"{name} Pas de table à cette manche exempt" in staff
    for url in (reverse("duplicate_cards", args=[ev.slug, 1]), reverse("table_cards", args=[ev.slug, 1])):
        assert f"Exempt à cette manche (pas de carte de table) : {name}." in _words(ev, "organizer", url), url
    # her own link: round 1 « exempt », nothing to play or confirm
    link = links.link_for_entry(entry=bye)
    home = _words(ev, "anonymous", reverse("player_home", args=[link.token]))
    assert "Manche 1 · exempt Pas de table pour vous à cette manche" in home, home
    assert "Manche 2 · Table" in home and "Manche 1 · Table" not in home

    ev.round_status(r1, "running")
    # the hall's seating and the placement PDF, once the round is the public's
    seating = _words(ev, "anonymous", reverse("public-screen-seating", args=[ev.slug]))
    assert f"{name} exempt" in seating, seating
    by_name, by_table = pdf_pages(ev.clients["anonymous"], reverse("print-seating", args=[ev.slug, 1]))
    assert "".join(f"{name}exempt".split()) in by_name, by_name
    assert "Exempt1" + "".join(f"{name}{bye.player.club}".split()) in by_table, by_table  # after the tables

    play_etuis(ev, r1)
    ev.round_status(r1, "finished")
    ev.release(r1)
    # 12 players played 2 étuis each; she played none: no score at all, never 0 %
    assert ev.published("boards")[bye.pk] == 0 and ev.published("score")[bye.pk] is None
    assert sum(1 for boards in ev.published("boards").values() if boards == 2) == 12
    _not_ranked_last(ev, [name])
    round_page = _words(ev, "anonymous", reverse("public-round", args=[ev.slug, 1]))
    assert f"Exempt : {name} Pas de table pour ce joueur à cette manche" in round_page, round_page
    home = _words(ev, "anonymous", reverse("player_home", args=[link.token]))
    assert "— · Aucun étui joué" in home and "sur 13" not in home and "0 %" not in home, home
    player = ev.get("anonymous", reverse("public-player", args=[ev.slug, bye.pk])).content.decode()
    words = " ".join(visible_text(player).split())
    assert "<svg" not in player and "Manche Étuis joués Pourcentage Marques brutes 1 exempt" in words, words
    assert "pas encore classé" in words and "rang 11" not in words and "0 %" not in words, words


def test_fourteen_players_a_table_of_three_enters_nothing(event):
    ev = event(label="dupthree14", game="tarot", seed=1414, rounds=2, players_per_table=4)
    ev.register(14)
    ev.start()
    _setup(ev, "three")
    r1, _r2 = ev.tournament.rounds.order_by("number")
    sizes = {t.number: t.seats.count() for t in r1.tables.all()}
    assert sorted(sizes.values()) == [3, 3, 4, 4] and not _sat_out(ev, 1)
    idle_table = max(n for n, size in sizes.items() if size == 3)
    idle = [s.entry.player.name for s in r1.tables.get(number=idle_table).seats.select_related("entry__player")]
    ev.round_status(r1, "running")
    # every table plays its étuis but the last table of 3, which enters nothing
    kept = DuplicateTable.objects.get(table__round=r1, table__number=idle_table)
    boards = kept.boards
    DuplicateTable.objects.filter(pk=kept.pk).update(boards=[])
    play_etuis(ev, r1)
    DuplicateTable.objects.filter(pk=kept.pk).update(boards=boards)
    ev.release(r1)
    published = ev.published("boards")
    assert sorted(published.values()) == [0, 0, 0] + [2] * 11
    _not_ranked_last(ev, idle)
    # the public round page: that table's players named, no score sheet and no « Total 0 0 0 »
    words = _words(ev, "anonymous", reverse("public-round", args=[ev.slug, 1]))
    table = words.split(f"Table {idle_table} ", 1)[1].split(" Table ", 1)[0]
    assert table.startswith(" · ".join(idle) + " Aucune donne jouée à cette table : pas de total."), table
    assert "Total" not in table, table
    # their own page: no rank, no chart
    idle_entry = ev.tournament.entries.get(player__name=idle[0])
    player = ev.get("anonymous", reverse("public-player", args=[ev.slug, idle_entry.pk])).content.decode()
    words = " ".join(visible_text(player).split())
    assert "<svg" not in player and "pas encore classé" in words and "rang 12" not in words, words
