"""Seams the screenshots of the rehearsal showed (issue 20): the day's line of a tournament without a date starts
with its venue, not with « · »; French punctuation before a colon; the ranking's export links written alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_days_line_without_a_date_starts_with_the_venue(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    tournament.date, tournament.start_time, tournament.venue = None, None, "Salle des fêtes"
    tournament.save()
    client.force_login(staff["organizer"])
    page = client.get(reverse("tournament_detail", args=[tournament.slug])).content.decode()
    day = re.search(r'<p class="tournament-day">(.*?)</p>', page, re.S).group(1)
    assert day.strip() == "Salle des fêtes"
    assert "Exports :" in page and "Exports:" not in page


def test_the_rankings_export_links_are_capitalised_alike(client, tarot_table):
    tournament = tarot_table.round.tournament
    page = client.get(reverse("public-ranking", args=[tournament.slug])).content.decode()
    links = re.findall(r"<a [^>]*>([^<]+)</a>", re.search(r'<p class="exports noprint">(.*?)</p>', page, re.S)
                       .group(1))
    assert links and all(text.strip()[0].isupper() for text in links), links


def test_no_template_glues_a_colon_to_a_translated_word():
    """The walk: « Étuis, dans cet ordre: 1, 2, 3 », « Résultats arbitraux: » — a colon written after a
    ``{% translate %}`` in the template has no space in French; the colon belongs in the translated text."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    glued = [f"{path.relative_to(root)}: {line.strip()[:80]}"
             for folder in ("tournaments", "templates") for path in (root / folder).rglob("*.html")
             for line in path.read_text().splitlines()
             if re.search(r"\{% (translate|endblocktranslate)[^%]*%\}:", line)]
    assert glued == []


def test_the_draw_says_one_table_in_the_singular(client):
    from tests.integration.builders import make_tournament
    from tests.tournaments.factories import UserFactory
    from tournaments.event.models import Round

    t, _ = make_tournament(list("ABCD"), game="vingt-quatre", slug="v24-four")
    t.options = {"players": 4}
    t.save()
    Round.objects.create(tournament=t, number=1)
    client.force_login(UserFactory(is_superuser=True))
    page = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "swiss"}, follow=True).content.decode()
    assert "Tirage fait : 1 table." in page and "1 tables" not in page
    # the Swiss draw's help speaks of tables at a game of four (« paires » is for the games of two)
    assert "suisse : tables selon le classement" in page and "paires selon le classement" not in page


def test_the_chiefs_page_says_no_call_waits(client, tarot_table, staff):
    client.force_login(staff["chief"])
    page = client.get(reverse("chief_page", args=[tarot_table.round.tournament.slug])).content.decode()
    assert "Aucun appel en attente" in page and "0 appel" not in page
