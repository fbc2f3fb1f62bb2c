"""Issue 20, the players: a French club's file (Windows-1252, « Nom;Prénom;Club;N° licence »), and the pages that
correct the register — edit a player, remove an entry made by mistake, merge a person registered twice — with history.

Expected values are written by hand from the file typed below: « BŒUF » in cp1252 is 42 8C 55 46 (0x8C = « Œ »);
latin-1 would read 0x8C as the control character U+008C."""

from __future__ import annotations

import io
from html import unescape

import pytest
from django.db.models import Sum
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tests.tournaments.factories import TournamentFactory, UserFactory, role
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.models import ScoreRow
from tournaments.event import players as service
from tournaments.event.models import Entry, Player, Seat
from tournaments.event.setup import csv_decode, players_import_csv

pytestmark = pytest.mark.django_db

CLUB_FILE = ("Nom;Prénom;Club;N° licence;Sexe;Date\r\n"
             "BŒUF;Marie;Cœur de Lyon;0412345;F;12/03/2024\r\n"
             "DELACROIX-MONTFORT;Marie-Bernadette;Tarot Club Nantais;0423456;F;12/03/2024\r\n"
             "LEFÈVRE;Bruno;Tarot Club Nantais;;M;12/03/2024\r\n")


# -- the import --------------------------------------------------------------------------------------

def test_a_windows_1252_club_file_keeps_the_oe_and_the_first_names():
    data = CLUB_FILE.encode("cp1252")
    assert data[data.index(b"B"):][:4] == b"B\x8cUF"  # the file as Excel writes it
    t = TournamentFactory(status="open")
    result = players_import_csv(tournament=t, text=data)
    assert result.ok, result.errors
    people = {(e.player.name, e.player.club, e.player.licence) for e in result.entries}
    assert people == {("Marie BŒUF", "Cœur de Lyon", "0412345"),
                      ("Marie-Bernadette DELACROIX-MONTFORT", "Tarot Club Nantais", "0423456"),
                      ("Bruno LEFÈVRE", "Tarot Club Nantais", "")}
    assert not any(0x80 <= ord(c) <= 0x9F for p in Player.objects.all() for c in p.name + p.club)


def test_the_columns_not_understood_are_named():
    t = TournamentFactory(status="open")
    result = players_import_csv(tournament=t, text=CLUB_FILE.encode("cp1252"))
    assert result.ignored == ["Sexe", "Date"]


def test_utf8_with_bom_and_french_headers():
    t = TournamentFactory(status="open")
    text = "Nom;Prénom;Licence;Équipe\nBŒUF;Marie;0412345;Les Excuses\n"
    result = players_import_csv(tournament=t, text=b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert result.ok and result.ignored == []
    entry = result.entries[0]
    assert (entry.player.name, entry.player.licence, entry.team.name) == ("Marie BŒUF", "0412345", "Les Excuses")


@pytest.mark.parametrize("sep", [",", "\t", ";"])
def test_the_separator_is_read_from_the_header(sep):
    t = TournamentFactory(status="open")
    text = sep.join(["Nom", "Prénom", "Club"]) + "\n" + sep.join(["DUPONT", "Jean", "Club de Lyon, section B"
                                                                  if sep != "," else "Lyon"]) + "\n"
    result = players_import_csv(tournament=t, text=text.encode("utf-8"))
    assert result.ok and result.entries[0].player.name == "Jean DUPONT"


def test_a_file_neither_utf8_nor_cp1252_is_refused_in_french():
    t = TournamentFactory(status="open")
    data = b"Nom;Club\nDUPONT;Lyon\nMARTIN\x81;Nantes\n"  # 0x81: no character in cp1252
    result = players_import_csv(tournament=t, text=data)
    assert result.errors == [{"line": 3, "field": "file", "message": (
        "le fichier n'est ni en UTF-8 ni en Windows-1252 (octet 0x81 illisible). Enregistrez-le depuis Excel en "
        "« CSV (séparateur : point-virgule) » ou en « CSV UTF-8 ».")}]
    assert t.entries.count() == 0


def test_an_excel_workbook_is_told_to_be_saved_as_csv():
    with pytest.raises(InvalidInput) as caught:
        csv_decode(b"PK\x03\x04\x14\x00 rest of a zip")
    assert "classeur Excel" in caught.value.message


def test_a_workbook_sent_to_the_page_is_a_whole_file_problem(client):
    """« C'est un classeur Excel … », not « Ligne 1 : c'est un classeur Excel » (a walk): the whole file is wrong."""
    t, _e = make_tournament([], slug="imp-xlsx")
    organizer = UserFactory(username="imp-xlsx-org")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    upload = io.BytesIO(b"PK\x03\x04\x14\x00 rest of a zip")
    upload.name = "joueurs.xlsx"
    html = client.post(reverse("players", args=[t.slug]), {"action": "csv", "file": upload}).content.decode()
    assert "<li>C'est un classeur Excel" in html.replace("&#x27;", "'") and "Ligne 1" not in html


def test_the_page_says_the_ignored_columns(client):
    t, _e = make_tournament([], slug="imp")
    organizer = UserFactory(username="imp-org")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    upload = io.BytesIO(CLUB_FILE.encode("cp1252"))
    upload.name = "joueurs.csv"
    page = client.post(reverse("players", args=[t.slug]), {"action": "csv", "file": upload}, follow=True)
    html = page.content.decode()
    assert "Colonnes ignorées : Sexe, Date." in html and "Marie BŒUF" in html


def test_the_import_names_the_likely_duplicates_it_brought(client):
    """A walk imported « Anaïs Bœuf » without a club into the season's second tournament: nothing said so at the
    import, and the championship then counted her twice. The import's message names her, with where to merge."""
    make_tournament(["Anaïs Bœuf"], slug="imp-1")
    t, _e = make_tournament([], slug="imp-2")
    organizer = UserFactory(username="imp-org-2")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    upload = io.BytesIO("Nom;Prénom;Club\r\nBŒUF;Anaïs;\r\nLEFÈVRE;Bruno;Tarot Club Nantais\r\n".encode("cp1252"))
    upload.name = "joueurs.csv"
    page = client.post(reverse("players", args=[t.slug]), {"action": "csv", "file": upload}, follow=True)
    html = unescape(page.content.decode())
    assert "2 joueurs inscrits depuis le fichier." in html
    assert ("1 doublon probable à vérifier : Anaïs BŒUF. S'il s'agit de la même personne, réunissez les fiches "
            "depuis la sienne ci-dessous.") in html
    assert Player.objects.filter(name__iexact="Anaïs Bœuf").count() == 2  # not merged by itself: no club to say so


def test_a_file_imported_twice_registers_nobody_twice(client):
    """A phone walk imported the same file twice: Anne Moreau (no licence) was entered twice. The second import
    leaves aside whoever is already entered and says so."""
    t, _e = make_tournament([], slug="imp-twice")
    organizer = UserFactory(username="imp-twice-org")
    role(t, organizer, "organizer")
    client.force_login(organizer)
    data = "Nom;Prénom;Club\r\nMOREAU;Anne;\r\nGARNIER;Chloé;Cœur de Lyon\r\n".encode("cp1252")
    for _time in range(2):
        upload = io.BytesIO(data)
        upload.name = "joueurs.csv"
        page = client.post(reverse("players", args=[t.slug]), {"action": "csv", "file": upload}, follow=True)
    assert t.entries.count() == 2
    assert "2 déjà inscrits : Anne MOREAU, Chloé GARNIER." in unescape(page.content.decode())


def test_one_person_twice_in_a_file_is_registered_once():
    t = TournamentFactory(status="open")
    text = "Nom;Prénom;Club\nDupont;Jean;Lyon\nDUPONT;jean;\nDupont;Jean;Nantes\n"
    result = players_import_csv(tournament=t, text=text)
    assert result.ok and result.already == ["Jean Dupont"]
    # another club says another person: two « Jean Dupont » of two clubs are two entries
    assert sorted((e.player.name, e.player.club) for e in t.entries.all()) == [("Jean Dupont", "Lyon"),
                                                                               ("Jean Dupont", "Nantes")]


def test_an_entered_namesake_with_another_licence_is_someone_else():
    t = TournamentFactory(status="open")
    assert players_import_csv(tournament=t, text="Nom;Licence\nJean Dupont;0411111\n").ok
    result = players_import_csv(tournament=t, text="Nom;Licence\nJEAN DUPONT;0422222\nJean Dupont;0411111\n")
    assert result.ok and result.already == ["Jean Dupont"]
    assert sorted(e.player.licence for e in t.entries.all()) == ["0411111", "0422222"]


# -- the pages: who may open them --------------------------------------------------------------------

@pytest.fixture
def event():
    t, e = make_tournament(["Anne", "Bruno", "Chloé", "David", "Marie-Bernadette Delacroix-Montfort"], slug="reg")
    users = {name: UserFactory(username=f"reg-{name}") for name in ("organizer", "chief", "outsider")}
    role(t, users["organizer"], "organizer")
    role(t, users["chief"], "chief_arbiter")
    other, _ = make_tournament(["Zoé"], slug="reg-other")
    role(other, users["outsider"], "organizer")
    return t, e, users


@pytest.mark.parametrize("name", ["player_edit", "entry_remove", "players_merge"])
def test_anonymous_visitors_log_in_first(client, event, name):
    t, e, _users = event
    url = reverse(name, args=[t.slug, e["Anne"].pk])
    response = client.post(url, {"name": "X"}) if name != "player_edit" else client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert Entry.objects.filter(pk=e["Anne"].pk).exists()


@pytest.mark.parametrize("who", ["outsider", "chief"])
@pytest.mark.parametrize("name", ["player_edit", "entry_remove", "players_merge"])
def test_only_this_tournaments_organizer(client, event, who, name):
    t, e, users = event
    client.force_login(users[who])
    url = reverse(name, args=[t.slug, e["Anne"].pk])
    response = client.get(url) if name == "player_edit" else client.post(url, {"other": e["Bruno"].pk})
    assert response.status_code == 403
    assert Entry.objects.filter(pk=e["Anne"].pk).exists() and Entry.objects.filter(pk=e["Bruno"].pk).exists()


def test_another_tournaments_entry_is_not_found_here(client, event):
    t, _e, users = event
    zoe = Entry.objects.get(tournament__slug="reg-other")
    client.force_login(users["organizer"])
    assert client.get(reverse("player_edit", args=[t.slug, zoe.pk])).status_code == 404
    assert client.post(reverse("entry_remove", args=[t.slug, zoe.pk])).status_code == 404


# -- edit ----------------------------------------------------------------------------------------------

def test_the_organizer_corrects_a_player_with_history(client, event):
    t, e, users = event
    client.force_login(users["organizer"])
    url = reverse("player_edit", args=[t.slug, e["Anne"].pk])
    assert "Corriger la fiche" in client.get(url).content.decode()
    response = client.post(url, {"name": "Anne  Moreau", "club": "Cœur de Lyon", "licence": "0499999",
                                 "reason": "faute de frappe à l'inscription"})
    assert response.status_code == 302
    player = Player.objects.get(pk=e["Anne"].player_id)
    assert (player.name, player.club, player.licence) == ("Anne Moreau", "Cœur de Lyon", "0499999")
    last = player.history.latest("history_date")
    assert (last.history_user, last.history_change_reason) == (users["organizer"], "faute de frappe à l'inscription")
    html = client.get(url).content.decode()
    assert "faute de frappe à l&#x27;inscription" in html and "reg-organizer" in html
    assert "nom : « Anne » → « Anne Moreau »" in html


def test_a_licence_taken_names_the_other_player_and_keeps_what_was_typed(client, event):
    t, e, users = event
    client.force_login(users["organizer"])
    bruno_licence = e["Bruno"].player.licence
    response = client.post(reverse("player_edit", args=[t.slug, e["Anne"].pk]),
                           {"name": "Anne Moreau", "club": "Lyon", "licence": bruno_licence, "reason": "licence FFT"})
    assert response.status_code == 400
    html = response.content.decode()
    assert f"La licence {bruno_licence} est déjà celle de Bruno" in html
    assert 'value="Anne Moreau"' in html and 'value="licence FFT"' in html
    assert Player.objects.get(pk=e["Anne"].player_id).name == "Anne"


# -- remove --------------------------------------------------------------------------------------------

def test_an_entry_made_by_mistake_is_removed_and_leaves_the_draw(client, event):
    t, e, users = event
    make_round(t, 1, [[e["Anne"], e["Bruno"], e["Chloé"], e["David"]]], released=False)
    client.force_login(users["organizer"])
    response = client.post(reverse("entry_remove", args=[t.slug, e["David"].pk]), {"reason": "inscrit par erreur"},
                           follow=True)
    assert not Entry.objects.filter(pk=e["David"].pk).exists()
    seated = list(Seat.objects.filter(table__round__tournament=t).order_by("position")
                  .values_list("entry__player__name", "position"))
    assert seated == [("Anne", 0), ("Bruno", 1), ("Chloé", 2)]
    assert "Inscription de David retirée." in response.content.decode()
    removed = Entry.history.filter(id=e["David"].pk, history_type="-").get()
    assert (removed.history_user, removed.history_change_reason) == (users["organizer"], "inscrit par erreur")


def test_a_player_who_played_a_deal_cannot_be_removed(client, event):
    t, e, users = event
    table, = make_round(t, 1, [[e["Anne"], e["Bruno"], e["Chloé"], e["David"]]])
    add_deal(table, [120, -40, -40, -40])
    client.force_login(users["organizer"])
    response = client.post(reverse("entry_remove", args=[t.slug, e["David"].pk]), {"reason": "parti"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "David a déjà joué" in html and "abandon" in html
    assert Entry.objects.filter(pk=e["David"].pk).exists() and Seat.objects.filter(entry=e["David"]).exists()


# -- merge ---------------------------------------------------------------------------------------------

def _totals(t):
    return dict(ScoreRow.objects.filter(tournament=t).values("entry_id").annotate(s=Sum("points"))
                .values_list("entry_id", "s"))


def test_a_person_registered_twice_is_merged_with_his_rounds(client, event):
    t, e, users = event
    anne, bruno, chloe, david = (e[x] for x in ("Anne", "Bruno", "Chloé", "David"))
    mb = e["Marie-Bernadette Delacroix-Montfort"]
    twice = Entry.objects.create(tournament=t, player=Player.objects.create(name="M-B Delacroix", licence=""))
    t1, = make_round(t, 1, [[anne, bruno, chloe, mb]])
    add_deal(t1, [120, -40, -40, -40])
    t2, = make_round(t, 2, [[twice, anne, bruno, chloe]])
    add_deal(t2, [-30, 90, -30, -30])
    client.force_login(users["organizer"])
    response = client.post(reverse("players_merge", args=[t.slug, mb.pk]),
                           {"other": twice.pk, "keep": "this", "reason": "inscrite deux fois à l'accueil"})
    assert response.status_code == 302
    assert not Entry.objects.filter(pk=twice.pk).exists() and not Player.objects.filter(name="M-B Delacroix").exists()
    assert set(Seat.objects.filter(entry=mb).values_list("table__round__number", flat=True)) == {1, 2}
    assert _totals(t)[mb.pk] == -40 + -30
    assert _totals(t)[anne.pk] == 120 + 90  # the others untouched
    reason = mb.history.latest("history_date").history_change_reason
    assert reason == "Fusion : M-B Delacroix réuni à cette fiche — inscrite deux fois à l'accueil"
    assert david.pk in set(Entry.objects.filter(tournament=t).values_list("pk", flat=True))


def test_merging_two_who_played_the_same_round_is_refused(client, event):
    t, e, users = event
    anne, bruno, chloe, david = (e[x] for x in ("Anne", "Bruno", "Chloé", "David"))
    table, = make_round(t, 1, [[anne, bruno, chloe, david]])
    add_deal(table, [120, -40, -40, -40])
    client.force_login(users["organizer"])
    response = client.post(reverse("players_merge", args=[t.slug, anne.pk]),
                           {"other": david.pk, "keep": "other", "reason": "même personne ?"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "David et Anne ont chacun une place à la manche 1" in html.replace("&#x27;", "'")
    assert 'value="même personne ?"' in html  # what was typed is kept
    assert _totals(t) == {anne.pk: 120, bruno.pk: -40, chloe.pk: -40, david.pk: -40}


def test_merge_service_refusals():
    t, e = make_tournament(["Anne", "Bruno"], slug="mrg")
    _other, f = make_tournament(["Zoé"], slug="mrg-2")
    with pytest.raises(InvalidInput):
        service.players_merge(kept=e["Anne"], duplicate=e["Anne"])
    with pytest.raises(InvalidInput):
        service.players_merge(kept=e["Anne"], duplicate=f["Zoé"])
    make_round(t, 1, [[e["Anne"], e["Bruno"]]], released=False)  # seated together, nothing played yet
    with pytest.raises(StateConflict) as caught:
        service.players_merge(kept=e["Anne"], duplicate=e["Bruno"])
    assert caught.value.code == "merge_same_round"


def test_merge_moves_rulings_forfeits_and_answers_to_the_kept_entry():
    """Everything that points at the duplicate follows it: a ruling's adjustments (a JSON keyed by entry) and its
    offender, a forfeit's absentees, the link answers — the rankings sum the same points on the kept entry."""
    from tournaments.deals.models import Forfeit, Ruling

    t, e = make_tournament(["Anne", "Bruno", "Chloé", "David", "Anne bis"], slug="mv")
    anne, bruno, chloe, david, bis = (e[x] for x in ("Anne", "Bruno", "Chloé", "David", "Anne bis"))
    Player.objects.filter(pk=bis.player_id).update(licence="")  # registered again without her licence
    t1, = make_round(t, 1, [[anne, bruno, chloe, david]])
    t2, = make_round(t, 2, [[bis, bruno, chloe, david]])
    add_deal(t2, [60, -20, -20, -20])
    ruling = Ruling.objects.create(tournament=t, table=t2, kind="slow_play", adjustments={str(bis.pk): -10},
                                   is_penalty=True, reason="jeu lent", offender=bis)
    ScoreRow.objects.create(tournament=t, round=t2.round, table=t2, ruling=ruling, entry=bis, points=-10)
    forfeit = Forfeit.objects.create(tournament=t, table=t1, kind="absence")
    forfeit.absent.add(david)
    service.players_merge(kept=anne, duplicate=bis, reason="même personne")
    ruling.refresh_from_db()
    assert ruling.adjustments == {str(anne.pk): -10} and ruling.offender_id == anne.pk
    assert _totals(t)[anne.pk] == 60 - 10 and bis.pk not in _totals(t)
    assert list(forfeit.absent.all()) == [david]
    with pytest.raises(StateConflict):  # Anne played round 2 now: she cannot be removed any more
        service.entry_remove(entry=anne)
