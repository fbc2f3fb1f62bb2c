"""The players' register: the federation's licence file read and reported, a licence looked up at registration
and check-in, two players on one licence refused, a likely duplicate merged with every result kept, a player made
anonymous with his results kept. Expected values are written from the files below, by hand."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from tests.tournaments.factories import EntryFactory, PlayerFactory, TournamentFactory, tarot_summary
from tournaments.clubs.models import Licence
from tournaments.common.errors import InvalidInput
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.event import register
from tournaments.event.models import Entry, Player
from tournaments.event.setup import player_create

from ..factories import ClubFactory

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 26)

HEADER = "N° licence;Nom;Prénom;Club;Date de naissance;Catégorie/Série;Validité\r\n"


def test_a_federation_file_in_windows_1252_with_french_headers_and_its_report():
    ClubFactory(name="Tarot Club de Brest", federation_number="")
    Licence.objects.create(number="2900001", last_name="LE GALL", first_name="Maïwenn", club_name="Tarot Club de Brest",
                           valid_until=dt.date(2027, 8, 31))
    Licence.objects.create(number="2900002", last_name="KERBRAT", first_name="Yann", club_name="Tarot Club de Brest")
    text = (HEADER
            # 1. known, married: renamed (LE GALL → MORVAN), same club
            + "2900001;MORVAN;Maïwenn;Tarot Club de Brest;03/02/1980;S2;31/08/2027\r\n"
            # 2. known, moved to another club, validity a season: expired (31/08/2026 < 26/11/2026)
            + "2900002;KERBRAT;Yann;Les Excuses de Quimper;1975-06-30;S3;2025-2026\r\n"
            # 3. new, expired yesterday
            + "2900003;BŒUF;Cœur;Tarot Club de Brest;01/01/1990;S1;25/11/2026\r\n"
            # 4. and 5. the same licence twice: both refused
            + "2900004;ROPARS;Anne;;;;31/08/2027\r\n"
            + "2900004;ROPARS;Annie;;;;31/08/2027\r\n"
            # 6. unreadable birth date
            + "2900005;CALVEZ;Loïc;;31/02/19;;\r\n"
            # 7. no licence number
            + ";SANS;Numéro;;;;\r\n"
            + "\r\n").encode("cp1252")
    report = register.licences_import(text=text, today=TODAY)
    assert report.lines == 7
    assert [a["licence"] for a in report.added] == ["2900003"]
    assert [(r["licence"], r["before"], r["name"]) for r in report.renamed] == [
        ("2900001", "Maïwenn LE GALL", "Maïwenn MORVAN")]
    assert [(c["licence"], c["before"], c["club"]) for c in report.club_changed] == [
        ("2900002", "Tarot Club de Brest", "Les Excuses de Quimper")]
    assert [(e["licence"], e["valid_until"]) for e in report.expired] == [
        ("2900002", dt.date(2026, 8, 31)), ("2900003", dt.date(2026, 11, 25))]
    assert [(d["licence"], d["lines"]) for d in report.duplicates] == [("2900004", [5, 6])]
    assert [(e["line"], e["field"]) for e in report.errors] == [(7, "date de naissance"), (8, "licence")]
    assert report.imported == 3  # 7 lines - 2 duplicates - 2 unreadable
    assert not Licence.objects.filter(number__in=["2900004", "2900005"]).exists()
    boeuf = Licence.objects.get(number="2900003")
    assert (boeuf.last_name, boeuf.first_name, boeuf.category, boeuf.birth_date, boeuf.club.name) == (
        "BŒUF", "Cœur", "S1", dt.date(1990, 1, 1), "Tarot Club de Brest")
    assert Licence.objects.get(number="2900001").last_name == "MORVAN"
    assert report.summary() == ("Lignes lues : 7 — licences ajoutées : 1 ; renommées : 1 ; changements de club : 1 ; "
                                "expirées : 2 ; en double, refusées : 1 ; lignes illisibles : 2 ; joueurs mis à jour : "
                                "0.")


def test_the_file_renames_the_player_who_holds_the_licence_with_his_history():
    club = ClubFactory(name="Tarot Club de Brest", federation_number="29001")
    player = PlayerFactory(name="Maïwenn Le Gall", club="TC Brest", licence="2900001")
    tournament = TournamentFactory()
    EntryFactory(tournament=tournament, player=player)
    text = ("\ufefflicence,nom,prenom,n° club,club,date de naissance,validite\n"
            "2900001,MORVAN,Maïwenn,29001,Tarot Club de Brest,03/02/1980,31/08/2027\n")
    report = register.licences_import(text=text.encode("utf-8"), today=TODAY)
    assert report.players_updated == 1 and report.renamed[0]["before"] == "Maïwenn Le Gall"
    player.refresh_from_db()
    assert (player.name, player.club, player.home_club, player.birth_date) == (
        "Maïwenn MORVAN", "Tarot Club de Brest", club, dt.date(1980, 2, 3))
    last = player.history.order_by("-history_id").first()
    assert last.history_change_reason == "Fichier des licences du 26/11/2026"
    assert last.prev_record.name == "Maïwenn Le Gall"


def test_a_dry_run_reports_and_changes_nothing():
    text = HEADER + "2900009;NEDELEC;Gwen;;;;31/08/2027\r\n"
    report = register.licences_import(text=text, today=TODAY, dry_run=True)
    assert len(report.added) == 1 and not Licence.objects.exists()


def test_a_file_without_licence_or_name_column_is_refused_at_its_first_line():
    report = register.licences_import(text="Joueur;Club\nA;B\n", today=TODAY)
    assert report.errors == [{"line": 1, "field": "licence", "message": report.errors[0]["message"]}]
    assert "« licence » et « nom »" in report.errors[0]["message"]


def test_the_command_prints_the_report(tmp_path, capsys):
    path = tmp_path / "licences.csv"
    path.write_bytes((HEADER + "2900009;NEDELEC;Gwen;;;;31/08/2025\r\n").encode("cp1252"))
    call_command("import_licences", str(path), "--date", "2026-11-26")
    out = capsys.readouterr().out
    assert "Lignes lues : 1 — licences ajoutées : 1" in out and "expirées : 1" in out
    assert Licence.objects.get().number == "2900009"


def test_a_licence_looked_up_at_registration():
    assert register.licence_check("2900001", today=TODAY).state == "none"  # no file imported yet: no news
    Licence.objects.create(number="2900001", last_name="MORVAN", valid_until=dt.date(2026, 8, 31))
    Licence.objects.create(number="2900002", last_name="KERBRAT", valid_until=dt.date(2027, 8, 31))
    assert register.licence_check("2900001", today=TODAY).state == "expired"
    assert register.licence_check("2900001", today=TODAY).message == "Licence 2900001 expirée le 31/08/2026."
    assert register.licence_check("2900002", today=TODAY).state == "valid"
    assert register.licence_check("2999999", today=TODAY).state == "unknown"
    assert register.licence_check("", today=TODAY).state == "none"


def test_two_players_on_one_licence_are_refused():
    PlayerFactory(name="Yann Kerbrat", licence="2900002")
    with pytest.raises(InvalidInput, match="La licence 2900002 est celle d'Yann Kerbrat") as refused:
        player_create(name="Anne Ropars", licence="2900002")
    assert refused.value.field == "licence"
    # the same person, whatever the accents and case: found, not created again
    assert player_create(name="YANN KERBRAT", licence="2900002").name == "Yann Kerbrat"
    assert Player.objects.count() == 1


def test_a_player_registered_by_licence_takes_the_files_name_birth_date_and_club():
    """The walk of issue 23: players registered by their licence had no birth date and no club in the register,
    so the club's page counted 0 members, the « jeunes » and « seniors » were empty and a second record of the same
    person (same name, same birth date) was never offered for merging."""
    club = ClubFactory(name="Tarot Club de Saint-Étienne", federation_number="0420012")
    Licence.objects.create(number="0420001", last_name="DELACROIX-MONTFORT", first_name="Marie-Bernadette",
                           club_name="Tarot Club de Saint-Étienne", club=club, birth_date=dt.date(1958, 3, 14),
                           valid_until=dt.date(2027, 8, 31))
    typed = player_create(name="Marie-Bernadette Delacroix-Montfort", club="", licence="0420001")
    assert (typed.birth_date, typed.home_club, typed.club) == (
        dt.date(1958, 3, 14), club, "Tarot Club de Saint-Étienne")
    # the licence alone: the name as the file spells it, the same record found again
    assert player_create(name="", licence="0420001") == typed
    Player.objects.all().delete()
    by_number = player_create(name="", licence="0420001")
    assert (by_number.name, by_number.birth_date) == ("Marie-Bernadette DELACROIX-MONTFORT", dt.date(1958, 3, 14))
    # a second record without the licence, same name and birth date: a likely duplicate
    twin = player_create(name="Marie-Bernadette Delacroix-Montfort", birth_date=dt.date(1958, 3, 14))
    assert register.likely_duplicates(twin) == [by_number]


def test_a_licence_alone_that_the_file_does_not_know_asks_for_the_name():
    Licence.objects.create(number="0420001", last_name="DELACROIX-MONTFORT")
    with pytest.raises(InvalidInput, match="La licence 0420099 n'est pas dans le fichier des licences") as refused:
        player_create(name=" ", licence="0420099")
    assert refused.value.field == "name"
    with pytest.raises(InvalidInput) as nameless:
        player_create(name="", licence="")
    assert nameless.value.field == "name"


def test_entry_flags_at_check_in():
    Licence.objects.create(number="2900001", last_name="MORVAN", valid_until=dt.date(2026, 8, 31))
    t = TournamentFactory()
    expired = EntryFactory(tournament=t, player=PlayerFactory(name="Maïwenn Morvan", licence="2900001"))
    unknown = EntryFactory(tournament=t, player=PlayerFactory(name="Loïc Calvez", licence="2999999"))
    born = dt.date(1975, 6, 30)
    twin = EntryFactory(tournament=t, player=PlayerFactory(name="Yann Kerbrat", licence="", birth_date=born))
    other = PlayerFactory(name="Yann KERBRÂT", licence="2900002", birth_date=born)  # another event's record
    PlayerFactory(name="Yann Kerbrat", licence="", birth_date=dt.date(1975, 6, 29))  # not the same day
    flags = register.entry_flags([expired, unknown, twin], today=TODAY)
    assert [f["kind"] for f in flags[expired.pk]] == ["expired"]
    assert [f["kind"] for f in flags[unknown.pk]] == ["unknown"]
    assert [f["kind"] for f in flags[twin.pk]] == ["duplicate"] and flags[twin.pk][0]["players"] == [other]
    assert register.likely_duplicates(twin.player) == [other]


def test_merging_two_records_keeps_every_result_with_its_history(tarot_table):
    """Ana played tarot_table's tournament under one record; she played another tournament under another record
    (with her licence): merged, both tournaments' entries are hers, the deal's score rows untouched."""
    deal_record(table=tarot_table, record=tarot_summary(), user=None)
    ana_entry = tarot_table.seats.get(position=0).entry
    ana = ana_entry.player
    born = dt.date(1980, 2, 3)
    ana.birth_date, ana.licence = born, ""  # registered without her licence
    ana.save()
    other_record = PlayerFactory(name="ANA", licence="2900077", birth_date=born, club="TC Brest")
    elsewhere = EntryFactory(tournament=TournamentFactory(), player=other_record)
    rows_before = list(ScoreRow.objects.order_by("pk").values_list("entry_id", "points"))
    assert register.likely_duplicates(ana) == [other_record]
    kept = register.players_records_merge(kept=ana, duplicate=other_record, reason="même personne")
    assert kept.pk == ana.pk and kept.licence == "2900077" and kept.club in (ana.club, "TC Brest")
    assert set(Entry.objects.filter(player=ana).values_list("pk", flat=True)) == {ana_entry.pk, elsewhere.pk}
    assert not Player.objects.filter(pk=other_record.pk).exists()
    assert list(ScoreRow.objects.order_by("pk").values_list("entry_id", "points")) == rows_before
    moved = Entry.history.filter(id=elsewhere.pk).order_by("-history_id").first()
    assert moved.player_id == ana.pk and moved.history_change_reason.startswith("Fusion : ANA (licence 2900077)")
    assert moved.prev_record.player_id == other_record.pk


def test_merging_two_records_of_one_tournament_merges_their_entries(tarot_table):
    tournament = tarot_table.round.tournament
    ana = tarot_table.seats.get(position=0).entry.player
    again = PlayerFactory(name="Ana", licence="")
    EntryFactory(tournament=tournament, player=again)
    register.players_records_merge(kept=ana, duplicate=again)
    assert tournament.entries.filter(player__name="Ana").count() == 1


def test_a_player_made_anonymous_keeps_his_results(tarot_table):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=None)
    seat = tarot_table.seats.get(position=1)
    bruno = seat.entry.player
    bruno.licence, bruno.birth_date = "2900002", dt.date(1975, 6, 30)
    bruno.save()
    Licence.objects.create(number="2900002", last_name="BRUNO", birth_date=dt.date(1975, 6, 30))
    points = list(ScoreRow.objects.filter(entry=seat.entry).values_list("points", flat=True))
    assert "Bruno" in Deal.objects.get(pk=deal.pk).record["players"]
    register.player_anonymize(player=bruno, reason="courriel du 20/11")
    bruno.refresh_from_db()
    assert bruno.name == f"Joueur anonyme n° {bruno.pk}"
    assert (bruno.club, bruno.licence, bruno.birth_date, bruno.home_club) == ("", "", None, None)
    assert bruno.anonymized_at is not None
    # nothing of him left in his history, nor in the register, nor in the deals' records
    assert set(bruno.history.values_list("name", "licence", "birth_date")) == {(bruno.name, "", None)}
    assert not Licence.objects.exists()
    assert Deal.objects.get(pk=deal.pk).record["players"][1] == bruno.name
    assert all("Bruno" not in h.record["players"] for h in Deal.history.filter(id=deal.pk))
    # his results stay
    assert list(ScoreRow.objects.filter(entry=seat.entry).values_list("points", flat=True)) == points
    assert Entry.objects.filter(player=bruno).count() == 1


def test_the_command_makes_a_player_anonymous(capsys):
    player = PlayerFactory(name="Loïc Calvez", licence="2900005")
    call_command("anonymize_player", "2900005", "--reason", "lettre")
    player.refresh_from_db()
    assert player.name.startswith("Joueur anonyme") and "anonyme" in capsys.readouterr().out


def test_the_file_keeps_the_clubs_spelling_of_a_name_it_writes_in_capitals():
    """The walk: a re-import turned « Éloïse Œillet » into the file's « Éloïse ŒILLET » for every holder of a
    licence, listed nowhere (« joueurs mis à jour : 10 »). The same name in capitals is no change of name: the
    player keeps his spelling; a real change is listed as renamed and written."""
    player = PlayerFactory(name="Éloïse Œillet", club="TC Brest", licence="2900002")
    text = HEADER + "2900002;ŒILLET;Éloïse;TC Brest;;;31/08/2027\r\n"
    report = register.licences_import(text=text.encode("utf-8"), today=TODAY)
    player.refresh_from_db()
    assert player.name == "Éloïse Œillet" and report.renamed == [] and report.players_updated == 0
