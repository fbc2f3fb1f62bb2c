"""« de » and « que » elided before a name on the pages a phone walk read (« Ce que Anne Un conteste » on a player's
link, « appel de Anne Un » on the chief arbiter's page), and the withdrawal's question worded for anyone (« … il ne
sera plus placé » took every player for a man)."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.factories import TournamentFactory, UserFactory, role, seated_table, tarot_summary
from tournaments.deals.record import deal_record
from tournaments.event.models import Seat
from tournaments.links import service as sheet


def test_elide_before_a_vowel_only_and_in_french_only():
    from tournaments.common.elision import elide, with_name

    with translation.override("fr"):
        assert elide("Ce que Anne Un conteste", "Anne Un") == "Ce qu'Anne Un conteste"
        assert elide("appel de Anne Un", "Anne Un") == "appel d'Anne Un"
        assert elide("Que Éloïse", "Éloïse") == "Qu'Éloïse"
        assert elide("appel de Bruno", "Bruno") == "appel de Bruno"
        assert elide("la monde Anne", "Anne") == "la monde Anne"  # « de » a word of its own only
        assert elide("Ce que Hugo conteste", "Hugo") == "Ce que Hugo conteste"  # a mute h is not told by its spelling
        assert with_name("Ce que %(name)s conteste", "Yves") == "Ce qu'Yves conteste"
        assert with_name("Inscription de %(name)s", "Ana") == "Inscription d'Ana"
    with translation.override("en"):
        assert elide("called by Anne Un", "Anne Un") == "called by Anne Un"


@pytest.fixture
def disputed(db, client):
    """Anne Un disputes deal 1 from her own link; the tournament's chief arbiter."""
    tournament = TournamentFactory(game="tarot", options={"players": 4})
    table = seated_table(tournament, names=["Anne Un", "Bruno", "Chloé", "David"])
    chief = UserFactory(username="chief")
    role(tournament, chief, "chief_arbiter")
    deal_record(table=table, record=tarot_summary(), user=chief)
    anne = Seat.objects.get(table=table, position=0).entry
    link = sheet.link_for_entry(entry=anne)
    return tournament, chief, link


def test_the_player_s_link_elides_before_her_name(client, disputed):
    _tournament, _chief, link = disputed
    page = html.unescape(client.get(reverse("player_home", args=[link.token])).content.decode())
    assert "Ce qu'Anne Un conteste" in page and "Ce que Anne Un" not in page


def test_the_chief_s_page_elides_before_the_caller_s_name(client, disputed):
    tournament, chief, link = disputed
    client.post(reverse("player_answer", args=[link.token, 1, 1]),
                {"seat": 0, "answer": "disputed", "note": "49 points, pas 51"})
    client.force_login(chief)
    page = html.unescape(client.get(reverse("chief_page", args=[tournament.slug])).content.decode())
    assert "appel d'Anne Un" in page and "appel de Anne Un" not in page


def test_the_withdrawal_question_fits_anyone(db, client):
    tournament = TournamentFactory(game="tarot", options={"players": 4})
    seated_table(tournament, names=["Zoé Brûlé", "Bruno", "Chloé", "David"])
    organizer = UserFactory(username="orga")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    page = html.unescape(client.get(reverse("arrivals", args=[tournament.slug])).content.decode())
    assert "Zoé Brûlé abandonne le tournoi : plus de place aux manches suivantes. Confirmer ?" in page
    assert "il ne sera plus placé" not in page


def test_a_refusal_names_the_hand_with_the_elision():
    from tournaments.desk.refusals import describe_field

    with translation.override("fr"):
        assert describe_field("hands[1]", ["Bruno", "Anne Un"]) == "main d'Anne Un"
        assert describe_field("hands[0]", ["Bruno", "Anne Un"]) == "main de Bruno"
