"""A player on a bye (a game of two with an odd count: alone at a table of one seat) reads « exempt » on every page
that names him, never « Table 3 … Total 0 »: no score sheet, no table card, nothing to enter at the desk, nothing
to confirm on his own link (found by a phone walk: the public round page showed his empty « table » with a total of
0, the desk offered it, his link said « Manche 1 · Table 3 · Aucune donne saisie »)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.events.harness import visible_text
from tournaments.event.models import Table
from tournaments.links import service as links

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def _words(ev, who, url):
    response = ev.get(who, url, follow=True)
    assert response.status_code == 200, url
    return " ".join(visible_text(response.content.decode()).split())


def _bye(rnd) -> tuple[Table, str]:
    table = next(t for t in rnd.tables.all() if t.seats.count() == 1)
    return table, table.seats.get().entry.player.name


def _drawn(event, *, label: str, game: str, seed: int, per_table: int, players: int, method: str):
    """An event of ``players`` started, its round 1 drawn by ``method``: (the harness, the round)."""
    ev = event(label=label, game=game, seed=seed, rounds=2, players_per_table=per_table)
    ev.register(players)
    ev.start()
    rnd = ev.round_create()
    ev.said = ev.draw(rnd, method)  # the organizer's messages after the draw
    return ev, rnd


def test_a_bye_reads_exempt_on_every_page(event):
    ev, rnd = _drawn(event, label="byes", game="ecarte", seed=5, per_table=2, players=5, method="swiss")
    bye, name = _bye(rnd)
    entry = bye.seats.get().entry
    # the draw counts the tables played at, and names the bye (it said « Tirage fait : 3 tables »)
    assert "Tirage fait : 2 tables." in ev.said and f"Exempt à cette manche : {name}." in ev.said, ev.said

    # while the round is played: the desk does not offer his « table », his own link has nothing to confirm
    desk = ev.get("organizer", reverse("my_tables"))
    assert reverse("table_detail", args=[bye.pk]) not in desk.content.decode()
    assert f"{name} : pas de partie à cette manche" in _words(ev, "organizer", reverse("my_tables"))
    link = links.link_for_entry(entry=entry)
    home = _words(ev, "anonymous", reverse("player_home", args=[link.token]))
    assert "Manche 1 · exempt" in home and f"Table {bye.number}" not in home and "Aucune donne saisie" not in home
    # the table cards: none for him, his name said once under them
    cards = _words(ev, "organizer", reverse("table_cards", args=[ev.slug, 1]))
    assert f"Exempt à cette manche (pas de carte de table) : {name}." in cards
    assert f"Table {bye.number}" not in cards
    # his « table »'s own pages (the desk's, the link's, reached by an old card or a typed address): exempt, no
    # entry, no sheet, no ruling nor forfeit to record (a walk: a green « Saisir une donne » and « Total 0 »)
    table_page = ev.get("organizer", reverse("table_detail", args=[bye.pk])).content.decode()
    assert "Exempt : pas de donne" in table_page
    assert reverse("ruling_create", args=[bye.pk]) not in table_page and 'id="scoresheet"' not in table_page
    client, token = ev.link_client(bye)
    link_page = ev.get(client, reverse("link_home", args=[token])).content.decode()
    assert f"{name} : pas de partie à cette manche" in link_page
    assert reverse("link_enter", args=[token]) not in link_page and 'id="scoresheet"' not in link_page
    # the chief's page follows no deal there; the seat changes say « exempt »; the staff page offers no such table
    chief = _words(ev, "organizer", reverse("chief_page", args=[ev.slug]))
    assert f"Table {bye.number}" not in chief
    changes = _words(ev, "organizer", reverse("round_changes", args=[ev.slug, 1]))
    assert f"{name} — exempt" in changes and f"{name} — table" not in changes
    assert f"Table {bye.number} · 1 joueur" not in changes
    staff_page = ev.get("organizer", reverse("staff", args=[ev.slug])).content.decode()
    assert f'name="tables" value="{bye.pk}"' not in staff_page
    # the staff's round page: « exempt », not « 0 donne »
    staff = _words(ev, "organizer", reverse("round_detail", args=[ev.slug, 1]))
    assert f"Table {bye.number} {name} exempt" in staff

    ev.play_round(rnd)
    ev.release(rnd)
    # the blank score sheets: none for him, and a game of two's own columns (no Tarot taker, no « Somme = 0 ? »)
    sheets = _words(ev, "organizer", reverse("public-score-sheets", args=[ev.slug, 1]))
    assert name not in sheets and "Donneur" in sheets and "Preneur" not in sheets and "Somme" not in sheets
    # the public round page and the printable results: « Exempt : name », no empty table with a total of 0
    for url in (reverse("public-round", args=[ev.slug, 1]), reverse("public-results-print", args=[ev.slug])):
        words = _words(ev, "anonymous", url)
        assert f"Exempt : {name}" in words, url
        assert f"Table {bye.number}" not in words, url
    # his page: round 1 « exempt », and no chart of no deal
    player = ev.get("anonymous", reverse("public-player", args=[ev.slug, entry.pk]))
    assert "<svg" not in player.content.decode()
    words = " ".join(visible_text(player.content.decode()).split())
    assert "Manche Points 1 exempt" in words
    # no empty « Donne après donne » table: a sentence says there is none yet
    assert "Aucune donne publiée pour l’instant." in words and 'id="per-deal"' not in player.content.decode()


def test_a_tarot_sheet_keeps_its_columns(event):
    """The blank sheets of a Tarot round: the taker's columns of the PDF, each player's column, « Somme = 0 ? »."""
    ev, _rnd = _drawn(event, label="sheets-tarot", game="tarot", seed=3, per_table=4, players=8, method="random")
    words = _words(ev, "organizer", reverse("public-score-sheets", args=[ev.slug, 1]))
    for column in ("Preneur", "Contrat", "Bouts", "Petit au bout", "Somme = 0 ?"):
        assert column in words, column
    assert words.count("Signatures :") == 2
