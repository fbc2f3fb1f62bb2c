"""The server-rendered pages: who may open what, and the entry desk's answers (Django's test client).

Expected marks are computed by hand from RULES.md §1.10-1.11 (FFT), never by running the scorer.
"""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from django.urls import reverse

from rules.cards import card_name, parse_card
from tests.tournaments.factories import (
    TournamentFactory,
    UserFactory,
    role,
    tap_correct,
    tap_save,
    tarot_illegal_deal,
)
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Bruno", "Chloé", "David"]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Users are made by the dozen here: a fast hasher keeps the suite quick (the real one is tested by Django)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def login(client, user):
    client.force_login(user)
    return client


def summary_fields(taker=1, contract="garde", oudlers=2, points=49, **over):
    """The Tarot summary as the tap page sends it: Bruno takes a garde, 2 bouts, 49 points, Ana deals."""
    fields = {"dealer": 0, "bid": {"taker": taker, "contract": contract}, "chelem_announced": False,
              "summary": {"oudlers": oudlers, "points": points}}
    fields.update(over)
    return fields


def record_post(**over):
    """The expert entry's JSON record of that summary, as its form posts it."""
    return {"mode": "record", "record": json.dumps(summary_fields(**over))}


def page_config(page):
    """The tap page's description of the deal (the JSON its script is given)."""
    found = re.search(r'<script id="deal-entry-config" type="application/json">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


def problems_text(response):
    return " ".join(f"{p['message']} {p.get('where', '')}" for p in response.json()["problems"])


def marks(deal):
    return {row.entry.player.name: row.points
            for row in ScoreRow.objects.filter(deal=deal, ruling__isnull=True).select_related("entry__player")}


# -- access per role ---------------------------------------------------------------------------------

def test_home_lists_public_tournaments_for_anonymous_and_all_of_theirs_for_staff(client, tarot_table, staff):
    draft = TournamentFactory(name="Brouillon secret", status=Tournament.Status.DRAFT, is_public=False)
    role(draft, staff["organizer"], "organizer")
    page = client.get(reverse("home")).content.decode()
    assert tarot_table.round.tournament.name in page
    assert "Brouillon secret" not in page
    page = login(client, staff["organizer"]).get(reverse("home")).content.decode()
    assert "Brouillon secret" in page


@pytest.mark.parametrize(("who", "expected"), [
    (None, 302), ("outsider", 403), ("other_arbiter", 403), ("arbiter", 200), ("chief", 200), ("organizer", 200),
])
def test_deal_entry_page_per_role(client, tarot_table, staff, who, expected):
    if who:
        login(client, staff[who])
    response = client.get(reverse("deal_play", args=[tarot_table.pk]))
    assert response.status_code == expected
    if expected == 302:
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("who", "expected"), [
    (None, 302), ("outsider", 403), ("arbiter", 403), ("other_arbiter", 403), ("chief", 200), ("organizer", 200),
])
def test_correction_and_ruling_pages_are_for_referees(client, tarot_table, staff, who, expected):
    deal = _saved_deal(tarot_table, staff["organizer"])
    if who:
        login(client, staff[who])
    assert client.get(reverse("deal_correct_play", args=[deal.pk])).status_code == expected
    assert client.get(reverse("deal_correct", args=[deal.pk]) + "?mode=record").status_code == expected
    assert client.get(reverse("ruling_create", args=[tarot_table.pk])).status_code == expected
    approve = client.post(reverse("deal_approve", args=[deal.pk]))
    assert approve.status_code == (302 if expected == 200 or who is None else 403)


@pytest.mark.parametrize(("who", "expected"), [
    (None, 302), ("outsider", 403), ("arbiter", 403), ("chief", 403), ("organizer", 200),
])
def test_organizer_pages_per_role(client, tarot_table, staff, who, expected):
    slug = tarot_table.round.tournament.slug
    if who:
        login(client, staff[who])
    assert client.get(reverse("players", args=[slug])).status_code == expected
    assert client.get(reverse("staff", args=[slug])).status_code == expected
    rounds_before = Round.objects.count()
    response = client.post(reverse("round_create", args=[slug]))
    assert response.status_code == (302 if expected == 200 or who is None else 403)
    assert Round.objects.count() == rounds_before + (1 if expected == 200 else 0)


def test_unreleased_round_is_hidden_from_the_public_then_released(client, tarot_table, staff):
    url = reverse("table_detail", args=[tarot_table.pk])
    assert client.get(url).status_code == 302  # anonymous: log in first
    assert login(client, staff["outsider"]).get(url).status_code == 404  # hidden: like a missing page
    client.logout()
    rnd = tarot_table.round
    login(client, staff["organizer"]).post(reverse("round_release", args=[rnd.tournament.slug, rnd.number]),
                                           {"confirm_unfinished": "1"})  # no deal yet: confirmed
    client.logout()
    page = client.get(url)
    assert page.status_code == 200
    assert "Ana" in page.content.decode()
    assert "Saisir une donne" not in page.content.decode()  # the public reads, never enters


def test_my_tables_lists_the_tables_assigned(client, tarot_table, staff):
    page = login(client, staff["arbiter"]).get(reverse("my_tables")).content.decode()
    assert reverse("table_detail", args=[tarot_table.pk]) in page
    page = login(client, staff["other_arbiter"]).get(reverse("my_tables")).content.decode()
    assert reverse("table_detail", args=[tarot_table.pk]) not in page


# -- the entry desk ------------------------------------------------------------------------------------

def _saved_deal(table, user, **over):
    from tournaments.deals.record import deal_record

    fields = {"dealer": 0, "bid": {"taker": 1, "contract": "garde", "called": None}, "handfuls": [],
              "chelem_announced": False,
              "summary": {"oudlers": 2, "points": 49, "petit_au_bout": None, "chelem": None}}
    fields.update(over)
    return deal_record(table=table, record=fields, user=user)


def test_every_game_is_entered_and_corrected_on_the_tap_pages(client, tarot_table, staff):
    """Tarot too: the entry and correction pages send to the tap pages; the JSON record stays behind Expert."""
    login(client, staff["chief"])
    entry = client.get(reverse("deal_enter", args=[tarot_table.pk]))
    assert entry.status_code == 302 and entry.url == reverse("deal_play", args=[tarot_table.pk])
    quick = client.get(reverse("deal_enter", args=[tarot_table.pk]) + "?mode=summary")
    assert quick.url == reverse("deal_play", args=[tarot_table.pk]) + "?mode=summary"
    page = client.get(quick.url).content.decode()
    config = page_config(page)
    assert config["mode"] == "summary" and config["form"]["game"] == "tarot"
    assert "?mode=record" in page and 'aria-current="page">Résumé' in page
    deal = _saved_deal(tarot_table, staff["arbiter"])
    correction = client.get(reverse("deal_correct", args=[deal.pk]))
    assert correction.status_code == 302 and correction.url == reverse("deal_correct_play", args=[deal.pk])


def test_summary_entry_saves_and_shows_the_scores(client, tarot_table, staff):
    login(client, staff["arbiter"])
    response = tap_save(client, tarot_table, summary_fields())
    assert response.status_code == 201
    deal = Deal.objects.get(table=tarot_table)
    # garde (×2), 2 bouts → 41 needed, 49 made: won by 8 → (25 + 8) × 2 = 66 per defender, taker +3 × 66
    assert marks(deal) == {"Ana": -66, "Bruno": 198, "Chloé": -66, "David": -66}
    page = client.get(response.json()["url"]).content.decode()
    assert "198" in page and "-66" in page


def test_summary_with_poignee_chelem_and_petit_au_bout(client, tarot_table, staff):
    """Bruno's garde with 2 bouts and 49 points, a simple poignée (20) shown by Ana, petit au bout to the attack
    (RULES.md §1.11: the poignée goes to the side that wins the deal, whoever showed it):
    S = (25 + 8) × 2 + 10 × 2 + 20 = 106 per defender, the taker 3 × 106 = 318."""
    login(client, staff["arbiter"])
    fields = summary_fields(handfuls=[{"seat": 0, "size": "simple"}])
    fields["summary"]["petit_au_bout"] = "attack"
    response = tap_save(client, tarot_table, fields)
    assert response.status_code == 201, response.content
    deal = Deal.objects.get(table=tarot_table)
    assert marks(deal) == {"Ana": -106, "Bruno": 318, "Chloé": -106, "David": -106}


def test_rejected_summary_says_why(client, tarot_table, staff):
    login(client, staff["arbiter"])
    response = tap_save(client, tarot_table, summary_fields(taker=2, points=95))
    assert response.status_code == 422
    assert not Deal.objects.exists()
    assert "91" in problems_text(response)  # the service's message: more points than the pack holds


def test_trick_by_trick_revoke_names_trick_seat_and_card(client, tarot_table, staff):
    fields, trick, seat, card = tarot_illegal_deal(7)
    login(client, staff["arbiter"])
    response = tap_save(client, tarot_table, fields)
    assert response.status_code == 422
    text = problems_text(response)
    assert f"Pli {trick + 1}" in text
    assert PLAYERS[seat] in text
    assert card_name(parse_card(card), "fr") in text  # the card by its French name
    assert not Deal.objects.exists()


def test_bad_card_code_is_refused_naming_the_trick(client, tarot_table, staff):
    login(client, staff["arbiter"])
    fields = {"dealer": 0, "bid": {"taker": 1, "contract": "garde"},
              "tricks": [["KS", "2S", "3S", "4S"], ["KS", "ZZ", "1S", "2S"]]}
    response = tap_save(client, tarot_table, fields)
    text = problems_text(response)
    assert response.status_code == 422 and "ZZ" in text and "Pli 2" in text
    assert not Deal.objects.exists()


def test_garde_sans_by_a_table_arbiter_waits_for_the_chief_arbiter(client, tarot_table, staff):
    login(client, staff["arbiter"])
    response = tap_save(client, tarot_table, summary_fields(contract="garde_sans"))
    assert response.status_code == 201
    deal = Deal.objects.get(table=tarot_table)
    assert deal.status == Deal.Status.PENDING
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert "visa" in page
    assert reverse("deal_approve", args=[deal.pk]) not in page  # no approve button for a table arbiter
    client.logout()
    login(client, staff["chief"])
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert reverse("deal_approve", args=[deal.pk]) in page
    client.post(reverse("deal_approve", args=[deal.pk]))
    deal.refresh_from_db()
    assert deal.status == Deal.Status.VALID


def test_correction_needs_a_reason_and_keeps_both_versions(client, tarot_table, staff):
    deal = _saved_deal(tarot_table, staff["arbiter"])
    login(client, staff["chief"])
    page = client.get(reverse("deal_correct_play", args=[deal.pk]) + "?mode=summary").content.decode()
    start = page_config(page)["initial"]["values"]
    assert start["summary.points"] == 49 and start["bid.taker"] == 1  # the page starts from the saved record
    response = tap_correct(client, deal, summary_fields(points=39), version=1, reason="")
    assert response.status_code == 422
    deal.refresh_from_db()
    assert deal.version == 1
    response = tap_correct(client, deal, summary_fields(points=39), version=1, reason="Points recomptés")
    assert response.status_code == 200
    deal.refresh_from_db()
    assert deal.version == 2
    # 39 with 2 bouts: lost by 2 → (25 + 2) × 2 = 54 per defender, taker −162
    assert marks(deal) == {"Ana": 54, "Bruno": -162, "Chloé": 54, "David": 54}
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert "Points recomptés" in page
    assert "Version 1" in page and "Version 2" in page


def test_stale_correction_is_refused(client, tarot_table, staff):
    deal = _saved_deal(tarot_table, staff["arbiter"])
    login(client, staff["chief"])
    tap_correct(client, deal, summary_fields(points=39), version=1, reason="first")
    response = tap_correct(client, deal, summary_fields(points=45), version=1, reason="second, based on version 1")
    assert response.status_code == 409
    deal.refresh_from_db()
    assert deal.version == 2


def test_ruling_transfers_points_and_can_annul(client, tarot_table, staff):
    deal = _saved_deal(tarot_table, staff["arbiter"])
    seats = {s.entry.player.name: s.entry_id for s in tarot_table.seats.select_related("entry__player")}
    login(client, staff["chief"])
    url = reverse("ruling_create", args=[tarot_table.pk]) + f"?deal={deal.pk}"
    bad = client.post(url, {"kind": "renonce", "reason": "Renonce au pli 3", f"adj_{seats['Ana']}": "-20"})
    assert bad.status_code == 422  # a transfer must sum to zero
    assert not Ruling.objects.exists()
    ok = client.post(url, {"kind": "renonce", "reason": "Renonce au pli 3", f"adj_{seats['Ana']}": "-30",
                           f"adj_{seats['Bruno']}": "30", "deal": deal.pk})
    assert ok.status_code == 302
    annul = client.post(url, {"kind": "misdeal", "reason": "Maldonne", "annuls_deal": "on", "deal": deal.pk})
    assert annul.status_code == 302
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED


# -- organizer -----------------------------------------------------------------------------------------

def test_organizer_creates_registers_seats_and_releases(client, db):
    user = UserFactory(username="orga")
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    login(client, user)
    response = client.post(reverse("tournament_create"), {
        "name": "Open de Lyon", "game": "tarot", "players_per_table": "4", "format": "individual",
        "rounds_planned": "2", "deals_per_round": "5", "is_public": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Open de Lyon")
    assert tournament.options == {"players": 4}
    players_url = reverse("players", args=[tournament.slug])
    client.post(players_url, {"action": "add", "name": "Ana", "club": "Lyon", "licence": "A1"})
    upload = io.BytesIO("nom;club;licence\nBruno;Lyon;B2\nChloé;Vienne;C3\nDavid;Lyon;D4\n".encode())
    upload.name = "joueurs.csv"
    client.post(players_url, {"action": "csv", "file": upload})
    assert tournament.entries.count() == 4
    client.post(reverse("round_create", args=[tournament.slug]))
    rnd = tournament.rounds.get(number=1)
    ids = list(tournament.entries.order_by("player__name").values_list("id", flat=True))
    seat = {f"t0_s{p}": str(eid) for p, eid in enumerate(ids)}
    client.post(reverse("round_seat", args=[tournament.slug, 1]), seat)
    assert rnd.tables.count() == 1
    assert list(rnd.tables.get().seats.order_by("position").values_list("entry_id", flat=True)) == ids
    client.post(reverse("tournament_status", args=[tournament.slug]), {"status": "open"})
    client.post(reverse("round_release", args=[tournament.slug, 1]), {"confirm_unfinished": "1"})  # no deal yet
    rnd.refresh_from_db()
    assert rnd.released


def test_csv_errors_are_listed_and_nothing_is_imported(client, tarot_table, staff):
    login(client, staff["organizer"])
    before = tarot_table.round.tournament.entries.count()
    upload = io.BytesIO(b"name,club\n,Lyon\n")
    upload.name = "bad.csv"
    page = client.post(reverse("players", args=[tarot_table.round.tournament.slug]),
                       {"action": "csv", "file": upload}).content.decode()
    assert "2" in page and 'class="violations"' in page
    assert tarot_table.round.tournament.entries.count() == before


# -- languages -----------------------------------------------------------------------------------------

def test_french_by_default_and_english_on_request(client, tarot_table, staff):
    login(client, staff["arbiter"])
    url = reverse("deal_play", args=[tarot_table.pk])
    page = client.get(url).content.decode()
    assert '<html lang="fr">' in page
    assert page_config(page)["strings"]["save"] == "Vérifier et enregistrer"
    client.post(reverse("set_language"), {"language": "en", "next": url})
    page = client.get(url).content.decode()
    assert '<html lang="en">' in page
    assert page_config(page)["strings"]["save"] == "Check and save"
    # the game module's description in English too (issue 19: the English page was French wherever the text came
    # from the game modules); the contracts keep their French names
    assert [f["label"] for f in page_config(page)["form"]["phases"][0]["fields"]][1:3] == ["Taker", "Contract"]


def test_violation_message_in_english_when_chosen(client, tarot_table, staff):
    fields, trick, _seat, _card = tarot_illegal_deal(11)
    login(client, staff["arbiter"])
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    text = problems_text(tap_save(client, tarot_table, fields))
    assert f"Trick {trick + 1}" in text
    assert f"Pli {trick + 1}" not in text


def test_expert_json_entry_is_prefilled_with_the_table(client, tarot_table, staff):
    login(client, staff["arbiter"])
    page = client.get(reverse("deal_enter", args=[tarot_table.pk]) + "?mode=record").content.decode()
    assert "levee.deal/1" in page and "Chloé" in page
    bad = client.post(reverse("deal_enter", args=[tarot_table.pk]), {"mode": "record", "record": "{not json"})
    assert bad.status_code == 200 and "JSON" in bad.content.decode()


def test_check_without_saving_shows_the_marks_or_the_problem(client, tarot_table, staff):
    login(client, staff["arbiter"])
    url = reverse("deal_check", args=[tarot_table.pk])
    page = client.post(url, record_post(), HTTP_HX_REQUEST="true").content.decode()
    assert "198" in page and "-66" in page
    page = client.post(url, record_post(points=95), HTTP_HX_REQUEST="true").content.decode()
    assert 'class="violations"' in page and "91" in page
    assert not Deal.objects.exists()
    client.logout()
    login(client, staff["other_arbiter"])
    assert client.post(url, record_post()).status_code == 403


# -- the historical games: the JSON record, pre-filled ------------------------------------------------

@pytest.mark.parametrize(("game", "count", "field"), [
    ("ecarte", 2, '"exchanges"'), ("imperiale", 2, '"announcements"'), ("triomphe", 3, '"turn_up"'),
    ("vingt-quatre", 5, '"sequences"'),
])
def test_historical_game_entry_is_a_prefilled_record(client, game, count, field):
    tournament = TournamentFactory(game=game, options={"players": count})
    from tests.tournaments.factories import seated_table

    table = seated_table(tournament, players=count, names=PLAYERS[:count] + ["Émile"] * (count > 4))
    user = UserFactory(username=f"arb-{game}")
    role(tournament, user, "chief_arbiter")
    login(client, user)
    # the desk's entry is the tap-to-play page; the JSON record stays behind the Expert tab
    response = client.get(reverse("deal_enter", args=[table.pk]))
    assert response.status_code == 302 and response.url == reverse("deal_play", args=[table.pk])
    play = client.get(response.url).content.decode()
    assert "?mode=record" in play and "?mode=summary" in play and 'id="deal-entry-config"' in play
    page = html.unescape(client.get(reverse("deal_enter", args=[table.pk]) + "?mode=record").content.decode())
    assert "levee.deal/1" in page and f'"game": "{game}"' in page and field in page


def test_ecarte_deal_entered_as_json_is_saved_with_its_marks(client):
    import json
    import random

    from rules.ecarte import random_record
    from tests.tournaments.factories import own_fields, seated_table

    tournament = TournamentFactory(game="ecarte", options={"players": 2})
    table = seated_table(tournament, players=2, names=["Ana", "Bruno"])
    user = UserFactory(username="arb-ecarte")
    role(tournament, user, "arbiter", [table])
    fields = own_fields(random_record(random.Random(3), players=2))
    response = login(client, user).post(reverse("deal_enter", args=[table.pk]),
                                        {"mode": "record", "record": json.dumps(fields)})
    assert response.status_code == 302, response.content.decode()[:3000]
    deal = Deal.objects.get(table=table)
    points = marks(deal)
    assert set(points) == {"Ana", "Bruno"}
    # a deal of Écarté gives points to one side only: 1 or 2 (the vole), plus the king or a refusal point
    assert sorted(points.values())[0] == 0 and 1 <= max(points.values()) <= 4
    # a revoke typed into the JSON is refused with its trick: swap the first trick's follower card
    bad = dict(fields)
    bad["tricks"] = [list(t) for t in fields["tricks"]]
    bad["tricks"][0][1] = "ZZ"
    page = client.post(reverse("deal_enter", args=[table.pk]),
                       {"mode": "record", "record": json.dumps(bad)}).content.decode()
    assert "Pli 1" in page and 'class="violations"' in page
    assert Deal.objects.filter(table=table).count() == 1


def test_the_points_hint_follows_the_table_size(client, tarot_table, staff):
    """Half points exist at 3 and 5 players only (RULES.md §1.11, A-T7): the hint says so at a table of four."""

    def points_field(table):
        page = client.get(reverse("deal_play", args=[table.pk]) + "?mode=summary").content.decode()
        summary = next(p for p in page_config(page)["form"]["phases"] if p["kind"] == "summary")
        return next(f for f in summary["fields"] if f["name"] == "summary.points")

    login(client, staff["chief"])
    four = points_field(tarot_table)
    assert four["step"] == 1 and "un nombre entier à quatre joueurs" in four["help"]
    three_t = TournamentFactory(game="tarot", options={"players": 3})
    from tests.tournaments.factories import seated_table

    three = seated_table(three_t, players=3)
    role(three_t, staff["chief"], "chief_arbiter")
    field = points_field(three)
    assert field["step"] == 0.5 and "demi-points permis (40,5)" in field["help"]


def test_the_entry_form_sent_twice_saves_one_deal(client, tarot_table, staff):
    """A double tap on « Enregistrer » (or a reload that posts again) sends the form's key twice: one deal."""
    login(client, staff["arbiter"])
    url = reverse("deal_enter", args=[tarot_table.pk])
    page = client.get(url + "?mode=record").content.decode()
    key = re.search(r'name="entry_key" value="([^"]+)"', page).group(1)
    first = client.post(url, {**record_post(), "entry_key": key})
    second = client.post(url, {**record_post(), "entry_key": key})
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Deal.objects.filter(table=tarot_table).count() == 1
    assert "déjà enregistrée" in client.get(second["Location"]).content.decode()
    # the same form changed and sent again: refused in French, with a new key to save it as a new deal
    third = client.post(url, {**record_post(points=60), "entry_key": key})
    assert third.status_code == 422 and Deal.objects.filter(table=tarot_table).count() == 1
    text = third.content.decode()
    assert "déjà enregistré une donne" in text and f'value="{key}"' not in text
    # a new form: a new key, a new deal
    fresh = client.get(url + "?mode=record").content.decode()
    assert re.search(r'name="entry_key" value="([^"]+)"', fresh).group(1) != key
